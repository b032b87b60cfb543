// cpu-decompose: a Convolution that reads u8 codes as float (LPT's type-relaxed form) by
// weights that are not int8 (u8 weights less a zero point: here 0..255) reads the codes
// converted to float32, which the float kernels run; weights that fit int8 are left to the
// int8 kernel. Small integers keep every sum exact: CPU equals REFERENCE.
// RUN: opt-tool -p cpu-decompose %s | filecheck %s
// RUN: python3 -c "import numpy as np; np.save('%t.x.npy', (np.arange(48, dtype=np.float32) %% 9 - 4).reshape(1, 3, 4, 4))"
// RUN: lowpass-run %s -i x=%t.x.npy --device CPU --full > %t.cpu
// RUN: lowpass-run %s -i x=%t.x.npy --device REFERENCE --full > %t.ref
// RUN: diff %t.cpu %t.ref
// RUN: lowpass-run %s -i x=%t.x.npy --device CPU -pcsort no_sort | filecheck %s --check-prefix=ROWS
// CHECK:      %[[F:.*]] = ov.convert %q destination_type = f32 {ov.name = "wide/float_input"}
// CHECK-NEXT: %wide = ov.convolution %[[F]], %w255
// CHECK:      %narrow = ov.convolution %q, %w100
// ROWS: wide {{.*}} jit_{{[a-z0-9_]+}}
// ROWS-NOT: ref_U8

func.func @main(%x: tensor<1x3x4x4xf32> {ov.name = "x"}) -> (tensor<1x2x4x4xf32> {ov.name = "y"}, tensor<1x2x4x4xf32> {ov.name = "z"}) {
  %il = ov.constant dense<0.0> : tensor<f32>
  %ih = ov.constant dense<255.0> : tensor<f32>
  %q = ov.fake_quantize %x, %il, %ih, %il, %ih levels = 256 {ov.name = "q"} : (tensor<1x3x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x4x4xui8>
  %w255 = ov.constant dense<[[[[255.0]], [[0.0]], [[3.0]]], [[[1.0]], [[200.0]], [[2.0]]]]> : tensor<2x3x1x1xf32> {ov.name = "w255"}
  %w100 = ov.constant dense<[[[[100.0]], [[-7.0]], [[3.0]]], [[[1.0]], [[-128.0]], [[2.0]]]]> : tensor<2x3x1x1xf32> {ov.name = "w100"}
  %wide = ov.convolution %q, %w255 {ov.name = "wide", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x4x4xui8>, tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32>
  %narrow = ov.convolution %q, %w100 {ov.name = "narrow", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x4x4xui8>, tensor<2x3x1x1xf32>) -> tensor<1x2x4x4xf32>
  func.return %wide, %narrow : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}
