// RUN: opt-tool %s -p test-lpt-pull-reshape-through-dequantization | filecheck %s
// PullReshapeThroughDequantization (pull_reshape_through_dequantization.cpp).

builtin.module {
  // i8 weights [4x1x1x3] -> Convert -> Subtract(per O) -> Multiply(per O) -> Reshape [4, 1, 3, 1]:
  // the per-output-channel constants [4x1x1x1] already fit the target shape; the weights
  // constant is reshaped.
  // CHECK-LABEL: func.func @reshape
  // CHECK:         %[[W:.*]] = ov.constant dense<{{\[\[\[\[}}1], [2], [3]]], {{\[\[\[}}4], [5], [6]]], {{\[\[\[}}-7], [8], [9]]], {{\[\[\[}}10], [-11], [12]]]]> : tensor<4x1x3x1xi8>
  // CHECK:         %[[C:.*]] = ov.convert %[[W]] destination_type = f32
  // CHECK:         %[[Z:.*]] = ov.constant dense<{{\[\[\[\[}}1.000000e+00]]], {{\[\[\[}}2.000000e+00]]], {{\[\[\[}}3.000000e+00]]], {{\[\[\[}}4.000000e+00]]]]> : tensor<4x1x1x1xf32>
  // CHECK:         %[[S:.*]] = ov.subtract %[[C]], %[[Z]] : (tensor<4x1x3x1xf32>, tensor<4x1x1x1xf32>)
  // CHECK:         %[[M:.*]] = ov.multiply %[[S]], %{{.*}} : (tensor<4x1x3x1xf32>, tensor<4x1x1x1xf32>) -> tensor<4x1x3x1xf32>
  // CHECK-NOT:     ov.reshape
  // CHECK:         ov.convolution %x, %[[M]]
  func.func @reshape(%x: tensor<1x1x5x5xf32>) -> tensor<1x4x5x5xf32> {
    %w = ov.constant dense<[[[[1, 2, 3]]], [[[4, 5, 6]]], [[[-7, 8, 9]]], [[[10, -11, 12]]]]> : tensor<4x1x1x3xi8>
    %c = ov.convert %w destination_type = f32 : (tensor<4x1x1x3xi8>) -> tensor<4x1x1x3xf32>
    %z = ov.constant dense<[[[[1.0]]], [[[2.0]]], [[[3.0]]], [[[4.0]]]]> : tensor<4x1x1x1xf32>
    %s = ov.subtract %c, %z : (tensor<4x1x1x3xf32>, tensor<4x1x1x1xf32>) -> tensor<4x1x1x3xf32>
    %k = ov.constant dense<[[[[0.1]]], [[[0.2]]], [[[0.3]]], [[[0.4]]]]> : tensor<4x1x1x1xf32>
    %m = ov.multiply %s, %k : (tensor<4x1x1x3xf32>, tensor<4x1x1x1xf32>) -> tensor<4x1x1x3xf32>
    %shape = ov.constant dense<[4, 1, 3, 1]> : tensor<4xi64>
    %r = ov.reshape %m, %shape special_zero = false : (tensor<4x1x1x3xf32>, tensor<4xi64>) -> tensor<4x1x3x1xf32>
    %y = ov.convolution %x, %r {strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 0>, pads_end = array<i64: 1, 0>, dilations = array<i64: 1, 1>} : (tensor<1x1x5x5xf32>, tensor<4x1x3x1xf32>) -> tensor<1x4x5x5xf32>
    func.return %y : tensor<1x4x5x5xf32>
  }

  // Per-channel constants [6x1] on weights [6x4] reshaped to [2, 3, 4, 1, 1] (a group
  // convolution filter): updateReshapeValues gives the constant shape [2, 3, 1, 1, 1]. The
  // consumer is a GroupConvolution, so upstream skips it (NEXT); through an Add it is pulled.
  // CHECK-LABEL: func.func @grouped
  // CHECK:         %[[W:.*]] = ov.constant dense<{{.*}}> : tensor<2x3x4x1x1xi8>
  // CHECK:         %[[K:.*]] = ov.constant dense<{{\[\[\[\[\[}}1.000000e+00]]], {{\[\[\[}}2.000000e+00]]], {{\[\[\[}}3.000000e+00]]]], {{\[\[\[\[}}4.000000e+00]]], {{\[\[\[}}5.000000e+00]]], {{\[\[\[}}6.000000e+00]]]]]> : tensor<2x3x1x1x1xf32>
  // CHECK:         ov.multiply %{{.*}}, %[[K]] : (tensor<2x3x4x1x1xf32>, tensor<2x3x1x1x1xf32>)
  // CHECK-NOT:     ov.reshape
  // CHECK-LABEL: func.func @group_convolution
  // CHECK:         ov.reshape
  // CHECK:         ov.group_convolution
  func.func @grouped(%b: tensor<2x3x4x1x1xf32>) -> tensor<2x3x4x1x1xf32> {
    %w = ov.constant dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16], [17, 18, 19, 20], [21, 22, 23, 24]]> : tensor<6x4xi8>
    %c = ov.convert %w destination_type = f32 : (tensor<6x4xi8>) -> tensor<6x4xf32>
    %k = ov.constant dense<[[1.0], [2.0], [3.0], [4.0], [5.0], [6.0]]> : tensor<6x1xf32>
    %m = ov.multiply %c, %k : (tensor<6x4xf32>, tensor<6x1xf32>) -> tensor<6x4xf32>
    %shape = ov.constant dense<[2, 3, 4, 1, 1]> : tensor<5xi64>
    %r = ov.reshape %m, %shape special_zero = false : (tensor<6x4xf32>, tensor<5xi64>) -> tensor<2x3x4x1x1xf32>
    %y = ov.add %r, %b : (tensor<2x3x4x1x1xf32>, tensor<2x3x4x1x1xf32>) -> tensor<2x3x4x1x1xf32>
    func.return %y : tensor<2x3x4x1x1xf32>
  }
  func.func @group_convolution(%x: tensor<1x8x3x3xf32>) -> tensor<1x6x3x3xf32> {
    %w = ov.constant dense<1> : tensor<6x4xi8>
    %c = ov.convert %w destination_type = f32 : (tensor<6x4xi8>) -> tensor<6x4xf32>
    %k = ov.constant dense<[[1.0], [2.0], [3.0], [4.0], [5.0], [6.0]]> : tensor<6x1xf32>
    %m = ov.multiply %c, %k : (tensor<6x4xf32>, tensor<6x1xf32>) -> tensor<6x4xf32>
    %shape = ov.constant dense<[2, 3, 4, 1, 1]> : tensor<5xi64>
    %r = ov.reshape %m, %shape special_zero = false : (tensor<6x4xf32>, tensor<5xi64>) -> tensor<2x3x4x1x1xf32>
    %y = ov.group_convolution %x, %r {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x8x3x3xf32>, tensor<2x3x4x1x1xf32>) -> tensor<1x6x3x3xf32>
    func.return %y : tensor<1x6x3x3xf32>
  }
}
