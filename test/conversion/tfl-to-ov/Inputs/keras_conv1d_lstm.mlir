// keras_conv1d_lstm: written by make_keras_models.py (tensorflow 2.21.0).
module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @main(%arg0: tensor<2x5x4xf32>) -> tensor<2x5x2xf32> attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
    %cst_0 = "tf.Const"() <{value = dense<[0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]> : tensor<12xf32>}> {device = ""} : () -> tensor<12xf32>
    %cst_1 = "tf.Const"() <{value = dense<[[0.165187597, 0.151213214, 0.0206688158, -0.517279327, -0.0744104236, 0.449835449, -0.1631805, -0.0542617626, -0.36261791, 0.082371056, -0.551633716, -0.0424854159], [0.194697767, 0.205791771, 0.189872906, 0.257229388, 0.0862344428, -0.236337692, 0.387510478, -0.316690922, 0.215392351, -2.820490e-01, -6.008920e-01, 0.12945205], [-0.063503854, -0.20696646, -0.0933321118, 0.430200577, 0.0407950468, 0.0102127083, 0.344385803, 0.228914768, -0.436545253, 0.289292842, -0.23500891, -0.507035851]]> : tensor<3x12xf32>}> {device = ""} : () -> tensor<3x12xf32>
    %cst_2 = "tf.Const"() <{value = dense<[[-0.204634368, -0.350424558, -0.25401929, 0.211741269, 0.185936272, -0.183651388, -0.199295282, -0.051530242, -0.327064067, -0.20554617, 0.467423558, -0.511293173], [-0.271088839, -0.449362755, -0.4009974, 0.440179586, -0.497630477, 0.261706829, -0.396296084, 0.41862154, -0.247329175, 0.459872246, -0.224600077, -0.425466537], [-0.223316222, 0.0168609023, -0.244571745, 0.127928019, -0.430020303, 0.247969627, -0.0851783156, 0.338844776, 0.276179314, -0.577326059, 0.109292984, 0.125157952], [0.346481383, -0.553109229, -0.368650794, -0.228713512, -0.285601526, -0.182141364, 0.447489977, -0.436475456, -0.0658565164, -0.296560884, 0.34602648, -0.564190388], [-0.52848953, -0.405173481, 0.356588721, 0.127458513, 0.179689765, 0.174547553, 0.10448277, -0.399538308, 0.152132452, -0.261630148, 0.00220352411, -0.217024177], [-0.47176972, -0.124470383, -0.25520584, -0.343079627, -0.57416749, 0.0254037976, 0.497021914, 0.522158384, 0.062820375, 0.406271935, 3.263440e-01, -0.286037326]]> : tensor<6x12xf32>}> {device = ""} : () -> tensor<6x12xf32>
    %cst_3 = "tf.Const"() <{value = dense<[2, 5, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_4 = "tf.Const"() <{value = dense<[10, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_5 = "tf.Const"() <{value = dense<[[-0.337684751, 0.519052386], [-0.151139855, -0.193762183], [0.261316538, -1.01867139]]> : tensor<3x2xf32>}> {device = ""} : () -> tensor<3x2xf32>
    %cst_6 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2xf32>}> {device = ""} : () -> tensor<2xf32>
    %cst_7 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_8 = "tf.Const"() <{value = dense<[[[0.0140285194, -0.170780122, 0.303125262, -3.518660e-01, -0.0939773619, -0.280212313], [-8.31663608E-4, 0.435346365, 0.0485302508, -0.0559397638, 0.251292348, 0.0700833201], [0.00819012522, -0.0247387886, -0.317865551, 0.129215837, -0.0132878125, 0.417135477], [-0.262342125, -0.331931353, 0.214361548, 0.178509831, 0.168295562, 0.332583249]], [[0.0745916367, 0.422730148, -0.232214659, -0.12672022, -0.0300782025, 0.226393223], [0.361159265, -0.0469193757, -0.282892853, -0.0440678298, -0.400917113, 0.264079869], [0.382072389, 0.356881917, 0.213945031, 0.315777957, 0.238383055, -0.382059902], [0.225785315, 0.256208777, 0.173157513, -0.213668048, 0.326194763, 0.417889833]], [[-3.429790e-01, 0.0579921603, 0.35089159, 0.312293172, -0.194811165, 0.396600246], [-0.287349731, 0.285006046, -0.0536638796, -0.413164258, -0.216065273, 0.397363842], [-0.121951759, 0.0867290496, 0.413847506, 0.284300685, -0.325811803, 0.060156405], [0.0727469325, -0.245145172, 0.201189756, 0.28994292, -0.0285481513, 0.368089199]]]> : tensor<3x4x6xf32>}> {device = ""} : () -> tensor<3x4x6xf32>
    %cst_9 = "tf.Const"() <{value = dense<-3> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_10 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<6xf32>}> {device = ""} : () -> tensor<6xf32>
    %0 = "tf.Identity"(%cst_10) {_has_manual_control_dependencies = true, device = ""} : (tensor<6xf32>) -> tensor<6xf32>
    %1 = "tf.Identity"(%cst_8) {_has_manual_control_dependencies = true, device = ""} : (tensor<3x4x6xf32>) -> tensor<3x4x6xf32>
    %2 = "tf.ExpandDims"(%1, %cst_7) {device = ""} : (tensor<3x4x6xf32>, tensor<i32>) -> tensor<1x3x4x6xf32>
    %3 = "tf.Identity"(%cst_6) {_has_manual_control_dependencies = true, device = ""} : (tensor<2xf32>) -> tensor<2xf32>
    %4 = "tf.Identity"(%cst_5) {_has_manual_control_dependencies = true, device = ""} : (tensor<3x2xf32>) -> tensor<3x2xf32>
    %5 = "tf.Identity"(%cst_2) {_has_manual_control_dependencies = true, device = ""} : (tensor<6x12xf32>) -> tensor<6x12xf32>
    %6 = "tf.Identity"(%5) {device = ""} : (tensor<6x12xf32>) -> tensor<6x12xf32>
    %7 = "tf.Identity"(%cst_1) {_has_manual_control_dependencies = true, device = ""} : (tensor<3x12xf32>) -> tensor<3x12xf32>
    %8 = "tf.Identity"(%7) {device = ""} : (tensor<3x12xf32>) -> tensor<3x12xf32>
    %9 = "tf.Identity"(%cst_0) {_has_manual_control_dependencies = true, device = ""} : (tensor<12xf32>) -> tensor<12xf32>
    %10 = "tf.Identity"(%9) {device = ""} : (tensor<12xf32>) -> tensor<12xf32>
    %11 = "tf.ExpandDims"(%arg0, %cst_9) {device = ""} : (tensor<2x5x4xf32>, tensor<i32>) -> tensor<2x1x5x4xf32>
    %12 = "tf.Conv2D"(%11, %2) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "SAME", strides = [1, 1, 1, 1], use_cudnn_on_gpu = true}> {device = ""} : (tensor<2x1x5x4xf32>, tensor<1x3x4x6xf32>) -> tensor<2x1x5x6xf32>
    %13 = "tf.Squeeze"(%12) <{squeeze_dims = [-3]}> {device = ""} : (tensor<2x1x5x6xf32>) -> tensor<2x5x6xf32>
    %14 = "tf.BiasAdd"(%13, %0) <{data_format = "NHWC"}> {device = ""} : (tensor<2x5x6xf32>, tensor<6xf32>) -> tensor<2x5x6xf32>
    %15 = "tf.Relu"(%14) {device = ""} : (tensor<2x5x6xf32>) -> tensor<2x5x6xf32>
    %16:5 = "tf.PartitionedCall"(%15, %cst, %cst, %6, %8, %10) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_standard_lstm_7290}> {_collective_manager_ids = [], _read_only_resource_inputs = [], device = ""} : (tensor<2x5x6xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<6x12xf32>, tensor<3x12xf32>, tensor<12xf32>) -> (tensor<2x3xf32>, tensor<2x?x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>)
    %17 = "tf.Reshape"(%16#1, %cst_4) {device = ""} : (tensor<2x?x3xf32>, tensor<2xi32>) -> tensor<10x3xf32>
    %18 = "tf.MatMul"(%17, %4) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<10x3xf32>, tensor<3x2xf32>) -> tensor<10x2xf32>
    %19 = "tf.Reshape"(%18, %cst_3) {device = ""} : (tensor<10x2xf32>, tensor<3xi32>) -> tensor<2x5x2xf32>
    %20 = "tf.BiasAdd"(%19, %3) <{data_format = "NHWC"}> {device = ""} : (tensor<2x5x2xf32>, tensor<2xf32>) -> tensor<2x5x2xf32>
    %21 = "tf.Softmax"(%20) {device = ""} : (tensor<2x5x2xf32>) -> tensor<2x5x2xf32>
    %22 = "tf.Identity"(%21) {device = ""} : (tensor<2x5x2xf32>) -> tensor<2x5x2xf32>
    return %22 : tensor<2x5x2xf32>
  }
  func.func private @__inference_standard_lstm_7290(%arg0: tensor<2x5x6xf32> {tf._user_specified_name = "inputs"}, %arg1: tensor<2x3xf32> {tf._user_specified_name = "init_h"}, %arg2: tensor<2x3xf32> {tf._user_specified_name = "init_c"}, %arg3: tensor<6x12xf32> {tf._user_specified_name = "kernel"}, %arg4: tensor<3x12xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg5: tensor<12xf32> {tf._user_specified_name = "bias"}) -> (tensor<2x3xf32>, tensor<2x?x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>) attributes {tf._construction_context = "kEagerRuntime", tf.api_implements = "lstm_81796b71-84e3-4402-8768-824d7d67c178", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = false} {
    %cst = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = "/device:CPU:0"} : () -> tensor<f32>
    %cst_0 = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_2 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_3 = "tf.Const"() <{value = dense<-1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_4 = "tf.Const"() <{value = dense<[2, 6]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_5 = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_6 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_7 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_8 = "tf.Const"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
    %0 = "tf.TensorListReserve"(%cst_5, %cst_8) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %1 = "tf.Transpose"(%arg0, %cst_1) {device = ""} : (tensor<2x5x6xf32>, tensor<3xi32>) -> tensor<5x2x6xf32>
    %2 = "tf.TensorListFromTensor"(%1, %cst_4) {device = ""} : (tensor<5x2x6xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<2x6xf32>>>
    %3:11 = "tf.While"(%cst_2, %cst_0, %cst_2, %0, %arg1, %arg2, %cst_8, %2, %arg3, %arg4, %arg5) <{body = @while_body_6440, cond = @while_cond_6430, is_stateless = true, parallel_iterations = 32 : i64, shape_invariant}> {T = [i32, i32, i32, !tf_type.variant, f32, f32, i32, !tf_type.variant, f32, f32, f32], _lower_using_switch_merge = false, _num_original_outputs = 11 : i64, _read_only_resource_inputs = [], device = "", output_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x3>, #tf_type.shape<2x3>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<6x12>, #tf_type.shape<3x12>, #tf_type.shape<12>]} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x6xf32>>>, tensor<6x12xf32>, tensor<3x12xf32>, tensor<12xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x6xf32>>>, tensor<6x12xf32>, tensor<3x12xf32>, tensor<12xf32>)
    %4 = "tf.Identity"(%3#4) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %5 = "tf.Identity"(%3#5) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %6 = "tf.TensorListStack"(%3#3, %cst_5) <{num_elements = -1 : i64}> {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2xi32>) -> tensor<?x2x3xf32>
    %7 = "tf.StridedSlice"(%6, %cst_3, %cst_6, %cst_7) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<?x2x3xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2x3xf32>
    %8 = "tf.Identity"(%7) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %9 = "tf.Transpose"(%6, %cst_1) {device = ""} : (tensor<?x2x3xf32>, tensor<3xi32>) -> tensor<2x?x3xf32>
    %10 = "tf.Identity"(%9) {device = ""} : (tensor<2x?x3xf32>) -> tensor<2x?x3xf32>
    %11 = "tf.Identity"(%cst) {device = ""} : (tensor<f32>) -> tensor<f32>
    return %8, %10, %4, %5, %11 : tensor<2x3xf32>, tensor<2x?x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>
  }
  func.func private @while_body_6440(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg4: tensor<2x3xf32>, %arg5: tensor<2x3xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x6xf32>>> {tf._user_specified_name = "TensorArrayUnstack/TensorListFromTensor"}, %arg8: tensor<6x12xf32> {tf._user_specified_name = "kernel"}, %arg9: tensor<3x12xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg10: tensor<12xf32> {tf._user_specified_name = "bias"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x6xf32>>>, tensor<6x12xf32>, tensor<3x12xf32>, tensor<12xf32>) attributes {tf._construction_context = "kEagerRuntime"} {
    %cst = "tf.Const"() <{value = dense<[2, 6]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.AddV2"(%arg2, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i32>) -> tensor<i32>
    %2 = "tf.MatMul"(%arg4, %arg9) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x3xf32>, tensor<3x12xf32>) -> tensor<2x12xf32>
    %3 = "tf.TensorListGetItem"(%arg7, %arg2, %cst) {device = ""} : (tensor<!tf_type.variant<tensor<2x6xf32>>>, tensor<i32>, tensor<2xi32>) -> tensor<2x6xf32>
    %4 = "tf.MatMul"(%3, %arg8) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x6xf32>, tensor<6x12xf32>) -> tensor<2x12xf32>
    %5 = "tf.AddV2"(%4, %2) {device = ""} : (tensor<2x12xf32>, tensor<2x12xf32>) -> tensor<2x12xf32>
    %6 = "tf.BiasAdd"(%5, %arg10) <{data_format = "NHWC"}> {device = ""} : (tensor<2x12xf32>, tensor<12xf32>) -> tensor<2x12xf32>
    %7:4 = "tf.Split"(%cst_0, %6) {device = ""} : (tensor<i32>, tensor<2x12xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
    %8 = "tf.Sigmoid"(%7#0) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %9 = "tf.Sigmoid"(%7#1) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %10 = "tf.Mul"(%9, %arg5) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %11 = "tf.Sigmoid"(%7#3) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %12 = "tf.Tanh"(%7#2) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %13 = "tf.Mul"(%8, %12) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %14 = "tf.AddV2"(%10, %13) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %15 = "tf.Identity"(%14) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %16 = "tf.Tanh"(%14) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %17 = "tf.Mul"(%11, %16) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %18 = "tf.Identity"(%17) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %19 = "tf.TensorListSetItem"(%arg3, %arg2, %17) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<i32>, tensor<2x3xf32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %20 = "tf.Identity"(%19) {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %21 = "tf.AddV2"(%arg0, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %22 = "tf.Identity"(%21) {device = ""} : (tensor<i32>) -> tensor<i32>
    %23 = "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<i32>
    return %22, %23, %1, %20, %18, %15, %arg6, %arg7, %arg8, %arg9, %arg10 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x6xf32>>>, tensor<6x12xf32>, tensor<3x12xf32>, tensor<12xf32>
  }
  func.func private @while_cond_6430(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg4: tensor<2x3xf32>, %arg5: tensor<2x3xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x6xf32>>>, %arg8: tensor<6x12xf32>, %arg9: tensor<3x12xf32>, %arg10: tensor<12xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime"} {
    %0 = "tf.Less"(%arg2, %arg6) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %1 : tensor<i1>
  }
}
