// A requantization chain as LPT leaves it between quantized ops (onnxruntime's QDQ ResNets
// with their BatchNorm Mul/Add quantized): Convolution -> ... -> FakeQuantize(u8) -> Convert
// (f32) -> FakeQuantize(u8) per channel is one group, the Convert a `cast` step of the
// convolution's program; the CPU output equals REFERENCE's bit for bit.
// RUN: lowpass-run %s --random-inputs 0 --device CPU -pcsort no_sort | filecheck %s --check-prefix=ROWS
// RUN: lowpass-run %s --random-inputs 0 --device CPU --full > %t.cpu
// RUN: lowpass-run --device REFERENCE %s --random-inputs 0 --full > %t.ref
// RUN: diff %t.cpu %t.ref
// ROWS:      sub {{ *}}Subtract {{ *}}undef {{ *}}NOT_RUN
// ROWS:      conv {{ *}}Convolution {{ *}}jit_{{[a-z0-9_]+}}_I8 {{ *}}EXECUTED
// ROWS:      requantize {{ *}}FakeQuantize {{ *}}undef {{ *}}NOT_RUN
// ROWS-NEXT: back_to_f32 {{ *}}Convert {{ *}}undef {{ *}}NOT_RUN
// ROWS:      requantize_again {{ *}}FakeQuantize {{ *}}undef {{ *}}NOT_RUN
builtin.module {
  func.func @main(%x: tensor<1x2x8x8xui8> {ov.name = "x"}) -> (tensor<1x8x8x8xui8> {ov.name = "y"}) {
    %0 = ov.constant dense<3> : tensor<ui8> {ov.name = "zp"}
    %1 = ov.subtract %x, %0 {ov.name = "sub"} : (tensor<1x2x8x8xui8>, tensor<ui8>) -> tensor<1x2x8x8xf32>
    %2 = ov.constant dense<"0x4F95ADBCAE4D5E158A98D5EE1FFAC3A8313C889DF3E46304EBEE2A16AC3C417449C8D12626325ECA7080937971CCA3D08B642915BEF8B045F987C13405DFC0971B29056E6DB51B21BFCCFC3DCA3827B7E3545728812EB95169ED7442D360E29A175928E466FAE2A5B6324CCA205FA5C6060FE5E6A11C6EB24CAE8B3FAE40D411706BF9B4C05916AB6276781F791B0078"> : tensor<8x2x3x3xi8> {ov.name = "w"}
    %3 = ov.convolution %1, %2 {ov.name = "conv", strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x2x8x8xf32>, tensor<8x2x3x3xi8>) -> tensor<1x8x8x8xf32>
    %4 = ov.constant dense<[[[[2.570000e-04]], [[2.580000e-04]], [[1.110000e-04]], [[1.740000e-04]], [[1.170000e-04]], [[1.390000e-04]], [[1.430000e-04]], [[2.720000e-04]]]]> : tensor<1x8x1x1xf32> {ov.name = "scale"}
    %5 = ov.multiply %3, %4 {ov.name = "dequantize"} : (tensor<1x8x8x8xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x8x8xf32>
    %6 = ov.constant dense<[[[[-2.200000e-02]], [[-3.720000e-01]], [[-1.718000e+00]], [[1.682000e+00]], [[7.530000e-01]], [[7.540000e-01]], [[1.138000e+00]], [[3.490000e-01]]]]> : tensor<1x8x1x1xf32> {ov.name = "bias"}
    %7 = ov.add %5, %6 {ov.name = "add_bias"} : (tensor<1x8x8x8xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x8x8xf32>
    %8 = ov.relu %7 {ov.name = "relu"} : (tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %9 = ov.constant dense<0.000000e+00> : tensor<f32> {ov.name = "il"}
    %10 = ov.constant dense<3.000000e+00> : tensor<f32> {ov.name = "ih"}
    %11 = ov.constant dense<0.000000e+00> : tensor<f32> {ov.name = "ol"}
    %12 = ov.constant dense<2.550000e+02> : tensor<f32> {ov.name = "oh"}
    %13 = ov.fake_quantize %8, %9, %10, %11, %12 levels = 256 {ov.name = "requantize"} : (tensor<1x8x8x8xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x8x8x8xui8>
    %14 = ov.convert %13 destination_type = f32 {ov.name = "back_to_f32"} : (tensor<1x8x8x8xui8>) -> tensor<1x8x8x8xf32>
    %15 = ov.constant dense<[[[[-10.0]], [[0.0]], [[5.0]], [[-3.0]], [[1.0]], [[0.0]], [[-7.0]], [[2.0]]]]> : tensor<1x8x1x1xf32> {ov.name = "il2"}
    %16 = ov.constant dense<[[[[200.0]], [[255.0]], [[150.0]], [[240.0]], [[100.0]], [[300.0]], [[180.0]], [[250.0]]]]> : tensor<1x8x1x1xf32> {ov.name = "ih2"}
    %17 = ov.fake_quantize %14, %15, %16, %11, %12 levels = 256 {ov.name = "requantize_again"} : (tensor<1x8x8x8xf32>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>, tensor<f32>, tensor<f32>) -> tensor<1x8x8x8xui8>
    func.return %17 : tensor<1x8x8x8xui8>
  }
}
