// keras_embedding_lstm_dense: written by make_keras_models.py (tensorflow 2.21.0).
module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @main(%arg0: tensor<2x5xi32>) -> tensor<2x5x6xf32> attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
    %cst_0 = "tf.Const"() <{value = dense<[0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]> : tensor<12xf32>}> {device = ""} : () -> tensor<12xf32>
    %cst_1 = "tf.Const"() <{value = dense<[[0.165187597, 0.151213214, 0.0206688158, -0.517279327, -0.0744104236, 0.449835449, -0.1631805, -0.0542617626, -0.36261791, 0.082371056, -0.551633716, -0.0424854159], [0.194697767, 0.205791771, 0.189872906, 0.257229388, 0.0862344428, -0.236337692, 0.387510478, -0.316690922, 0.215392351, -2.820490e-01, -6.008920e-01, 0.12945205], [-0.063503854, -0.20696646, -0.0933321118, 0.430200577, 0.0407950468, 0.0102127083, 0.344385803, 0.228914768, -0.436545253, 0.289292842, -0.23500891, -0.507035851]]> : tensor<3x12xf32>}> {device = ""} : () -> tensor<3x12xf32>
    %cst_2 = "tf.Const"() <{value = dense<[[-0.217047513, -0.371681392, -0.269428134, 0.224585533, 0.197215199, -0.194791734, -0.211384594, -0.0546560287, -0.346903861, -0.218014628, 0.495777547, -0.542308331], [-0.287533134, -0.476621211, -4.253220e-01, 0.466880977, -0.527816892, 2.775820e-01, -0.420335472, 0.444015205, -0.262332201, 0.487768233, -0.238224387, -0.451275408], [-0.23686263, 0.0178836584, -0.25940752, 0.135688186, -0.456105411, 0.263011575, -0.0903452635, 0.359399199, 0.292932391, -0.612346768, 0.115922749, 0.132750094], [0.367499053, -5.866610e-01, -0.391013235, -0.242587328, -0.302926183, -0.193190098, 0.474634826, -0.462952137, -6.985140e-02, -0.31455034, 0.367016494, -0.598414302]]> : tensor<4x12xf32>}> {device = ""} : () -> tensor<4x12xf32>
    %cst_3 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_4 = "tf.Const"() <{value = dense<[[0.00156843662, -1.909380e-02, 0.0338904373, -0.0393398181], [-0.0105069876, -0.031328693, -9.29832458E-5, 4.867320e-02], [0.00542584807, -0.00625425577, 0.0280953385, 0.00783555582], [9.15683805E-4, -0.00276588276, -0.0355384462, 0.0144467689], [-0.00148562342, 0.0466371663, -0.0293307435, -0.0371110551], [0.0239663459, 0.0199580081, 0.0188160203, 0.0371839441], [0.00833959504, 0.0472626723, -0.0259623881, -0.0141677484], [-0.00336284563, 0.0253115334, 0.0403788351, -0.00524574518], [-0.0316283852, -0.00492693111, -0.0448238961, 0.0295250304], [0.0427169912, 0.0399006121, 0.0239197873, 0.0353050493]]> : tensor<10x4xf32>}> {device = ""} : () -> tensor<10x4xf32>
    %cst_5 = "tf.Const"() <{value = dense<[2, 5, 6]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_6 = "tf.Const"() <{value = dense<[10, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_7 = "tf.Const"() <{value = dense<[[-0.251695335, 0.386878848, -0.112652957, -0.144421816, 0.194773912, -0.759272814], [0.431875944, -0.216976345, 0.637299895, -0.644595265, -0.627937317, -0.085107088], [-0.520442665, -0.309228897, 0.243871212, 0.576799631, -0.548884213, -0.0781416893]]> : tensor<3x6xf32>}> {device = ""} : () -> tensor<3x6xf32>
    %cst_8 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<6xf32>}> {device = ""} : () -> tensor<6xf32>
    %0 = "tf.Identity"(%cst_8) {_has_manual_control_dependencies = true, device = ""} : (tensor<6xf32>) -> tensor<6xf32>
    %1 = "tf.Identity"(%cst_7) {_has_manual_control_dependencies = true, device = ""} : (tensor<3x6xf32>) -> tensor<3x6xf32>
    %2 = "tf.Identity"(%cst_2) {_has_manual_control_dependencies = true, device = ""} : (tensor<4x12xf32>) -> tensor<4x12xf32>
    %3 = "tf.Identity"(%2) {device = ""} : (tensor<4x12xf32>) -> tensor<4x12xf32>
    %4 = "tf.Identity"(%cst_1) {_has_manual_control_dependencies = true, device = ""} : (tensor<3x12xf32>) -> tensor<3x12xf32>
    %5 = "tf.Identity"(%4) {device = ""} : (tensor<3x12xf32>) -> tensor<3x12xf32>
    %6 = "tf.Identity"(%cst_0) {_has_manual_control_dependencies = true, device = ""} : (tensor<12xf32>) -> tensor<12xf32>
    %7 = "tf.Identity"(%6) {device = ""} : (tensor<12xf32>) -> tensor<12xf32>
    %8 = "tf.GatherV2"(%cst_4, %arg0, %cst_3) <{batch_dims = 0 : i64}> {_has_manual_control_dependencies = true, device = ""} : (tensor<10x4xf32>, tensor<2x5xi32>, tensor<i32>) -> tensor<2x5x4xf32>
    %9 = "tf.Identity"(%8) {device = ""} : (tensor<2x5x4xf32>) -> tensor<2x5x4xf32>
    %10:5 = "tf.PartitionedCall"(%9, %cst, %cst, %3, %5, %7) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_standard_lstm_7110}> {_collective_manager_ids = [], _read_only_resource_inputs = [], device = ""} : (tensor<2x5x4xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x12xf32>, tensor<3x12xf32>, tensor<12xf32>) -> (tensor<2x3xf32>, tensor<2x?x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>)
    %11 = "tf.Identity"(%10#1) {device = ""} : (tensor<2x?x3xf32>) -> tensor<2x?x3xf32>
    %12 = "tf.Reshape"(%11, %cst_6) {device = ""} : (tensor<2x?x3xf32>, tensor<2xi32>) -> tensor<10x3xf32>
    %13 = "tf.MatMul"(%12, %1) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<10x3xf32>, tensor<3x6xf32>) -> tensor<10x6xf32>
    %14 = "tf.Reshape"(%13, %cst_5) {device = ""} : (tensor<10x6xf32>, tensor<3xi32>) -> tensor<2x5x6xf32>
    %15 = "tf.BiasAdd"(%14, %0) <{data_format = "NHWC"}> {device = ""} : (tensor<2x5x6xf32>, tensor<6xf32>) -> tensor<2x5x6xf32>
    %16 = "tf.Softmax"(%15) {device = ""} : (tensor<2x5x6xf32>) -> tensor<2x5x6xf32>
    %17 = "tf.Identity"(%16) {device = ""} : (tensor<2x5x6xf32>) -> tensor<2x5x6xf32>
    return %17 : tensor<2x5x6xf32>
  }
  func.func private @__inference_standard_lstm_7110(%arg0: tensor<2x5x4xf32> {tf._user_specified_name = "inputs"}, %arg1: tensor<2x3xf32> {tf._user_specified_name = "init_h"}, %arg2: tensor<2x3xf32> {tf._user_specified_name = "init_c"}, %arg3: tensor<4x12xf32> {tf._user_specified_name = "kernel"}, %arg4: tensor<3x12xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg5: tensor<12xf32> {tf._user_specified_name = "bias"}) -> (tensor<2x3xf32>, tensor<2x?x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>) attributes {tf._construction_context = "kEagerRuntime", tf.api_implements = "lstm_7dc731ff-6d61-4d43-aef8-372bed16a2f1", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = false} {
    %cst = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = "/device:CPU:0"} : () -> tensor<f32>
    %cst_0 = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_2 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_3 = "tf.Const"() <{value = dense<-1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_4 = "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_5 = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_6 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_7 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_8 = "tf.Const"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
    %0 = "tf.TensorListReserve"(%cst_5, %cst_8) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %1 = "tf.Transpose"(%arg0, %cst_1) {device = ""} : (tensor<2x5x4xf32>, tensor<3xi32>) -> tensor<5x2x4xf32>
    %2 = "tf.TensorListFromTensor"(%1, %cst_4) {device = ""} : (tensor<5x2x4xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %3:11 = "tf.While"(%cst_2, %cst_0, %cst_2, %0, %arg1, %arg2, %cst_8, %2, %arg3, %arg4, %arg5) <{body = @while_body_6260, cond = @while_cond_6250, is_stateless = true, parallel_iterations = 32 : i64, shape_invariant}> {T = [i32, i32, i32, !tf_type.variant, f32, f32, i32, !tf_type.variant, f32, f32, f32], _lower_using_switch_merge = false, _num_original_outputs = 11 : i64, _read_only_resource_inputs = [], device = "", output_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x3>, #tf_type.shape<2x3>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<4x12>, #tf_type.shape<3x12>, #tf_type.shape<12>]} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<4x12xf32>, tensor<3x12xf32>, tensor<12xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<4x12xf32>, tensor<3x12xf32>, tensor<12xf32>)
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
  func.func private @while_body_6260(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg4: tensor<2x3xf32>, %arg5: tensor<2x3xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x4xf32>>> {tf._user_specified_name = "TensorArrayUnstack/TensorListFromTensor"}, %arg8: tensor<4x12xf32> {tf._user_specified_name = "kernel"}, %arg9: tensor<3x12xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg10: tensor<12xf32> {tf._user_specified_name = "bias"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<4x12xf32>, tensor<3x12xf32>, tensor<12xf32>) attributes {tf._construction_context = "kEagerRuntime"} {
    %cst = "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.AddV2"(%arg2, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i32>) -> tensor<i32>
    %2 = "tf.MatMul"(%arg4, %arg9) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x3xf32>, tensor<3x12xf32>) -> tensor<2x12xf32>
    %3 = "tf.TensorListGetItem"(%arg7, %arg2, %cst) {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<i32>, tensor<2xi32>) -> tensor<2x4xf32>
    %4 = "tf.MatMul"(%3, %arg8) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x12xf32>) -> tensor<2x12xf32>
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
    return %22, %23, %1, %20, %18, %15, %arg6, %arg7, %arg8, %arg9, %arg10 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<4x12xf32>, tensor<3x12xf32>, tensor<12xf32>
  }
  func.func private @while_cond_6250(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg4: tensor<2x3xf32>, %arg5: tensor<2x3xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg8: tensor<4x12xf32>, %arg9: tensor<3x12xf32>, %arg10: tensor<12xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime"} {
    %0 = "tf.Less"(%arg2, %arg6) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %1 : tensor<i1>
  }
}
