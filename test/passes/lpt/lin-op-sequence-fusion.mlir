// RUN: opt-tool %s -p test-lpt-lin-op-sequence-fusion | filecheck %s
// LinOpSequenceFusion (lin_op_sequence_fusion.cpp): AddMultiplyFusion, AddAddFusion,
// MultiplyMultiplyFusion.

builtin.module {
  // (x + [1, 2, 3]) * 0.5 -> x * 0.5 + [0.5, 1, 1.5] (the Add takes the Multiply's name).
  // CHECK-LABEL: func.func @add_multiply
  // CHECK:         %[[AB:.*]] = ov.constant dense<{{\[\[\[\[}}5.000000e-01]], {{\[\[}}1.000000e+00]], {{\[\[}}1.500000e+00]]]]> : tensor<1x3x1x1xf32>
  // CHECK:         %[[M:.*]] = ov.multiply %x, %b
  // CHECK:         ov.add %[[M]], %[[AB]] {ov.name = "mul"}
  func.func @add_multiply(%x: tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32> {
    %a = ov.constant dense<[[[[1.0]], [[2.0]], [[3.0]]]]> : tensor<1x3x1x1xf32>
    %b = ov.constant dense<0.5> : tensor<f32>
    %0 = ov.add %x, %a : (tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x4x4xf32>
    %1 = ov.multiply %0, %b {ov.name = "mul"} : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    func.return %1 : tensor<1x3x4x4xf32>
  }
  // [1, 2, 3] + (x + 1.5) -> x + [2.5, 3.5, 4.5].
  // CHECK-LABEL: func.func @add_add
  // CHECK:         %[[C:.*]] = ov.constant dense<{{\[\[\[\[}}2.500000e+00]], {{\[\[}}3.500000e+00]], {{\[\[}}4.500000e+00]]]]> : tensor<1x3x1x1xf32>
  // CHECK:         ov.add %x, %[[C]]
  // CHECK-NOT:     ov.add
  func.func @add_add(%x: tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32> {
    %a = ov.constant dense<1.5> : tensor<f32>
    %b = ov.constant dense<[[[[1.0]], [[2.0]], [[3.0]]]]> : tensor<1x3x1x1xf32>
    %0 = ov.add %x, %a : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    %1 = ov.add %b, %0 : (tensor<1x3x1x1xf32>, tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
    func.return %1 : tensor<1x3x4x4xf32>
  }
  // x * 2 * 3 * 0.25 -> x * 1.5 (the fused Multiply is visited again).
  // CHECK-LABEL: func.func @multiply_chain
  // CHECK:         %[[C:.*]] = ov.constant dense<1.500000e+00> : tensor<f32>
  // CHECK:         ov.multiply %x, %[[C]]
  // CHECK-NOT:     ov.multiply
  func.func @multiply_chain(%x: tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32> {
    %a = ov.constant dense<2.0> : tensor<f32>
    %b = ov.constant dense<3.0> : tensor<f32>
    %c = ov.constant dense<0.25> : tensor<f32>
    %0 = ov.multiply %x, %a : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    %1 = ov.multiply %0, %b : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    %2 = ov.multiply %1, %c : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    func.return %2 : tensor<1x3x4x4xf32>
  }
  // The Add has a second user: unchanged.
  // CHECK-LABEL: func.func @shared
  // CHECK:         %[[A:.*]] = ov.add %x, %a
  // CHECK:         ov.multiply %[[A]], %b
  func.func @shared(%x: tensor<1x3x4x4xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) {
    %a = ov.constant dense<1.0> : tensor<f32>
    %b = ov.constant dense<0.5> : tensor<f32>
    %0 = ov.add %x, %a : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    %1 = ov.multiply %0, %b : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    func.return %1, %0 : tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>
  }
}
