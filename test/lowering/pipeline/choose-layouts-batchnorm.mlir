// cpu-choose-layouts through a DenseNet layer: Concat -> BatchNorm (Multiply and Add by
// per-channel constants, [1, C, 1, 1] and [C, 1, 1]) -> Relu -> convolution -> global
// ReduceMean. The element-wise group's loops run over N, H, W, C and read its per-channel
// constants as [1, 1, 1, C], so the Concat, the BatchNorm and the convolutions around them
// keep NHWC; the ReduceMean over [2, 3] reads the NHWC tensor (its [N, C, 1, 1] result is the
// same bytes in both layouts). With small integer inputs and power-of-two weights and
// constants every sum is exact: CPU equals REFERENCE bit for bit.
// RUN: opt-tool -p cpu-fold-constants,cpu-remove-views,cpu-fuse-kernels,cpu-choose-layouts %s | filecheck %s
// RUN: python -c "import numpy as np; np.save('%t.x.npy', (np.arange(108, dtype=np.float32) %% 7 - 3).reshape(1, 3, 6, 6))"
// RUN: lowpass-run %s -i x=%t.x.npy --device CPU --full > %t.cpu
// RUN: lowpass-run --device REFERENCE %s -i x=%t.x.npy --full > %t.ref
// RUN: diff %t.cpu %t.ref
// CHECK:      %a = ov.relu %a_conv {ov.name = "a", cpu.fused = #cpu.fused<0>, cpu.channels_last}
// CHECK-NEXT: %b = ov.convolution %a, %w2 {ov.name = "b", cpu.kernel = #cpu.kernel<1, "convolution">, cpu.channels_last,
// CHECK-NEXT: %cat = ov.concat %a, %b axis = 1 {ov.name = "cat", cpu.kernel = #cpu.kernel<2, "concat">, cpu.channels_last}
// CHECK-NEXT: %bn_mul = ov.multiply %cat, %scale {ov.name = "bn_mul", cpu.kernel = #cpu.kernel<3, "elementwise">}
// CHECK-NEXT: %bn_add = ov.add %bn_mul, %shift {ov.name = "bn_add", cpu.fused = #cpu.fused<3>}
// CHECK-NEXT: %bn_relu = ov.relu %bn_add {ov.name = "bn_relu", cpu.fused = #cpu.fused<3>, cpu.channels_last}
// CHECK-NEXT: %c = ov.convolution %bn_relu, %w3 {ov.name = "c", cpu.kernel = #cpu.kernel<4, "convolution">, cpu.channels_last,
// CHECK-NEXT: %mean = ov.reduce_mean %c, %axes keep_dims = true {ov.name = "mean", cpu.kernel = #cpu.kernel<5, "reduce">}
builtin.module {
  func.func @main(%x: tensor<1x3x6x6xf32> {ov.name = "x"}) -> tensor<1x8x1x1xf32> {
    %w1 = ov.constant dense<0.25> : tensor<8x3x3x3xf32> {ov.name = "w1"}
    %w2 = ov.constant dense<0.125> : tensor<8x8x3x3xf32> {ov.name = "w2"}
    %w3 = ov.constant dense<[[[[-0.5]], [[-0.25]], [[0.0]], [[0.25]], [[0.5]], [[-0.5]], [[-0.25]], [[0.0]], [[0.25]], [[0.5]], [[-0.5]], [[-0.25]], [[0.0]], [[0.25]], [[0.5]], [[-0.5]]], [[[0.25]], [[0.5]], [[-0.5]], [[-0.25]], [[0.0]], [[0.25]], [[0.5]], [[-0.5]], [[-0.25]], [[0.0]], [[0.25]], [[0.5]], [[-0.5]], [[-0.25]], [[0.0]], [[0.25]]], [[[-0.25]], [[0.0]], [[0.25]], [[0.5]], [[-0.5]], [[-0.25]], [[0.0]], [[0.25]], [[0.5]], [[-0.5]], [[-0.25]], [[0.0]], [[0.25]], [[0.5]], [[-0.5]], [[-0.25]]], [[[0.5]], [[-0.5]], [[-0.25]], [[0.0]], [[0.25]], [[0.5]], [[-0.5]], [[-0.25]], [[0.0]], [[0.25]], [[0.5]], [[-0.5]], [[-0.25]], [[0.0]], [[0.25]], [[0.5]]], [[[0.0]], [[0.25]], [[0.5]], [[-0.5]], [[-0.25]], [[0.0]], [[0.25]], [[0.5]], [[-0.5]], [[-0.25]], [[0.0]], [[0.25]], [[0.5]], [[-0.5]], [[-0.25]], [[0.0]]], [[[-0.5]], [[-0.25]], [[0.0]], [[0.25]], [[0.5]], [[-0.5]], [[-0.25]], [[0.0]], [[0.25]], [[0.5]], [[-0.5]], [[-0.25]], [[0.0]], [[0.25]], [[0.5]], [[-0.5]]], [[[0.25]], [[0.5]], [[-0.5]], [[-0.25]], [[0.0]], [[0.25]], [[0.5]], [[-0.5]], [[-0.25]], [[0.0]], [[0.25]], [[0.5]], [[-0.5]], [[-0.25]], [[0.0]], [[0.25]]], [[[-0.25]], [[0.0]], [[0.25]], [[0.5]], [[-0.5]], [[-0.25]], [[0.0]], [[0.25]], [[0.5]], [[-0.5]], [[-0.25]], [[0.0]], [[0.25]], [[0.5]], [[-0.5]], [[-0.25]]]]> : tensor<8x16x1x1xf32> {ov.name = "w3"}
    %scale = ov.constant dense<[[[[0.5]], [[0.25]], [[1.0]], [[2.0]], [[0.5]], [[0.25]], [[1.0]], [[2.0]], [[0.5]], [[0.25]], [[1.0]], [[2.0]], [[0.5]], [[0.25]], [[1.0]], [[2.0]]]]> : tensor<1x16x1x1xf32> {ov.name = "scale"}
    %shift = ov.constant dense<[[[1.0]], [[-2.0]], [[0.5]], [[0.0]], [[1.0]], [[-2.0]], [[0.5]], [[0.0]], [[1.0]], [[-2.0]], [[0.5]], [[0.0]], [[1.0]], [[-2.0]], [[0.5]], [[0.0]]]> : tensor<16x1x1xf32> {ov.name = "shift"}
    %axes = ov.constant dense<[2, 3]> : tensor<2xi64> {ov.name = "axes"}
    %a_conv = ov.convolution %x, %w1 {ov.name = "a_conv", strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x3x6x6xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
    %a = ov.relu %a_conv {ov.name = "a"} : (tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
    %b = ov.convolution %a, %w2 {ov.name = "b", strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32>
    %cat = ov.concat %a, %b axis = 1 {ov.name = "cat"} : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) -> tensor<1x16x6x6xf32>
    %bn_mul = ov.multiply %cat, %scale {ov.name = "bn_mul"} : (tensor<1x16x6x6xf32>, tensor<1x16x1x1xf32>) -> tensor<1x16x6x6xf32>
    %bn_add = ov.add %bn_mul, %shift {ov.name = "bn_add"} : (tensor<1x16x6x6xf32>, tensor<16x1x1xf32>) -> tensor<1x16x6x6xf32>
    %bn_relu = ov.relu %bn_add {ov.name = "bn_relu"} : (tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
    %c = ov.convolution %bn_relu, %w3 {ov.name = "c", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x16x6x6xf32>, tensor<8x16x1x1xf32>) -> tensor<1x8x6x6xf32>
    %mean = ov.reduce_mean %c, %axes keep_dims = true {ov.name = "mean"} : (tensor<1x8x6x6xf32>, tensor<2xi64>) -> tensor<1x8x1x1xf32>
    func.return %mean : tensor<1x8x1x1xf32>
  }
}
