// tf_matmul: written by make_keras_models.py (tensorflow 2.21.0).
module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @main(%arg0: tensor<3x4xf32>, %arg1: tensor<4x3xf32>, %arg2: tensor<2x3x4xf32>, %arg3: tensor<2x5x4xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>, tensor<2x3x5xf32>, tensor<2x4x5xf32>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "a,b,c,d", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal,identity_3_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<1> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_0 = "tf.Const"() <{value = dense<[1, 0, 3]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_1 = "tf.Const"() <{value = dense<0> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %0 = "tf.MatMul"(%arg0, %arg1) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<3x4xf32>, tensor<4x3xf32>) -> tensor<3x3xf32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<3x3xf32>) -> tensor<3x3xf32>
    %2 = "tf.MatMul"(%arg1, %arg0) <{grad_a = false, grad_b = false, transpose_a = true, transpose_b = true}> {device = ""} : (tensor<4x3xf32>, tensor<3x4xf32>) -> tensor<3x3xf32>
    %3 = "tf.Identity"(%2) {device = ""} : (tensor<3x3xf32>) -> tensor<3x3xf32>
    %4 = "tf.BatchMatMulV2"(%arg2, %arg3) <{adj_x = false, adj_y = true, grad_x = false, grad_y = false}> {device = ""} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
    %5 = "tf.Identity"(%4) {device = ""} : (tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
    %6 = "tf.StridedSlice"(%arg3, %cst_1, %cst_0, %cst) <{begin_mask = 7 : i64, ellipsis_mask = 0 : i64, end_mask = 2 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<2x5x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<1x5x3xf32>
    %7 = "tf.BatchMatMulV2"(%arg2, %6) <{adj_x = true, adj_y = true, grad_x = false, grad_y = false}> {device = ""} : (tensor<2x3x4xf32>, tensor<1x5x3xf32>) -> tensor<2x4x5xf32>
    %8 = "tf.Identity"(%7) {device = ""} : (tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
    return %1, %3, %5, %8 : tensor<3x3xf32>, tensor<3x3xf32>, tensor<2x3x5xf32>, tensor<2x4x5xf32>
  }
}
