// Keras model 'pads': TensorFlow's input to TensorFlow Lite's prepare-composite-funcs pass,
// written by examples/make_keras_examples.py with examples/keras_to_mlir.py
// (TensorFlow 2.21.0, tf-keras). Keras' prediction for an input: the .npz beside it.
module attributes {tf.versions = {bad_consumers = [], min_consumer = 12 : i32, producer = 2474 : i32}, tf_saved_model.semantics} {
  func.func @serving_default(%arg0: tensor<2x5x3xf32> {ov.name = "x", tf_saved_model.index_path = ["x"]}) -> (tensor<2x12x4xf32> {ov.name = "y", tf_saved_model.index_path = ["y"]}) attributes {tf.entry_function = {control_outputs = "", inputs = "serving_default_x:0", outputs = "StatefulPartitionedCall:0"}, tf_saved_model.exported_names = ["serving_default"]} {
    %0 = "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference_signature_wrapper_7410}> {_collective_manager_ids = [], _read_only_resource_inputs = [1, 2], device = ""} : (tensor<2x5x3xf32>) -> tensor<2x12x4xf32>
    return %0 : tensor<2x12x4xf32>
  }
  func.func private @__inference__wrapped_model_5950(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}) -> tensor<2x12x4xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>], tf._original_func_name = "__inference__wrapped_model_595", tf.signature.is_stateful} {
    %cst = "tf.Const"() <{value = dense<[[0, 0], [2, 1], [0, 0]]> : tensor<3x2xi32>}> {device = ""} : () -> tensor<3x2xi32>
    %cst_0 = "tf.Const"() <{value = dense<[[0, 0], [1, 3], [1, 0]]> : tensor<3x2xi32>}> {device = ""} : () -> tensor<3x2xi32>
    %cst_1 = "tf.Const"() <{value = dense<1.500000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_2 = "tf.Const"() <{value = dense<[[0, 0], [0, 0], [2, 1]]> : tensor<3x2xi32>}> {device = ""} : () -> tensor<3x2xi32>
    %cst_3 = "tf.Const"() <{value = dense<-3> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_4 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_5 = "tf.Const"() <{value = dense<[[0, 0], [1, 0], [0, 0]]> : tensor<3x2xi32>}> {device = ""} : () -> tensor<3x2xi32>
    %cst_6 = "tf.Const"() <{value = dense<[0.122785933, 0.120555364, -0.353543729, 0.0694060177]> : tensor<4xf32>}> : () -> tensor<4xf32>
    %cst_7 = "tf.Const"() <{value = dense<[[[-0.056875594, -0.0512950122, 0.370232165, -0.27570188], [-0.538436711, 0.284905195, -0.270634741, 0.441552579], [-0.184147671, 0.0619162619, -0.0788454413, -0.150994897], [0.364946902, 0.373184592, 0.00633139908, -0.0433766618], [0.248221472, -0.403650969, -0.488264471, 0.476375282], [-9.544250e-02, -0.813861191, -0.428857684, 0.363055319], [-0.483748496, -0.560723662, -0.0628393888, -0.459254086]], [[0.120140851, -0.111919932, -0.0295884311, 0.329881698], [0.34291476, 0.463840246, 0.288160205, -0.513163865], [0.0613331124, -0.223781407, -0.510058045, -0.318228126], [0.422677338, 0.331357032, -0.272871971, 0.137256444], [-0.426390499, -0.345277488, -0.470174491, -0.392134726], [0.0770568847, 0.361053407, 0.245421946, 0.617591143], [-0.0261639804, 0.00663136691, 0.5595209, -0.332721084]]]> : tensor<2x7x4xf32>}> : () -> tensor<2x7x4xf32>
    %0 = "tf.ExpandDims"(%cst_7, %cst_4) {device = ""} : (tensor<2x7x4xf32>, tensor<i32>) -> tensor<1x2x7x4xf32>
    %1 = "tf.MirrorPad"(%arg0, %cst) <{mode = "REFLECT"}> {device = ""} : (tensor<2x5x3xf32>, tensor<3x2xi32>) -> tensor<2x8x3xf32>
    %2 = "tf.MirrorPad"(%1, %cst_0) <{mode = "SYMMETRIC"}> {device = ""} : (tensor<2x8x3xf32>, tensor<3x2xi32>) -> tensor<2x12x4xf32>
    %3 = "tf.PadV2"(%2, %cst_2, %cst_1) {device = ""} : (tensor<2x12x4xf32>, tensor<3x2xi32>, tensor<f32>) -> tensor<2x12x7xf32>
    %4 = "tf.Pad"(%3, %cst_5) {device = ""} : (tensor<2x12x7xf32>, tensor<3x2xi32>) -> tensor<2x13x7xf32>
    %5 = "tf.ExpandDims"(%4, %cst_3) {device = ""} : (tensor<2x13x7xf32>, tensor<i32>) -> tensor<2x1x13x7xf32>
    %6 = "tf.Conv2D"(%5, %0) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "VALID", strides = [1, 1, 1, 1], use_cudnn_on_gpu = true}> {device = ""} : (tensor<2x1x13x7xf32>, tensor<1x2x7x4xf32>) -> tensor<2x1x12x4xf32>
    %7 = "tf.Squeeze"(%6) <{squeeze_dims = [-3]}> {device = ""} : (tensor<2x1x12x4xf32>) -> tensor<2x12x4xf32>
    %8 = "tf.BiasAdd"(%7, %cst_6) <{data_format = "NHWC"}> {device = ""} : (tensor<2x12x4xf32>, tensor<4xf32>) -> tensor<2x12x4xf32>
    %9 = "tf.Identity"(%8) {device = ""} : (tensor<2x12x4xf32>) -> tensor<2x12x4xf32>
    return %9 : tensor<2x12x4xf32>
  }
  func.func private @__inference_signature_wrapper_7410(%arg0: tensor<2x5x3xf32> {tf._user_specified_name = "x"}) -> tensor<2x12x4xf32> attributes {tf._construction_context = "kEagerRuntime", tf._input_shapes = [#tf_type.shape<2x5x3>], tf._original_func_name = "__inference_signature_wrapper_741", tf.signature.is_stateful} {
    %0 = "tf.StatefulPartitionedCall"(%arg0) <{config = "", config_proto = "\0A\07\0A\03CPU\10\01\0A\07\0A\03GPU\10\002\02J\008\01\82\01\00\92\01\02J\00", executor_type = "", f = @__inference__wrapped_model_5950}> {_collective_manager_ids = [], _read_only_resource_inputs = [1, 2], device = ""} : (tensor<2x5x3xf32>) -> tensor<2x12x4xf32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<2x12x4xf32>) -> tensor<2x12x4xf32>
    return %1 : tensor<2x12x4xf32>
  }
}
