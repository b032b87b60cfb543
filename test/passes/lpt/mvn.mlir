// RUN: opt-tool %s -p test-lpt-mvn | filecheck %s
// MVNTransformation (mvn.cpp): MVN(u8) -> f32, then Multiply(sign(scales)) (the scales when the
// variance is not normalized). Across channels only with per-tensor scales; no zero point.

builtin.module {
  // spatial axes, per-channel scales [0.02, -0.03, 0.04] -> signs [1, -1, 1]
  // CHECK-LABEL: func.func @per_channel
  // CHECK:         %[[MVN:.*]] = ov.mvn %x, %ax {{.*}} : (tensor<1x3x4x4xui8>, tensor<2xi64>) -> tensor<1x3x4x4xf32>
  // CHECK:         %[[S:.*]] = ov.constant dense<{{\[\[\[\[}}1.000000e+00]], {{\[\[}}-1.000000e+00]], {{\[\[}}1.000000e+00]]]]> : tensor<1x3x1x1xf32>
  // CHECK:         ov.multiply %[[MVN]], %[[S]]
  func.func @per_channel(%x: tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32>
    %s = ov.constant dense<[[[[0.02]], [[-0.03]], [[0.04]]]]> : tensor<1x3x1x1xf32>
    %m = ov.multiply %c, %s : (tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x4x4xf32>
    %ax = ov.constant dense<[2, 3]> : tensor<2xi64>
    %y = ov.mvn %m, %ax {eps = 1.0e-9 : f32, eps_mode = #ov<mvn_eps_mode inside_sqrt>} : (tensor<1x3x4x4xf32>, tensor<2xi64>) -> tensor<1x3x4x4xf32>
    func.return %y : tensor<1x3x4x4xf32>
  }

  // no variance normalization: the scale 0.02 itself moves after
  // CHECK-LABEL: func.func @no_variance
  // CHECK:         %[[MVN:.*]] = ov.mvn %x, %ax {{.*}} : (tensor<1x3x4x4xui8>, tensor<3xi64>) -> tensor<1x3x4x4xf32>
  // CHECK:         %[[S:.*]] = ov.constant dense<2.000000e-02> : tensor<f32>
  // CHECK:         ov.multiply %[[MVN]], %[[S]]
  func.func @no_variance(%x: tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32>
    %s = ov.constant dense<0.02> : tensor<f32>
    %m = ov.multiply %c, %s : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    %ax = ov.constant dense<[1, 2, 3]> : tensor<3xi64>
    %y = ov.mvn %m, %ax {eps = 1.0e-9 : f32, eps_mode = #ov<mvn_eps_mode inside_sqrt>, normalize_variance = false} : (tensor<1x3x4x4xf32>, tensor<3xi64>) -> tensor<1x3x4x4xf32>
    func.return %y : tensor<1x3x4x4xf32>
  }

  // across channels with per-channel scales: unchanged
  // CHECK-LABEL: func.func @across_channels
  // CHECK:         ov.mvn %m, %ax {{.*}} : (tensor<1x3x4x4xf32>, tensor<3xi64>) -> tensor<1x3x4x4xf32>
  func.func @across_channels(%x: tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32>
    %s = ov.constant dense<[[[[0.02]], [[0.03]], [[0.04]]]]> : tensor<1x3x1x1xf32>
    %m = ov.multiply %c, %s : (tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x4x4xf32>
    %ax = ov.constant dense<[1, 2, 3]> : tensor<3xi64>
    %y = ov.mvn %m, %ax {eps = 1.0e-9 : f32, eps_mode = #ov<mvn_eps_mode inside_sqrt>} : (tensor<1x3x4x4xf32>, tensor<3xi64>) -> tensor<1x3x4x4xf32>
    func.return %y : tensor<1x3x4x4xf32>
  }
}
