// LRN across channels (GoogLeNet's axes = [1]) is a native kernel on the CPU device: its own
// function (vectorized by LLVM), square roots for beta = 0.75; LRN over the spatial axes stays on
// the reference (a ref_ row). The numbers against REFERENCE: test/python/lowering/test_lrn.py.
// RUN: lowpass-run --threads 1 %s --random-inputs 0 --device CPU --emit-llvm %t.ll -pcsort no_sort | filecheck %s --check-prefix=ROWS
// RUN: filecheck %s --check-prefix=IR < %t.ll
// ROWS:      channels {{ *}}LRN {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// ROWS:      spatial {{ *}}LRN {{ *}}ref_FP32 {{ *}}EXECUTED
// IR:        define internal {{.*}}void @channels_lrn(
// IR:        call {{.*}} @llvm.sqrt.{{(v[0-9]+)?}}f32(
builtin.module {
  func.func @main(%x: tensor<1x8x5x7xf32> {ov.name = "x"}) -> (tensor<1x8x5x7xf32> {ov.name = "y"}, tensor<1x8x5x7xf32> {ov.name = "z"}) {
    %c = ov.constant dense<1> : tensor<1xi64> {ov.name = "channel_axis"}
    %y = ov.lrn %x, %c {alpha = 1.000000e-04 : f64, beta = 7.500000e-01 : f64, bias = 1.000000e+00 : f64, size = 5 : i64, ov.name = "channels"} : (tensor<1x8x5x7xf32>, tensor<1xi64>) -> tensor<1x8x5x7xf32>
    %s = ov.constant dense<[2, 3]> : tensor<2xi64> {ov.name = "spatial_axes"}
    %z = ov.lrn %x, %s {alpha = 1.000000e-04 : f64, beta = 7.500000e-01 : f64, bias = 1.000000e+00 : f64, size = 3 : i64, ov.name = "spatial"} : (tensor<1x8x5x7xf32>, tensor<2xi64>) -> tensor<1x8x5x7xf32>
    func.return %y, %z : tensor<1x8x5x7xf32>, tensor<1x8x5x7xf32>
  }
}
