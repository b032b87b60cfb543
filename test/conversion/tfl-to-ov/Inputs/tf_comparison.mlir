// tf_comparison: written by make_keras_models.py (tensorflow 2.21.0).
module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @main(%arg0: tensor<2x3x4xf32>, %arg1: tensor<3x4xf32>, %arg2: tensor<2x3x4xi1>, %arg3: tensor<4xi1>, %arg4: tensor<2xi1>, %arg5: tensor<2x3xi32>, %arg6: tensor<3xi32>) -> (tensor<2x3x4xi1>, tensor<2x3x4xi1>, tensor<i1>, tensor<i1>, tensor<2x3x4xi1>, tensor<2x3x4xi1>, tensor<2x3xi1>, tensor<2x3x4xi1>, tensor<2x3x4xi1>, tensor<2x3x4xi1>, tensor<2x3x4xi1>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x4xi1>, tensor<1x3x1xi1>, tensor<2x3x1xi1>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3xi32>, tensor<2x3xi32>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x,y,b,c,rows,i,j", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal,identity_3_RetVal,identity_4_RetVal,identity_5_RetVal,identity_6_RetVal,identity_7_RetVal,identity_8_RetVal,identity_9_RetVal,identity_10_RetVal,identity_11_RetVal,identity_12_RetVal,identity_13_RetVal,identity_14_RetVal,identity_15_RetVal,identity_16_RetVal,identity_17_RetVal,identity_18_RetVal,identity_19_RetVal,identity_20_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<2> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_0 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_1 = "tf.Const"() <{value = dense<1> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_2 = "tf.Const"() <{value = dense<0> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_3 = "tf.Const"() <{value = dense<2.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_4 = "tf.Const"() <{value = dense<[0, 2]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_5 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_6 = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.All"(%arg2, %cst_4) <{keep_dims = true}> {device = ""} : (tensor<2x3x4xi1>, tensor<2xi32>) -> tensor<1x3x1xi1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<1x3x1xi1>) -> tensor<1x3x1xi1>
    %2 = "tf.Any"(%arg2, %cst_5) <{keep_dims = false}> {device = ""} : (tensor<2x3x4xi1>, tensor<1xi32>) -> tensor<2x4xi1>
    %3 = "tf.Identity"(%2) {device = ""} : (tensor<2x4xi1>) -> tensor<2x4xi1>
    %4 = "tf.Any"(%arg2, %cst_6) <{keep_dims = true}> {device = ""} : (tensor<2x3x4xi1>, tensor<i32>) -> tensor<2x3x1xi1>
    %5 = "tf.Identity"(%4) {device = ""} : (tensor<2x3x1xi1>) -> tensor<2x3x1xi1>
    %6 = "tf.LogicalNot"(%arg2) {device = ""} : (tensor<2x3x4xi1>) -> tensor<2x3x4xi1>
    %7 = "tf.Identity"(%6) {device = ""} : (tensor<2x3x4xi1>) -> tensor<2x3x4xi1>
    %8 = "tf.LogicalAnd"(%arg2, %arg3) {device = ""} : (tensor<2x3x4xi1>, tensor<4xi1>) -> tensor<2x3x4xi1>
    %9 = "tf.Identity"(%8) {device = ""} : (tensor<2x3x4xi1>) -> tensor<2x3x4xi1>
    %10 = "tf.LogicalOr"(%arg2, %arg3) {device = ""} : (tensor<2x3x4xi1>, tensor<4xi1>) -> tensor<2x3x4xi1>
    %11 = "tf.Identity"(%10) {device = ""} : (tensor<2x3x4xi1>) -> tensor<2x3x4xi1>
    %12 = "tf.Greater"(%arg5, %arg6) {device = ""} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
    %13 = "tf.Identity"(%12) {device = ""} : (tensor<2x3xi1>) -> tensor<2x3xi1>
    %14 = "tf.Maximum"(%arg5, %arg6) {device = ""} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
    %15 = "tf.Identity"(%14) {device = ""} : (tensor<2x3xi32>) -> tensor<2x3xi32>
    %16 = "tf.Minimum"(%arg5, %arg6) {device = ""} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
    %17 = "tf.Identity"(%16) {device = ""} : (tensor<2x3xi32>) -> tensor<2x3xi32>
    %18 = "tf.StridedSlice"(%arg6, %cst_0, %cst, %cst_5) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<3xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %19 = "tf.Equal"(%arg5, %18) <{incompatible_shape_error = false}> {device = ""} : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<i1>
    %20 = "tf.Identity"(%19) {device = ""} : (tensor<i1>) -> tensor<i1>
    %21 = "tf.Neg"(%arg0) {device = ""} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %22 = "tf.Select"(%arg2, %arg0, %21) {device = ""} : (tensor<2x3x4xi1>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %23 = "tf.Identity"(%22) {device = ""} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %24 = "tf.Mul"(%arg0, %cst_3) {device = ""} : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
    %25 = "tf.Select"(%arg4, %arg0, %24) {device = ""} : (tensor<2xi1>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %26 = "tf.Identity"(%25) {device = ""} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %27 = "tf.Equal"(%arg0, %arg1) <{incompatible_shape_error = true}> {device = ""} : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xi1>
    %28 = "tf.Identity"(%27) {device = ""} : (tensor<2x3x4xi1>) -> tensor<2x3x4xi1>
    %29 = "tf.GreaterEqual"(%arg1, %arg0) {device = ""} : (tensor<3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xi1>
    %30 = "tf.Identity"(%29) {device = ""} : (tensor<2x3x4xi1>) -> tensor<2x3x4xi1>
    %31 = "tf.Less"(%arg0, %arg1) {device = ""} : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xi1>
    %32 = "tf.Identity"(%31) {device = ""} : (tensor<2x3x4xi1>) -> tensor<2x3x4xi1>
    %33 = "tf.LessEqual"(%arg0, %arg1) {device = ""} : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xi1>
    %34 = "tf.Identity"(%33) {device = ""} : (tensor<2x3x4xi1>) -> tensor<2x3x4xi1>
    %35 = "tf.Maximum"(%arg0, %arg1) {device = ""} : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
    %36 = "tf.Identity"(%35) {device = ""} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %37 = "tf.Minimum"(%arg0, %arg1) {device = ""} : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
    %38 = "tf.Identity"(%37) {device = ""} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %39 = "tf.NotEqual"(%arg0, %arg1) <{incompatible_shape_error = true}> {device = ""} : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xi1>
    %40 = "tf.Identity"(%39) {device = ""} : (tensor<2x3x4xi1>) -> tensor<2x3x4xi1>
    %41 = "tf.SelectV2"(%arg3, %arg0, %arg1) {device = ""} : (tensor<4xi1>, tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
    %42 = "tf.Identity"(%41) {device = ""} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %43 = "tf.StridedSlice"(%arg1, %cst_2, %cst_4, %cst_1) <{begin_mask = 3 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<3x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<3x2xf32>
    %44 = "tf.NotEqual"(%arg0, %43) <{incompatible_shape_error = false}> {device = ""} : (tensor<2x3x4xf32>, tensor<3x2xf32>) -> tensor<i1>
    %45 = "tf.Identity"(%44) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %28, %40, %45, %20, %32, %34, %13, %30, %9, %11, %7, %26, %23, %42, %3, %1, %5, %36, %38, %15, %17 : tensor<2x3x4xi1>, tensor<2x3x4xi1>, tensor<i1>, tensor<i1>, tensor<2x3x4xi1>, tensor<2x3x4xi1>, tensor<2x3xi1>, tensor<2x3x4xi1>, tensor<2x3x4xi1>, tensor<2x3x4xi1>, tensor<2x3x4xi1>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x4xi1>, tensor<1x3x1xi1>, tensor<2x3x1xi1>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3xi32>, tensor<2x3xi32>
  }
}
