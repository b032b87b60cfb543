"""
The signatures of OpenVINO's opset functions (`openvino.opsetN`'s `add`, `convolution`, ...)
for the op types lowpass reads: `runtime/opset.py` makes `lowpass.opsetN`'s functions from
them. Each row is (function, the opset that defines this form of it, the IR layer type, its
parameters in OpenVINO's order): `name` an input (`*name` a list of inputs), `@name` an
attribute (`@name:ir` where its `<data>` attribute in the IR has another name), `=value` a
default (a Python literal). Taken from OpenVINO's Python API (openvino 2026.4,
`openvino/opsetN/ops.py`), each form listed at the first opset that exports it; a function
builds its op at the version of that opset (`opset13.gather` is Gather-8).
test/python/test_runtime_opset.py compares them with the installed openvino's functions
where it is installed.
"""

from __future__ import annotations

FUNCTIONS: tuple[tuple[str, int, str, str], ...] = (
    ("absolute", 1, "Abs", "node"),
    ("add", 1, "Add", "left_node right_node @auto_broadcast='NUMPY'"),
    ("avg_pool", 1, "AvgPool",
     "data_batch @strides @pads_begin @pads_end @kernel_shape:kernel "
     "@exclude_pad:exclude-pad @rounding_type='floor' @auto_pad=None"),
    ("batch_norm_inference", 1, "BatchNormInference", "data gamma beta mean variance @epsilon"),
    ("broadcast", 1, "Broadcast", "data target_shape axes_mapping=None @mode='NUMPY'"),
    ("ceiling", 1, "Ceiling", "node"),
    ("clamp", 1, "Clamp", "data @min_value:min @max_value:max"),
    ("concat", 1, "Concat", "*nodes @axis"),
    ("convert", 1, "Convert", "data @destination_type"),
    ("convolution", 1, "Convolution",
     "data filters @strides @pads_begin @pads_end @dilations "
     "@auto_pad='EXPLICIT'"),
    ("convolution_backprop_data", 1, "ConvolutionBackpropData",
     "data filters @strides output_shape=None @pads_begin=None "
     "@pads_end=None @dilations=None @auto_pad=None @output_padding=None"),
    ("cos", 1, "Cos", "node"),
    ("depth_to_space", 1, "DepthToSpace", "node @mode @block_size=1"),
    ("divide", 1, "Divide", "left_node right_node @auto_broadcast='NUMPY'"),
    ("elu", 1, "Elu", "data @alpha"),
    ("equal", 1, "Equal", "left_node right_node @auto_broadcast='NUMPY'"),
    ("erf", 1, "Erf", "node"),
    ("exp", 1, "Exp", "node"),
    ("fake_quantize", 1, "FakeQuantize",
     "data input_low input_high output_low output_high @levels "
     "@auto_broadcast='NUMPY'"),
    ("floor", 1, "Floor", "node"),
    ("floor_mod", 1, "FloorMod", "left_node right_node @auto_broadcast='NUMPY'"),
    ("gather", 1, "Gather", "data indices axis"),
    ("greater", 1, "Greater", "left_node right_node @auto_broadcast='NUMPY'"),
    ("greater_equal", 1, "GreaterEqual", "left_node right_node @auto_broadcast='NUMPY'"),
    ("group_convolution", 1, "GroupConvolution",
     "data filters @strides @pads_begin @pads_end @dilations "
     "@auto_pad='EXPLICIT'"),
    ("hard_sigmoid", 1, "HardSigmoid", "data alpha beta"),
    ("less", 1, "Less", "left_node right_node @auto_broadcast='NUMPY'"),
    ("less_equal", 1, "LessEqual", "left_node right_node @auto_broadcast='NUMPY'"),
    ("log", 1, "Log", "node"),
    ("logical_and", 1, "LogicalAnd", "left_node right_node @auto_broadcast='NUMPY'"),
    ("logical_not", 1, "LogicalNot", "node"),
    ("logical_or", 1, "LogicalOr", "left_node right_node @auto_broadcast='NUMPY'"),
    ("logical_xor", 1, "LogicalXor", "left_node right_node @auto_broadcast='NUMPY'"),
    ("lrn", 1, "LRN", "data axes @alpha=1 @beta=0.5 @bias=1 @size=5"),
    ("lstm_cell", 1, "LSTMCell",
     "X initial_hidden_state initial_cell_state W R B @hidden_size "
     "@activations=None @activations_alpha=None @activations_beta=None "
     "@clip=0.0"),
    ("matmul", 1, "MatMul", "data_a data_b @transpose_a @transpose_b"),
    ("max_pool", 1, "MaxPool",
     "data @strides @pads_begin @pads_end @kernel_shape:kernel "
     "@rounding_type='floor' @auto_pad=None"),
    ("maximum", 1, "Maximum", "left_node right_node @auto_broadcast='NUMPY'"),
    ("minimum", 1, "Minimum", "left_node right_node @auto_broadcast='NUMPY'"),
    ("mod", 1, "Mod", "left_node right_node @auto_broadcast='NUMPY'"),
    ("multiply", 1, "Multiply", "left_node right_node @auto_broadcast='NUMPY'"),
    ("negative", 1, "Negative", "node"),
    ("normalize_l2", 1, "NormalizeL2", "data axes @eps @eps_mode"),
    ("not_equal", 1, "NotEqual", "left_node right_node @auto_broadcast='NUMPY'"),
    ("pad", 1, "Pad", "arg pads_begin pads_end @pad_mode arg_pad_value=None"),
    ("power", 1, "Power", "left_node right_node @auto_broadcast='NUMPY'"),
    ("prelu", 1, "PRelu", "data slope"),
    ("range", 1, "Range", "start stop step"),
    ("reduce_logical_and", 1, "ReduceLogicalAnd", "node reduction_axes @keep_dims=False"),
    ("reduce_logical_or", 1, "ReduceLogicalOr", "node reduction_axes @keep_dims=False"),
    ("reduce_max", 1, "ReduceMax", "node reduction_axes @keep_dims=False"),
    ("reduce_mean", 1, "ReduceMean", "node reduction_axes @keep_dims=False"),
    ("reduce_min", 1, "ReduceMin", "node reduction_axes @keep_dims=False"),
    ("reduce_prod", 1, "ReduceProd", "node reduction_axes @keep_dims=False"),
    ("reduce_sum", 1, "ReduceSum", "node reduction_axes @keep_dims=False"),
    ("relu", 1, "Relu", "node"),
    ("reshape", 1, "Reshape", "node output_shape @special_zero"),
    ("reverse_sequence", 1, "ReverseSequence", "input seq_lengths @batch_axis @seq_axis"),
    ("select", 1, "Select", "cond then_node else_node @auto_broadcast='numpy'"),
    ("selu", 1, "Selu", "data alpha lambda_value"),
    ("shape_of", 1, "ShapeOf", "data"),
    ("sigmoid", 1, "Sigmoid", "data"),
    ("sign", 1, "Sign", "node"),
    ("sin", 1, "Sin", "node"),
    ("softmax", 1, "SoftMax", "data @axis"),
    ("space_to_depth", 1, "SpaceToDepth", "data @mode @block_size=1"),
    ("split", 1, "Split", "data axis @num_splits"),
    ("sqrt", 1, "Sqrt", "node"),
    ("squared_difference", 1, "SquaredDifference", "x1 x2 @auto_broadcast='NUMPY'"),
    ("squeeze", 1, "Squeeze", "data axes"),
    ("strided_slice", 1, "StridedSlice",
     "data begin end strides @begin_mask @end_mask @new_axis_mask=None "
     "@shrink_axis_mask=None @ellipsis_mask=None"),
    ("subtract", 1, "Subtract", "left_node right_node @auto_broadcast='NUMPY'"),
    ("tanh", 1, "Tanh", "node"),
    ("tile", 1, "Tile", "data repeats"),
    ("topk", 1, "TopK", "data k @axis @mode @sort"),
    ("transpose", 1, "Transpose", "data input_order"),
    ("unsqueeze", 1, "Unsqueeze", "data axes"),
    ("variadic_split", 1, "VariadicSplit", "data axis split_lengths"),
    ("batch_to_space", 2, "BatchToSpace", "data block_shape crops_begin crops_end"),
    ("gelu", 2, "Gelu", "node"),
    ("mvn", 2, "MVN", "data @across_channels=False @normalize_variance=False @eps=1e-09"),
    ("space_to_batch", 2, "SpaceToBatch", "data block_shape pads_begin pads_end"),
    ("broadcast", 3, "Broadcast",
     "data target_shape axes_mapping=None @broadcast_spec:mode='NUMPY'"),
    ("cum_sum", 3, "CumSum", "arg axis @exclusive=False @reverse=False"),
    ("gru_cell", 3, "GRUCell",
     "X initial_hidden_state W R B @hidden_size @activations=None "
     "@activations_alpha=None @activations_beta=None @clip=0.0 "
     "@linear_before_reset=False"),
    ("non_zero", 3, "NonZero", "data @output_type='i64'"),
    ("rnn_cell", 3, "RNNCell",
     "X initial_hidden_state W R B @hidden_size @activations "
     "@activations_alpha @activations_beta @clip=0.0"),
    ("scatter_update", 3, "ScatterUpdate", "data indices updates axis"),
    ("shape_of", 3, "ShapeOf", "data @output_type='i64'"),
    ("shuffle_channels", 3, "ShuffleChannels", "data @axis @group"),
    ("topk", 3, "TopK", "data k @axis @mode @sort @index_element_type='i32'"),
    ("hswish", 4, "HSwish", "data"),
    ("lstm_cell", 4, "LSTMCell",
     "X initial_hidden_state initial_cell_state W R B @hidden_size "
     "@activations=None @activations_alpha=None @activations_beta=None "
     "@clip=0.0"),
    ("mish", 4, "Mish", "data"),
    ("reduce_l1", 4, "ReduceL1", "node reduction_axes @keep_dims=False"),
    ("reduce_l2", 4, "ReduceL2", "node reduction_axes @keep_dims=False"),
    ("scatter_nd_update", 4, "ScatterNDUpdate", "data indices updates"),
    ("softplus", 4, "SoftPlus", "data"),
    ("swish", 4, "Swish", "data beta=None"),
    ("batch_norm_inference", 5, "BatchNormInference", "data gamma beta mean variance @epsilon"),
    ("gru_sequence", 5, "GRUSequence",
     "X initial_hidden_state sequence_lengths W R B @hidden_size @direction "
     "@activations=None @activations_alpha=None @activations_beta=None "
     "@clip=0.0 @linear_before_reset=False"),
    ("hsigmoid", 5, "HSigmoid", "data"),
    ("lstm_sequence", 5, "LSTMSequence",
     "X initial_hidden_state initial_cell_state sequence_lengths W R B "
     "@hidden_size @direction @activations=None @activations_alpha=None "
     "@activations_beta=None @clip=0.0"),
    ("rnn_sequence", 5, "RNNSequence",
     "X initial_hidden_state sequence_lengths W R B @hidden_size @direction "
     "@activations=None @activations_alpha=None @activations_beta=None "
     "@clip=0.0"),
    ("round", 5, "Round", "data @mode='half_to_even'"),
    ("gather_elements", 6, "GatherElements", "data indices @axis=0"),
    ("mvn", 6, "MVN", "data axes @normalize_variance @eps @eps_mode"),
    ("einsum", 7, "Einsum", "*inputs @equation"),
    ("gather", 7, "Gather", "data indices axis @batch_dims=0"),
    ("gelu", 7, "Gelu", "data @approximation_mode"),
    ("gather", 8, "Gather", "data indices axis @batch_dims=0"),
    ("gather_nd", 8, "GatherND", "data indices @batch_dims=0"),
    ("max_pool", 8, "MaxPool",
     "data @strides @dilations @pads_begin @pads_end @kernel_shape:kernel "
     "@rounding_type='floor' @auto_pad=None @index_element_type='i64' "
     "@axis=0"),
    ("slice", 8, "Slice", "data start stop step axes=None"),
    ("softmax", 8, "SoftMax", "data @axis"),
    # (openvino's opset4 to opset11 export opset1's `range`; opset12 the opset4 form)
    ("range", 12, "Range", "start stop step @output_type"),
    ("interpolate", 10, "Interpolate",
     "image output_shape scales @mode @shape_calculation_mode "
     "@pads_begin=None @pads_end=None "
     "@coordinate_transformation_mode='half_pixel' "
     "@nearest_mode='round_prefer_floor' @antialias=False @cube_coeff=-0.75 "
     "axes=None"),
    ("is_nan", 10, "IsNaN", "data"),
    ("interpolate", 11, "Interpolate",
     "image scales_or_sizes @mode @shape_calculation_mode @pads_begin=None "
     "@pads_end=None @coordinate_transformation_mode='half_pixel' "
     "@nearest_mode='round_prefer_floor' @antialias=False @cube_coeff=-0.75 "
     "axes=None"),
    ("topk", 11, "TopK", "data k @axis @mode @sort @index_element_type='i32' @stable=False"),
    ("pad", 12, "Pad", "arg pads_begin pads_end @pad_mode arg_pad_value=None"),
    ("fake_quantize", 13, "FakeQuantize",
     "data input_low input_high output_low output_high @levels "
     "@auto_broadcast='NUMPY'"),
    ("scaled_dot_product_attention", 13, "ScaledDotProductAttention",
     "query key value attention_mask=None scale=None @causal=False"),
    ("avg_pool", 14, "AvgPool",
     "data_batch @strides @pads_begin @pads_end @kernel_shape:kernel "
     "@exclude_pad:exclude-pad @rounding_type='floor' @auto_pad=None"),
    ("max_pool", 14, "MaxPool",
     "data @strides @dilations @pads_begin @pads_end @kernel_shape:kernel "
     "@rounding_type='floor' @auto_pad=None @index_element_type='i64' "
     "@axis=0"),
    ("scatter_nd_update", 15, "ScatterNDUpdate", "data indices updates @reduction=None"),
    ("squeeze", 15, "Squeeze", "data axes=None @allow_axis_skip=False"),
    ("avg_pool", 16, "AvgPool",
     "data_batch @strides @pads_begin @pads_end @kernel_shape:kernel "
     "@exclude_pad:exclude-pad @rounding_type='floor' @auto_pad=None "
     "@dilations=None"),
)
