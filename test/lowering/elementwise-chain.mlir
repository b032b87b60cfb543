// An elementwise chain (Add of a scalar, Relu, Tanh) compiles to one 8-wide (AVX2) or 16-wide
// (AVX-512) loop in lowpass_main: no fallback call, the scalar is an immediate, tanh is an FMA
// polynomial.
// RUN: lowpass-run --threads 1 %s --random-inputs 0 --device CPU --emit-llvm %t.ll -pcsort no_sort | filecheck %s --check-prefix=ROWS
// RUN: filecheck %s < %t.ll
// CHECK:      define {{.*}}i32 @lowpass_main(ptr {{.*}}%inputs, ptr {{.*}}%outputs, ptr {{.*}}%variables, ptr {{.*}}%arena, ptr {{.*}}%profile, ptr {{.*}}%fallback)
// CHECK-NOT:  %fallback(
// CHECK:      fadd <{{8|16}} x float> %{{.*}}, splat (float 5.000000e-01)
// CHECK:      select <{{8|16}} x i1>
// CHECK:      @llvm.fma.v{{8|16}}f32
// CHECK-NOT:  %fallback(
// ROWS:       add {{ *}}Add {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// ROWS-NEXT:  relu {{ *}}Relu {{ *}}undef {{ *}}NOT_RUN
// ROWS-NEXT:  tanh {{ *}}Tanh {{ *}}undef {{ *}}NOT_RUN
builtin.module {
  func.func @main(%x: tensor<4x256xf32>) -> tensor<4x256xf32> {
    %b = ov.constant dense<0.5> : tensor<f32>
    %a = ov.add %x, %b {ov.name = "add"} : (tensor<4x256xf32>, tensor<f32>) -> tensor<4x256xf32>
    %r = ov.relu %a {ov.name = "relu"} : (tensor<4x256xf32>) -> tensor<4x256xf32>
    %t = ov.tanh %r {ov.name = "tanh"} : (tensor<4x256xf32>) -> tensor<4x256xf32>
    func.return %t : tensor<4x256xf32>
  }
}
