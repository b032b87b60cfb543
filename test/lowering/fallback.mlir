// An op without a kernel (NormalizeL2) is group 1: lowpass_main calls the fallback callback for
// it, checks its status (a failing group returns its index + 1), and profiling shows it as
// ref_FP32; the kernels around it are jit.
// RUN: lowpass-run --threads 1 %s --random-inputs 0 --device CPU --emit-llvm %t.ll -pcsort no_sort | filecheck %s --check-prefix=ROWS
// RUN: filecheck %s < %t.ll
// CHECK:      define {{.*}}i32 @lowpass_main(
// CHECK:      [[STATUS:%.*]] = {{(tail )?}}call i32 %fallback(i64 1)
// CHECK:      icmp {{(ne|eq)}} i32 [[STATUS]], 0
// CHECK:      i32 2
// ROWS:       exp {{ *}}Exp {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// ROWS-NEXT:  ax {{ *}}Constant {{ *}}unknown_I64 {{ *}}NOT_RUN
// ROWS-NEXT:  l2 {{ *}}NormalizeL2 {{ *}}ref_FP32 {{ *}}EXECUTED
// ROWS-NEXT:  sig {{ *}}Sigmoid {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
builtin.module {
  func.func @main(%x: tensor<3x7xf32>) -> tensor<3x7xf32> {
    %e = ov.exp %x {ov.name = "exp"} : (tensor<3x7xf32>) -> tensor<3x7xf32>
    %ax = ov.constant dense<[1]> : tensor<1xi64> {ov.name = "ax"}
    %s = ov.normalize_l2 %e, %ax {eps = 1.000000e-09 : f32, eps_mode = #ov<eps_mode add>, ov.name = "l2"} : (tensor<3x7xf32>, tensor<1xi64>) -> tensor<3x7xf32>
    %y = ov.sigmoid %s {ov.name = "sig"} : (tensor<3x7xf32>) -> tensor<3x7xf32>
    func.return %y : tensor<3x7xf32>
  }
}
