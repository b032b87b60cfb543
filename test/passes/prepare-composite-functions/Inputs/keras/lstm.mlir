// Keras model 'lstm': TensorFlow's input to TensorFlow Lite's prepare-composite-funcs pass,
// written by examples/make_keras_examples.py with examples/keras_to_mlir.py
// (TensorFlow 2.21.0, tf-keras). Keras' prediction for an input: the .npz beside it.
module attributes {tf.versions = {bad_consumers = [], min_consumer = 12 : i32, producer = 2474 : i32}, tf_saved_model.semantics} {
  func.func @serving_default(%arg0: tensor<2x5x3xf32> {ov.name = "x", tf_saved_model.index_path = ["x"]}) -> (tensor<2x4xf32> {ov.name = "y", tf_saved_model.index_path = ["y"]}) attributes {tf.entry_function = {control_outputs = "", inputs = "serving_default_x:0", outputs = "StatefulPartitionedCall:0"}, tf_saved_model.exported_names = ["serving_default"]} {
    %0 = "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_signature_wrapper_133330}> {_collective_manager_ids = [], _read_only_resource_inputs = [1, 2, 3], device = ""} : (tensor<2x5x3xf32>) -> tensor<2x4xf32>
    return %0 : tensor<2x4xf32>
  }
  func.func private @__inference__wrapped_model_114990(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}) -> tensor<2x4xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>], tf._original_func_name = "__inference__wrapped_model_11499", tf.signature.is_stateful} {
    %cst = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x4xf32>}> : () -> tensor<2x4xf32>
    %cst_0 = "tf.Const"() <{value = dense<[[0.264963865, 0.149946317, 0.361169875, -0.446164399, -0.18383269, 0.0277833194, 0.325654328, 5.446640e-01, 0.313494891, -0.00125385472, -0.301521212, -0.0931499823, 0.0210300293, -0.141736835, -0.190491185, -0.384221971], [-0.194880426, -0.619808614, -0.112363145, 0.118490934, -0.236831963, 0.296931177, 0.756800711, -0.11309725, -0.0673210174, 2.719190e-01, -0.19836548, 0.460213065, -0.377282917, -0.265660584, -0.220027357, -0.173878089], [0.129321456, -0.119576007, -0.600278258, -0.719455778, -0.126240373, 0.396296024, -0.494155526, -0.154849648, 0.0465705916, 0.389307529, -0.143427342, -0.0489611886, 0.0102718472, 0.01123368, 0.569525182, -0.320816278], [-0.170762599, 0.370599538, -0.227302223, -0.139675081, -0.449510515, 0.0863502919, 0.274603963, 0.0531859696, 0.249465987, -0.0734980404, -0.00331285596, -3.517190e-01, -0.216713846, 0.218530566, -0.0271535516, 0.414713442]]> : tensor<4x16xf32>}> : () -> tensor<4x16xf32>
    %0 = "tf.Identity"(%cst_0) {device = ""} : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %cst_1 = "tf.Const"() <{value = dense<[-0.0382822677, 0.170428455, 0.0067856363, 0.00274991663, 0.857084036, 1.09391367, 0.793226659, 1.13317788, 0.304787517, -0.304937214, -0.49324584, 0.123375751, 0.509579539, -0.200184971, -0.250139147, 0.117793784]> : tensor<16xf32>}> : () -> tensor<16xf32>
    %1 = "tf.Identity"(%cst_1) {device = ""} : (tensor<16xf32>) -> tensor<16xf32>
    %cst_2 = "tf.Const"() <{value = dense<[[-0.20174396, 0.571678758, 0.558807135, -0.436816305, -0.345518649, -0.34866482, -0.0567558482, -0.427208066, 0.406150043, -0.185982496, 0.170827642, -0.313858956, -0.0120091289, -0.200640708, -0.0637999773, -0.350987762], [-0.210957184, -0.0499462485, 0.363282174, -0.322092265, -0.419218868, -0.193281502, 0.400497168, 0.670830667, -0.308838189, -0.676716506, 0.397107601, -0.34624213, -0.319090188, -0.309653372, -4.961160e-02, 0.0482759178], [-4.614920e-02, -0.0749915838, -0.387958109, -0.0669816732, -0.195047885, -0.24127087, 0.430172056, 0.261265069, 6.261140e-02, -0.284149051, -1.746980e-01, 0.17973879, -0.0654207617, -0.107700951, -0.0219244603, 0.168054879]]> : tensor<3x16xf32>}> : () -> tensor<3x16xf32>
    %2 = "tf.Identity"(%cst_2) {device = ""} : (tensor<3x16xf32>) -> tensor<3x16xf32>
    %3:5 = "tf.PartitionedCall"(%arg0, %cst, %cst, %2, %0, %1) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_standard_lstm_112230}> {_collective_manager_ids = [], _read_only_resource_inputs = [], device = ""} : (tensor<2x5x3xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<2x4xf32>, tensor<2x1x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>)
    %4 = "tf.Identity"(%3#0) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    return %4 : tensor<2x4xf32>
  }
  func.func private @__inference_signature_wrapper_133330(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}) -> tensor<2x4xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>], tf._original_func_name = "__inference_signature_wrapper_13333", tf.signature.is_stateful} {
    %0 = "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference__wrapped_model_114990}> {_collective_manager_ids = [], _read_only_resource_inputs = [1, 2, 3], device = ""} : (tensor<2x5x3xf32>) -> tensor<2x4xf32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    return %1 : tensor<2x4xf32>
  }
  func.func private @__inference_standard_lstm_112230(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "inputs"}, %arg1: tensor<2x4xf32> {tf._user_specified_name = "init_h"}, %arg2: tensor<2x4xf32> {tf._user_specified_name = "init_c"}, %arg3: tensor<3x16xf32> {tf._user_specified_name = "kernel"}, %arg4: tensor<4x16xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg5: tensor<16xf32> {tf._user_specified_name = "bias"}) -> (tensor<2x4xf32>, tensor<2x1x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>, #tf_type.shape<2x4>, #tf_type.shape<2x4>, #tf_type.shape<3x16>, #tf_type.shape<4x16>, #tf_type.shape<16>], tf._original_func_name = "__inference_standard_lstm_11223", tf.api_implements = "lstm_889c1567-3fc3-49cf-b440-a14c33db3c7f", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = false} {
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
    %3:11 = "tf.While"(%cst_3, %cst_1, %cst_3, %0, %arg1, %arg2, %cst, %2, %arg3, %arg4, %arg5) <{body = @while_body_111370, cond = @while_cond_111360, is_stateless = true, parallel_iterations = 32 : i64, shape_invariant}> {_lower_using_switch_merge = true, _num_original_outputs = 11 : i64, _read_only_resource_inputs = [], _xla_propagate_compile_time_consts = true, device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>)
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
  func.func private @while_body_111370(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<2x4xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x3xf32>>> {tf._user_specified_name = "TensorArrayUnstack/TensorListFromTensor"}, %arg8: tensor<3x16xf32> {tf._user_specified_name = "kernel"}, %arg9: tensor<4x16xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg10: tensor<16xf32> {tf._user_specified_name = "bias"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<3x16>, #tf_type.shape<4x16>, #tf_type.shape<16>], tf._original_func_name = "while_body_11137"} {
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
  func.func private @while_cond_111360(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<2x4xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg8: tensor<3x16xf32>, %arg9: tensor<4x16xf32>, %arg10: tensor<16xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>], tf._original_func_name = "while_cond_11136"} {
    %0 = "tf.Less"(%arg2, %arg6) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %1 : tensor<i1>
  }
}
