// tf_shapes: written by make_keras_models.py (tensorflow 2.21.0).
module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @main(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x1x3x1xf32>) -> (tensor<6x4xf32>, tensor<2x12xf32>, tensor<4x2x3xf32>, tensor<2x3x4x1xf32>, tensor<2x1x3x4xf32>, tensor<2x3x1xf32>, tensor<2x3xf32>, tensor<2x3x4x2xf32>, tensor<2x3x3x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<3xi64>, tensor<4x2xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x,y", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal,identity_3_RetVal,identity_4_RetVal,identity_5_RetVal,identity_6_RetVal,identity_7_RetVal,identity_8_RetVal,identity_9_RetVal,identity_10_RetVal,identity_11_RetVal,identity_12_RetVal,identity_13_RetVal,identity_14_RetVal,identity_15_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<[2, 3, 4]> : tensor<3xi64>}> : () -> tensor<3xi64>
    %cst_0 = "tf.Const"() <{value = dense<[4, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
    %cst_1 = "tf.Const"() <{value = dense<[2, -1]> : tensor<2xi32>}> : () -> tensor<2xi32>
    %cst_2 = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_3 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_4 = "tf.Const"() <{value = dense<[-1, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_5 = "tf.Const"() <{value = dense<[2, 0, 1]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_6 = "tf.Const"() <{value = dense<2.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_7 = "tf.Const"() <{value = dense<0> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_8 = "tf.Const"() <{value = dense<1> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %0 = "tf.ExpandDims"(%arg0, %cst_2) {device = ""} : (tensor<2x3x4xf32>, tensor<i32>) -> tensor<2x3x4x1xf32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<2x3x4x1xf32>) -> tensor<2x3x4x1xf32>
    %2 = "tf.ExpandDims"(%arg0, %cst_3) {device = ""} : (tensor<2x3x4xf32>, tensor<i32>) -> tensor<2x1x3x4xf32>
    %3 = "tf.Identity"(%2) {device = ""} : (tensor<2x1x3x4xf32>) -> tensor<2x1x3x4xf32>
    %4 = "tf.OnesLike"(%arg0) {device = ""} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %5 = "tf.Identity"(%4) {device = ""} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %6 = "tf.Pack"(%arg0, %arg0, %arg0) <{axis = 1 : i64}> {device = ""} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x3x4xf32>
    %7 = "tf.Identity"(%6) {device = ""} : (tensor<2x3x3x4xf32>) -> tensor<2x3x3x4xf32>
    %8 = "tf.Reshape"(%arg0, %cst_4) {device = ""} : (tensor<2x3x4xf32>, tensor<2xi32>) -> tensor<6x4xf32>
    %9 = "tf.Identity"(%8) {device = ""} : (tensor<6x4xf32>) -> tensor<6x4xf32>
    %10 = "tf.Reshape"(%arg0, %cst_1) {device = ""} : (tensor<2x3x4xf32>, tensor<2xi32>) -> tensor<2x12xf32>
    %11 = "tf.Identity"(%10) {device = ""} : (tensor<2x12xf32>) -> tensor<2x12xf32>
    %12 = "tf.Identity"(%cst) {device = ""} : (tensor<3xi64>) -> tensor<3xi64>
    %13 = "tf.Transpose"(%arg0, %cst_5) {device = ""} : (tensor<2x3x4xf32>, tensor<3xi32>) -> tensor<4x2x3xf32>
    %14 = "tf.Identity"(%13) {device = ""} : (tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
    %15:3 = "tf.Unpack"(%arg0) <{axis = 1 : i64}> {device = ""} : (tensor<2x3x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
    %16 = "tf.Identity"(%15#1) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %17 = "tf.Identity"(%15#2) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %18 = "tf.Identity"(%15#0) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %19 = "tf.ZerosLike"(%arg0) {device = ""} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %20 = "tf.Identity"(%19) {device = ""} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %21 = "tf.Mul"(%arg0, %cst_6) {device = ""} : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
    %22 = "tf.Pack"(%arg0, %21) <{axis = -1 : i64}> {device = ""} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4x2xf32>
    %23 = "tf.Identity"(%22) {device = ""} : (tensor<2x3x4x2xf32>) -> tensor<2x3x4x2xf32>
    %24 = "tf.StridedSlice"(%arg0, %cst_7, %cst_8, %cst_8) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 7 : i64}> {device = ""} : (tensor<2x3x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<f32>
    %25 = "tf.Fill"(%cst_0, %24) {device = ""} : (tensor<2xi32>, tensor<f32>) -> tensor<4x2xf32>
    %26 = "tf.Identity"(%25) {device = ""} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %27 = "tf.Squeeze"(%arg1) <{squeeze_dims = [1]}> {device = ""} : (tensor<2x1x3x1xf32>) -> tensor<2x3x1xf32>
    %28 = "tf.Identity"(%27) {device = ""} : (tensor<2x3x1xf32>) -> tensor<2x3x1xf32>
    %29 = "tf.Squeeze"(%arg1) <{squeeze_dims = []}> {device = ""} : (tensor<2x1x3x1xf32>) -> tensor<2x3xf32>
    %30 = "tf.Identity"(%29) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    return %9, %11, %14, %1, %3, %28, %30, %23, %7, %18, %16, %17, %12, %26, %20, %5 : tensor<6x4xf32>, tensor<2x12xf32>, tensor<4x2x3xf32>, tensor<2x3x4x1xf32>, tensor<2x1x3x4xf32>, tensor<2x3x1xf32>, tensor<2x3xf32>, tensor<2x3x4x2xf32>, tensor<2x3x3x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<3xi64>, tensor<4x2xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>
  }
}
