// Reductions over adjacent axes are native kernels: the global pooling of ONNX models
// (trailing axes), a mean over the channels of NCHW (a middle axis, vectors along the
// positions after it, u8 data as LPT leaves it; row by row where 64 or more outputs follow
// it), float32 sums (numpy's pairwise summation along a trailing run) and L1/L2 norms, u8
// sums to float32 (as LPT leaves them), a maximum and a sum over axes with a kept axis
// between them; ReduceProd still goes through the reference, the only fallback call.
// RUN: lowpass-run --threads 1 %s --random-inputs 0 --device CPU --emit-llvm %t.ll -pcsort no_sort | filecheck %s --check-prefix=ROWS
// RUN: filecheck %s < %t.ll
// CHECK:      define {{.*}}i32 @lowpass_main(
// CHECK:      call i32 %fallback(i64 {{[0-9]+}})
// CHECK-NOT:  call i32 %fallback(
// CHECK-DAG:  define {{.*}}@{{[a-z0-9_]*}}_reduce_nhwc(
// CHECK-DAG:  define {{.*}}@{{[a-z0-9_]*}}_reduce_sum(
// CHECK-DAG:  define {{.*}}@{{[a-z0-9_]*}}_reduce_rows(
// CHECK-DAG:  define {{.*}}@{{[a-z0-9_]*}}_reduce_strided(
// ROWS:       gap {{ *}}ReduceMean {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// ROWS:       gmp {{ *}}ReduceMax {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// ROWS:       mid {{ *}}ReduceMean {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// ROWS:       qmid {{ *}}ReduceMean {{ *}}jit_{{[a-z0-9]+}}_I8 {{ *}}EXECUTED
// ROWS:       apart {{ *}}ReduceMax {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// ROWS:       tsum {{ *}}ReduceSum {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// ROWS:       csum {{ *}}ReduceSum {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// ROWS:       rmax {{ *}}ReduceMax {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// ROWS:       qsum {{ *}}ReduceSum {{ *}}jit_{{[a-z0-9]+}}_I8 {{ *}}EXECUTED
// ROWS:       l1 {{ *}}ReduceL1 {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// ROWS:       l2 {{ *}}ReduceL2 {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// ROWS:       sum_apart {{ *}}ReduceSum {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// ROWS:       prod {{ *}}ReduceProd {{ *}}ref_FP32 {{ *}}EXECUTED
builtin.module {
  func.func @main(%x: tensor<1x8x7x7xf32>, %q: tensor<1x8x7x7xui8>, %r: tensor<3x100xf32>) -> (tensor<1x8x1x1xf32>, tensor<1x8xf32>, tensor<1x7x7xf32>, tensor<1x1x7x7xf32>, tensor<1x7xf32>, tensor<1x8xf32>, tensor<1x7x7xf32>, tensor<100xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x7x7xf32>, tensor<1x7xf32>, tensor<1x8xf32>) {
    %hw = ov.constant dense<[2, 3]> : tensor<2xi64> {ov.name = "hw"}
    %c = ov.constant dense<[1]> : tensor<1xi64> {ov.name = "c"}
    %cw = ov.constant dense<[1, 3]> : tensor<2xi64> {ov.name = "cw"}
    %gap = ov.reduce_mean %x, %hw keep_dims = true {ov.name = "gap"} : (tensor<1x8x7x7xf32>, tensor<2xi64>) -> tensor<1x8x1x1xf32>
    %gmp = ov.reduce_max %x, %hw {ov.name = "gmp"} : (tensor<1x8x7x7xf32>, tensor<2xi64>) -> tensor<1x8xf32>
    %mid = ov.reduce_mean %x, %c {ov.name = "mid"} : (tensor<1x8x7x7xf32>, tensor<1xi64>) -> tensor<1x7x7xf32>
    %qmid = ov.reduce_mean %q, %c keep_dims = true {ov.name = "qmid"} : (tensor<1x8x7x7xui8>, tensor<1xi64>) -> tensor<1x1x7x7xf32>
    %apart = ov.reduce_max %x, %cw {ov.name = "apart"} : (tensor<1x8x7x7xf32>, tensor<2xi64>) -> tensor<1x7xf32>
    %tsum = ov.reduce_sum %x, %hw {ov.name = "tsum"} : (tensor<1x8x7x7xf32>, tensor<2xi64>) -> tensor<1x8xf32>
    %csum = ov.reduce_sum %x, %c {ov.name = "csum"} : (tensor<1x8x7x7xf32>, tensor<1xi64>) -> tensor<1x7x7xf32>
    %zero = ov.constant dense<0> : tensor<i64> {ov.name = "zero"}
    %rmax = ov.reduce_max %r, %zero {ov.name = "rmax"} : (tensor<3x100xf32>, tensor<i64>) -> tensor<100xf32>
    %qsum = ov.reduce_sum %q, %hw {ov.name = "qsum"} : (tensor<1x8x7x7xui8>, tensor<2xi64>) -> tensor<1x8xf32>
    %l1 = ov.reduce_l1 %x, %hw {ov.name = "l1"} : (tensor<1x8x7x7xf32>, tensor<2xi64>) -> tensor<1x8xf32>
    %l2 = ov.reduce_l2 %x, %c {ov.name = "l2"} : (tensor<1x8x7x7xf32>, tensor<1xi64>) -> tensor<1x7x7xf32>
    %sum_apart = ov.reduce_sum %x, %cw {ov.name = "sum_apart"} : (tensor<1x8x7x7xf32>, tensor<2xi64>) -> tensor<1x7xf32>
    %prod = ov.reduce_prod %x, %hw {ov.name = "prod"} : (tensor<1x8x7x7xf32>, tensor<2xi64>) -> tensor<1x8xf32>
    func.return %gap, %gmp, %mid, %qmid, %apart, %tsum, %csum, %rmax, %qsum, %l1, %l2, %sum_apart, %prod : tensor<1x8x1x1xf32>, tensor<1x8xf32>, tensor<1x7x7xf32>, tensor<1x1x7x7xf32>, tensor<1x7xf32>, tensor<1x8xf32>, tensor<1x7x7xf32>, tensor<100xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x7x7xf32>, tensor<1x7xf32>, tensor<1x8xf32>
  }
}
