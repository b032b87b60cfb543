// RUN: opt-tool %s --allow-unregistered-dialect --prepare-composite-functions 2>&1 | filecheck %s

// The embedding of upstream's first test case, with ranked types: the one-hot matmul becomes
// one tfl.embedding_lookup of the ids (argument 1) in the table (argument 0), the attribute
// becomes "embedding_lookup", tf._reference is kept.
func.func @embedding(%arg0: tensor<4096x16xf32>, %arg1: tensor<?xi32>) -> tensor<?x16xf32> attributes  {tf._implements = "embedding_matmul", tf._reference = "mlir"} {
  %0 = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %1 = "tf.ExpandDims"(%arg1, %0) : (tensor<?xi32>, tensor<i32>) -> tensor<?x1xi32>
  %2 = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %3 = "tf.Const"() {value = dense<4096> : tensor<i32>} : () -> tensor<i32>
  %4 = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %5 = "tf.Range"(%4, %3, %2) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4096xi32>
  %6 = "tf.Equal"(%1, %5) : (tensor<?x1xi32>, tensor<4096xi32>) -> tensor<?x4096xi1>
  %7 = "tf.Cast"(%6) : (tensor<?x4096xi1>) -> tensor<?x4096xf32>
  %8 = "tf.BatchMatMulV2"(%7, %arg0) {adj_x = false, adj_y = false} : (tensor<?x4096xf32>, tensor<4096x16xf32>) -> tensor<?x16xf32>
  func.return %8 : tensor<?x16xf32>
}

// Ids of any rank; a declared result less precise than the lookup's gets a tensor.cast.
func.func private @embedding_2d_ids(%arg0: tensor<10x4xf32>, %arg1: tensor<2x3xi32>) -> tensor<2x?x4xf32> attributes  {tf._implements = "embedding_matmul"}

// Already converted (a second run): not touched.
func.func @converted(%arg0: tensor<10x4xf32>, %arg1: tensor<3xi32>) -> tensor<3x4xf32> attributes  {tf._implements = "embedding_lookup"} {
  %0 = "tfl.embedding_lookup"(%arg1, %arg0) : (tensor<3xi32>, tensor<10x4xf32>) -> tensor<3x4xf32>
  func.return %0 : tensor<3x4xf32>
}

// No warning: every function above is fused.
// CHECK-NOT: warning:

// CHECK-LABEL: func.func @embedding(
// CHECK-SAME:  %arg0: tensor<4096x16xf32>, %arg1: tensor<?xi32>) -> tensor<?x16xf32> attributes {tf._implements = "embedding_lookup", tf._reference = "mlir"} {
// CHECK-NEXT:  [[VAL_1:%[0-9A-Za-z_]+]] = "tfl.embedding_lookup"(%arg1, %arg0) : (tensor<?xi32>, tensor<4096x16xf32>) -> tensor<?x16xf32>
// CHECK-NEXT:  func.return [[VAL_1]] : tensor<?x16xf32>
// CHECK-LABEL: func.func private @embedding_2d_ids(
// CHECK-SAME:  %arg0: tensor<10x4xf32>, %arg1: tensor<2x3xi32>) -> tensor<2x?x4xf32> attributes {tf._implements = "embedding_lookup"} {
// CHECK-NEXT:  [[VAL_1:%[0-9A-Za-z_]+]] = "tfl.embedding_lookup"(%arg1, %arg0) : (tensor<2x3xi32>, tensor<10x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT:  [[VAL_2:%[0-9A-Za-z_]+]] = tensor.cast [[VAL_1]] : tensor<2x3x4xf32> to tensor<2x?x4xf32>
// CHECK-NEXT:  func.return [[VAL_2]] : tensor<2x?x4xf32>
// CHECK-LABEL: func.func @converted(
// CHECK-SAME:  %arg0: tensor<10x4xf32>, %arg1: tensor<3xi32>) -> tensor<3x4xf32> attributes {tf._implements = "embedding_lookup"} {
// CHECK-NEXT:  [[VAL_1:%[0-9A-Za-z_]+]] = "tfl.embedding_lookup"(%arg1, %arg0) : (tensor<3xi32>, tensor<10x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:  func.return [[VAL_1]] : tensor<3x4xf32>
