// Keras model 'lstm_seq': TensorFlow's input to TensorFlow Lite's prepare-composite-funcs pass,
// written by examples/make_keras_examples.py with examples/keras_to_mlir.py
// (TensorFlow 2.21.0, tf-keras). Keras' prediction for an input: the .npz beside it.
module attributes {tf.versions = {bad_consumers = [], min_consumer = 12 : i32, producer = 2474 : i32}, tf_saved_model.semantics} {
  func.func @serving_default(%arg0: tensor<2x5x3xf32> {ov.name = "x", tf_saved_model.index_path = ["x"]}) -> (tensor<2x?x4xf32> {ov.name = "y", tf_saved_model.index_path = ["y"]}) attributes {tf.entry_function = {control_outputs = "", inputs = "serving_default_x:0", outputs = "StatefulPartitionedCall:0"}, tf_saved_model.exported_names = ["serving_default"]} {
    %0 = "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_signature_wrapper_230580}> {_collective_manager_ids = [], _read_only_resource_inputs = [1, 2, 3], device = ""} : (tensor<2x5x3xf32>) -> tensor<2x?x4xf32>
    return %0 : tensor<2x?x4xf32>
  }
  func.func private @__inference__wrapped_model_212540(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}) -> tensor<2x?x4xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>], tf._original_func_name = "__inference__wrapped_model_21254", tf.signature.is_stateful} {
    %cst = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x4xf32>}> : () -> tensor<2x4xf32>
    %cst_0 = "tf.Const"() <{value = dense<[[-0.367721707, 0.544208169, 0.386829048, -0.590300083, -0.0806983336, 0.312126637, 0.218635514, 0.277883172, 0.0469101071, 0.20559755, 0.154893845, -0.300573051, -0.425571203, -0.0984411239, -0.38244158, 0.0473375246], [0.306219697, -0.158597887, -0.537378132, -0.612803698, 0.353467554, 0.564203203, -0.126218259, 0.140106171, 0.234921157, -0.0243762732, -0.140258372, -0.185571074, -0.603025794, 0.255280852, 0.0294170678, 0.0190591961], [-0.279589206, 0.033779934, -0.0896184146, 0.0644193739, -0.110053249, -0.397547334, 0.217795372, 0.273684442, 0.659836769, -0.0885092914, 0.338165939, 0.073906675, -0.238885745, -0.250308692, -0.0998046696, -0.395888686], [0.0310808197, -0.356503904, -0.368896604, -0.211160198, 0.231280923, 0.116706312, 0.3556512, -0.00325395167, -0.250857711, 0.564500749, -0.244190156, -0.186961964, 0.378451139, -0.406496197, 0.19858855, -0.583389938]]> : tensor<4x16xf32>}> : () -> tensor<4x16xf32>
    %0 = "tf.Identity"(%cst_0) {device = ""} : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %cst_1 = "tf.Const"() <{value = dense<[0.0708223283, -0.393679351, 0.179854736, -0.0316495225, 0.806463718, 1.33568382, 1.15307093, 1.00916159, -0.149088681, -0.00867251772, -0.0327857509, 0.144955292, 0.15961504, -0.13355127, -0.109874114, -0.106413066]> : tensor<16xf32>}> : () -> tensor<16xf32>
    %1 = "tf.Identity"(%cst_1) {device = ""} : (tensor<16xf32>) -> tensor<16xf32>
    %cst_2 = "tf.Const"() <{value = dense<[[0.35744679, -0.612427651, 0.0572247952, -0.24002713, 0.760918676, 0.698492408, 0.405099332, -0.200796068, -0.228574932, -2.507390e-01, 0.244192183, -0.551373959, 0.466088355, -0.0978193581, -0.45337075, 0.170056194], [0.183850124, -0.529418766, -0.28477633, -0.515509844, -0.283919185, -0.327901572, 0.358416975, 0.296457678, -0.114435166, 0.559869051, 0.378777057, 0.22281909, 0.0920164585, -0.380846709, -0.0933236181, 0.560534179], [-0.208080396, 0.262849212, 0.169903621, -0.175357163, 0.169932023, 0.0655133724, 0.176958874, -0.318080693, -0.247479826, -0.200671524, -0.358851731, -0.389434189, -0.248958454, -0.0781517476, 0.332134038, -0.107604533]]> : tensor<3x16xf32>}> : () -> tensor<3x16xf32>
    %2 = "tf.Identity"(%cst_2) {device = ""} : (tensor<3x16xf32>) -> tensor<3x16xf32>
    %3:5 = "tf.PartitionedCall"(%arg0, %cst, %cst, %2, %0, %1) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_standard_lstm_209830}> {_collective_manager_ids = [], _read_only_resource_inputs = [], device = ""} : (tensor<2x5x3xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<2x4xf32>, tensor<2x?x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>)
    %4 = "tf.Identity"(%3#1) {device = ""} : (tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
    return %4 : tensor<2x?x4xf32>
  }
  func.func private @__inference_signature_wrapper_230580(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}) -> tensor<2x?x4xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>], tf._original_func_name = "__inference_signature_wrapper_23058", tf.signature.is_stateful} {
    %0 = "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference__wrapped_model_212540}> {_collective_manager_ids = [], _read_only_resource_inputs = [1, 2, 3], device = ""} : (tensor<2x5x3xf32>) -> tensor<2x?x4xf32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
    return %1 : tensor<2x?x4xf32>
  }
  func.func private @__inference_standard_lstm_209830(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "inputs"}, %arg1: tensor<2x4xf32> {tf._user_specified_name = "init_h"}, %arg2: tensor<2x4xf32> {tf._user_specified_name = "init_c"}, %arg3: tensor<3x16xf32> {tf._user_specified_name = "kernel"}, %arg4: tensor<4x16xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg5: tensor<16xf32> {tf._user_specified_name = "bias"}) -> (tensor<2x4xf32>, tensor<2x?x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>, #tf_type.shape<2x4>, #tf_type.shape<2x4>, #tf_type.shape<3x16>, #tf_type.shape<4x16>, #tf_type.shape<16>], tf._original_func_name = "__inference_standard_lstm_20983", tf.api_implements = "lstm_86042752-be63-41cd-bf5c-8adc27fba235", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = false} {
    %cst = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = "/device:CPU:0"} : () -> tensor<f32>
    %cst_0 = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_2 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_3 = "tf.Const"() <{value = dense<-1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_4 = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_5 = "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_6 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_7 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_8 = "tf.Const"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
    %0 = "tf.TensorListReserve"(%cst_5, %cst_8) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %1 = "tf.Transpose"(%arg0, %cst_1) {device = ""} : (tensor<2x5x3xf32>, tensor<3xi32>) -> tensor<5x2x3xf32>
    %2 = "tf.TensorListFromTensor"(%1, %cst_4) {device = ""} : (tensor<5x2x3xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %3:11 = "tf.While"(%cst_2, %cst_0, %cst_2, %0, %arg1, %arg2, %cst_8, %2, %arg3, %arg4, %arg5) <{body = @while_body_208980, cond = @while_cond_208970, is_stateless = true, parallel_iterations = 32 : i64, shape_invariant}> {_lower_using_switch_merge = true, _num_original_outputs = 11 : i64, _read_only_resource_inputs = [], _xla_propagate_compile_time_consts = true, device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>)
    %4 = "tf.Identity"(%3#4) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %5 = "tf.Identity"(%3#5) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %6 = "tf.TensorListStack"(%3#3, %cst_5) <{num_elements = -1 : i64}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2xi32>) -> tensor<?x2x4xf32>
    %7 = "tf.StridedSlice"(%6, %cst_3, %cst_6, %cst_7) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<?x2x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2x4xf32>
    %8 = "tf.Identity"(%7) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %9 = "tf.Transpose"(%6, %cst_1) {device = ""} : (tensor<?x2x4xf32>, tensor<3xi32>) -> tensor<2x?x4xf32>
    %10 = "tf.Identity"(%9) {device = ""} : (tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
    %11 = "tf.Identity"(%cst) {device = ""} : (tensor<f32>) -> tensor<f32>
    return %8, %10, %4, %5, %11 : tensor<2x4xf32>, tensor<2x?x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>
  }
  func.func private @while_body_208980(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<2x4xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x3xf32>>> {tf._user_specified_name = "TensorArrayUnstack/TensorListFromTensor"}, %arg8: tensor<3x16xf32> {tf._user_specified_name = "kernel"}, %arg9: tensor<4x16xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg10: tensor<16xf32> {tf._user_specified_name = "bias"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<3x16>, #tf_type.shape<4x16>, #tf_type.shape<16>], tf._original_func_name = "while_body_20898"} {
    %cst = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.AddV2"(%arg2, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i32>) -> tensor<i32>
    %2 = "tf.MatMul"(%arg4, %arg9) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x16xf32>) -> tensor<2x16xf32>
    %3 = "tf.TensorListGetItem"(%arg7, %arg2, %cst) {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<i32>, tensor<2xi32>) -> tensor<2x3xf32>
    %4 = "tf.MatMul"(%3, %arg8) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x3xf32>, tensor<3x16xf32>) -> tensor<2x16xf32>
    %5 = "tf.AddV2"(%4, %2) {device = ""} : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
    %6 = "tf.BiasAdd"(%5, %arg10) <{data_format = "NHWC"}> {device = ""} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    %7:4 = "tf.Split"(%cst_0, %6) {device = ""} : (tensor<i32>, tensor<2x16xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
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
    %19 = "tf.TensorListSetItem"(%arg3, %arg2, %17) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<i32>, tensor<2x4xf32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %20 = "tf.Identity"(%19) {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %21 = "tf.AddV2"(%arg0, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %22 = "tf.Identity"(%21) {device = ""} : (tensor<i32>) -> tensor<i32>
    %23 = "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<i32>
    return %22, %23, %1, %20, %18, %15, %arg6, %arg7, %arg8, %arg9, %arg10 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>
  }
  func.func private @while_cond_208970(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<2x4xf32>, %arg6: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg7: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg8: tensor<3x16xf32>, %arg9: tensor<4x16xf32>, %arg10: tensor<16xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>], tf._original_func_name = "while_cond_20897"} {
    %0 = "tf.Less"(%arg2, %arg6) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %1 : tensor<i1>
  }
}
