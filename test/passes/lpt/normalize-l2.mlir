// RUN: opt-tool %s -p test-lpt-normalize-l2 | filecheck %s
// NormalizeL2Transformation (normalize_l2.cpp): axes [1] or [1, 2, 3], per-tensor scales, no
// zero point: NormalizeL2(u8) -> f32, then Multiply(sign(scale)).

builtin.module {
  // CHECK-LABEL: func.func @negative_scale
  // CHECK:         %[[N:.*]] = ov.normalize_l2 %x, %ax {{.*}} : (tensor<1x3x4x4xui8>, tensor<1xi64>) -> tensor<1x3x4x4xf32>
  // CHECK:         %[[S:.*]] = ov.constant dense<-1.000000e+00> : tensor<f32>
  // CHECK:         ov.multiply %[[N]], %[[S]]
  func.func @negative_scale(%x: tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32>
    %s = ov.constant dense<-0.02> : tensor<f32>
    %m = ov.multiply %c, %s : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    %ax = ov.constant dense<[1]> : tensor<1xi64>
    %y = ov.normalize_l2 %m, %ax {eps = 1.0e-12 : f32, eps_mode = #ov<eps_mode add>} : (tensor<1x3x4x4xf32>, tensor<1xi64>) -> tensor<1x3x4x4xf32>
    func.return %y : tensor<1x3x4x4xf32>
  }

  // axes [2, 3]: unchanged
  // CHECK-LABEL: func.func @spatial_axes
  // CHECK:         ov.normalize_l2 %m, %ax {{.*}} : (tensor<1x3x4x4xf32>, tensor<2xi64>) -> tensor<1x3x4x4xf32>
  func.func @spatial_axes(%x: tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32>
    %s = ov.constant dense<0.02> : tensor<f32>
    %m = ov.multiply %c, %s : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    %ax = ov.constant dense<[2, 3]> : tensor<2xi64>
    %y = ov.normalize_l2 %m, %ax {eps = 1.0e-12 : f32, eps_mode = #ov<eps_mode add>} : (tensor<1x3x4x4xf32>, tensor<2xi64>) -> tensor<1x3x4x4xf32>
    func.return %y : tensor<1x3x4x4xf32>
  }
}
