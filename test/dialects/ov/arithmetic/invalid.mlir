// RUN: opt-tool %s --split-input-file --verify-diagnostics | filecheck %s

func.func @no_broadcast(%x: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = ov.add %x, %b auto_broadcast = "none" : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
// CHECK: invalid.mlir:4:3: error: 'ov.add' op auto_broadcast = none needs equal shapes, got [2, 3] and [3]

// -----

func.func @wrong_result(%x: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  %0 = ov.add %x, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
// CHECK: error: 'ov.add' op operands are not broadcast-compatible: shapes [2, 3] and [4]
