// Reductions over trailing axes (the global pooling of ONNX models) are native kernels: no
// fallback call; a reduction over a middle axis still goes through the reference.
// RUN: lowpass-run %s --random-inputs 0 --device CPU --emit-llvm %t.ll -pcsort no_sort | filecheck %s --check-prefix=ROWS
// RUN: filecheck %s < %t.ll
// CHECK:      define {{.*}}i32 @lowpass_main(
// CHECK:      call i32 %fallback(i64 {{[0-9]+}})
// CHECK-NOT:  call i32 %fallback(
// ROWS:       gap {{ *}}ReduceMean {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// ROWS:       gmp {{ *}}ReduceMax {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// ROWS:       mid {{ *}}ReduceMean {{ *}}ref_FP32 {{ *}}EXECUTED
builtin.module {
  func.func @main(%x: tensor<1x8x7x7xf32>) -> (tensor<1x8x1x1xf32>, tensor<1x8xf32>, tensor<1x7x7xf32>) {
    %hw = ov.constant dense<[2, 3]> : tensor<2xi64> {ov.name = "hw"}
    %c = ov.constant dense<[1]> : tensor<1xi64> {ov.name = "c"}
    %gap = ov.reduce_mean %x, %hw keep_dims = true {ov.name = "gap"} : (tensor<1x8x7x7xf32>, tensor<2xi64>) -> tensor<1x8x1x1xf32>
    %gmp = ov.reduce_max %x, %hw {ov.name = "gmp"} : (tensor<1x8x7x7xf32>, tensor<2xi64>) -> tensor<1x8xf32>
    %mid = ov.reduce_mean %x, %c {ov.name = "mid"} : (tensor<1x8x7x7xf32>, tensor<1xi64>) -> tensor<1x7x7xf32>
    func.return %gap, %gmp, %mid : tensor<1x8x1x1xf32>, tensor<1x8xf32>, tensor<1x7x7xf32>
  }
}
