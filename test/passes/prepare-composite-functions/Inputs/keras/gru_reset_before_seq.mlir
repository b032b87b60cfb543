// Keras model 'gru_reset_before_seq': TensorFlow's input to TensorFlow Lite's prepare-composite-funcs pass,
// written by examples/make_keras_examples.py with examples/keras_to_mlir.py
// (TensorFlow 2.21.0, tf-keras). Keras' prediction for an input: the .npz beside it.
module attributes {tf.versions = {bad_consumers = [], min_consumer = 12 : i32, producer = 2474 : i32}, tf_saved_model.semantics} {
  func.func @serving_default(%arg0: tensor<2x5x3xf32> {ov.name = "x", tf_saved_model.index_path = ["x"]}) -> (tensor<2x?x4xf32> {ov.name = "y", tf_saved_model.index_path = ["y"]}) attributes {tf.entry_function = {control_outputs = "", inputs = "serving_default_x:0", outputs = "StatefulPartitionedCall:0"}, tf_saved_model.exported_names = ["serving_default"]} {
    %0 = "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_signature_wrapper_11460}> {_collective_manager_ids = [], _read_only_resource_inputs = [1, 2, 3], device = ""} : (tensor<2x5x3xf32>) -> tensor<2x?x4xf32>
    return %0 : tensor<2x?x4xf32>
  }
  func.func private @__inference__wrapped_model_3860(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}) -> tensor<2x?x4xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>], tf._original_func_name = "__inference__wrapped_model_386", tf.signature.is_stateful} {
    %cst = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x4xf32>}> : () -> tensor<2x4xf32>
    %cst_0 = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_2 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_3 = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_4 = "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_5 = "tf.Const"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
    %0 = "tf.TensorListReserve"(%cst_4, %cst_5) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %1 = "tf.Transpose"(%arg0, %cst_1) {device = ""} : (tensor<2x5x3xf32>, tensor<3xi32>) -> tensor<5x2x3xf32>
    %2 = "tf.TensorListFromTensor"(%1, %cst_3) {device = ""} : (tensor<5x2x3xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %3:7 = "tf.While"(%cst_2, %cst_0, %cst_2, %0, %cst, %cst_5, %2) <{body = @model_y_while_body_2900, cond = @model_y_while_cond_2890, is_stateless = false, parallel_iterations = 32 : i64, shape_invariant}> {_lower_using_switch_merge = true, _num_original_outputs = 10 : i64, _read_only_resource_inputs = [7, 8, 9], _xla_propagate_compile_time_consts = true, device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>)
    %4 = "tf.TensorListStack"(%3#3, %cst_4) <{num_elements = -1 : i64}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2xi32>) -> tensor<?x2x4xf32>
    %5 = "tf.Transpose"(%4, %cst_1) {device = ""} : (tensor<?x2x4xf32>, tensor<3xi32>) -> tensor<2x?x4xf32>
    %6 = "tf.Identity"(%5) {device = ""} : (tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
    return %6 : tensor<2x?x4xf32>
  }
  func.func private @__inference_signature_wrapper_11460(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}) -> tensor<2x?x4xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>], tf._original_func_name = "__inference_signature_wrapper_1146", tf.signature.is_stateful} {
    %0 = "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference__wrapped_model_3860}> {_collective_manager_ids = [], _read_only_resource_inputs = [1, 2, 3], device = ""} : (tensor<2x5x3xf32>) -> tensor<2x?x4xf32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<2x?x4xf32>) -> tensor<2x?x4xf32>
    return %1 : tensor<2x?x4xf32>
  }
  func.func private @model_y_while_body_2900(%arg0: tensor<i32> {tf._user_specified_name = "model/y/while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "model/y/while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<i32> {tf._user_specified_name = "model/y/strided_slice_1"}, %arg6: tensor<!tf_type.variant<tensor<2x3xf32>>> {tf._user_specified_name = "model/y/TensorArrayUnstack/TensorListFromTensor"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<>], tf._original_func_name = "model_y_while_body_290", tf.signature.is_stateful} {
    %cst = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<[4, 4, -1]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_2 = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_3 = "tf.Const"() <{value = dense<0> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_4 = "tf.Const"() <{value = dense<[0, 8]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_5 = "tf.Const"() <{value = dense<1> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_6 = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_7 = "tf.Const"() <{value = dense<[0.158074141, 0.355605841, 0.321856648, 0.156204671, 0.418419063, -0.0711053907, 0.43507117, 0.419692606, -0.0684649497, 0.0826291516, -0.257364452, -0.205243424]> : tensor<12xf32>}> : () -> tensor<12xf32>
    %cst_8 = "tf.Const"() <{value = dense<[[-0.0713956356, 0.404263854, 0.285243809, -0.0217233226, -3.55578959E-4, 0.731423736, -0.261970907, -0.215113238, 0.026056096, -0.107359052, 0.165853038, -0.0270030722], [-0.0482604615, 0.478773892, -0.331344962, 0.302754372, -0.482272744, 0.799953699, -0.405807942, -0.523028731, -0.612142324, 0.214728624, 0.654268384, -2.825820e-01], [-0.0537665486, 0.23503685, 0.355672538, -0.11888127, -0.324372351, -0.42682606, -0.417944729, -0.387858868, 0.506019592, -0.171141714, 0.449524581, -0.344323784]]> : tensor<3x12xf32>}> : () -> tensor<3x12xf32>
    %cst_9 = "tf.Const"() <{value = dense<[[0.149650544, 0.579746068, -0.500464499, 0.323567182, -0.210373506, -0.413151711, -0.156299248, -0.0219406374, 0.064713031, 0.412505865, 0.0615052953, 0.579953551], [0.342776418, -0.63383454, 0.0641385614, 0.16930978, -0.176082343, -0.0310333818, 0.0471474677, 0.370681435, 0.449419081, -0.89943552, 0.431909382, -0.0219058171], [0.032629177, -0.024391491, 0.317764133, 0.0502198264, 0.0640403926, 0.492336303, -0.313633412, 2.822830e-01, 0.219678819, 9.120190e-02, -0.217560694, -0.462356746], [0.237828046, -0.256814867, 0.532988548, 5.735420e-01, 0.0316992588, -0.387251914, 0.186240375, -0.0380850136, 0.0092626512, -0.111605242, -0.782622576, -0.126734808]]> : tensor<4x12xf32>}> : () -> tensor<4x12xf32>
    %0 = "tf.StridedSlice"(%cst_9, %cst_3, %cst_4, %cst_5) <{begin_mask = 3 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<4x12xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<4x8xf32>
    %1 = "tf.StridedSlice"(%cst_9, %cst_4, %cst_3, %cst_5) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 3 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<4x12xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<4x4xf32>
    %2 = "tf.AddV2"(%arg0, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = "tf.Identity"(%2) {device = ""} : (tensor<i32>) -> tensor<i32>
    %4 = "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<i32>
    %5 = "tf.AddV2"(%arg2, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %6 = "tf.Identity"(%5) {device = ""} : (tensor<i32>) -> tensor<i32>
    %7 = "tf.MatMul"(%arg4, %0) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x8xf32>) -> tensor<2x8xf32>
    %8:3 = "tf.SplitV"(%7, %cst_1, %cst_2) {device = ""} : (tensor<2x8xf32>, tensor<3xi32>, tensor<i32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x0xf32>)
    %9 = "tf.TensorListGetItem"(%arg6, %arg2, %cst) {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<i32>, tensor<2xi32>) -> tensor<2x3xf32>
    %10 = "tf.MatMul"(%9, %cst_8) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x3xf32>, tensor<3x12xf32>) -> tensor<2x12xf32>
    %11 = "tf.BiasAdd"(%10, %cst_7) <{data_format = "NHWC"}> {device = ""} : (tensor<2x12xf32>, tensor<12xf32>) -> tensor<2x12xf32>
    %12:3 = "tf.Split"(%cst_2, %11) {device = ""} : (tensor<i32>, tensor<2x12xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
    %13 = "tf.AddV2"(%12#0, %8#0) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %14 = "tf.Sigmoid"(%13) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %15 = "tf.Mul"(%14, %arg4) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %16 = "tf.Sub"(%cst_6, %14) {device = ""} : (tensor<f32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %17 = "tf.AddV2"(%12#1, %8#1) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %18 = "tf.Sigmoid"(%17) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %19 = "tf.Mul"(%18, %arg4) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %20 = "tf.MatMul"(%19, %1) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
    %21 = "tf.AddV2"(%12#2, %20) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %22 = "tf.Tanh"(%21) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %23 = "tf.Mul"(%16, %22) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %24 = "tf.AddV2"(%15, %23) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %25 = "tf.Identity"(%24) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %26 = "tf.TensorListSetItem"(%arg3, %arg2, %24) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<i32>, tensor<2x4xf32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %27 = "tf.Identity"(%26) {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    return %3, %4, %6, %27, %25, %arg5, %arg6 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>
  }
  func.func private @model_y_while_cond_2890(%arg0: tensor<i32> {tf._user_specified_name = "model/y/while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "model/y/while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<i32> {tf._user_specified_name = "model/y/strided_slice_1"}, %arg6: tensor<!tf_type.variant<tensor<2x3xf32>>>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<*>], tf._original_func_name = "model_y_while_cond_289"} {
    %0 = "tf.Less"(%arg2, %arg5) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %1 : tensor<i1>
  }
}
