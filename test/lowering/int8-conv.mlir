// An LPT-style int8 convolution: Subtract(u8, zero point) -> Convolution(u8 x i8, full-range
// weights) -> Multiply -> Add -> Relu -> FakeQuantize(u8) is one group (exact int8 GEMM:
// vpmaddwd on AVX2, vpdpbusd with VNNI, on zmm with AVX-512 VNNI, AMX tiles where the host has
// them, its im2col rows of 18 padded to 64; the NCHW pass rounds half to
// even and packs u8), then MaxPool stays u8. No fallback call; the CPU output equals REFERENCE's.
// RUN: lowpass-run --threads 1 %s --random-inputs 0 --device CPU --emit-llvm %t.ll -pcsort no_sort | filecheck %s --check-prefix=ROWS
// RUN: filecheck %s --check-prefix=IR < %t.ll
// RUN: not grep -q "call i32 %%fallback" %t.ll
// RUN: lowpass-run %s --random-inputs 0 --device CPU --full > %t.cpu
// RUN: lowpass-run --device REFERENCE %s --random-inputs 0 --full > %t.ref
// RUN: diff %t.cpu %t.ref
// (the group's row is its convolution's, as OpenVINO's: the zero point's Subtract is fused)
// ROWS:      sub {{ *}}Subtract {{ *}}undef {{ *}}NOT_RUN
// ROWS:      conv {{ *}}Convolution {{ *}}jit_{{[a-z0-9_]+}}_I8 {{ *}}EXECUTED
// ROWS:      dequantize {{ *}}Multiply {{ *}}undef {{ *}}NOT_RUN
// ROWS:      add_bias {{ *}}Add {{ *}}undef {{ *}}NOT_RUN
// ROWS-NEXT: relu {{ *}}Relu {{ *}}undef {{ *}}NOT_RUN
// ROWS:      requantize {{ *}}FakeQuantize {{ *}}undef {{ *}}NOT_RUN
// ROWS-NEXT: pool {{ *}}MaxPool {{ *}}jit_{{[a-z0-9_]+}}_I8 {{ *}}EXECUTED
// IR:        define {{.*}}i32 @lowpass_main(
// IR-DAG:    declare {{.*}} @llvm.x86.{{avx2.pmadd.wd|avx512.vpdpbusd.256|avx512.vpdpbusd.512|tdpbusd}}(
// IR-DAG:    declare <{{8|16}} x float> @llvm.roundeven.v{{8|16}}f32(
// IR-DAG:    declare <32 x i8> @llvm.x86.avx2.packuswb(
// IR-DAG:    declare {{.*}} @llvm.umax.{{.*}}i8(
builtin.module {
  func.func @main(%x: tensor<1x2x8x8xui8> {ov.name = "x"}) -> (tensor<1x8x4x4xui8> {ov.name = "y"}) {
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
    %14 = ov.max_pool %13 {ov.name = "pool", strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>} : (tensor<1x8x8x8xui8>) -> tensor<1x8x4x4xui8>
    func.return %14 : tensor<1x8x4x4xui8>
  }
}
