// tf_convolution: written by make_keras_models.py (tensorflow 2.21.0).
module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @main(%arg0: tensor<2x7x6x3xf32>, %arg1: tensor<3x2x3x4xf32>, %arg2: tensor<2x5x4xf32>, %arg3: tensor<1x3x4x2xf32>) -> (tensor<2x5x5x4xf32>, tensor<2x4x3x4xf32>, tensor<2x7x6x4xf32>, tensor<2x4x6x4xf32>, tensor<2x5x2xf32>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x,w,seq,w1", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal,identity_3_RetVal,identity_4_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<0> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<1> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %0 = "tf.StridedSlice"(%arg2, %cst, %cst, %cst_0) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 2 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<2x5x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x1x5x4xf32>
    %1 = "tf.Conv2D"(%0, %arg3) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "SAME", strides = [1, 1, 1, 1], use_cudnn_on_gpu = true}> {device = ""} : (tensor<2x1x5x4xf32>, tensor<1x3x4x2xf32>) -> tensor<2x1x5x2xf32>
    %2 = "tf.Squeeze"(%1) <{squeeze_dims = [1]}> {device = ""} : (tensor<2x1x5x2xf32>) -> tensor<2x5x2xf32>
    %3 = "tf.Identity"(%2) {device = ""} : (tensor<2x5x2xf32>) -> tensor<2x5x2xf32>
    %4 = "tf.Conv2D"(%arg0, %arg1) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "VALID", strides = [1, 1, 1, 1], use_cudnn_on_gpu = true}> {device = ""} : (tensor<2x7x6x3xf32>, tensor<3x2x3x4xf32>) -> tensor<2x5x5x4xf32>
    %5 = "tf.Identity"(%4) {device = ""} : (tensor<2x5x5x4xf32>) -> tensor<2x5x5x4xf32>
    %6 = "tf.Conv2D"(%arg0, %arg1) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "SAME", strides = [1, 2, 2, 1], use_cudnn_on_gpu = true}> {device = ""} : (tensor<2x7x6x3xf32>, tensor<3x2x3x4xf32>) -> tensor<2x4x3x4xf32>
    %7 = "tf.Identity"(%6) {device = ""} : (tensor<2x4x3x4xf32>) -> tensor<2x4x3x4xf32>
    %8 = "tf.Conv2D"(%arg0, %arg1) <{data_format = "NHWC", dilations = [1, 2, 1, 1], explicit_paddings = [], padding = "SAME", strides = [1, 1, 1, 1], use_cudnn_on_gpu = true}> {device = ""} : (tensor<2x7x6x3xf32>, tensor<3x2x3x4xf32>) -> tensor<2x7x6x4xf32>
    %9 = "tf.Identity"(%8) {device = ""} : (tensor<2x7x6x4xf32>) -> tensor<2x7x6x4xf32>
    %10 = "tf.Conv2D"(%arg0, %arg1) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [0, 0, 1, 2, 0, 1, 0, 0], padding = "EXPLICIT", strides = [1, 2, 1, 1], use_cudnn_on_gpu = true}> {device = ""} : (tensor<2x7x6x3xf32>, tensor<3x2x3x4xf32>) -> tensor<2x4x6x4xf32>
    %11 = "tf.Identity"(%10) {device = ""} : (tensor<2x4x6x4xf32>) -> tensor<2x4x6x4xf32>
    return %5, %7, %9, %11, %3 : tensor<2x5x5x4xf32>, tensor<2x4x3x4xf32>, tensor<2x7x6x4xf32>, tensor<2x4x6x4xf32>, tensor<2x5x2xf32>
  }
}
