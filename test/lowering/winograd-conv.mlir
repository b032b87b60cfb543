// An fp32 3x3 convolution of stride 1 whose output a convolution reads (NHWC) runs Winograd
// F(2x2, 3x3) (lowering/ops/winograd.py): the finite check of each image, the input transform,
// 16 GEMMs over the tiles (inlined into one function, `_gemms_function`: no function of their
// own), the output transform with the bias and Relu, and the direct-sum kernel for an image
// holding inf or NaN. A strided 3x3 convolution keeps im2col (no
// winograd GEMMs of its own).
// The numbers against REFERENCE: test/python/lowering/test_winograd.py.
// RUN: lowpass-run --threads 1 %s --random-inputs 0 --device CPU --emit-llvm %t.ll -pcsort no_sort | filecheck %s --check-prefix=ROWS
// RUN: filecheck %s --check-prefix=IR < %t.ll
// RUN: not grep -q conv_s2_winograd %t.ll
// RUN: not grep -qE 'define.*@conv3_winograd_gemm(\.[0-9]+)?\(' %t.ll
// ROWS:      conv3 {{ *}}Convolution {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// ROWS:      conv1 {{ *}}Convolution {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// ROWS:      conv_s2 {{ *}}Convolution {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// IR-DAG:    define internal {{.*}}i1 @winograd_finite(
// IR-DAG:    define internal {{.*}}void @winograd_in(
// IR-DAG:    define internal {{.*}}void @winograd_out(
// IR-DAG:    define internal {{.*}}void @winograd_direct(
// IR-DAG:    define {{.*}}void @conv3_winograd_entries(
builtin.module {
  func.func @main(%x: tensor<1x16x6x7xf32> {ov.name = "x"}) -> (tensor<1x8x6x7xf32> {ov.name = "y"}, tensor<1x8x3x4xf32> {ov.name = "z"}) {
    %w3 = ov.constant dense<0.125> : tensor<16x16x3x3xf32> {ov.name = "w3"}
    %c = ov.convolution %x, %w3 {ov.name = "conv3", strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x16x6x7xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x6x7xf32>
    %b = ov.constant dense<0.5> : tensor<1x16x1x1xf32> {ov.name = "bias"}
    %a = ov.add %c, %b {ov.name = "add_bias"} : (tensor<1x16x6x7xf32>, tensor<1x16x1x1xf32>) -> tensor<1x16x6x7xf32>
    %r = ov.relu %a {ov.name = "relu"} : (tensor<1x16x6x7xf32>) -> tensor<1x16x6x7xf32>
    %w1 = ov.constant dense<0.25> : tensor<8x16x1x1xf32> {ov.name = "w1"}
    %y = ov.convolution %r, %w1 {ov.name = "conv1", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x16x6x7xf32>, tensor<8x16x1x1xf32>) -> tensor<1x8x6x7xf32>
    %s = ov.convolution %x, %w3 {ov.name = "conv_s2", strides = array<i64: 2, 2>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x16x6x7xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x3x4xf32>
    %z = ov.convolution %s, %w1 {ov.name = "conv_s2_1x1", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x16x3x4xf32>, tensor<8x16x1x1xf32>) -> tensor<1x8x3x4xf32>
    func.return %y, %z : tensor<1x8x6x7xf32>, tensor<1x8x3x4xf32>
  }
}
