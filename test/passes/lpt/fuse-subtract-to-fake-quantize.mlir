// RUN: opt-tool %s -p test-lpt-fuse-subtract-to-fake-quantize | filecheck %s
// FuseSubtractToFakeQuantizeTransformation (fuse_subtract_to_fake_quantize.cpp): ol - c, oh - c.

builtin.module {
  // FQ(u8, [0, 255]) -> Convert -> Subtract(128): output limits 0 - 128 and 255 - 128, f32.
  // CHECK-LABEL: func.func @subtract
  // CHECK:         %[[OL:.*]] = ov.constant dense<-1.280000e+02> : tensor<f32>
  // CHECK:         %[[OH:.*]] = ov.constant dense<1.270000e+02> : tensor<f32>
  // CHECK:         %[[Y:.*]] = ov.fake_quantize %x, %{{.*}}, %{{.*}}, %[[OL]], %[[OH]] levels = 256 : {{.*}} -> tensor<1x3x2x2xf32>
  // CHECK-NOT:     ov.subtract
  // CHECK:         ov.sigmoid %[[Y]]
  func.func @subtract(%x: tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32> {
    %il = ov.constant dense<-1.28> : tensor<f32>
    %ih = ov.constant dense<1.27> : tensor<f32>
    %ol = ov.constant dense<0.0> : tensor<f32>
    %oh = ov.constant dense<255.0> : tensor<f32>
    %q = ov.fake_quantize %x, %il, %ih, %ol, %oh levels = 256 : (tensor<1x3x2x2xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x2x2xui8>
    %c = ov.convert %q destination_type = f32 : (tensor<1x3x2x2xui8>) -> tensor<1x3x2x2xf32>
    %z = ov.constant dense<128.0> : tensor<f32>
    %y = ov.subtract %c, %z : (tensor<1x3x2x2xf32>, tensor<f32>) -> tensor<1x3x2x2xf32>
    %r = ov.sigmoid %y : (tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
    func.return %r : tensor<1x3x2x2xf32>
  }
  // A constant varying along spatial dims fails checkElementwise: unchanged.
  // CHECK-LABEL: func.func @per_spatial
  // CHECK:         %[[Q:.*]] = ov.fake_quantize
  // CHECK:         ov.subtract %[[Q]], %z
  func.func @per_spatial(%x: tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32> {
    %il = ov.constant dense<0.0> : tensor<f32>
    %ih = ov.constant dense<2.55> : tensor<f32>
    %ol = ov.constant dense<0.0> : tensor<f32>
    %oh = ov.constant dense<255.0> : tensor<f32>
    %q = ov.fake_quantize %x, %il, %ih, %ol, %oh levels = 256 : (tensor<1x3x2x2xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x2x2xf32>
    %z = ov.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
    %y = ov.subtract %q, %z : (tensor<1x3x2x2xf32>, tensor<2x2xf32>) -> tensor<1x3x2x2xf32>
    func.return %y : tensor<1x3x2x2xf32>
  }
}
