// Keras model 'lstm_dense': TensorFlow's input to TensorFlow Lite's prepare-composite-funcs pass,
// written by examples/make_keras_examples.py with examples/keras_to_mlir.py
// (TensorFlow 2.21.0, tf-keras). Keras' prediction for an input: the .npz beside it.
module attributes {tf.versions = {bad_consumers = [], min_consumer = 12 : i32, producer = 2474 : i32}, tf_saved_model.semantics} {
  func.func @serving_default(%arg0: tensor<2x5x3xf32> {ov.name = "x", tf_saved_model.index_path = ["x"]}) -> (tensor<2x3xf32> {ov.name = "y", tf_saved_model.index_path = ["y"]}) attributes {tf.entry_function = {control_outputs = "", inputs = "serving_default_x:0", outputs = "StatefulPartitionedCall:0"}, tf_saved_model.exported_names = ["serving_default"]} {
    %0 = "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_signature_wrapper_304030}> {_collective_manager_ids = [], _read_only_resource_inputs = [1, 2, 3, 4, 5], device = ""} : (tensor<2x5x3xf32>) -> tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
  func.func private @__inference__wrapped_model_285280(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}) -> tensor<2x3xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>], tf._original_func_name = "__inference__wrapped_model_28528", tf.signature.is_stateful} {
    %cst = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x4xf32>}> : () -> tensor<2x4xf32>
    %cst_0 = "tf.Const"() <{value = dense<[[-0.668052435, -0.336083412, -0.261487067, 0.099866271, -0.0367460102, -0.00904026627, -0.018746078, -0.424801409, 0.307434946, -0.602153301, -0.430835336, -0.212964684, 0.34329319, -0.151812643, -0.358163953, 0.183429122], [0.249440193, -0.175799832, -0.213788882, 0.451160371, -0.102224946, 0.0579519272, 0.053239122, 0.218601674, -0.642063915, -0.181114808, -0.722217559, -0.207630754, -0.307218552, -0.157536238, -0.078426212, -0.0793013722], [-0.0265065432, 0.054370597, 0.169543147, 0.324926794, -0.198720962, 0.0805200338, -0.402706414, -0.569504917, -0.195935845, 0.342309862, 0.193410486, 0.0143933892, 0.538968682, 0.307514489, 0.0506953597, -0.132006437], [-0.0864833742, 0.950065851, -0.229111075, 0.147222728, -0.036320325, -0.283440232, -0.343421847, 0.448748052, -0.292892575, 0.230294973, -0.174798667, 0.304003984, 0.0530791357, -0.139586657, -0.0634419546, 0.102993429]]> : tensor<4x16xf32>}> : () -> tensor<4x16xf32>
    %0 = "tf.Identity"(%cst_0) {device = ""} : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %cst_1 = "tf.Const"() <{value = dense<[0.187223107, -0.311996907, 0.305819482, -0.474635661, 1.30816722, 0.62280488, 1.00015354, 1.16247058, -0.00154592551, -0.219613269, 0.246653989, -0.355914801, -0.292038262, 0.276780695, -0.17298919, 0.0493303649]> : tensor<16xf32>}> : () -> tensor<16xf32>
    %1 = "tf.Identity"(%cst_1) {device = ""} : (tensor<16xf32>) -> tensor<16xf32>
    %cst_2 = "tf.Const"() <{value = dense<[[-0.616785049, 0.375046551, -0.849167466, -0.202335343, 0.229230031, 0.414708406, 0.51660049, 0.391194403, 0.211138368, 0.302195817, -0.173609197, 0.0431874394, 0.132136807, 0.32482338, 0.342618138, -0.216430262], [0.411793858, 0.235944062, -0.591320872, 0.173932552, -0.0431748405, 0.457351685, -0.537765384, 5.061200e-01, -0.354719937, -0.424849629, 0.606098056, 0.0591942966, 0.154229909, -0.45335561, 0.274680316, -0.228921905], [-0.756122351, -0.150303572, -0.0365021527, 0.136059254, -0.503363907, 0.582918286, 0.221602291, 0.104776807, -0.467988372, -0.0891754478, -0.314380497, -0.195874989, 0.261903942, 0.176626354, -0.360425353, -0.159997344]]> : tensor<3x16xf32>}> : () -> tensor<3x16xf32>
    %2 = "tf.Identity"(%cst_2) {device = ""} : (tensor<3x16xf32>) -> tensor<3x16xf32>
    %cst_3 = "tf.Const"() <{value = dense<[0.156826794, 0.324946582, 0.0170000568]> : tensor<3xf32>}> : () -> tensor<3xf32>
    %cst_4 = "tf.Const"() <{value = dense<[[-0.700262606, -0.128773272, 0.732089281], [0.540205956, 0.945699453, 0.514184773], [0.812190175, -0.162500814, -0.471233726], [0.454915822, 0.469307631, -0.25235194]]> : tensor<4x3xf32>}> : () -> tensor<4x3xf32>
    %3:5 = "tf.PartitionedCall"(%arg0, %cst, %cst, %2, %0, %1) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_standard_lstm_282460}> {_collective_manager_ids = [], _read_only_resource_inputs = [], device = ""} : (tensor<2x5x3xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<2x4xf32>, tensor<2x1x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>)
    %4 = "tf.MatMul"(%3#0, %cst_4) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
    %5 = "tf.BiasAdd"(%4, %cst_3) <{data_format = "NHWC"}> {device = ""} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %6 = "tf.Identity"(%5) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    return %6 : tensor<2x3xf32>
  }
  func.func private @__inference_signature_wrapper_304030(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}) -> tensor<2x3xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>], tf._original_func_name = "__inference_signature_wrapper_30403", tf.signature.is_stateful} {
    %0 = "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference__wrapped_model_285280}> {_collective_manager_ids = [], _read_only_resource_inputs = [1, 2, 3, 4, 5], device = ""} : (tensor<2x5x3xf32>) -> tensor<2x3xf32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    return %1 : tensor<2x3xf32>
  }
  func.func private @__inference_standard_lstm_282460(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "inputs"}, %arg1: tensor<2x4xf32> {tf._user_specified_name = "init_h"}, %arg2: tensor<2x4xf32> {tf._user_specified_name = "init_c"}, %arg3: tensor<3x16xf32> {tf._user_specified_name = "kernel"}, %arg4: tensor<4x16xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg5: tensor<16xf32> {tf._user_specified_name = "bias"}) -> (tensor<2x4xf32>, tensor<2x1x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>, #tf_type.shape<2x4>, #tf_type.shape<2x4>, #tf_type.shape<3x16>, #tf_type.shape<4x16>, #tf_type.shape<16>], tf._original_func_name = "__inference_standard_lstm_28246", tf.api_implements = "lstm_72e46cf6-0e3e-49d1-b7eb-b3fcfa7a0fd7", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = false} {
    %cst = "tf.Const"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
    %cst_0 = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = "/device:CPU:0"} : () -> tensor<f32>
    %cst_1 = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_2 = "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_3 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_4 = "tf.Const"() <{value = dense<-1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_5 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_6 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_7 = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_8 = "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_9 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.TensorListReserve"(%cst_8, %cst_9) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %1 = "tf.Transpose"(%arg0, %cst_2) {device = ""} : (tensor<2x5x3xf32>, tensor<3xi32>) -> tensor<5x2x3xf32>
    %2 = "tf.TensorListFromTensor"(%1, %cst_7) {device = ""} : (tensor<5x2x3xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %3:11 = "tf.While"(%cst_3, %cst_1, %cst_3, %0, %arg1, %arg2, %cst, %2, %arg3, %arg4, %arg5) <{body = @while_body_281600, cond = @while_cond_281590, is_stateless = true, parallel_iterations = 32 : i64, shape_invariant}> {_lower_using_switch_merge = true, _num_original_outputs = 11 : i64, _read_only_resource_inputs = [], _xla_propagate_compile_time_consts = true, device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>)
    %4 = "tf.Identity"(%3#4) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %5 = "tf.Identity"(%3#5) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %6 = "tf.TensorListStack"(%3#3, %cst_8) <{num_elements = 1 : i64}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2xi32>) -> tensor<1x2x4xf32>
    %7 = "tf.StridedSlice"(%6, %cst_4, %cst_6, %cst_5) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<1x2x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2x4xf32>
    %8 = "tf.Identity"(%7) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %9 = "tf.Transpose"(%6, %cst_2) {device = ""} : (tensor<1x2x4xf32>, tensor<3xi32>) -> tensor<2x1x4xf32>
    %10 = "tf.Identity"(%9) {device = ""} : (tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
    %11 = "tf.Identity"(%cst_0) {device = ""} : (tensor<f32>) -> tensor<f32>
    return %8, %10, %4, %5, %11 : tensor<2x4xf32>, tensor<2x1x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>
  }
  func.func private @while_body_281600(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<2x4xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x3xf32>>> {tf._user_specified_name = "TensorArrayUnstack/TensorListFromTensor"}, %arg8: tensor<3x16xf32> {tf._user_specified_name = "kernel"}, %arg9: tensor<4x16xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg10: tensor<16xf32> {tf._user_specified_name = "bias"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<3x16>, #tf_type.shape<4x16>, #tf_type.shape<16>], tf._original_func_name = "while_body_28160"} {
    %cst = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.AddV2"(%arg2, %cst_1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i32>) -> tensor<i32>
    %2 = "tf.MatMul"(%arg4, %arg9) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x16xf32>) -> tensor<2x16xf32>
    %3 = "tf.TensorListGetItem"(%arg7, %arg2, %cst) {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<i32>, tensor<2xi32>) -> tensor<2x3xf32>
    %4 = "tf.MatMul"(%3, %arg8) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x3xf32>, tensor<3x16xf32>) -> tensor<2x16xf32>
    %5 = "tf.AddV2"(%4, %2) {device = ""} : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
    %6 = "tf.BiasAdd"(%5, %arg10) <{data_format = "NHWC"}> {device = ""} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    %7:4 = "tf.Split"(%cst_1, %6) {device = ""} : (tensor<i32>, tensor<2x16xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
    %8 = "tf.Sigmoid"(%7#0) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %9 = "tf.Sigmoid"(%7#1) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %10 = "tf.Mul"(%9, %arg5) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %11 = "tf.Sigmoid"(%7#3) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %12 = "tf.Tanh"(%7#2) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %13 = "tf.Mul"(%8, %12) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %14 = "tf.AddV2"(%10, %13) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %15 = "tf.Identity"(%14) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %16 = "tf.Tanh"(%14) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %17 = "tf.Mul"(%11, %16) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %18 = "tf.Identity"(%17) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %19 = "tf.TensorListSetItem"(%arg3, %cst_0, %17) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<i32>, tensor<2x4xf32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %20 = "tf.Identity"(%19) {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %21 = "tf.AddV2"(%arg0, %cst_1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %22 = "tf.Identity"(%21) {device = ""} : (tensor<i32>) -> tensor<i32>
    %23 = "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<i32>
    return %22, %23, %1, %20, %18, %15, %arg6, %arg7, %arg8, %arg9, %arg10 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>
  }
  func.func private @while_cond_281590(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<2x4xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg8: tensor<3x16xf32>, %arg9: tensor<4x16xf32>, %arg10: tensor<16xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>], tf._original_func_name = "while_cond_28159"} {
    %0 = "tf.Less"(%arg2, %arg6) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %1 : tensor<i1>
  }
}
