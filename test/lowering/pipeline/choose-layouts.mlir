// cpu-choose-layouts: the tensors that convolutions pass to each other are stored NHWC
// (`cpu.channels_last` on the op that writes them): %a (conv -> conv), %c and the residual
// Add's %half, which an element-wise group computes from two NHWC tensors (%c and %a) and a
// scalar. Not %x (a graph input), %d (a MaxPool reads it) nor %e (a graph output). The CPU
// device computes what REFERENCE does: with small integer inputs and power-of-two weights
// every sum is exact, so the outputs are equal bit for bit.
// RUN: opt-tool -p cpu-fold-constants,cpu-remove-views,cpu-fuse-kernels,cpu-choose-layouts %s | filecheck %s
// RUN: python -c "import numpy as np; np.save('%t.x.npy', (np.arange(108, dtype=np.float32) %% 7 - 3).reshape(1, 3, 6, 6))"
// RUN: lowpass-run %s -i x=%t.x.npy --device CPU --full > %t.cpu
// RUN: lowpass-run --device REFERENCE %s -i x=%t.x.npy --full > %t.ref
// RUN: diff %t.cpu %t.ref
// CHECK:      %a = ov.relu %a_conv {ov.name = "a", cpu.fused = #cpu.fused<0>, cpu.channels_last}
// CHECK-NEXT: %c = ov.convolution %a, %w3 {ov.name = "c", cpu.kernel = #cpu.kernel<1, "convolution">, cpu.channels_last,
// CHECK-NEXT: %sum = ov.add %c, %a {ov.name = "sum", cpu.kernel = #cpu.kernel<2, "elementwise">}
// CHECK-NEXT: %half = ov.multiply %sum, %h {ov.name = "half", cpu.fused = #cpu.fused<2>, cpu.channels_last}
// CHECK-NEXT: %d = ov.convolution %half, %w4 {ov.name = "d", cpu.kernel = #cpu.kernel<3, "convolution">, strides
// CHECK-NEXT: %pool = ov.max_pool %d {ov.name = "pool", cpu.kernel = #cpu.kernel<4, "pooling">, strides
// CHECK-NEXT: %e = ov.convolution %half, %w5 {ov.name = "e", cpu.kernel = #cpu.kernel<5, "convolution">, strides
builtin.module {
  func.func @main(%x: tensor<1x3x6x6xf32> {ov.name = "x"}) -> (tensor<1x4x3x3xf32>, tensor<1x2x6x6xf32>) {
    %w1 = ov.constant dense<0.25> : tensor<8x3x3x3xf32> {ov.name = "w1"}
    %w3 = ov.constant dense<0.375> : tensor<8x8x1x1xf32> {ov.name = "w3"}
    %w4 = ov.constant dense<0.0625> : tensor<4x8x3x3xf32> {ov.name = "w4"}
    %w5 = ov.constant dense<0.5> : tensor<2x8x1x1xf32> {ov.name = "w5"}
    %h = ov.constant dense<0.5> : tensor<f32> {ov.name = "h"}
    %a_conv = ov.convolution %x, %w1 {ov.name = "a_conv", strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x3x6x6xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x6x6xf32>
    %a = ov.relu %a_conv {ov.name = "a"} : (tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
    %c = ov.convolution %a, %w3 {ov.name = "c", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x8x6x6xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x6x6xf32>
    %sum = ov.add %c, %a {ov.name = "sum"} : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
    %half = ov.multiply %sum, %h {ov.name = "half"} : (tensor<1x8x6x6xf32>, tensor<f32>) -> tensor<1x8x6x6xf32>
    %d = ov.convolution %half, %w4 {ov.name = "d", strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x8x6x6xf32>, tensor<4x8x3x3xf32>) -> tensor<1x4x6x6xf32>
    %pool = ov.max_pool %d {ov.name = "pool", strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>} : (tensor<1x4x6x6xf32>) -> tensor<1x4x3x3xf32>
    %e = ov.convolution %half, %w5 {ov.name = "e", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x8x6x6xf32>, tensor<2x8x1x1xf32>) -> tensor<1x2x6x6xf32>
    func.return %pool, %e : tensor<1x4x3x3xf32>, tensor<1x2x6x6xf32>
  }
}
