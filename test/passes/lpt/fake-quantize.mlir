// RUN: opt-tool %s -p test-lpt-fake-quantize | filecheck %s
// RUN: opt-tool %s -p lpt | filecheck %s --check-prefix=LPT
// FakeQuantizeTransformation (fake_quantize.cpp): the element-wise op before a FakeQuantize is fused
// into its input limits (Multiply: / c, Subtract: + c, Add: - c).

builtin.module {
  // Multiply by [2, 4, 0.5] then FQ([-1, 1]): input limits / c, per channel.
  // CHECK-LABEL: func.func @multiply
  // CHECK:         %[[IL:.*]] = ov.constant dense<{{\[\[\[\[}}-5.000000e-01]], {{\[\[}}-2.500000e-01]], {{\[\[}}-2.000000e+00]]]]> : tensor<1x3x1x1xf32>
  // CHECK:         %[[IH:.*]] = ov.constant dense<{{\[\[\[\[}}5.000000e-01]], {{\[\[}}2.500000e-01]], {{\[\[}}2.000000e+00]]]]> : tensor<1x3x1x1xf32>
  // CHECK:         ov.fake_quantize %x, %[[IL]], %[[IH]], %lo, %hi levels = 256 {ov.name = "fq"}
  // CHECK-NOT:     ov.multiply
  func.func @multiply(%x: tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32> {
    %s = ov.constant dense<[[[[2.0]], [[4.0]], [[0.5]]]]> : tensor<1x3x1x1xf32>
    %m = ov.multiply %x, %s : (tensor<1x3x2x2xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x2x2xf32>
    %lo = ov.constant dense<-1.0> : tensor<f32>
    %hi = ov.constant dense<1.0> : tensor<f32>
    %q = ov.fake_quantize %m, %lo, %hi, %lo, %hi levels = 256 {ov.name = "fq"} : (tensor<1x3x2x2xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x2x2xf32>
    func.return %q : tensor<1x3x2x2xf32>
  }
  // A dynamic batch: OpenVINO compares the partial shapes ([?, 3, 2, 2] equals itself), so the
  // per-channel Multiply fuses as with a static batch (the CPU device's interpreter, which runs a
  // dynamic model's LPT graph, then gives the bits of the native code, compiled per batch).
  // CHECK-LABEL: func.func @multiply_dynamic_batch
  // CHECK:         %[[IL:.*]] = ov.constant dense<{{\[\[\[\[}}-5.000000e-01]], {{\[\[}}-2.500000e-01]], {{\[\[}}-2.000000e+00]]]]> : tensor<1x3x1x1xf32>
  // CHECK:         ov.fake_quantize %x, %[[IL]], %{{.*}}, %lo, %hi levels = 256 {ov.name = "fq"}
  // CHECK-NOT:     ov.multiply
  func.func @multiply_dynamic_batch(%x: tensor<?x3x2x2xf32>) -> tensor<?x3x2x2xf32> {
    %s = ov.constant dense<[[[[2.0]], [[4.0]], [[0.5]]]]> : tensor<1x3x1x1xf32>
    %m = ov.multiply %x, %s : (tensor<?x3x2x2xf32>, tensor<1x3x1x1xf32>) -> tensor<?x3x2x2xf32>
    %lo = ov.constant dense<-1.0> : tensor<f32>
    %hi = ov.constant dense<1.0> : tensor<f32>
    %q = ov.fake_quantize %m, %lo, %hi, %lo, %hi levels = 256 {ov.name = "fq"} : (tensor<?x3x2x2xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?x3x2x2xf32>
    func.return %q : tensor<?x3x2x2xf32>
  }
  // (x + 0.5) - 2 in [-1, 1]: the loop fuses both, x in [-1 + 2 - 0.5, 1 + 2 - 0.5].
  // CHECK-LABEL: func.func @subtract_add
  // CHECK:         %[[IL:.*]] = ov.constant dense<5.000000e-01> : tensor<f32>
  // CHECK:         %[[IH:.*]] = ov.constant dense<2.500000e+00> : tensor<f32>
  // CHECK:         ov.fake_quantize %x, %[[IL]], %[[IH]], %lo, %hi
  // CHECK-NOT:     ov.add
  // CHECK-NOT:     ov.subtract
  func.func @subtract_add(%x: tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32> {
    %a = ov.constant dense<0.5> : tensor<f32>
    %p = ov.add %x, %a : (tensor<1x3x2x2xf32>, tensor<f32>) -> tensor<1x3x2x2xf32>
    %z = ov.constant dense<2.0> : tensor<f32>
    %m = ov.subtract %p, %z : (tensor<1x3x2x2xf32>, tensor<f32>) -> tensor<1x3x2x2xf32>
    %lo = ov.constant dense<-1.0> : tensor<f32>
    %hi = ov.constant dense<1.0> : tensor<f32>
    %q = ov.fake_quantize %m, %lo, %hi, %lo, %hi levels = 256 : (tensor<1x3x2x2xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x2x2xf32>
    func.return %q : tensor<1x3x2x2xf32>
  }
  // A non-positive scale is not fused.
  // CHECK-LABEL: func.func @negative_scale
  // CHECK:         %[[M:.*]] = ov.multiply %x
  // CHECK:         ov.fake_quantize %[[M]]
  func.func @negative_scale(%x: tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32> {
    %s = ov.constant dense<-2.0> : tensor<f32>
    %m = ov.multiply %x, %s : (tensor<1x3x2x2xf32>, tensor<f32>) -> tensor<1x3x2x2xf32>
    %lo = ov.constant dense<-1.0> : tensor<f32>
    %hi = ov.constant dense<1.0> : tensor<f32>
    %q = ov.fake_quantize %m, %lo, %hi, %lo, %hi levels = 256 : (tensor<1x3x2x2xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x2x2xf32>
    func.return %q : tensor<1x3x2x2xf32>
  }
  // Whole pipeline. Requantization: the convolution's dequantization Multiply(0.01 * 1/127)
  // feeds the next FakeQuantize directly and is absorbed into its input limits:
  // +-2 / (0.01 / 127) = +-25400. The second FakeQuantize ([-2, 2] -> u8 with a zero point,
  // before Sigmoid, which LPT does not handle) gets its dequantization fused back by the
  // cleanup: one f32 FakeQuantize with its original output limits, no Convert/Multiply left.
  // LPT-LABEL: func.func @main
  // LPT:         %[[Q:.*]] = ov.fake_quantize %x, %il, %ih, {{.*}} -> tensor<1x2x4x4xui8>
  // LPT:         %[[W:.*]] = ov.constant dense<{{.*}}63{{.*}}-32{{.*}}127{{.*}}95{{.*}}-127{{.*}}16{{.*}}> : tensor<3x2x1x1xi8>
  // LPT:         %[[C:.*]] = ov.convolution %[[Q]], %[[W]] {{.*}} -> tensor<1x3x4x4xf32>
  // LPT-NOT:     ov.multiply
  // LPT:         %[[IL:.*]] = ov.constant dense<-2.540000e+04> : tensor<f32>
  // LPT:         %[[IH:.*]] = ov.constant dense<2.540000e+04> : tensor<f32>
  // LPT:         %[[OL:.*]] = ov.constant dense<-2.000000e+00> : tensor<f32>
  // LPT:         %[[OH:.*]] = ov.constant dense<2.000000e+00> : tensor<f32>
  // LPT:         %[[R:.*]] = ov.fake_quantize %[[C]], %[[IL]], %[[IH]], %[[OL]], %[[OH]] levels = 256 : {{.*}} -> tensor<1x3x4x4xf32>
  // LPT-NOT:     ov.convert
  // LPT-NOT:     ov.multiply
  // LPT:         ov.sigmoid %[[R]]
  func.func @main(%x: tensor<1x2x4x4xf32> {ov.name = "x"}) -> tensor<1x3x4x4xf32> {
    %il = ov.constant dense<0.0> : tensor<f32>
    %ih = ov.constant dense<2.55> : tensor<f32>
    %q = ov.fake_quantize %x, %il, %ih, %il, %ih levels = 256 : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x2x4x4xf32>
    %w = ov.constant dense<[[[[0.5]], [[-0.25]]], [[[1.0]], [[0.75]]], [[[-1.0]], [[0.125]]]]> : tensor<3x2x1x1xf32>
    %wl = ov.constant dense<-1.0> : tensor<f32>
    %wh = ov.constant dense<1.0> : tensor<f32>
    %wq = ov.fake_quantize %w, %wl, %wh, %wl, %wh levels = 255 : (tensor<3x2x1x1xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<3x2x1x1xf32>
    %c = ov.convolution %q, %wq {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
    %ol = ov.constant dense<-2.0> : tensor<f32>
    %oh = ov.constant dense<2.0> : tensor<f32>
    %r = ov.fake_quantize %c, %ol, %oh, %ol, %oh levels = 256 : (tensor<1x3x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    %s = ov.sigmoid %r : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
    func.return %s : tensor<1x3x4x4xf32>
  }
}
