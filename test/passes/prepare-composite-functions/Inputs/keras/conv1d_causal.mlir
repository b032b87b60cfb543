// Keras model 'conv1d_causal': TensorFlow's input to TensorFlow Lite's prepare-composite-funcs pass,
// written by examples/make_keras_examples.py with examples/keras_to_mlir.py
// (TensorFlow 2.21.0, tf-keras). Keras' prediction for an input: the .npz beside it.
module attributes {tf.versions = {bad_consumers = [], min_consumer = 12 : i32, producer = 2474 : i32}, tf_saved_model.semantics} {
  func.func @serving_default(%arg0: tensor<2x5x3xf32> {ov.name = "x", tf_saved_model.index_path = ["x"]}) -> (tensor<2x5x4xf32> {ov.name = "y", tf_saved_model.index_path = ["y"]}) attributes {tf.entry_function = {control_outputs = "", inputs = "serving_default_x:0", outputs = "StatefulPartitionedCall:0"}, tf_saved_model.exported_names = ["serving_default"]} {
    %0 = "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_signature_wrapper_1710}> {_collective_manager_ids = [], _read_only_resource_inputs = [1, 2], device = ""} : (tensor<2x5x3xf32>) -> tensor<2x5x4xf32>
    return %0 : tensor<2x5x4xf32>
  }
  func.func private @__inference__wrapped_model_880(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}) -> tensor<2x5x4xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>], tf._original_func_name = "__inference__wrapped_model_88", tf.signature.is_stateful} {
    %cst = "tf.Const"() <{value = dense<2> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_0 = "tf.Const"() <{value = dense<[[0, 1]]> : tensor<1x2xi32>}> {device = ""} : () -> tensor<1x2xi32>
    %cst_1 = "tf.Const"() <{value = dense<-3> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_2 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_3 = "tf.Const"() <{value = dense<[[0, 0], [4, 0], [0, 0]]> : tensor<3x2xi32>}> {device = ""} : () -> tensor<3x2xi32>
    %cst_4 = "tf.Const"() <{value = dense<[0.0367367081, 0.055266764, 0.121019498, -0.0513137802]> : tensor<4xf32>}> : () -> tensor<4xf32>
    %cst_5 = "tf.Const"() <{value = dense<[[[0.136891216, -0.639607549, 0.289425671, 0.0628750473], [0.00211963058, 0.339677542, 0.0824546813, -0.134731278], [-0.11755462, -0.0571504459, 0.150342435, 0.295629054]], [[-0.130745977, -0.28621006, 0.239965439, 0.304275066], [0.0543835461, -0.637422084, 0.124589324, 0.405934632], [0.237780824, -0.439652026, -0.393569112, 0.218078181]], [[-0.306441903, -0.807116985, 0.311069727, 0.245487571], [-0.00221320987, -0.405422032, -0.493553817, -0.829700469], [0.369176298, 0.438686937, -0.29269138, 0.12354961]]]> : tensor<3x3x4xf32>}> : () -> tensor<3x3x4xf32>
    %0 = "tf.ExpandDims"(%cst_5, %cst_2) {device = ""} : (tensor<3x3x4xf32>, tensor<i32>) -> tensor<1x3x3x4xf32>
    %1 = "tf.Pad"(%arg0, %cst_3) {device = ""} : (tensor<2x5x3xf32>, tensor<3x2xi32>) -> tensor<2x9x3xf32>
    %2 = "tf.SpaceToBatchND"(%1, %cst, %cst_0) {device = ""} : (tensor<2x9x3xf32>, tensor<1xi32>, tensor<1x2xi32>) -> tensor<4x5x3xf32>
    %3 = "tf.ExpandDims"(%2, %cst_1) {device = ""} : (tensor<4x5x3xf32>, tensor<i32>) -> tensor<4x1x5x3xf32>
    %4 = "tf.Conv2D"(%3, %0) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "VALID", strides = [1, 1, 1, 1], use_cudnn_on_gpu = true}> {device = ""} : (tensor<4x1x5x3xf32>, tensor<1x3x3x4xf32>) -> tensor<4x1x3x4xf32>
    %5 = "tf.Squeeze"(%4) <{squeeze_dims = [-3]}> {device = ""} : (tensor<4x1x3x4xf32>) -> tensor<4x3x4xf32>
    %6 = "tf.BatchToSpaceND"(%5, %cst, %cst_0) {device = ""} : (tensor<4x3x4xf32>, tensor<1xi32>, tensor<1x2xi32>) -> tensor<2x5x4xf32>
    %7 = "tf.BiasAdd"(%6, %cst_4) <{data_format = "NHWC"}> {device = ""} : (tensor<2x5x4xf32>, tensor<4xf32>) -> tensor<2x5x4xf32>
    %8 = "tf.Identity"(%7) {device = ""} : (tensor<2x5x4xf32>) -> tensor<2x5x4xf32>
    return %8 : tensor<2x5x4xf32>
  }
  func.func private @__inference_signature_wrapper_1710(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}) -> tensor<2x5x4xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>], tf._original_func_name = "__inference_signature_wrapper_171", tf.signature.is_stateful} {
    %0 = "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference__wrapped_model_880}> {_collective_manager_ids = [], _read_only_resource_inputs = [1, 2], device = ""} : (tensor<2x5x3xf32>) -> tensor<2x5x4xf32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<2x5x4xf32>) -> tensor<2x5x4xf32>
    return %1 : tensor<2x5x4xf32>
  }
}
