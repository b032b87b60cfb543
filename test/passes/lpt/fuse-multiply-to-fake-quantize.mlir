// RUN: opt-tool %s -p test-lpt-fuse-multiply-to-fake-quantize | filecheck %s
// FuseMultiplyToFakeQuantizeTransformation (fuse_multiply_to_fake_quantize.cpp): ol * c, oh * c.

builtin.module {
  // FQ(u8, [0, 255]) -> Convert -> Multiply([0.01, 0.02, 0.04]) becomes one f32 FakeQuantize
  // with output limits 0 * s and 255 * s = [2.55, 5.1, 10.2], named as the FakeQuantize.
  // CHECK-LABEL: func.func @multiply
  // CHECK:         %[[IL:.*]] = ov.constant dense<0.000000e+00> : tensor<f32>
  // CHECK:         %[[IH:.*]] = ov.constant dense<2.550000e+00> : tensor<f32>
  // CHECK:         %[[OL:.*]] = ov.constant dense<0.000000e+00> : tensor<1x3x1x1xf32>
  // CHECK:         %[[OH:.*]] = ov.constant dense<{{\[\[\[\[}}2.550000e+00]], {{\[\[}}5.100000e+00]], {{\[\[}}1.020000e+01]]]]> : tensor<1x3x1x1xf32>
  // CHECK:         %[[Y:.*]] = ov.fake_quantize %x, %[[IL]], %[[IH]], %[[OL]], %[[OH]] levels = 256 {ov.name = "fq"} : {{.*}} -> tensor<1x3x2x2xf32>
  // CHECK-NOT:     ov.convert
  // CHECK-NOT:     ov.multiply
  // CHECK:         ov.sigmoid %[[Y]]
  func.func @multiply(%x: tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32> {
    %il = ov.constant dense<0.0> : tensor<f32>
    %ih = ov.constant dense<2.55> : tensor<f32>
    %ol = ov.constant dense<0.0> : tensor<f32>
    %oh = ov.constant dense<255.0> : tensor<f32>
    %q = ov.fake_quantize %x, %il, %ih, %ol, %oh levels = 256 {ov.name = "fq"} : (tensor<1x3x2x2xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x2x2xui8>
    %c = ov.convert %q destination_type = f32 : (tensor<1x3x2x2xui8>) -> tensor<1x3x2x2xf32>
    %s = ov.constant dense<[[[[0.01]], [[0.02]], [[0.04]]]]> : tensor<1x3x1x1xf32>
    %y = ov.multiply %c, %s {ov.name = "dq"} : (tensor<1x3x2x2xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x2x2xf32>
    %r = ov.sigmoid %y : (tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
    func.return %r : tensor<1x3x2x2xf32>
  }
  // The FakeQuantize has another user: nothing is fused.
  // CHECK-LABEL: func.func @two_users
  // CHECK:         ov.fake_quantize {{.*}} -> tensor<1x3x2x2xui8>
  // CHECK:         ov.convert
  // CHECK:         ov.multiply
  func.func @two_users(%x: tensor<1x3x2x2xf32>) -> (tensor<1x3x2x2xf32>, tensor<1x3x2x2xui8>) {
    %il = ov.constant dense<0.0> : tensor<f32>
    %ih = ov.constant dense<2.55> : tensor<f32>
    %ol = ov.constant dense<0.0> : tensor<f32>
    %oh = ov.constant dense<255.0> : tensor<f32>
    %q = ov.fake_quantize %x, %il, %ih, %ol, %oh levels = 256 : (tensor<1x3x2x2xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x2x2xui8>
    %c = ov.convert %q destination_type = f32 : (tensor<1x3x2x2xui8>) -> tensor<1x3x2x2xf32>
    %s = ov.constant dense<0.01> : tensor<f32>
    %y = ov.multiply %c, %s : (tensor<1x3x2x2xf32>, tensor<f32>) -> tensor<1x3x2x2xf32>
    func.return %y, %q : tensor<1x3x2x2xf32>, tensor<1x3x2x2xui8>
  }
}
