// RUN: opt-tool %s -p test-lpt-fold-convert | filecheck %s
// FoldConvertTransformation (fold_convert.cpp).

builtin.module {
  // Subtract(x, Convert(Constant u8)): the Convert is folded into an f32 constant.
  // CHECK-LABEL: func.func @zero_point
  // CHECK-NOT:     ov.convert
  // CHECK:         %[[Z:.*]] = ov.constant dense<{{\[\[\[\[}}3.000000e+00]], {{\[\[}}0.000000e+00]], {{\[\[}}2.550000e+02]]]]> : tensor<1x3x1x1xf32>
  // CHECK:         ov.subtract %x, %[[Z]]
  func.func @zero_point(%x: tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32> {
    %z = ov.constant dense<[[[[3]], [[0]], [[255]]]]> : tensor<1x3x1x1xui8>
    %zc = ov.convert %z destination_type = f32 : (tensor<1x3x1x1xui8>) -> tensor<1x3x1x1xf32>
    %y = ov.subtract %x, %zc : (tensor<1x3x2x2xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x2x2xf32>
    func.return %y : tensor<1x3x2x2xf32>
  }
  // A Convert of a non-constant stays.
  // CHECK-LABEL: func.func @not_constant
  // CHECK:         %[[C:.*]] = ov.convert %z destination_type = f32
  // CHECK:         ov.subtract %x, %[[C]]
  func.func @not_constant(%x: tensor<1x3x2x2xf32>, %z: tensor<1x3x1x1xui8>) -> tensor<1x3x2x2xf32> {
    %zc = ov.convert %z destination_type = f32 : (tensor<1x3x1x1xui8>) -> tensor<1x3x1x1xf32>
    %y = ov.subtract %x, %zc : (tensor<1x3x2x2xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x2x2xf32>
    func.return %y : tensor<1x3x2x2xf32>
  }
}
