// RUN: opt-tool %s -p test-lpt-eliminate-fake-quantize | filecheck %s
// EliminateFakeQuantizeTransformation (eliminate_fake_quantize.cpp): an identity FakeQuantize.

builtin.module {
  // f32 -> f32 with the f32 range [lowest, max] as all four limits: the FakeQuantize is removed.
  // CHECK-LABEL: func.func @full_range
  // CHECK-NOT:     ov.fake_quantize
  // CHECK:         ov.relu %x
  func.func @full_range(%x: tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32> {
    %lo = ov.constant dense<-3.40282347e+38> : tensor<f32>
    %hi = ov.constant dense<3.40282347e+38> : tensor<f32>
    %q = ov.fake_quantize %x, %lo, %hi, %lo, %hi levels = 256 : (tensor<1x3x2x2xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x2x2xf32>
    %r = ov.relu %q : (tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
    func.return %r : tensor<1x3x2x2xf32>
  }
  // CHECK-LABEL: func.func @not_full_range
  // CHECK:         %[[Q:.*]] = ov.fake_quantize
  // CHECK:         ov.relu %[[Q]]
  func.func @not_full_range(%x: tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32> {
    %lo = ov.constant dense<0.0> : tensor<f32>
    %hi = ov.constant dense<255.0> : tensor<f32>
    %q = ov.fake_quantize %x, %lo, %hi, %lo, %hi levels = 256 : (tensor<1x3x2x2xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x2x2xf32>
    %r = ov.relu %q : (tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
    func.return %r : tensor<1x3x2x2xf32>
  }
  // Input f32, output u8: kept even though [0, 255] is u8's range.
  // CHECK-LABEL: func.func @other_type
  // CHECK:         ov.fake_quantize {{.*}} -> tensor<1x3x2x2xui8>
  func.func @other_type(%x: tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xui8> {
    %lo = ov.constant dense<0.0> : tensor<f32>
    %hi = ov.constant dense<255.0> : tensor<f32>
    %q = ov.fake_quantize %x, %lo, %hi, %lo, %hi levels = 256 : (tensor<1x3x2x2xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x2x2xui8>
    func.return %q : tensor<1x3x2x2xui8>
  }
}
