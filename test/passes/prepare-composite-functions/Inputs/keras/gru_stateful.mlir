// Keras model 'gru_stateful': TensorFlow's input to TensorFlow Lite's prepare-composite-funcs pass,
// written by examples/make_keras_examples.py with examples/keras_to_mlir.py
// (TensorFlow 2.21.0, tf-keras). Keras' prediction for an input: the .npz beside it.
module attributes {tf.versions = {bad_consumers = [], min_consumer = 12 : i32, producer = 2474 : i32}, tf_saved_model.semantics} {
  "tf_saved_model.session_initializer"() <{initializers = [@NoOp]}> : () -> ()
  func.func @NoOp() attributes {tf_saved_model.exported_names = ["__tf_saved_model_session_initializer_NoOp"], tf_saved_model.initializer_type = "init_op"} {
    %0 = "tf.VarHandleOp"() <{container = "", shared_name = "y/Variable"}> : () -> tensor<!tf_type.resource<tensor<2x4xf32>>>
    %cst = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x4xf32>}> : () -> tensor<2x4xf32>
    "tf.AssignVariableOp"(%0, %cst) <{validate_shape = false}> : (tensor<!tf_type.resource<tensor<2x4xf32>>>, tensor<2x4xf32>) -> ()
    return
  }
  func.func @serving_default(%arg0: tensor<2x5x3xf32> {ov.name = "x", tf_saved_model.index_path = ["x"]}) -> (tensor<2x?x4xf32> {ov.name = "y", tf_saved_model.index_path = ["y"]}) attributes {tf.entry_function = {control_outputs = "", inputs = "serving_default_x:0", outputs = "StatefulPartitionedCall:0"}, tf_saved_model.exported_names = ["serving_default"]} {
    %0 = "tf.VarHandleOp"() <{container = "", shared_name = "y/Variable"}> : () -> tensor<!tf_type.resource<tensor<2x4xf32>>>
    %1 = "tf.StatefulPartitionedCall"(%arg0, %0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_signature_wrapper_123350}> {_collective_manager_ids = [], _read_only_resource_inputs = [2, 3, 4], device = ""} : (tensor<2x5x3xf32>, tensor<!tf_type.resource<tensor<2x4xf32>>>) -> tensor<2x?x4xf32>
    return %1 : tensor<2x?x4xf32>
  }
  func.func private @__inference__wrapped_model_107410(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}, %arg1: tensor<!tf_type.resource<tensor<2x4xf32>>> {tf._user_specified_name = "resource"}) -> tensor<2x?x4xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>, #tf_type.shape<>], tf._original_func_name = "__inference__wrapped_model_10741", tf.signature.is_stateful} {
    %cst = "tf.Const"() <{value = dense<[[0.456329048, -0.84364587, 0.81793797, -0.280685276, 0.156569362, -0.345457882, 0.308400959, -0.0860489383, -0.169053108, 0.313873529, -0.316622794, -0.188479617], [-0.392671049, 0.522731125, 0.379953265, -0.0374488384, -0.204353362, 0.0471047461, 0.631159186, -0.63016206, -0.12778458, 0.313220561, 0.0805763602, -0.148334295], [-0.374492854, 0.523744226, -0.182062894, -0.144325137, 0.206720322, 0.585582435, 0.581879616, -0.397522748, -0.0091843605, 0.212285638, -0.689273596, 0.41553849]]> : tensor<3x12xf32>}> : () -> tensor<3x12xf32>
    %0 = "tf.Identity"(%cst) {device = ""} : (tensor<3x12xf32>) -> tensor<3x12xf32>
    %cst_0 = "tf.Const"() <{value = dense<[[-0.125741407, -0.0633813366, -0.00654920936, 0.123748064, -0.0985284447, -0.726808429, 0.152379692, 0.00858969986, 4.599350e-01, 0.392427206, 0.171482503, 0.0726632476], [-0.190629378, 0.460138559, 0.194446161, -0.0693026483, -0.0992990508, 0.33995524, 0.135155797, -0.148762941, 0.0189139843, -0.152887195, 0.589868128, -6.825930e-02], [-0.204415619, -0.26565823, -0.201413423, -8.336200e-02, 0.160191357, 0.185460031, -0.161588624, 0.022845149, 0.340539187, -0.569034815, -0.070328325, -0.153830409], [0.836215734, 0.336233914, -0.117995799, 0.45497191, 0.0201012827, 0.00886089727, 0.260069549, 0.309493572, 0.147792161, -0.626339912, -0.149191692, 0.630233585]]> : tensor<4x12xf32>}> : () -> tensor<4x12xf32>
    %1 = "tf.Identity"(%cst_0) {device = ""} : (tensor<4x12xf32>) -> tensor<4x12xf32>
    %cst_1 = "tf.Const"() <{value = dense<[[0.168600917, -0.101331346, -0.204040781, -0.0371093266, -0.23873046, -6.801940e-02, 0.330220073, 0.0264143683, 0.233257681, -0.0445241071, 0.0738831088, 0.277166098], [-0.267187506, -0.069495596, -3.137970e-02, 0.0563962348, 0.310733348, 0.137105405, -0.299533308, -0.0541944094, -0.178728685, -0.1838094, 0.40496555, -0.212594137]]> : tensor<2x12xf32>}> : () -> tensor<2x12xf32>
    %2 = "tf.Identity"(%cst_1) {device = ""} : (tensor<2x12xf32>) -> tensor<2x12xf32>
    %3 = "tf.ReadVariableOp"(%arg1) {device = ""} : (tensor<!tf_type.resource<tensor<2x4xf32>>>) -> tensor<2x4xf32>
    %4 = "tf.Identity"(%3) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %5:4 = "tf.PartitionedCall"(%arg0, %4, %0, %1, %2) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_standard_gru_105270}> {_collective_manager_ids = [], _read_only_resource_inputs = [], device = ""} : (tensor<2x5x3xf32>, tensor<2x4xf32>, tensor<3x12xf32>, tensor<4x12xf32>, tensor<2x12xf32>) -> (tensor<2x4xf32>, tensor<2x?x4xf32>, tensor<2x4xf32>, tensor<f32>)
    "tf.AssignVariableOp"(%arg1, %5#2) <{validate_shape = true}> {device = ""} : (tensor<!tf_type.resource<tensor<2x4xf32>>>, tensor<2x4xf32>) -> ()
    %6 = "tf.Identity"(%5#1) {device = ""} : (tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
    return %6 : tensor<2x?x4xf32>
  }
  func.func private @__inference_signature_wrapper_123350(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}, %arg1: tensor<!tf_type.resource<tensor<2x4xf32>>> {tf._user_specified_name = "12325"}) -> tensor<2x?x4xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>, #tf_type.shape<>], tf._original_func_name = "__inference_signature_wrapper_12335", tf.signature.is_stateful} {
    %0 = "tf.StatefulPartitionedCall"(%arg0, %arg1) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference__wrapped_model_107410}> {_collective_manager_ids = [], _read_only_resource_inputs = [2, 3, 4], device = ""} : (tensor<2x5x3xf32>, tensor<!tf_type.resource<tensor<2x4xf32>>>) -> tensor<2x?x4xf32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
    return %1 : tensor<2x?x4xf32>
  }
  func.func private @__inference_standard_gru_105270(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "inputs"}, %arg1: tensor<2x4xf32> {tf._user_specified_name = "init_h"}, %arg2: tensor<3x12xf32> {tf._user_specified_name = "kernel"}, %arg3: tensor<4x12xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg4: tensor<2x12xf32> {tf._user_specified_name = "bias"}) -> (tensor<2x4xf32>, tensor<2x?x4xf32>, tensor<2x4xf32>, tensor<f32>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>, #tf_type.shape<2x4>, #tf_type.shape<3x12>, #tf_type.shape<4x12>, #tf_type.shape<2x12>], tf._original_func_name = "__inference_standard_gru_10527", tf.api_implements = "gru_756e128d-6e85-4e45-8d61-43f1d40be998", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = false} {
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
    %0:2 = "tf.Unpack"(%arg4) <{axis = 0 : i64}> {device = ""} : (tensor<2x12xf32>) -> (tensor<12xf32>, tensor<12xf32>)
    %1 = "tf.TensorListReserve"(%cst_8, %cst) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %2 = "tf.Transpose"(%arg0, %cst_2) {device = ""} : (tensor<2x5x3xf32>, tensor<3xi32>) -> tensor<5x2x3xf32>
    %3 = "tf.TensorListFromTensor"(%2, %cst_7) {device = ""} : (tensor<5x2x3xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %4:11 = "tf.While"(%cst_3, %cst_1, %cst_3, %1, %arg1, %cst, %3, %arg2, %0#0, %arg3, %0#1) <{body = @while_body_104380, cond = @while_cond_104370, is_stateless = true, parallel_iterations = 32 : i64, shape_invariant}> {_lower_using_switch_merge = true, _num_original_outputs = 11 : i64, _read_only_resource_inputs = [], _xla_propagate_compile_time_consts = true, device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x12xf32>, tensor<12xf32>, tensor<4x12xf32>, tensor<12xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x12xf32>, tensor<12xf32>, tensor<4x12xf32>, tensor<12xf32>)
    %5 = "tf.Identity"(%4#4) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %6 = "tf.TensorListStack"(%4#3, %cst_8) <{num_elements = -1 : i64}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2xi32>) -> tensor<?x2x4xf32>
    %7 = "tf.StridedSlice"(%6, %cst_4, %cst_6, %cst_5) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<?x2x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2x4xf32>
    %8 = "tf.Identity"(%7) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %9 = "tf.Transpose"(%6, %cst_2) {device = ""} : (tensor<?x2x4xf32>, tensor<3xi32>) -> tensor<2x?x4xf32>
    %10 = "tf.Identity"(%9) {device = ""} : (tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
    %11 = "tf.Identity"(%cst_0) {device = ""} : (tensor<f32>) -> tensor<f32>
    return %8, %10, %5, %11 : tensor<2x4xf32>, tensor<2x?x4xf32>, tensor<2x4xf32>, tensor<f32>
  }
  func.func private @while_body_104380(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg6: tensor<!tf_type.variant<tensor<2x3xf32>>> {tf._user_specified_name = "TensorArrayUnstack/TensorListFromTensor"}, %arg7: tensor<3x12xf32> {tf._user_specified_name = "kernel"}, %arg8: tensor<12xf32> {tf._user_specified_name = "unstack"}, %arg9: tensor<4x12xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg10: tensor<12xf32> {tf._user_specified_name = "unstack"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x12xf32>, tensor<12xf32>, tensor<4x12xf32>, tensor<12xf32>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<3x12>, #tf_type.shape<12>, #tf_type.shape<4x12>, #tf_type.shape<12>], tf._original_func_name = "while_body_10438"} {
    %cst = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %0 = "tf.AddV2"(%arg2, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i32>) -> tensor<i32>
    %2 = "tf.MatMul"(%arg4, %arg9) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x12xf32>) -> tensor<2x12xf32>
    %3 = "tf.BiasAdd"(%2, %arg10) <{data_format = "NHWC"}> {device = ""} : (tensor<2x12xf32>, tensor<12xf32>) -> tensor<2x12xf32>
    %4:3 = "tf.Split"(%cst_0, %3) {device = ""} : (tensor<i32>, tensor<2x12xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
    %5 = "tf.TensorListGetItem"(%arg6, %arg2, %cst) {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<i32>, tensor<2xi32>) -> tensor<2x3xf32>
    %6 = "tf.MatMul"(%5, %arg7) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x3xf32>, tensor<3x12xf32>) -> tensor<2x12xf32>
    %7 = "tf.BiasAdd"(%6, %arg8) <{data_format = "NHWC"}> {device = ""} : (tensor<2x12xf32>, tensor<12xf32>) -> tensor<2x12xf32>
    %8:3 = "tf.Split"(%cst_0, %7) {device = ""} : (tensor<i32>, tensor<2x12xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
    %9 = "tf.AddV2"(%8#0, %4#0) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %10 = "tf.Sigmoid"(%9) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %11 = "tf.Mul"(%10, %arg4) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %12 = "tf.Sub"(%cst_1, %10) {device = ""} : (tensor<f32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %13 = "tf.AddV2"(%8#1, %4#1) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %14 = "tf.Sigmoid"(%13) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %15 = "tf.Mul"(%14, %4#2) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %16 = "tf.AddV2"(%8#2, %15) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %17 = "tf.Tanh"(%16) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %18 = "tf.Mul"(%12, %17) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %19 = "tf.AddV2"(%11, %18) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %20 = "tf.Identity"(%19) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %21 = "tf.TensorListSetItem"(%arg3, %arg2, %19) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<i32>, tensor<2x4xf32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %22 = "tf.Identity"(%21) {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %23 = "tf.AddV2"(%arg0, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %24 = "tf.Identity"(%23) {device = ""} : (tensor<i32>) -> tensor<i32>
    %25 = "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<i32>
    return %24, %25, %1, %22, %20, %arg5, %arg6, %arg7, %arg8, %arg9, %arg10 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x12xf32>, tensor<12xf32>, tensor<4x12xf32>, tensor<12xf32>
  }
  func.func private @while_cond_104370(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg6: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg7: tensor<3x12xf32>, %arg8: tensor<12xf32>, %arg9: tensor<4x12xf32>, %arg10: tensor<12xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>], tf._original_func_name = "while_cond_10437"} {
    %0 = "tf.Less"(%arg2, %arg5) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %1 : tensor<i1>
  }
}
