// Keras model 'gru_reset_before': TensorFlow's input to TensorFlow Lite's prepare-composite-funcs pass,
// written by examples/make_keras_examples.py with examples/keras_to_mlir.py
// (TensorFlow 2.21.0, tf-keras). Keras' prediction for an input: the .npz beside it.
module attributes {tf.versions = {bad_consumers = [], min_consumer = 12 : i32, producer = 2474 : i32}, tf_saved_model.semantics} {
  func.func @serving_default(%arg0: tensor<2x5x3xf32> {ov.name = "x", tf_saved_model.index_path = ["x"]}) -> (tensor<2x4xf32> {ov.name = "y", tf_saved_model.index_path = ["y"]}) attributes {tf.entry_function = {control_outputs = "", inputs = "serving_default_x:0", outputs = "StatefulPartitionedCall:0"}, tf_saved_model.exported_names = ["serving_default"]} {
    %0 = "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_signature_wrapper_11580}> {_collective_manager_ids = [], _read_only_resource_inputs = [1, 2, 3], device = ""} : (tensor<2x5x3xf32>) -> tensor<2x4xf32>
    return %0 : tensor<2x4xf32>
  }
  func.func private @__inference__wrapped_model_3900(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}) -> tensor<2x4xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>], tf._original_func_name = "__inference__wrapped_model_390", tf.signature.is_stateful} {
    %cst = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x4xf32>}> : () -> tensor<2x4xf32>
    %cst_0 = "tf.Const"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
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
    %3:7 = "tf.While"(%cst_3, %cst_1, %cst_3, %0, %cst, %cst_0, %2) <{body = @model_y_while_body_2930, cond = @model_y_while_cond_2920, is_stateless = false, parallel_iterations = 32 : i64, shape_invariant}> {_lower_using_switch_merge = true, _num_original_outputs = 10 : i64, _read_only_resource_inputs = [7, 8, 9], _xla_propagate_compile_time_consts = true, device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>)
    %4 = "tf.TensorListStack"(%3#3, %cst_8) <{num_elements = 1 : i64}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2xi32>) -> tensor<1x2x4xf32>
    %5 = "tf.StridedSlice"(%4, %cst_4, %cst_6, %cst_5) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<1x2x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2x4xf32>
    %6 = "tf.Identity"(%5) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    return %6 : tensor<2x4xf32>
  }
  func.func private @__inference_signature_wrapper_11580(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}) -> tensor<2x4xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>], tf._original_func_name = "__inference_signature_wrapper_1158", tf.signature.is_stateful} {
    %0 = "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference__wrapped_model_3900}> {_collective_manager_ids = [], _read_only_resource_inputs = [1, 2, 3], device = ""} : (tensor<2x5x3xf32>) -> tensor<2x4xf32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    return %1 : tensor<2x4xf32>
  }
  func.func private @model_y_while_body_2930(%arg0: tensor<i32> {tf._user_specified_name = "model/y/while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "model/y/while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<i32> {tf._user_specified_name = "model/y/strided_slice_1"}, %arg6: tensor<!tf_type.variant<tensor<2x3xf32>>> {tf._user_specified_name = "model/y/TensorArrayUnstack/TensorListFromTensor"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>) attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<>], tf._original_func_name = "model_y_while_body_293", tf.signature.is_stateful} {
    %cst = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_2 = "tf.Const"() <{value = dense<[4, 4, -1]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_3 = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_4 = "tf.Const"() <{value = dense<0> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_5 = "tf.Const"() <{value = dense<[0, 8]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_6 = "tf.Const"() <{value = dense<1> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_7 = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_8 = "tf.Const"() <{value = dense<[-6.959770e-02, -0.278241545, -0.262944132, -0.0505654067, 2.720900e-01, -0.0184213053, -0.043916028, -0.370099872, -0.121224895, -0.279016644, 0.104065552, -0.105649121]> : tensor<12xf32>}> : () -> tensor<12xf32>
    %cst_9 = "tf.Const"() <{value = dense<[[0.554116607, -0.148560643, -7.331470e-01, -0.301849484, 0.232592791, 0.710416734, 0.535325408, -0.0554392934, 0.664935171, 0.0247614235, 0.0921346545, 0.185134247], [-0.483288705, 0.78653413, 0.569874406, 0.483819842, -0.300067723, 0.339548677, -0.245647341, 0.496430695, 0.152889729, 0.111886665, -0.144846231, -0.173796296], [-1.629850e-01, 0.269673586, 0.136184201, -0.125118673, -0.432988256, 0.163400128, -0.0783246159, 0.045452591, -0.27438426, -0.425896466, -0.654424787, 0.638339221]]> : tensor<3x12xf32>}> : () -> tensor<3x12xf32>
    %cst_10 = "tf.Const"() <{value = dense<[[-0.454273105, -0.219277665, -0.698157846, 0.173801512, -0.23256287, 0.230482012, 0.474069238, -0.277441412, 0.152922302, 0.223467723, 0.453544199, 0.161594719], [5.607030e-01, -7.595180e-02, -0.446929872, 0.378044158, 0.407673746, -0.258237928, 1.289240e-01, 0.385296315, -0.113173358, -0.0931206197, -0.31992507, 0.154322028], [-0.135652348, -0.540094674, 0.636804581, 0.397889167, -0.227258414, 0.169635177, 0.0404526815, -0.0250961035, -0.255013555, -0.0371965319, 0.584760666, -0.693446636], [-0.407704026, -0.138421297, -0.242167726, 0.378090501, -0.0926477909, -0.173492447, 0.501610756, -0.236403048, -0.211085498, -0.121741235, -0.380260646, -0.0681174397]]> : tensor<4x12xf32>}> : () -> tensor<4x12xf32>
    %0 = "tf.StridedSlice"(%cst_10, %cst_4, %cst_5, %cst_6) <{begin_mask = 3 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<4x12xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<4x8xf32>
    %1 = "tf.StridedSlice"(%cst_10, %cst_5, %cst_4, %cst_6) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 3 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<4x12xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<4x4xf32>
    %2 = "tf.AddV2"(%arg0, %cst_1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = "tf.Identity"(%2) {device = ""} : (tensor<i32>) -> tensor<i32>
    %4 = "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<i32>
    %5 = "tf.AddV2"(%arg2, %cst_1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %6 = "tf.Identity"(%5) {device = ""} : (tensor<i32>) -> tensor<i32>
    %7 = "tf.MatMul"(%arg4, %0) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x8xf32>) -> tensor<2x8xf32>
    %8:3 = "tf.SplitV"(%7, %cst_2, %cst_3) {device = ""} : (tensor<2x8xf32>, tensor<3xi32>, tensor<i32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x0xf32>)
    %9 = "tf.TensorListGetItem"(%arg6, %arg2, %cst) {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<i32>, tensor<2xi32>) -> tensor<2x3xf32>
    %10 = "tf.MatMul"(%9, %cst_9) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x3xf32>, tensor<3x12xf32>) -> tensor<2x12xf32>
    %11 = "tf.BiasAdd"(%10, %cst_8) <{data_format = "NHWC"}> {device = ""} : (tensor<2x12xf32>, tensor<12xf32>) -> tensor<2x12xf32>
    %12:3 = "tf.Split"(%cst_3, %11) {device = ""} : (tensor<i32>, tensor<2x12xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
    %13 = "tf.AddV2"(%12#0, %8#0) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %14 = "tf.Sigmoid"(%13) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %15 = "tf.Mul"(%14, %arg4) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %16 = "tf.Sub"(%cst_7, %14) {device = ""} : (tensor<f32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %17 = "tf.AddV2"(%12#1, %8#1) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %18 = "tf.Sigmoid"(%17) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %19 = "tf.Mul"(%18, %arg4) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %20 = "tf.MatMul"(%19, %1) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
    %21 = "tf.AddV2"(%12#2, %20) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %22 = "tf.Tanh"(%21) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %23 = "tf.Mul"(%16, %22) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %24 = "tf.AddV2"(%15, %23) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %25 = "tf.Identity"(%24) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %26 = "tf.TensorListSetItem"(%arg3, %cst_0, %24) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<i32>, tensor<2x4xf32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %27 = "tf.Identity"(%26) {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    return %3, %4, %6, %27, %25, %arg5, %arg6 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x3xf32>>>
  }
  func.func private @model_y_while_cond_2920(%arg0: tensor<i32> {tf._user_specified_name = "model/y/while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "model/y/while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<i32> {tf._user_specified_name = "model/y/strided_slice_1"}, %arg6: tensor<!tf_type.variant<tensor<2x3xf32>>>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<2x4>, #tf_type.shape<>, #tf_type.shape<*>], tf._original_func_name = "model_y_while_cond_292"} {
    %0 = "tf.Less"(%arg2, %arg5) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %1 : tensor<i1>
  }
}
