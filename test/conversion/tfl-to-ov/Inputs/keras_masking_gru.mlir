// keras_masking_gru: written by make_keras_models.py (tensorflow 2.21.0).
module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @main(%arg0: tensor<2x5x4xf32>) -> tensor<2x?x3xf32> attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
    %cst_0 = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_2 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x9xf32>}> {device = ""} : () -> tensor<2x9xf32>
    %cst_3 = "tf.Const"() <{value = dense<[[0.44708395, -0.20424895, 0.13022612, -0.240682334, 0.329107791, 0.448172182, -0.460855573, 0.399981558, -0.0443627089], [0.229752064, 0.158088073, -0.352225721, -0.0111624822, 0.403790444, -5.081370e-01, 0.230377927, 0.388314664, -0.415839463], [-0.403271765, -0.132734761, 0.437396437, 0.123862296, -0.320949286, -0.211238593, -0.27496314, 0.451193273, -0.431608289]]> : tensor<3x9xf32>}> {device = ""} : () -> tensor<3x9xf32>
    %cst_4 = "tf.Const"() <{value = dense<[[0.0213108659, -0.259433657, 0.460480332, -0.534522891, -0.142761827, -0.425673068, -1.263380e-03, 0.661338568, 0.0737227201], [-0.0849785804, 0.38174057, 0.106464207, 0.0124416947, -0.0375809073, -0.482872427, 1.962930e-01, -0.0201856494, 0.633674264], [-0.398526311, -5.042400e-01, 0.325638533, 0.271175921, 0.255659342, 0.505230308, 0.113312781, 0.642173171, -0.352759391], [-0.192501813, -0.0456920862, 0.343915939, 0.548640251, -0.0712756515, -0.429745078, -0.0669438243, -0.609036862, 0.401166201]]> : tensor<4x9xf32>}> {device = ""} : () -> tensor<4x9xf32>
    %0 = "tf.Identity"(%cst_4) {_has_manual_control_dependencies = true, device = ""} : (tensor<4x9xf32>) -> tensor<4x9xf32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<4x9xf32>) -> tensor<4x9xf32>
    %2 = "tf.Identity"(%cst_3) {_has_manual_control_dependencies = true, device = ""} : (tensor<3x9xf32>) -> tensor<3x9xf32>
    %3 = "tf.Identity"(%2) {device = ""} : (tensor<3x9xf32>) -> tensor<3x9xf32>
    %4 = "tf.Identity"(%cst_2) {_has_manual_control_dependencies = true, device = ""} : (tensor<2x9xf32>) -> tensor<2x9xf32>
    %5 = "tf.Identity"(%4) {device = ""} : (tensor<2x9xf32>) -> tensor<2x9xf32>
    %6 = "tf.NotEqual"(%arg0, %cst_1) <{incompatible_shape_error = true}> {device = ""} : (tensor<2x5x4xf32>, tensor<f32>) -> tensor<2x5x4xi1>
    %7 = "tf.Any"(%6, %cst_0) <{keep_dims = true}> {device = ""} : (tensor<2x5x4xi1>, tensor<i32>) -> tensor<2x5x1xi1>
    %8 = "tf.Cast"(%7) <{Truncate = false}> {device = ""} : (tensor<2x5x1xi1>) -> tensor<2x5x1xf32>
    %9 = "tf.Mul"(%arg0, %8) {device = ""} : (tensor<2x5x4xf32>, tensor<2x5x1xf32>) -> tensor<2x5x4xf32>
    %10 = "tf.Squeeze"(%7) <{squeeze_dims = [-1]}> {device = ""} : (tensor<2x5x1xi1>) -> tensor<2x5xi1>
    %11:4 = "tf.PartitionedCall"(%9, %cst, %1, %3, %5, %10) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_standard_gru_137770}> {_collective_manager_ids = [], _read_only_resource_inputs = [], device = ""} : (tensor<2x5x4xf32>, tensor<2x3xf32>, tensor<4x9xf32>, tensor<3x9xf32>, tensor<2x9xf32>, tensor<2x5xi1>) -> (tensor<2x3xf32>, tensor<2x?x3xf32>, tensor<2x3xf32>, tensor<f32>)
    %12 = "tf.Identity"(%11#1) {device = ""} : (tensor<2x?x3xf32>) -> tensor<2x?x3xf32>
    return %12 : tensor<2x?x3xf32>
  }
  func.func private @__inference_standard_gru_137770(%arg0: tensor<2x5x4xf32> {tf._user_specified_name = "inputs"}, %arg1: tensor<2x3xf32> {tf._user_specified_name = "init_h"}, %arg2: tensor<4x9xf32> {tf._user_specified_name = "kernel"}, %arg3: tensor<3x9xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg4: tensor<2x9xf32> {tf._user_specified_name = "bias"}, %arg5: tensor<2x5xi1> {tf._user_specified_name = "mask"}) -> (tensor<2x3xf32>, tensor<2x?x3xf32>, tensor<2x3xf32>, tensor<f32>) attributes {tf._construction_context = "kEagerRuntime", tf.api_implements = "gru_664a4935-49f0-483a-bdda-416fedfa8d87", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = false} {
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
    %0:2 = "tf.Unpack"(%arg4) <{axis = 0 : i64}> {device = ""} : (tensor<2x9xf32>) -> (tensor<9xf32>, tensor<9xf32>)
    %1 = "tf.ExpandDims"(%arg5, %cst_7) {device = ""} : (tensor<2x5xi1>, tensor<i32>) -> tensor<2x5x1xi1>
    %2 = "tf.TensorListReserve"(%cst_10, %cst) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %3 = "tf.Transpose"(%arg0, %cst_2) {device = ""} : (tensor<2x5x4xf32>, tensor<3xi32>) -> tensor<5x2x4xf32>
    %4 = "tf.TensorListFromTensor"(%3, %cst_8) {device = ""} : (tensor<5x2x4xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %5 = "tf.Transpose"(%1, %cst_2) {device = ""} : (tensor<2x5x1xi1>, tensor<3xi32>) -> tensor<5x2x1xi1>
    %6 = "tf.TensorListFromTensor"(%5, %cst_9) {device = ""} : (tensor<5x2x1xi1>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<2x1xi1>>>
    %7:13 = "tf.While"(%cst_3, %cst_7, %cst_3, %2, %cst_1, %arg1, %cst, %4, %6, %arg2, %0#0, %arg3, %0#1) <{body = @while_body_136730, cond = @while_cond_136720, is_stateless = true, parallel_iterations = 32 : i64, shape_invariant}> {T = [i32, i32, i32, !tf_type.variant, f32, f32, i32, !tf_type.variant, !tf_type.variant, f32, f32, f32, f32], _lower_using_switch_merge = false, _num_original_outputs = 13 : i64, _read_only_resource_inputs = [], device = "", output_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x3>, #tf_type.shape<2x3>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<4x9>, #tf_type.shape<9>, #tf_type.shape<3x9>, #tf_type.shape<9>]} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<!tf_type.variant<tensor<2x1xi1>>>, tensor<4x9xf32>, tensor<9xf32>, tensor<3x9xf32>, tensor<9xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<!tf_type.variant<tensor<2x1xi1>>>, tensor<4x9xf32>, tensor<9xf32>, tensor<3x9xf32>, tensor<9xf32>)
    %8 = "tf.Identity"(%7#5) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %9 = "tf.TensorListStack"(%7#3, %cst_10) <{num_elements = -1 : i64}> {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2xi32>) -> tensor<?x2x3xf32>
    %10 = "tf.StridedSlice"(%9, %cst_4, %cst_6, %cst_5) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<?x2x3xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2x3xf32>
    %11 = "tf.Identity"(%10) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %12 = "tf.Transpose"(%9, %cst_2) {device = ""} : (tensor<?x2x3xf32>, tensor<3xi32>) -> tensor<2x?x3xf32>
    %13 = "tf.Identity"(%12) {device = ""} : (tensor<2x?x3xf32>) -> tensor<2x?x3xf32>
    %14 = "tf.Identity"(%cst_0) {device = ""} : (tensor<f32>) -> tensor<f32>
    return %11, %13, %8, %14 : tensor<2x3xf32>, tensor<2x?x3xf32>, tensor<2x3xf32>, tensor<f32>
  }
  func.func private @while_body_136730(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg4: tensor<2x3xf32>, %arg5: tensor<2x3xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x4xf32>>> {tf._user_specified_name = "TensorArrayUnstack/TensorListFromTensor"}, %arg8: tensor<!tf_type.variant<tensor<2x1xi1>>> {tf._user_specified_name = "TensorArrayUnstack_1/TensorListFromTensor"}, %arg9: tensor<4x9xf32> {tf._user_specified_name = "kernel"}, %arg10: tensor<9xf32> {tf._user_specified_name = "unstack"}, %arg11: tensor<3x9xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg12: tensor<9xf32> {tf._user_specified_name = "unstack"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<!tf_type.variant<tensor<2x1xi1>>>, tensor<4x9xf32>, tensor<9xf32>, tensor<3x9xf32>, tensor<9xf32>) attributes {tf._construction_context = "kEagerRuntime"} {
    %cst = "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<[2, 1]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_1 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_2 = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %0 = "tf.AddV2"(%arg2, %cst_1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i32>) -> tensor<i32>
    %2 = "tf.MatMul"(%arg5, %arg11) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x3xf32>, tensor<3x9xf32>) -> tensor<2x9xf32>
    %3 = "tf.BiasAdd"(%2, %arg12) <{data_format = "NHWC"}> {device = ""} : (tensor<2x9xf32>, tensor<9xf32>) -> tensor<2x9xf32>
    %4:3 = "tf.Split"(%cst_1, %3) {device = ""} : (tensor<i32>, tensor<2x9xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
    %5 = "tf.TensorListGetItem"(%arg8, %arg2, %cst_0) {device = ""} : (tensor<!tf_type.variant<tensor<2x1xi1>>>, tensor<i32>, tensor<2xi32>) -> tensor<2x1xi1>
    %6 = "tf.TensorListGetItem"(%arg7, %arg2, %cst) {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<i32>, tensor<2xi32>) -> tensor<2x4xf32>
    %7 = "tf.MatMul"(%6, %arg9) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x9xf32>) -> tensor<2x9xf32>
    %8 = "tf.BiasAdd"(%7, %arg10) <{data_format = "NHWC"}> {device = ""} : (tensor<2x9xf32>, tensor<9xf32>) -> tensor<2x9xf32>
    %9:3 = "tf.Split"(%cst_1, %8) {device = ""} : (tensor<i32>, tensor<2x9xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
    %10 = "tf.AddV2"(%9#0, %4#0) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %11 = "tf.Sigmoid"(%10) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %12 = "tf.Mul"(%11, %arg5) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %13 = "tf.Sub"(%cst_2, %11) {device = ""} : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %14 = "tf.AddV2"(%9#1, %4#1) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %15 = "tf.Sigmoid"(%14) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %16 = "tf.Mul"(%15, %4#2) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %17 = "tf.AddV2"(%9#2, %16) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %18 = "tf.Tanh"(%17) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %19 = "tf.Mul"(%13, %18) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %20 = "tf.AddV2"(%12, %19) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %21 = "tf.SelectV2"(%5, %20, %arg4) {device = ""} : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %22 = "tf.Identity"(%21) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %23 = "tf.TensorListSetItem"(%arg3, %arg2, %21) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<i32>, tensor<2x3xf32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %24 = "tf.Identity"(%23) {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %25 = "tf.SelectV2"(%5, %20, %arg5) {device = ""} : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %26 = "tf.Identity"(%25) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %27 = "tf.AddV2"(%arg0, %cst_1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %28 = "tf.Identity"(%27) {device = ""} : (tensor<i32>) -> tensor<i32>
    %29 = "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<i32>
    return %28, %29, %1, %24, %22, %26, %arg6, %arg7, %arg8, %arg9, %arg10, %arg11, %arg12 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<!tf_type.variant<tensor<2x1xi1>>>, tensor<4x9xf32>, tensor<9xf32>, tensor<3x9xf32>, tensor<9xf32>
  }
  func.func private @while_cond_136720(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg4: tensor<2x3xf32>, %arg5: tensor<2x3xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg8: tensor<!tf_type.variant<tensor<2x1xi1>>>, %arg9: tensor<4x9xf32>, %arg10: tensor<9xf32>, %arg11: tensor<3x9xf32>, %arg12: tensor<9xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime"} {
    %0 = "tf.Less"(%arg2, %arg6) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %1 : tensor<i1>
  }
}
