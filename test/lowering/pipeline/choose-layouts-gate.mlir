// cpu-choose-layouts through a squeeze-and-excitation (EfficientNet, MobileNetV3): a
// depthwise convolution, a global ReduceMax of its output, a 1x1 convolution and a Relu on
// the [1, 8, 1, 1] result (the gate), the depthwise output times the gate, a 1x1 projection.
// The gate is the same bytes in NCHW and NHWC, and the element-wise loops read it as
// [1, 1, 1, C] beside NHWC tensors: the Multiply does not tie it, so the depthwise
// convolution and the excitation keep NHWC (before, the gate's Multiply needed NCHW and
// took the depthwise convolution with it). With small integer inputs and power-of-two
// weights every sum is exact: CPU equals REFERENCE bit for bit.
// RUN: opt-tool -p cpu-fold-constants,cpu-remove-views,cpu-fuse-kernels,cpu-choose-layouts %s | filecheck %s
// RUN: python -c "import numpy as np; np.save('%t.x.npy', (np.arange(108, dtype=np.float32) %% 7 - 3).reshape(1, 3, 6, 6))"
// RUN: lowpass-run %s -i x=%t.x.npy --device CPU --full > %t.cpu
// RUN: lowpass-run --device REFERENCE %s -i x=%t.x.npy --full > %t.ref
// RUN: diff %t.cpu %t.ref
// CHECK:      %a = ov.relu %a_conv {ov.name = "a", cpu.fused = #cpu.fused<0>, cpu.channels_last}
// CHECK-NEXT: %dw = ov.group_convolution %a, %wd {ov.name = "dw", cpu.kernel = #cpu.kernel<1, "convolution">, cpu.channels_last,
// CHECK-NEXT: %squeeze = ov.reduce_max %dw, %axes keep_dims = true {ov.name = "squeeze", cpu.kernel = #cpu.kernel<2, "reduce">
// CHECK-NEXT: %g_conv = ov.convolution %squeeze, %wg {ov.name = "g_conv", cpu.kernel = #cpu.kernel<3, "convolution">,
// CHECK-NEXT: %gate = ov.relu %g_conv {ov.name = "gate", cpu.fused = #cpu.fused<3>
// CHECK-NEXT: %excite = ov.multiply %dw, %gate {ov.name = "excite", cpu.kernel = #cpu.kernel<4, "elementwise">, cpu.channels_last}
// CHECK-NEXT: %p = ov.convolution %excite, %wp {ov.name = "p", cpu.kernel = #cpu.kernel<5, "convolution">, strides
builtin.module {
  func.func @main(%x: tensor<1x3x6x6xf32> {ov.name = "x"}) -> tensor<1x4x6x6xf32> {
    %w1 = ov.constant dense<0.25> : tensor<8x3x3x3xf32> {ov.name = "w1"}
    %wd = ov.constant dense<0.125> : tensor<8x1x1x3x3xf32> {ov.name = "wd"}
    %wg = ov.constant dense<0.25> : tensor<8x8x1x1xf32> {ov.name = "wg"}
    %wp = ov.constant dense<0.5> : tensor<4x8x1x1xf32> {ov.name = "wp"}
    %axes = ov.constant dense<[2, 3]> : tensor<2xi64> {ov.name = "axes"}
    %a_conv = ov.convolution %x, %w1 {ov.name = "a_conv", strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x3x6x6xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
    %a = ov.relu %a_conv {ov.name = "a"} : (tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
    %dw = ov.group_convolution %a, %wd {ov.name = "dw", strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x8x6x6xf32>, tensor<8x1x1x3x3xf32>) -> tensor<1x8x6x6xf32>
    %squeeze = ov.reduce_max %dw, %axes keep_dims = true {ov.name = "squeeze"} : (tensor<1x8x6x6xf32>, tensor<2xi64>) -> tensor<1x8x1x1xf32>
    %g_conv = ov.convolution %squeeze, %wg {ov.name = "g_conv", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x8x1x1xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x1x1xf32>
    %gate = ov.relu %g_conv {ov.name = "gate"} : (tensor<1x8x1x1xf32>) -> tensor<1x8x1x1xf32>
    %excite = ov.multiply %dw, %gate {ov.name = "excite"} : (tensor<1x8x6x6xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x6x6xf32>
    %p = ov.convolution %excite, %wp {ov.name = "p", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x8x6x6xf32>, tensor<4x8x1x1xf32>) -> tensor<1x4x6x6xf32>
    func.return %p : tensor<1x4x6x6xf32>
  }
}
