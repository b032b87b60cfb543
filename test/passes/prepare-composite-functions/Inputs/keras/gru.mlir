// Keras model 'gru': TensorFlow's input to TensorFlow Lite's prepare-composite-funcs pass,
// written by examples/make_keras_examples.py with examples/keras_to_mlir.py
// (TensorFlow 2.21.0, tf-keras). Keras' prediction for an input: the .npz beside it.
module attributes {tf.versions = {bad_consumers = [], min_consumer = 12 : i32, producer = 2474 : i32}, tf_saved_model.semantics} {
  func.func @serving_default(%arg0: tensor<2x5x3xf32> {ov.name = "x", tf_saved_model.index_path = ["x"]}) -> (tensor<2x4xf32> {ov.name = "y", tf_saved_model.index_path = ["y"]}) attributes {tf.entry_function = {control_outputs = "", inputs = "serving_default_x:0", outputs = "StatefulPartitionedCall:0"}, tf_saved_model.exported_names = ["serving_default"]} {
    %0 = "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_signature_wrapper_423420}> {_collective_manager_ids = [], _read_only_resource_inputs = [1, 2, 3], device = ""} : (tensor<2x5x3xf32>) -> tensor<2x4xf32>
    return %0 : tensor<2x4xf32>
  }
  func.func private @__inference__wrapped_model_407100(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}) -> tensor<2x4xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>], tf._original_func_name = "__inference__wrapped_model_40710", tf.signature.is_stateful} {
    %cst = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x4xf32>}> : () -> tensor<2x4xf32>
    %cst_0 = "tf.Const"() <{value = dense<[[0.340126753, -0.42812562, -0.168940425, 0.301433206, 0.695694685, 3.624420e-02, -0.289150476, -0.249744207, -0.547048688, 0.42486912, 0.0363580808, -0.0715533122], [0.620121241, -0.0283421874, 0.0255596153, 0.0989459156, -0.304922223, -0.490569383, 0.718524754, 0.395423114, -0.429834187, 0.343895257, 0.0202050433, -0.348494232], [0.0654287562, -0.39284116, 0.161448658, 0.12459293, -0.263989866, 0.508209109, -0.174896687, 0.818893909, -0.364472389, -0.119836077, 0.225056127, -0.121691748], [-0.802779197, 0.509533763, -0.00360658765, 0.396862596, -0.00318090618, -0.00208000839, -0.162713841, -0.576866925, -0.70652926, -0.387080282, -0.182332948, 0.398015648]]> : tensor<4x12xf32>}> : () -> tensor<4x12xf32>
    %0 = "tf.Identity"(%cst_0) {device = ""} : (tensor<4x12xf32>) -> tensor<4x12xf32>
    %cst_1 = "tf.Const"() <{value = dense<[[-0.206372604, 0.201808065, -0.120868191, -0.0305058621, -0.296238333, -0.295797139, -0.155692115, -0.238622129, -7.10878114E-4, -0.1405029, 0.250139415, 0.0306039415], [0.0330476388, 0.227487043, 0.103622451, -0.00746659655, -0.0181446727, -0.0241897274, 0.215344384, 0.15661712, 0.0731835887, 0.159765869, -0.108906657, 0.102204561]]> : tensor<2x12xf32>}> : () -> tensor<2x12xf32>
    %1 = "tf.Identity"(%cst_1) {device = ""} : (tensor<2x12xf32>) -> tensor<2x12xf32>
    %cst_2 = "tf.Const"() <{value = dense<[[0.0643701404, 0.090800643, 0.500177741, -0.163299486, -0.381844729, -0.213522926, -0.562276244, 0.64272058, -0.0737364292, 0.346102059, -0.184989974, 0.0942294895], [0.386243492, 0.0122626647, 0.172325909, 0.0537058711, -0.929150223, 0.782398343, -0.546012461, 0.198837265, -0.0299072266, 0.148385227, 0.529452801, -0.139631018], [0.836600422, -0.939798235, -6.725520e-02, 0.168216318, -0.15796718, -0.266420066, -0.407255381, 0.425984532, -0.3899858, 0.788982153, -0.243924275, 0.734050632]]> : tensor<3x12xf32>}> : () -> tensor<3x12xf32>
    %2 = "tf.Identity"(%cst_2) {device = ""} : (tensor<3x12xf32>) -> tensor<3x12xf32>
    %3:4 = "tf.PartitionedCall"(%arg0, %cst, %2, %0, %1) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_standard_gru_404910}> {_collective_manager_ids = [], _read_only_resource_inputs = [], device = ""} : (tensor<2x5x3xf32>, tensor<2x4xf32>, tensor<3x12xf32>, tensor<4x12xf32>, tensor<2x12xf32>) -> (tensor<2x4xf32>, tensor<2x1x4xf32>, tensor<2x4xf32>, tensor<f32>)
    %4 = "tf.Identity"(%3#0) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    return %4 : tensor<2x4xf32>
  }
  func.func private @__inference_signature_wrapper_423420(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}) -> tensor<2x4xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>], tf._original_func_name = "__inference_signature_wrapper_42342", tf.signature.is_stateful} {
    %0 = "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference__wrapped_model_407100}> {_collective_manager_ids = [], _read_only_resource_inputs = [1, 2, 3], device = ""} : (tensor<2x5x3xf32>) -> tensor<2x4xf32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    return %1 : tensor<2x4xf32>
  }
  func.func private @__inference_standard_gru_404910(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "inputs"}, %arg1: tensor<2x4xf32> {tf._user_specified_name = "init_h"}, %arg2: tensor<3x12xf32> {tf._user_specified_name = "kernel"}, %arg3: tensor<4x12xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg4: tensor<2x12xf32> {tf._user_specified_name = "bias"}) -> (tensor<2x4xf32>, tensor<2x1x4xf32>, tensor<2x4xf32>, tensor<f32>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>, #tf_type.shape<2x4>, #tf_type.shape<3x12>, #tf_type.shape<4x12>, #tf_type.shape<2x12>], tf._original_func_name = "__inference_standard_gru_40491", tf.api_implements = "gru_5d75491d-81da-40e4-a4ac-ebc09179a7bf", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = false} {
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
    %1:2 = "tf.Unpack"(%arg4) <{axis = 0 : i64}> {device = ""} : (tensor<2x12xf32>) -> (tensor<12xf32>, tensor<12xf32>)
    %2 = "tf.Transpose"(%arg0, %cst_2) {device = ""} : (tensor<2x5x3xf32>, tensor<3xi32>) -> tensor<5x2x3xf32>
    %3 = "tf.TensorListFromTensor"(%2, %cst_7) {device = ""} : (tensor<5x2x3xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %4:11 = "tf.While"(%cst_3, %cst_1, %cst_3, %0, %arg1, %cst, %3, %arg2, %1#0, %arg3, %1#1) <{body = @while_body_404010, cond = @while_cond_404000, is_stateless = true, parallel_iterations = 32 : i64, shape_invariant}> {_lower_using_switch_merge = true, _num_original_outputs = 11 : i64, _read_only_resource_inputs = [], _xla_propagate_compile_time_consts = true, device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x12xf32>, tensor<12xf32>, tensor<4x12xf32>, tensor<12xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x12xf32>, tensor<12xf32>, tensor<4x12xf32>, tensor<12xf32>)
    %5 = "tf.Identity"(%4#4) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %6 = "tf.TensorListStack"(%4#3, %cst_8) <{num_elements = 1 : i64}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2xi32>) -> tensor<1x2x4xf32>
    %7 = "tf.StridedSlice"(%6, %cst_4, %cst_6, %cst_5) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<1x2x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2x4xf32>
    %8 = "tf.Identity"(%7) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %9 = "tf.Transpose"(%6, %cst_2) {device = ""} : (tensor<1x2x4xf32>, tensor<3xi32>) -> tensor<2x1x4xf32>
    %10 = "tf.Identity"(%9) {device = ""} : (tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
    %11 = "tf.Identity"(%cst_0) {device = ""} : (tensor<f32>) -> tensor<f32>
    return %8, %10, %5, %11 : tensor<2x4xf32>, tensor<2x1x4xf32>, tensor<2x4xf32>, tensor<f32>
  }
  func.func private @while_body_404010(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg6: tensor<!tf_type.variant<tensor<2x3xf32>>> {tf._user_specified_name = "TensorArrayUnstack/TensorListFromTensor"}, %arg7: tensor<3x12xf32> {tf._user_specified_name = "kernel"}, %arg8: tensor<12xf32> {tf._user_specified_name = "unstack"}, %arg9: tensor<4x12xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg10: tensor<12xf32> {tf._user_specified_name = "unstack"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x12xf32>, tensor<12xf32>, tensor<4x12xf32>, tensor<12xf32>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<3x12>, #tf_type.shape<12>, #tf_type.shape<4x12>, #tf_type.shape<12>], tf._original_func_name = "while_body_40401"} {
    %cst = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_2 = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %0 = "tf.AddV2"(%arg2, %cst_1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i32>) -> tensor<i32>
    %2 = "tf.MatMul"(%arg4, %arg9) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x12xf32>) -> tensor<2x12xf32>
    %3 = "tf.BiasAdd"(%2, %arg10) <{data_format = "NHWC"}> {device = ""} : (tensor<2x12xf32>, tensor<12xf32>) -> tensor<2x12xf32>
    %4:3 = "tf.Split"(%cst_1, %3) {device = ""} : (tensor<i32>, tensor<2x12xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
    %5 = "tf.TensorListGetItem"(%arg6, %arg2, %cst) {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<i32>, tensor<2xi32>) -> tensor<2x3xf32>
    %6 = "tf.MatMul"(%5, %arg7) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x3xf32>, tensor<3x12xf32>) -> tensor<2x12xf32>
    %7 = "tf.BiasAdd"(%6, %arg8) <{data_format = "NHWC"}> {device = ""} : (tensor<2x12xf32>, tensor<12xf32>) -> tensor<2x12xf32>
    %8:3 = "tf.Split"(%cst_1, %7) {device = ""} : (tensor<i32>, tensor<2x12xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
    %9 = "tf.AddV2"(%8#0, %4#0) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %10 = "tf.Sigmoid"(%9) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %11 = "tf.Mul"(%10, %arg4) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %12 = "tf.Sub"(%cst_2, %10) {device = ""} : (tensor<f32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %13 = "tf.AddV2"(%8#1, %4#1) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %14 = "tf.Sigmoid"(%13) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %15 = "tf.Mul"(%14, %4#2) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %16 = "tf.AddV2"(%8#2, %15) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %17 = "tf.Tanh"(%16) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %18 = "tf.Mul"(%12, %17) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %19 = "tf.AddV2"(%11, %18) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %20 = "tf.Identity"(%19) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %21 = "tf.TensorListSetItem"(%arg3, %cst_0, %19) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<i32>, tensor<2x4xf32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %22 = "tf.Identity"(%21) {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %23 = "tf.AddV2"(%arg0, %cst_1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %24 = "tf.Identity"(%23) {device = ""} : (tensor<i32>) -> tensor<i32>
    %25 = "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<i32>
    return %24, %25, %1, %22, %20, %arg5, %arg6, %arg7, %arg8, %arg9, %arg10 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x12xf32>, tensor<12xf32>, tensor<4x12xf32>, tensor<12xf32>
  }
  func.func private @while_cond_404000(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg6: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg7: tensor<3x12xf32>, %arg8: tensor<12xf32>, %arg9: tensor<4x12xf32>, %arg10: tensor<12xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>], tf._original_func_name = "while_cond_40400"} {
    %0 = "tf.Less"(%arg2, %arg5) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %1 : tensor<i1>
  }
}
