// keras_masking_lstm: written by make_keras_models.py (tensorflow 2.21.0).
module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @main(%arg0: tensor<2x5x4xf32>) -> tensor<2x2xf32> attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
    %cst_0 = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_2 = "tf.Const"() <{value = dense<[0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]> : tensor<12xf32>}> {device = ""} : () -> tensor<12xf32>
    %cst_3 = "tf.Const"() <{value = dense<[[0.383081675, -0.175009742, 0.111583628, -0.206227496, 0.281994402, 0.384014189, -0.394881874, 0.342722267, -0.0380119756, -0.326598853, -3.393290e-01, 0.209774345], [0.140710771, 0.161732063, -0.319150805, 0.0209301598, 0.305207402, -0.493430704, 2.563850e-01, 0.282922864, -0.351668805, -0.474748075, 0.0556803197, -0.131098405], [-0.419466108, -0.144193262, 0.45965746, 0.121904187, -0.365633547, -0.131595284, -0.283893287, 0.359992057, -0.343575031, -0.192717314, -0.0092042312, -0.246267587]]> : tensor<3x12xf32>}> {device = ""} : () -> tensor<3x12xf32>
    %cst_4 = "tf.Const"() <{value = dense<[[0.0192093253, -0.23385033, 0.415071428, -0.481812418, -0.128683805, -0.383696556, -0.00113880634, 0.596122563, 6.645280e-02, -0.0765987038, 0.344096243, 0.0959655642], [0.0112147927, -0.0338749886, -0.435255319, 0.17693609, -0.0181950927, 0.571186364, -0.359226763, -0.454515755, 0.293526649, 0.244434655, 0.230448246, 0.455408394], [0.102138758, 0.57884711, -0.317973047, -0.173518807, -0.0411862731, 0.310001671, 0.494537652, -0.0642470121, -3.873670e-01, -0.0603423715, -0.548978388, 0.3616063], [0.523174226, 0.48868078, 0.292956352, 0.43239671, 0.326419473, -0.52315712, 0.309169292, 0.35082835, 0.237105727, -0.292577028, 0.446660578, 0.572219312]]> : tensor<4x12xf32>}> {device = ""} : () -> tensor<4x12xf32>
    %cst_5 = "tf.Const"() <{value = dense<[[0.348839283, -0.916110217], [0.915589809, 1.0547936], [0.340464473, -0.381714582]]> : tensor<3x2xf32>}> {device = ""} : () -> tensor<3x2xf32>
    %cst_6 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2xf32>}> {device = ""} : () -> tensor<2xf32>
    %0 = "tf.Identity"(%cst_6) {_has_manual_control_dependencies = true, device = ""} : (tensor<2xf32>) -> tensor<2xf32>
    %1 = "tf.Identity"(%cst_5) {_has_manual_control_dependencies = true, device = ""} : (tensor<3x2xf32>) -> tensor<3x2xf32>
    %2 = "tf.Identity"(%cst_4) {_has_manual_control_dependencies = true, device = ""} : (tensor<4x12xf32>) -> tensor<4x12xf32>
    %3 = "tf.Identity"(%2) {device = ""} : (tensor<4x12xf32>) -> tensor<4x12xf32>
    %4 = "tf.Identity"(%cst_3) {_has_manual_control_dependencies = true, device = ""} : (tensor<3x12xf32>) -> tensor<3x12xf32>
    %5 = "tf.Identity"(%4) {device = ""} : (tensor<3x12xf32>) -> tensor<3x12xf32>
    %6 = "tf.Identity"(%cst_2) {_has_manual_control_dependencies = true, device = ""} : (tensor<12xf32>) -> tensor<12xf32>
    %7 = "tf.Identity"(%6) {device = ""} : (tensor<12xf32>) -> tensor<12xf32>
    %8 = "tf.NotEqual"(%arg0, %cst_1) <{incompatible_shape_error = true}> {device = ""} : (tensor<2x5x4xf32>, tensor<f32>) -> tensor<2x5x4xi1>
    %9 = "tf.Any"(%8, %cst_0) <{keep_dims = true}> {device = ""} : (tensor<2x5x4xi1>, tensor<i32>) -> tensor<2x5x1xi1>
    %10 = "tf.Cast"(%9) <{Truncate = false}> {device = ""} : (tensor<2x5x1xi1>) -> tensor<2x5x1xf32>
    %11 = "tf.Mul"(%arg0, %10) {device = ""} : (tensor<2x5x4xf32>, tensor<2x5x1xf32>) -> tensor<2x5x4xf32>
    %12 = "tf.Squeeze"(%9) <{squeeze_dims = [-1]}> {device = ""} : (tensor<2x5x1xi1>) -> tensor<2x5xi1>
    %13:5 = "tf.PartitionedCall"(%11, %cst, %cst, %3, %5, %7, %12) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_standard_lstm_21030}> {_collective_manager_ids = [], _read_only_resource_inputs = [], device = ""} : (tensor<2x5x4xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x12xf32>, tensor<3x12xf32>, tensor<12xf32>, tensor<2x5xi1>) -> (tensor<2x3xf32>, tensor<2x1x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>)
    %14 = "tf.MatMul"(%13#0, %1) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
    %15 = "tf.BiasAdd"(%14, %0) <{data_format = "NHWC"}> {device = ""} : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
    %16 = "tf.Identity"(%15) {device = ""} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    return %16 : tensor<2x2xf32>
  }
  func.func private @__inference_standard_lstm_21030(%arg0: tensor<2x5x4xf32> {tf._user_specified_name = "inputs"}, %arg1: tensor<2x3xf32> {tf._user_specified_name = "init_h"}, %arg2: tensor<2x3xf32> {tf._user_specified_name = "init_c"}, %arg3: tensor<4x12xf32> {tf._user_specified_name = "kernel"}, %arg4: tensor<3x12xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg5: tensor<12xf32> {tf._user_specified_name = "bias"}, %arg6: tensor<2x5xi1> {tf._user_specified_name = "mask"}) -> (tensor<2x3xf32>, tensor<2x1x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>) attributes {tf._construction_context = "kEagerRuntime", tf.api_implements = "lstm_4f1d7dff-af8f-47b6-ac58-776081696933", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = false} {
    %cst = "tf.Const"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
    %cst_0 = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = "/device:CPU:0"} : () -> tensor<f32>
    %cst_1 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x3xf32>}> {device = ""} : () -> tensor<2x3xf32>
    %cst_2 = "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_3 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_4 = "tf.Const"() <{value = dense<-1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_5 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_6 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_7 = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_8 = "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_9 = "tf.Const"() <{value = dense<[2, 1]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_10 = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_11 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.TensorListReserve"(%cst_10, %cst_11) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %1 = "tf.ExpandDims"(%arg6, %cst_7) {device = ""} : (tensor<2x5xi1>, tensor<i32>) -> tensor<2x5x1xi1>
    %2 = "tf.Transpose"(%arg0, %cst_2) {device = ""} : (tensor<2x5x4xf32>, tensor<3xi32>) -> tensor<5x2x4xf32>
    %3 = "tf.TensorListFromTensor"(%2, %cst_8) {device = ""} : (tensor<5x2x4xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %4 = "tf.Transpose"(%1, %cst_2) {device = ""} : (tensor<2x5x1xi1>, tensor<3xi32>) -> tensor<5x2x1xi1>
    %5 = "tf.TensorListFromTensor"(%4, %cst_9) {device = ""} : (tensor<5x2x1xi1>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<2x1xi1>>>
    %6:13 = "tf.While"(%cst_3, %cst_7, %cst_3, %0, %cst_1, %arg1, %arg2, %cst, %3, %5, %arg3, %arg4, %arg5) <{body = @while_body_19990, cond = @while_cond_19980, is_stateless = true, parallel_iterations = 32 : i64, shape_invariant}> {T = [i32, i32, i32, !tf_type.variant, f32, f32, f32, i32, !tf_type.variant, !tf_type.variant, f32, f32, f32], _lower_using_switch_merge = false, _num_original_outputs = 13 : i64, _read_only_resource_inputs = [], device = "", output_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x3>, #tf_type.shape<2x3>, #tf_type.shape<2x3>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<4x12>, #tf_type.shape<3x12>, #tf_type.shape<12>]} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<!tf_type.variant<tensor<2x1xi1>>>, tensor<4x12xf32>, tensor<3x12xf32>, tensor<12xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<!tf_type.variant<tensor<2x1xi1>>>, tensor<4x12xf32>, tensor<3x12xf32>, tensor<12xf32>)
    %7 = "tf.Identity"(%6#5) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %8 = "tf.Identity"(%6#6) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %9 = "tf.TensorListStack"(%6#3, %cst_10) <{num_elements = 1 : i64}> {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2xi32>) -> tensor<1x2x3xf32>
    %10 = "tf.StridedSlice"(%9, %cst_4, %cst_6, %cst_5) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<1x2x3xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2x3xf32>
    %11 = "tf.Identity"(%10) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %12 = "tf.Transpose"(%9, %cst_2) {device = ""} : (tensor<1x2x3xf32>, tensor<3xi32>) -> tensor<2x1x3xf32>
    %13 = "tf.Identity"(%12) {device = ""} : (tensor<2x1x3xf32>) -> tensor<2x1x3xf32>
    %14 = "tf.Identity"(%cst_0) {device = ""} : (tensor<f32>) -> tensor<f32>
    return %11, %13, %7, %8, %14 : tensor<2x3xf32>, tensor<2x1x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>
  }
  func.func private @while_body_19990(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg4: tensor<2x3xf32>, %arg5: tensor<2x3xf32>, %arg6: tensor<2x3xf32>, %arg7: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg8: tensor<!tf_type.variant<tensor<2x4xf32>>> {tf._user_specified_name = "TensorArrayUnstack/TensorListFromTensor"}, %arg9: tensor<!tf_type.variant<tensor<2x1xi1>>> {tf._user_specified_name = "TensorArrayUnstack_1/TensorListFromTensor"}, %arg10: tensor<4x12xf32> {tf._user_specified_name = "kernel"}, %arg11: tensor<3x12xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg12: tensor<12xf32> {tf._user_specified_name = "bias"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<!tf_type.variant<tensor<2x1xi1>>>, tensor<4x12xf32>, tensor<3x12xf32>, tensor<12xf32>) attributes {tf._construction_context = "kEagerRuntime"} {
    %cst = "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<[2, 1]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_1 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_2 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.AddV2"(%arg2, %cst_2) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i32>) -> tensor<i32>
    %2 = "tf.MatMul"(%arg5, %arg11) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x3xf32>, tensor<3x12xf32>) -> tensor<2x12xf32>
    %3 = "tf.TensorListGetItem"(%arg9, %arg2, %cst_0) {device = ""} : (tensor<!tf_type.variant<tensor<2x1xi1>>>, tensor<i32>, tensor<2xi32>) -> tensor<2x1xi1>
    %4 = "tf.TensorListGetItem"(%arg8, %arg2, %cst) {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<i32>, tensor<2xi32>) -> tensor<2x4xf32>
    %5 = "tf.MatMul"(%4, %arg10) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x12xf32>) -> tensor<2x12xf32>
    %6 = "tf.AddV2"(%5, %2) {device = ""} : (tensor<2x12xf32>, tensor<2x12xf32>) -> tensor<2x12xf32>
    %7 = "tf.BiasAdd"(%6, %arg12) <{data_format = "NHWC"}> {device = ""} : (tensor<2x12xf32>, tensor<12xf32>) -> tensor<2x12xf32>
    %8:4 = "tf.Split"(%cst_2, %7) {device = ""} : (tensor<i32>, tensor<2x12xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
    %9 = "tf.Sigmoid"(%8#0) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %10 = "tf.Sigmoid"(%8#1) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %11 = "tf.Mul"(%10, %arg6) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %12 = "tf.Sigmoid"(%8#3) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %13 = "tf.Tanh"(%8#2) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %14 = "tf.Mul"(%9, %13) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %15 = "tf.AddV2"(%11, %14) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %16 = "tf.SelectV2"(%3, %15, %arg6) {device = ""} : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %17 = "tf.Identity"(%16) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %18 = "tf.Tanh"(%15) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %19 = "tf.Mul"(%12, %18) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %20 = "tf.SelectV2"(%3, %19, %arg4) {device = ""} : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %21 = "tf.Identity"(%20) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %22 = "tf.TensorListSetItem"(%arg3, %cst_1, %20) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<i32>, tensor<2x3xf32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %23 = "tf.Identity"(%22) {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %24 = "tf.SelectV2"(%3, %19, %arg5) {device = ""} : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %25 = "tf.Identity"(%24) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %26 = "tf.AddV2"(%arg0, %cst_2) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %27 = "tf.Identity"(%26) {device = ""} : (tensor<i32>) -> tensor<i32>
    %28 = "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<i32>
    return %27, %28, %1, %23, %21, %25, %17, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<!tf_type.variant<tensor<2x1xi1>>>, tensor<4x12xf32>, tensor<3x12xf32>, tensor<12xf32>
  }
  func.func private @while_cond_19980(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg4: tensor<2x3xf32>, %arg5: tensor<2x3xf32>, %arg6: tensor<2x3xf32>, %arg7: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg8: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg9: tensor<!tf_type.variant<tensor<2x1xi1>>>, %arg10: tensor<4x12xf32>, %arg11: tensor<3x12xf32>, %arg12: tensor<12xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime"} {
    %0 = "tf.Less"(%arg2, %arg7) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %1 : tensor<i1>
  }
}
