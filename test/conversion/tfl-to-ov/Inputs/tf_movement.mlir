// tf_movement: written by make_keras_models.py (tensorflow 2.21.0).
module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @main(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x3xi32>) -> (tensor<2x3x4xi32>, tensor<2x3xf32>, tensor<2x3x4xi1>, tensor<2x2x3x4xf32>, tensor<2x2x4xf32>, tensor<2x2x2xf32>, tensor<2x3xf32>, tensor<2x1x2xf32>, tensor<2x2x3xf32>, tensor<2x3x2xf32>, tensor<2x3x2xf32>, tensor<2x1x4xf32>, tensor<2x2x4xf32>, tensor<2x4xf32>, tensor<1x3x1xf32>, tensor<2x3xf32>, tensor<1x3x4xf32>, tensor<2xf32>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x,ids", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal,identity_3_RetVal,identity_4_RetVal,identity_5_RetVal,identity_6_RetVal,identity_7_RetVal,identity_8_RetVal,identity_9_RetVal,identity_10_RetVal,identity_11_RetVal,identity_12_RetVal,identity_13_RetVal,identity_14_RetVal,identity_15_RetVal,identity_16_RetVal,identity_17_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<1> : tensor<4xi32>}> {device = ""} : () -> tensor<4xi32>
    %cst_0 = "tf.Const"() <{value = dense<[0, 0, 0, 3]> : tensor<4xi32>}> {device = ""} : () -> tensor<4xi32>
    %cst_1 = "tf.Const"() <{value = dense<[0, 0, -1, 1]> : tensor<4xi32>}> {device = ""} : () -> tensor<4xi32>
    %cst_2 = "tf.Const"() <{value = dense<[0, 1]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_3 = "tf.Const"() <{value = dense<[1, 1, -2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_4 = "tf.Const"() <{value = dense<0> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_5 = "tf.Const"() <{value = dense<[0, 1, 0]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_6 = "tf.Const"() <{value = dense<1> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_7 = "tf.Const"() <{value = dense<[0, 2]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_8 = "tf.Const"() <{value = dense<0> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_9 = "tf.Const"() <{value = dense<3.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_10 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_11 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_12 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_13 = "tf.Const"() <{value = dense<[-1, 0]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_14 = "tf.Const"() <{value = dense<[1, 2]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_15 = "tf.Const"() <{value = dense<[0, 1, 1]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_16 = "tf.Const"() <{value = dense<[-1, 2, 3]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_17 = "tf.Const"() <{value = dense<2> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_18 = "tf.Const"() <{value = dense<[1, -1]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %0 = "tf.Cast"(%arg1) <{Truncate = false}> {device = ""} : (tensor<2x3xi32>) -> tensor<2x3xf32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %2 = "tf.StridedSlice"(%arg1, %cst_8, %cst_7, %cst_6) <{begin_mask = 3 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<2x3xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x2xi32>
    %3 = "tf.Cast"(%arg0) <{Truncate = false}> {device = ""} : (tensor<2x3x4xf32>) -> tensor<2x3x4xi1>
    %4 = "tf.Identity"(%3) {device = ""} : (tensor<2x3x4xi1>) -> tensor<2x3x4xi1>
    %5 = "tf.GatherV2"(%arg0, %arg1, %cst_10) <{batch_dims = 0 : i64}> {device = ""} : (tensor<2x3x4xf32>, tensor<2x3xi32>, tensor<i32>) -> tensor<2x2x3x4xf32>
    %6 = "tf.Identity"(%5) {device = ""} : (tensor<2x2x3x4xf32>) -> tensor<2x2x3x4xf32>
    %7 = "tf.GatherV2"(%arg0, %2, %cst_10) <{batch_dims = 1 : i64}> {device = ""} : (tensor<2x3x4xf32>, tensor<2x2xi32>, tensor<i32>) -> tensor<2x2x4xf32>
    %8 = "tf.Identity"(%7) {device = ""} : (tensor<2x2x4xf32>) -> tensor<2x2x4xf32>
    %9 = "tf.Max"(%arg0, %cst_11) <{keep_dims = true}> {device = ""} : (tensor<2x3x4xf32>, tensor<1xi32>) -> tensor<1x3x4xf32>
    %10 = "tf.Identity"(%9) {device = ""} : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
    %11 = "tf.Mean"(%arg0, %cst_12) <{keep_dims = false}> {device = ""} : (tensor<2x3x4xf32>, tensor<1xi32>) -> tensor<2x4xf32>
    %12 = "tf.Identity"(%11) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %13 = "tf.Mean"(%arg0, %cst_13) <{keep_dims = true}> {device = ""} : (tensor<2x3x4xf32>, tensor<2xi32>) -> tensor<1x3x1xf32>
    %14 = "tf.Identity"(%13) {device = ""} : (tensor<1x3x1xf32>) -> tensor<1x3x1xf32>
    %15 = "tf.Min"(%arg0, %cst_14) <{keep_dims = false}> {device = ""} : (tensor<2x3x4xf32>, tensor<2xi32>) -> tensor<2xf32>
    %16 = "tf.Identity"(%15) {device = ""} : (tensor<2xf32>) -> tensor<2xf32>
    %17 = "tf.Slice"(%arg0, %cst_15, %cst_16) {device = ""} : (tensor<2x3x4xf32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x2x3xf32>
    %18 = "tf.Identity"(%17) {device = ""} : (tensor<2x2x3xf32>) -> tensor<2x2x3xf32>
    %19:2 = "tf.Split"(%cst_17, %arg0) {device = ""} : (tensor<i32>, tensor<2x3x4xf32>) -> (tensor<2x3x2xf32>, tensor<2x3x2xf32>)
    %20 = "tf.Identity"(%19#1) {device = ""} : (tensor<2x3x2xf32>) -> tensor<2x3x2xf32>
    %21 = "tf.Identity"(%19#0) {device = ""} : (tensor<2x3x2xf32>) -> tensor<2x3x2xf32>
    %22:2 = "tf.SplitV"(%arg0, %cst_18, %cst_10) {device = ""} : (tensor<2x3x4xf32>, tensor<2xi32>, tensor<i32>) -> (tensor<2x1x4xf32>, tensor<2x2x4xf32>)
    %23 = "tf.Identity"(%22#0) {device = ""} : (tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
    %24 = "tf.Identity"(%22#1) {device = ""} : (tensor<2x2x4xf32>) -> tensor<2x2x4xf32>
    %25 = "tf.Sum"(%arg0, %cst_17) <{keep_dims = false}> {device = ""} : (tensor<2x3x4xf32>, tensor<i32>) -> tensor<2x3xf32>
    %26 = "tf.Identity"(%25) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %27 = "tf.Mul"(%arg0, %cst_9) {device = ""} : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
    %28 = "tf.Cast"(%27) <{Truncate = false}> {device = ""} : (tensor<2x3x4xf32>) -> tensor<2x3x4xi32>
    %29 = "tf.Identity"(%28) {device = ""} : (tensor<2x3x4xi32>) -> tensor<2x3x4xi32>
    %30 = "tf.StridedSlice"(%arg0, %cst_5, %cst_4, %cst_3) <{begin_mask = 5 : i64, ellipsis_mask = 0 : i64, end_mask = 7 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<2x3x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x2x2xf32>
    %31 = "tf.Identity"(%30) {device = ""} : (tensor<2x2x2xf32>) -> tensor<2x2x2xf32>
    %32 = "tf.StridedSlice"(%arg0, %cst_2, %cst_7, %cst_6) <{begin_mask = 0 : i64, ellipsis_mask = 1 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 2 : i64}> {device = ""} : (tensor<2x3x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x3xf32>
    %33 = "tf.Identity"(%32) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %34 = "tf.StridedSlice"(%arg0, %cst_1, %cst_0, %cst) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 2 : i64, shrink_axis_mask = 4 : i64}> {device = ""} : (tensor<2x3x4xf32>, tensor<4xi32>, tensor<4xi32>, tensor<4xi32>) -> tensor<2x1x2xf32>
    %35 = "tf.Identity"(%34) {device = ""} : (tensor<2x1x2xf32>) -> tensor<2x1x2xf32>
    return %29, %1, %4, %6, %8, %31, %33, %35, %18, %21, %20, %23, %24, %12, %14, %26, %10, %16 : tensor<2x3x4xi32>, tensor<2x3xf32>, tensor<2x3x4xi1>, tensor<2x2x3x4xf32>, tensor<2x2x4xf32>, tensor<2x2x2xf32>, tensor<2x3xf32>, tensor<2x1x2xf32>, tensor<2x2x3xf32>, tensor<2x3x2xf32>, tensor<2x3x2xf32>, tensor<2x1x4xf32>, tensor<2x2x4xf32>, tensor<2x4xf32>, tensor<1x3x1xf32>, tensor<2x3xf32>, tensor<1x3x4xf32>, tensor<2xf32>
  }
}
