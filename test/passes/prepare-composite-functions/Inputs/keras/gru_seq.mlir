// Keras model 'gru_seq': TensorFlow's input to TensorFlow Lite's prepare-composite-funcs pass,
// written by examples/make_keras_examples.py with examples/keras_to_mlir.py
// (TensorFlow 2.21.0, tf-keras). Keras' prediction for an input: the .npz beside it.
module attributes {tf.versions = {bad_consumers = [], min_consumer = 12 : i32, producer = 2474 : i32}, tf_saved_model.semantics} {
  func.func @serving_default(%arg0: tensor<2x5x3xf32> {ov.name = "x", tf_saved_model.index_path = ["x"]}) -> (tensor<2x?x4xf32> {ov.name = "y", tf_saved_model.index_path = ["y"]}) attributes {tf.entry_function = {control_outputs = "", inputs = "serving_default_x:0", outputs = "StatefulPartitionedCall:0"}, tf_saved_model.exported_names = ["serving_default"]} {
    %0 = "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_signature_wrapper_509830}> {_collective_manager_ids = [], _read_only_resource_inputs = [1, 2, 3], device = ""} : (tensor<2x5x3xf32>) -> tensor<2x?x4xf32>
    return %0 : tensor<2x?x4xf32>
  }
  func.func private @__inference__wrapped_model_493810(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}) -> tensor<2x?x4xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>], tf._original_func_name = "__inference__wrapped_model_49381", tf.signature.is_stateful} {
    %cst = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x4xf32>}> : () -> tensor<2x4xf32>
    %cst_0 = "tf.Const"() <{value = dense<[[-2.590320e-01, -0.523703277, -0.428489983, -0.567218542, -0.102635771, 0.0763426349, -0.799450755, -0.242451102, -9.746800e-02, 0.161552817, 0.312571675, -0.703889132], [-0.145426571, 0.0258400775, 0.00320239365, 0.0530943424, 0.306017667, 0.110540256, -0.377691507, -0.0921878218, 0.917119265, 0.277429968, 0.0427625179, 0.025302954], [-0.0145609379, -0.272366166, 0.147948831, 0.106891923, 0.610940277, -0.0854668766, 0.115415327, -0.576084912, 0.310498416, 0.191917688, 0.155519933, 0.357551664], [-0.015139496, 3.259290e-01, 0.334444523, -0.434801787, -4.838190e-01, -0.0914491117, 0.219987243, -0.650831699, -0.423684597, 0.0356590599, -0.302905381, -0.245624095]]> : tensor<4x12xf32>}> : () -> tensor<4x12xf32>
    %0 = "tf.Identity"(%cst_0) {device = ""} : (tensor<4x12xf32>) -> tensor<4x12xf32>
    %cst_1 = "tf.Const"() <{value = dense<[[-0.254415631, 0.122798614, -0.239341542, -0.0644876286, -0.00135230809, -0.0890670716, -0.0108187925, 0.267754704, -0.103378832, -0.251861423, -0.367349148, -0.0409532227], [-7.045140e-02, 0.0530181825, -0.0928489193, -0.0957276895, -0.144263148, -0.103951953, 0.032045342, -0.0760705471, 0.0200883709, 0.38023743, 0.0958236307, -0.315217972]]> : tensor<2x12xf32>}> : () -> tensor<2x12xf32>
    %1 = "tf.Identity"(%cst_1) {device = ""} : (tensor<2x12xf32>) -> tensor<2x12xf32>
    %cst_2 = "tf.Const"() <{value = dense<[[0.144623503, 0.00160506368, -0.220459893, 4.619220e-01, 0.803846836, 0.309688419, 0.223618105, -0.0581260324, -0.266427219, 0.513490319, 0.352544904, -0.699100434], [-0.0733095109, 0.535654128, -0.0688166916, 0.118759334, 0.394491613, -0.194719478, 0.364547163, -0.626487791, -0.708992839, -0.196448773, -0.475646645, 0.395647049], [0.193948239, 0.116969422, -0.331911296, 0.153830022, -0.45507735, -0.0462398231, -0.242182106, -0.400080889, 0.120294482, 0.188435316, 0.420736611, -0.00616306812]]> : tensor<3x12xf32>}> : () -> tensor<3x12xf32>
    %2 = "tf.Identity"(%cst_2) {device = ""} : (tensor<3x12xf32>) -> tensor<3x12xf32>
    %3:4 = "tf.PartitionedCall"(%arg0, %cst, %2, %0, %1) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_standard_gru_491670}> {_collective_manager_ids = [], _read_only_resource_inputs = [], device = ""} : (tensor<2x5x3xf32>, tensor<2x4xf32>, tensor<3x12xf32>, tensor<4x12xf32>, tensor<2x12xf32>) -> (tensor<2x4xf32>, tensor<2x?x4xf32>, tensor<2x4xf32>, tensor<f32>)
    %4 = "tf.Identity"(%3#1) {device = ""} : (tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
    return %4 : tensor<2x?x4xf32>
  }
  func.func private @__inference_signature_wrapper_509830(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}) -> tensor<2x?x4xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>], tf._original_func_name = "__inference_signature_wrapper_50983", tf.signature.is_stateful} {
    %0 = "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference__wrapped_model_493810}> {_collective_manager_ids = [], _read_only_resource_inputs = [1, 2, 3], device = ""} : (tensor<2x5x3xf32>) -> tensor<2x?x4xf32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
    return %1 : tensor<2x?x4xf32>
  }
  func.func private @__inference_standard_gru_491670(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "inputs"}, %arg1: tensor<2x4xf32> {tf._user_specified_name = "init_h"}, %arg2: tensor<3x12xf32> {tf._user_specified_name = "kernel"}, %arg3: tensor<4x12xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg4: tensor<2x12xf32> {tf._user_specified_name = "bias"}) -> (tensor<2x4xf32>, tensor<2x?x4xf32>, tensor<2x4xf32>, tensor<f32>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>, #tf_type.shape<2x4>, #tf_type.shape<3x12>, #tf_type.shape<4x12>, #tf_type.shape<2x12>], tf._original_func_name = "__inference_standard_gru_49167", tf.api_implements = "gru_2dbe5192-8f4b-4917-90fe-6909e67f2b72", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = false} {
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
    %4:11 = "tf.While"(%cst_3, %cst_1, %cst_3, %1, %arg1, %cst, %3, %arg2, %0#0, %arg3, %0#1) <{body = @while_body_490780, cond = @while_cond_490770, is_stateless = true, parallel_iterations = 32 : i64, shape_invariant}> {_lower_using_switch_merge = true, _num_original_outputs = 11 : i64, _read_only_resource_inputs = [], _xla_propagate_compile_time_consts = true, device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x12xf32>, tensor<12xf32>, tensor<4x12xf32>, tensor<12xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x12xf32>, tensor<12xf32>, tensor<4x12xf32>, tensor<12xf32>)
    %5 = "tf.Identity"(%4#4) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %6 = "tf.TensorListStack"(%4#3, %cst_8) <{num_elements = -1 : i64}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2xi32>) -> tensor<?x2x4xf32>
    %7 = "tf.StridedSlice"(%6, %cst_4, %cst_6, %cst_5) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<?x2x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2x4xf32>
    %8 = "tf.Identity"(%7) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %9 = "tf.Transpose"(%6, %cst_2) {device = ""} : (tensor<?x2x4xf32>, tensor<3xi32>) -> tensor<2x?x4xf32>
    %10 = "tf.Identity"(%9) {device = ""} : (tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
    %11 = "tf.Identity"(%cst_0) {device = ""} : (tensor<f32>) -> tensor<f32>
    return %8, %10, %5, %11 : tensor<2x4xf32>, tensor<2x?x4xf32>, tensor<2x4xf32>, tensor<f32>
  }
  func.func private @while_body_490780(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg6: tensor<!tf_type.variant<tensor<2x3xf32>>> {tf._user_specified_name = "TensorArrayUnstack/TensorListFromTensor"}, %arg7: tensor<3x12xf32> {tf._user_specified_name = "kernel"}, %arg8: tensor<12xf32> {tf._user_specified_name = "unstack"}, %arg9: tensor<4x12xf32> {tf._user_specified_name = "recurrent_kernel"}, %arg10: tensor<12xf32> {tf._user_specified_name = "unstack"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x12xf32>, tensor<12xf32>, tensor<4x12xf32>, tensor<12xf32>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<3x12>, #tf_type.shape<12>, #tf_type.shape<4x12>, #tf_type.shape<12>], tf._original_func_name = "while_body_49078"} {
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
  func.func private @while_cond_490770(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg6: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg7: tensor<3x12xf32>, %arg8: tensor<12xf32>, %arg9: tensor<4x12xf32>, %arg10: tensor<12xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>, #tf_type.shape<*>], tf._original_func_name = "while_cond_49077"} {
    %0 = "tf.Less"(%arg2, %arg5) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %1 : tensor<i1>
  }
}
