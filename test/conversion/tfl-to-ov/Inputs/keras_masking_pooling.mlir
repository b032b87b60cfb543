// keras_masking_pooling: written by make_keras_models.py (tensorflow 2.21.0).
module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @main(%arg0: tensor<2x5x4xf32>) -> tensor<2x2xf32> attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_0 = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_2 = "tf.Const"() <{value = dense<2> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_3 = "tf.Const"() <{value = dense<[[-0.388266444, -0.664883852], [-0.481967747, 0.401750803], [0.352789283, -3.484540e-01]]> : tensor<3x2xf32>}> {device = ""} : () -> tensor<3x2xf32>
    %cst_4 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2xf32>}> {device = ""} : () -> tensor<2xf32>
    %cst_5 = "tf.Const"() <{value = dense<[2, 5, 3]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_6 = "tf.Const"() <{value = dense<[10, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_7 = "tf.Const"() <{value = dense<[[0.0290418267, -0.353548467, 6.275290e-01], [-0.72843188, -0.194551587, -0.580094635], [-0.00172173977, 0.901252508, 0.100467205], [-0.115806341, 0.520224571, 0.145086288]]> : tensor<4x3xf32>}> {device = ""} : () -> tensor<4x3xf32>
    %cst_8 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<3xf32>}> {device = ""} : () -> tensor<3xf32>
    %0 = "tf.Identity"(%cst_8) {_has_manual_control_dependencies = true, device = ""} : (tensor<3xf32>) -> tensor<3xf32>
    %1 = "tf.Identity"(%cst_7) {_has_manual_control_dependencies = true, device = ""} : (tensor<4x3xf32>) -> tensor<4x3xf32>
    %2 = "tf.Identity"(%cst_4) {_has_manual_control_dependencies = true, device = ""} : (tensor<2xf32>) -> tensor<2xf32>
    %3 = "tf.Identity"(%cst_3) {_has_manual_control_dependencies = true, device = ""} : (tensor<3x2xf32>) -> tensor<3x2xf32>
    %4 = "tf.NotEqual"(%arg0, %cst) <{incompatible_shape_error = true}> {device = ""} : (tensor<2x5x4xf32>, tensor<f32>) -> tensor<2x5x4xi1>
    %5 = "tf.Any"(%4, %cst_0) <{keep_dims = true}> {device = ""} : (tensor<2x5x4xi1>, tensor<i32>) -> tensor<2x5x1xi1>
    %6 = "tf.Cast"(%5) <{Truncate = false}> {device = ""} : (tensor<2x5x1xi1>) -> tensor<2x5x1xf32>
    %7 = "tf.Mul"(%arg0, %6) {device = ""} : (tensor<2x5x4xf32>, tensor<2x5x1xf32>) -> tensor<2x5x4xf32>
    %8 = "tf.Reshape"(%7, %cst_6) {device = ""} : (tensor<2x5x4xf32>, tensor<2xi32>) -> tensor<10x4xf32>
    %9 = "tf.MatMul"(%8, %1) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<10x4xf32>, tensor<4x3xf32>) -> tensor<10x3xf32>
    %10 = "tf.Reshape"(%9, %cst_5) {device = ""} : (tensor<10x3xf32>, tensor<3xi32>) -> tensor<2x5x3xf32>
    %11 = "tf.BiasAdd"(%10, %0) <{data_format = "NHWC"}> {device = ""} : (tensor<2x5x3xf32>, tensor<3xf32>) -> tensor<2x5x3xf32>
    %12 = "tf.Tanh"(%11) {device = ""} : (tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
    %13 = "tf.Squeeze"(%5) <{squeeze_dims = [-1]}> {device = ""} : (tensor<2x5x1xi1>) -> tensor<2x5xi1>
    %14 = "tf.Cast"(%13) <{Truncate = false}> {device = ""} : (tensor<2x5xi1>) -> tensor<2x5xf32>
    %15 = "tf.ExpandDims"(%14, %cst_2) {device = ""} : (tensor<2x5xf32>, tensor<i32>) -> tensor<2x5x1xf32>
    %16 = "tf.Sum"(%15, %cst_1) <{keep_dims = false}> {device = ""} : (tensor<2x5x1xf32>, tensor<i32>) -> tensor<2x1xf32>
    %17 = "tf.Mul"(%12, %15) {device = ""} : (tensor<2x5x3xf32>, tensor<2x5x1xf32>) -> tensor<2x5x3xf32>
    %18 = "tf.Sum"(%17, %cst_1) <{keep_dims = false}> {device = ""} : (tensor<2x5x3xf32>, tensor<i32>) -> tensor<2x3xf32>
    %19 = "tf.RealDiv"(%18, %16) {device = ""} : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
    %20 = "tf.MatMul"(%19, %3) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
    %21 = "tf.BiasAdd"(%20, %2) <{data_format = "NHWC"}> {device = ""} : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
    %22 = "tf.Identity"(%21) {device = ""} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    return %22 : tensor<2x2xf32>
  }
}
