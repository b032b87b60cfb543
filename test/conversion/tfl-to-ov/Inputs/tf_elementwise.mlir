// tf_elementwise: written by make_keras_models.py (tensorflow 2.21.0).
module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @main(%arg0: tensor<2x4xf32>, %arg1: tensor<2x4xf32>, %arg2: tensor<4xf32>, %arg3: tensor<2x3x2x2xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x3x2x2xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x3x2x2xf32>, tensor<2x4xf32>, tensor<2x4xf32>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x,y,bias,image", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal,identity_3_RetVal,identity_4_RetVal,identity_5_RetVal,identity_6_RetVal,identity_7_RetVal,identity_8_RetVal,identity_9_RetVal,identity_10_RetVal,identity_11_RetVal,identity_12_RetVal,identity_13_RetVal,identity_14_RetVal,identity_15_RetVal,identity_16_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_0 = "tf.Const"() <{value = dense<3> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_1 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_2 = "tf.Const"() <{value = dense<4.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %0 = "tf.Softmax"(%arg3) {device = ""} : (tensor<2x3x2x2xf32>) -> tensor<2x3x2x2xf32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<2x3x2x2xf32>) -> tensor<2x3x2x2xf32>
    %2 = "tf.StridedSlice"(%arg2, %cst_1, %cst_0, %cst) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xf32>
    %3 = "tf.BiasAdd"(%arg3, %2) <{data_format = "NCHW"}> {device = ""} : (tensor<2x3x2x2xf32>, tensor<3xf32>) -> tensor<2x3x2x2xf32>
    %4 = "tf.Identity"(%3) {device = ""} : (tensor<2x3x2x2xf32>) -> tensor<2x3x2x2xf32>
    %5 = "tf.BiasAdd"(%arg0, %arg2) <{data_format = "NHWC"}> {device = ""} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    %6 = "tf.Identity"(%5) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %7 = "tf.Exp"(%arg0) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %8 = "tf.Identity"(%7) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %9 = "tf.LeakyRelu"(%arg0) <{alpha = 3.000000e-01 : f32}> {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %10 = "tf.Identity"(%9) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %11 = "tf.Neg"(%arg0) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %12 = "tf.Identity"(%11) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %13 = "tf.Relu"(%arg0) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %14 = "tf.Identity"(%13) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %15 = "tf.Sigmoid"(%arg0) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %16 = "tf.Identity"(%15) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %17 = "tf.Softmax"(%arg0) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %18 = "tf.Identity"(%17) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %19 = "tf.Square"(%arg0) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %20 = "tf.Identity"(%19) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %21 = "tf.SquaredDifference"(%arg0, %arg2) {device = ""} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    %22 = "tf.Identity"(%21) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %23 = "tf.Sub"(%arg0, %arg2) {device = ""} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
    %24 = "tf.Identity"(%23) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %25 = "tf.Tanh"(%arg0) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %26 = "tf.Identity"(%25) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %27 = "tf.Mul"(%arg0, %cst_2) {device = ""} : (tensor<2x4xf32>, tensor<f32>) -> tensor<2x4xf32>
    %28 = "tf.Relu6"(%27) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %29 = "tf.Identity"(%28) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %30 = "tf.AddV2"(%arg0, %arg1) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %31 = "tf.Identity"(%30) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %32 = "tf.Mul"(%arg0, %arg1) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %33 = "tf.Identity"(%32) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %34 = "tf.RealDiv"(%arg0, %arg1) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %35 = "tf.Identity"(%34) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    return %31, %24, %33, %35, %6, %4, %26, %16, %14, %29, %8, %20, %12, %18, %1, %10, %22 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x3x2x2xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x3x2x2xf32>, tensor<2x4xf32>, tensor<2x4xf32>
  }
}
