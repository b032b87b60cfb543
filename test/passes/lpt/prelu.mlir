// RUN: opt-tool %s -p test-lpt-prelu | filecheck %s
// PReluTransformation (prelu.cpp): non-negative scales, no zero point: PRelu(u8) -> f32 -> Multiply.

builtin.module {
  // CHECK-LABEL: func.func @scales
  // CHECK:         %[[P:.*]] = ov.prelu %x, %sl : (tensor<1x3x4x4xui8>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  // CHECK:         ov.multiply %[[P]], %s : (tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x4x4xf32>
  func.func @scales(%x: tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32>
    %s = ov.constant dense<[[[[0.02]], [[0.03]], [[0.04]]]]> : tensor<1x3x1x1xf32>
    %m = ov.multiply %c, %s : (tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x4x4xf32>
    %sl = ov.constant dense<[0.1, 0.2, 0.3]> : tensor<3xf32>
    %y = ov.prelu %m, %sl : (tensor<1x3x4x4xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
    func.return %y : tensor<1x3x4x4xf32>
  }

  // a negative scale or a zero point: unchanged
  // CHECK-LABEL: func.func @negative_scale
  // CHECK:         ov.prelu %m, %sl : (tensor<1x3x4x4xf32>, tensor<3xf32>)
  // CHECK-LABEL: func.func @zero_point
  // CHECK:         ov.prelu %m, %sl : (tensor<1x3x4x4xf32>, tensor<3xf32>)
  func.func @negative_scale(%x: tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32>
    %s = ov.constant dense<-0.02> : tensor<f32>
    %m = ov.multiply %c, %s : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    %sl = ov.constant dense<[0.1, 0.2, 0.3]> : tensor<3xf32>
    %y = ov.prelu %m, %sl : (tensor<1x3x4x4xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
    func.return %y : tensor<1x3x4x4xf32>
  }
  func.func @zero_point(%x: tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32>
    %z = ov.constant dense<128.0> : tensor<f32>
    %sb = ov.subtract %c, %z : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    %s = ov.constant dense<0.02> : tensor<f32>
    %m = ov.multiply %sb, %s : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    %sl = ov.constant dense<[0.1, 0.2, 0.3]> : tensor<3xf32>
    %y = ov.prelu %m, %sl : (tensor<1x3x4x4xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
    func.return %y : tensor<1x3x4x4xf32>
  }
}
