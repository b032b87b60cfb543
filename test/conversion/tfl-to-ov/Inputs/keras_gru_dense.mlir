// keras_gru_dense: written by make_keras_models.py (tensorflow 2.21.0).
module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @main(%arg0: tensor<2x5x4xf32>) -> tensor<2x1xf32> attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
    %cst_0 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x9xf32>}> {device = ""} : () -> tensor<2x9xf32>
    %cst_1 = "tf.Const"() <{value = dense<[[0.44708395, -0.20424895, 0.13022612, -0.240682334, 0.329107791, 0.448172182, -0.460855573, 0.399981558, -0.0443627089], [0.229752064, 0.158088073, -0.352225721, -0.0111624822, 0.403790444, -5.081370e-01, 0.230377927, 0.388314664, -0.415839463], [-0.403271765, -0.132734761, 0.437396437, 0.123862296, -0.320949286, -0.211238593, -0.27496314, 0.451193273, -0.431608289]]> : tensor<3x9xf32>}> {device = ""} : () -> tensor<3x9xf32>
    %cst_2 = "tf.Const"() <{value = dense<[[0.0213108659, -0.259433657, 0.460480332, -0.534522891, -0.142761827, -0.425673068, -1.263380e-03, 0.661338568, 0.0737227201], [-0.0849785804, 0.38174057, 0.106464207, 0.0124416947, -0.0375809073, -0.482872427, 1.962930e-01, -0.0201856494, 0.633674264], [-0.398526311, -5.042400e-01, 0.325638533, 0.271175921, 0.255659342, 0.505230308, 0.113312781, 0.642173171, -0.352759391], [-0.192501813, -0.0456920862, 0.343915939, 0.548640251, -0.0712756515, -0.429745078, -0.0669438243, -0.609036862, 0.401166201]]> : tensor<4x9xf32>}> {device = ""} : () -> tensor<4x9xf32>
    %cst_3 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_4 = "tf.Const"() <{value = dense<[[-0.308262587], [0.473827839], [-0.137971163], [-0.176879883], [0.238548279]]> : tensor<5x1xf32>}> {device = ""} : () -> tensor<5x1xf32>
    %cst_5 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<1xf32>}> {device = ""} : () -> tensor<1xf32>
    %cst_6 = "tf.Const"() <{value = dense<[2, 5, 5]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_7 = "tf.Const"() <{value = dense<[10, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_8 = "tf.Const"() <{value = dense<[[0.275781691, -0.724248648, 0.723837196, 0.833887517, 0.269160807], [-0.301771879, 0.54610008, -0.841756105, -0.231722653, 0.0345495343], [0.118503928, -0.780469536, 0.795154988, 0.652337491, -0.0506367087]]> : tensor<3x5xf32>}> {device = ""} : () -> tensor<3x5xf32>
    %cst_9 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<5xf32>}> {device = ""} : () -> tensor<5xf32>
    %0 = "tf.Identity"(%cst_9) {_has_manual_control_dependencies = true, device = ""} : (tensor<5xf32>) -> tensor<5xf32>
    %1 = "tf.Identity"(%cst_8) {_has_manual_control_dependencies = true, device = ""} : (tensor<3x5xf32>) -> tensor<3x5xf32>
    %2 = "tf.Identity"(%cst_5) {_has_manual_control_dependencies = true, device = ""} : (tensor<1xf32>) -> tensor<1xf32>
    %3 = "tf.Identity"(%cst_4) {_has_manual_control_dependencies = true, device = ""} : (tensor<5x1xf32>) -> tensor<5x1xf32>
    %4 = "tf.Identity"(%cst_2) {_has_manual_control_dependencies = true, device = ""} : (tensor<4x9xf32>) -> tensor<4x9xf32>
    %5 = "tf.Identity"(%4) {device = ""} : (tensor<4x9xf32>) -> tensor<4x9xf32>
    %6 = "tf.Identity"(%cst_1) {_has_manual_control_dependencies = true, device = ""} : (tensor<3x9xf32>) -> tensor<3x9xf32>
    %7 = "tf.Identity"(%6) {device = ""} : (tensor<3x9xf32>) -> tensor<3x9xf32>
    %8 = "tf.Identity"(%cst_0) {_has_manual_control_dependencies = true, device = ""} : (tensor<2x9xf32>) -> tensor<2x9xf32>
    %9 = "tf.Identity"(%8) {device = ""} : (tensor<2x9xf32>) -> tensor<2x9xf32>
    %10:4 = "tf.PartitionedCall"(%arg0, %cst, %5, %7, %9) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_standard_gru_6640}> {_collective_manager_ids = [], _read_only_resource_inputs = [], device = ""} : (tensor<2x5x4xf32>, tensor<2x3xf32>, tensor<4x9xf32>, tensor<3x9xf32>, tensor<2x9xf32>) -> (tensor<2x3xf32>, tensor<2x?x3xf32>, tensor<2x3xf32>, tensor<f32>)
    %11 = "tf.Reshape"(%10#1, %cst_7) {device = ""} : (tensor<2x?x3xf32>, tensor<2xi32>) -> tensor<10x3xf32>
    %12 = "tf.MatMul"(%11, %1) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<10x3xf32>, tensor<3x5xf32>) -> tensor<10x5xf32>
    %13 = "tf.Reshape"(%12, %cst_6) {device = ""} : (tensor<10x5xf32>, tensor<3xi32>) -> tensor<2x5x5xf32>
    %14 = "tf.BiasAdd"(%13, %0) <{data_format = "NHWC"}> {device = ""} : (tensor<2x5x5xf32>, tensor<5xf32>) -> tensor<2x5x5xf32>
    %15 = "tf.Relu"(%14) {device = ""} : (tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
    %16 = "tf.Mean"(%15, %cst_3) <{keep_dims = false}> {device = ""} : (tensor<2x5x5xf32>, tensor<i32>) -> tensor<2x5xf32>
    %17 = "tf.MatMul"(%16, %3) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x5xf32>, tensor<5x1xf32>) -> tensor<2x1xf32>
    %18 = "tf.BiasAdd"(%17, %2) <{data_format = "NHWC"}> {device = ""} : (tensor<2x1xf32>, tensor<1xf32>) -> tensor<2x1xf32>
    %19 = "tf.Sigmoid"(%18) {device = ""} : (tensor<2x1xf32>) -> tensor<2x1xf32>
    %20 = "tf.Identity"(%19) {device = ""} : (tensor<2x1xf32>) -> tensor<2x1xf32>
    return %20 : tensor<2x1xf32>
  }
  func.func private @__inference_standard_gru_6640(%arg0: tensor<2x5x4xf32> {tf._user_specified_name = "inputs"}, %arg1: tensor<2x3xf32> {tf._user_specified_name = "init_h"}, %arg2: tensor<4x9xf32> {tf._user_specified_name = "kernel"}, %arg3: tensor<3x9xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg4: tensor<2x9xf32> {tf._user_specified_name = "bias"}) -> (tensor<2x3xf32>, tensor<2x?x3xf32>, tensor<2x3xf32>, tensor<f32>) attributes {tf._construction_context = "kEagerRuntime", tf.api_implements = "gru_b5da4e53-a065-4e97-a46c-e33e94d5adfe", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = false} {
    %cst = "tf.Const"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
    %cst_0 = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = "/device:CPU:0"} : () -> tensor<f32>
    %cst_1 = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_2 = "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_3 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_4 = "tf.Const"() <{value = dense<-1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_5 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_6 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_7 = "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_8 = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %0:2 = "tf.Unpack"(%arg4) <{axis = 0 : i64}> {device = ""} : (tensor<2x9xf32>) -> (tensor<9xf32>, tensor<9xf32>)
    %1 = "tf.TensorListReserve"(%cst_8, %cst) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %2 = "tf.Transpose"(%arg0, %cst_2) {device = ""} : (tensor<2x5x4xf32>, tensor<3xi32>) -> tensor<5x2x4xf32>
    %3 = "tf.TensorListFromTensor"(%2, %cst_7) {device = ""} : (tensor<5x2x4xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %4:11 = "tf.While"(%cst_3, %cst_1, %cst_3, %1, %arg1, %cst, %3, %arg2, %0#0, %arg3, %0#1) <{body = @while_body_5750, cond = @while_cond_5740, is_stateless = true, parallel_iterations = 32 : i64, shape_invariant}> {T = [i32, i32, i32, !tf_type.variant, f32, i32, !tf_type.variant, f32, f32, f32, f32], _lower_using_switch_merge = false, _num_original_outputs = 11 : i64, _read_only_resource_inputs = [], device = "", output_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x3>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<4x9>, #tf_type.shape<9>, #tf_type.shape<3x9>, #tf_type.shape<9>]} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<4x9xf32>, tensor<9xf32>, tensor<3x9xf32>, tensor<9xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<4x9xf32>, tensor<9xf32>, tensor<3x9xf32>, tensor<9xf32>)
    %5 = "tf.Identity"(%4#4) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %6 = "tf.TensorListStack"(%4#3, %cst_8) <{num_elements = -1 : i64}> {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2xi32>) -> tensor<?x2x3xf32>
    %7 = "tf.StridedSlice"(%6, %cst_4, %cst_6, %cst_5) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<?x2x3xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2x3xf32>
    %8 = "tf.Identity"(%7) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %9 = "tf.Transpose"(%6, %cst_2) {device = ""} : (tensor<?x2x3xf32>, tensor<3xi32>) -> tensor<2x?x3xf32>
    %10 = "tf.Identity"(%9) {device = ""} : (tensor<2x?x3xf32>) -> tensor<2x?x3xf32>
    %11 = "tf.Identity"(%cst_0) {device = ""} : (tensor<f32>) -> tensor<f32>
    return %8, %10, %5, %11 : tensor<2x3xf32>, tensor<2x?x3xf32>, tensor<2x3xf32>, tensor<f32>
  }
  func.func private @while_body_5750(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg4: tensor<2x3xf32>, %arg5: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg6: tensor<!tf_type.variant<tensor<2x4xf32>>> {tf._user_specified_name = "TensorArrayUnstack/TensorListFromTensor"}, %arg7: tensor<4x9xf32> {tf._user_specified_name = "kernel"}, %arg8: tensor<9xf32> {tf._user_specified_name = "unstack"}, %arg9: tensor<3x9xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg10: tensor<9xf32> {tf._user_specified_name = "unstack"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<4x9xf32>, tensor<9xf32>, tensor<3x9xf32>, tensor<9xf32>) attributes {tf._construction_context = "kEagerRuntime"} {
    %cst = "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %0 = "tf.AddV2"(%arg2, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i32>) -> tensor<i32>
    %2 = "tf.MatMul"(%arg4, %arg9) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x3xf32>, tensor<3x9xf32>) -> tensor<2x9xf32>
    %3 = "tf.BiasAdd"(%2, %arg10) <{data_format = "NHWC"}> {device = ""} : (tensor<2x9xf32>, tensor<9xf32>) -> tensor<2x9xf32>
    %4:3 = "tf.Split"(%cst_0, %3) {device = ""} : (tensor<i32>, tensor<2x9xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
    %5 = "tf.TensorListGetItem"(%arg6, %arg2, %cst) {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<i32>, tensor<2xi32>) -> tensor<2x4xf32>
    %6 = "tf.MatMul"(%5, %arg7) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x9xf32>) -> tensor<2x9xf32>
    %7 = "tf.BiasAdd"(%6, %arg8) <{data_format = "NHWC"}> {device = ""} : (tensor<2x9xf32>, tensor<9xf32>) -> tensor<2x9xf32>
    %8:3 = "tf.Split"(%cst_0, %7) {device = ""} : (tensor<i32>, tensor<2x9xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
    %9 = "tf.AddV2"(%8#0, %4#0) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %10 = "tf.Sigmoid"(%9) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %11 = "tf.Mul"(%10, %arg4) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %12 = "tf.Sub"(%cst_1, %10) {device = ""} : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %13 = "tf.AddV2"(%8#1, %4#1) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %14 = "tf.Sigmoid"(%13) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %15 = "tf.Mul"(%14, %4#2) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %16 = "tf.AddV2"(%8#2, %15) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %17 = "tf.Tanh"(%16) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %18 = "tf.Mul"(%12, %17) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %19 = "tf.AddV2"(%11, %18) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %20 = "tf.Identity"(%19) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %21 = "tf.TensorListSetItem"(%arg3, %arg2, %19) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<i32>, tensor<2x3xf32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %22 = "tf.Identity"(%21) {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %23 = "tf.AddV2"(%arg0, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %24 = "tf.Identity"(%23) {device = ""} : (tensor<i32>) -> tensor<i32>
    %25 = "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<i32>
    return %24, %25, %1, %22, %20, %arg5, %arg6, %arg7, %arg8, %arg9, %arg10 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<4x9xf32>, tensor<9xf32>, tensor<3x9xf32>, tensor<9xf32>
  }
  func.func private @while_cond_5740(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg4: tensor<2x3xf32>, %arg5: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg6: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg7: tensor<4x9xf32>, %arg8: tensor<9xf32>, %arg9: tensor<3x9xf32>, %arg10: tensor<9xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime"} {
    %0 = "tf.Less"(%arg2, %arg5) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %1 : tensor<i1>
  }
}
