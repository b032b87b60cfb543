// RUN: opt-tool %s -p test-lpt-pull-transpose-through-dequantization | filecheck %s
// PullTransposeThroughDequantization (pull_transpose_through_dequantization.cpp).

builtin.module {
  // i8 weights [2x3] -> Convert -> Subtract(1) -> Multiply([[0.5], [0.25]]) -> Transpose(1, 0):
  // the weights constant is transposed, the scalar zero point broadcast to [1x1] and the scale
  // transposed to [[0.5, 0.25]]; the dequantization now feeds the MatMul.
  // CHECK-LABEL: func.func @transpose
  // CHECK:         %[[W:.*]] = ov.constant dense<{{\[\[}}1, 4], [-2, 5], [3, -6]]> : tensor<3x2xi8>
  // CHECK:         %[[C:.*]] = ov.convert %[[W]] destination_type = f32
  // CHECK:         %[[Z:.*]] = ov.constant dense<1> : tensor<1x1xi8>
  // CHECK:         %[[ZC:.*]] = ov.convert %[[Z]] destination_type = f32
  // CHECK:         %[[S:.*]] = ov.subtract %[[C]], %[[ZC]] : (tensor<3x2xf32>, tensor<1x1xf32>)
  // CHECK:         %[[K:.*]] = ov.constant dense<{{\[\[}}5.000000e-01, 2.500000e-01]]> : tensor<1x2xf32>
  // CHECK:         %[[M:.*]] = ov.multiply %[[S]], %[[K]] : (tensor<3x2xf32>, tensor<1x2xf32>) -> tensor<3x2xf32>
  // CHECK-NOT:     ov.transpose
  // CHECK:         ov.mat_mul %x, %[[M]]
  func.func @transpose(%x: tensor<1x3xf32>) -> tensor<1x2xf32> {
    %w = ov.constant dense<[[1, -2, 3], [4, 5, -6]]> : tensor<2x3xi8>
    %c = ov.convert %w destination_type = f32 : (tensor<2x3xi8>) -> tensor<2x3xf32>
    %z = ov.constant dense<1> : tensor<i8>
    %zc = ov.convert %z destination_type = f32 : (tensor<i8>) -> tensor<f32>
    %s = ov.subtract %c, %zc : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    %k = ov.constant dense<[[0.5], [0.25]]> : tensor<2x1xf32>
    %m = ov.multiply %s, %k : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
    %o = ov.constant dense<[1, 0]> : tensor<2xi64>
    %t = ov.transpose %m, %o : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
    %y = ov.mat_mul %x, %t : (tensor<1x3xf32>, tensor<3x2xf32>) -> tensor<1x2xf32>
    func.return %y : tensor<1x2xf32>
  }
  // Float weights are not a dequantization pattern.
  // CHECK-LABEL: func.func @float_weights
  // CHECK:         ov.transpose
  func.func @float_weights(%x: tensor<1x3xf32>) -> tensor<1x2xf32> {
    %w = ov.constant dense<[[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]]> : tensor<2x3xf32>
    %k = ov.constant dense<[[0.5], [0.25]]> : tensor<2x1xf32>
    %m = ov.multiply %w, %k : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
    %o = ov.constant dense<[1, 0]> : tensor<2xi64>
    %t = ov.transpose %m, %o : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
    %y = ov.mat_mul %x, %t : (tensor<1x3xf32>, tensor<3x2xf32>) -> tensor<1x2xf32>
    func.return %y : tensor<1x2xf32>
  }
}
