// cpu-remove-views: Reshape/Squeeze/Unsqueeze of computed tensors (graph inputs included)
// share their input's memory; a Reshape of a constant is a constant (cpu-fold-constants), not
// a view; a view of a view is a view too. The CPU device runs them as no code at all.
// RUN: opt-tool -p cpu-fold-constants,cpu-remove-views %s | filecheck %s
// RUN: lowpass-run --threads 1 %s --random-inputs 0 --device CPU --emit-llvm %t.ll -pcsort no_sort | filecheck %s --check-prefix=ROWS
// CHECK:      %r = ov.reshape %x, %s special_zero = false {ov.name = "r", cpu.view}
// CHECK-NEXT: %k = ov.reshape %c, %s special_zero = false {ov.name = "k", cpu.constant}
// CHECK-NEXT: %a = ov.add %r, %k {ov.name = "a"}
// CHECK-NEXT: %u = ov.unsqueeze %a, %zero {ov.name = "u", cpu.view}
// CHECK-NEXT: %q = ov.squeeze %u, %zero {ov.name = "q", cpu.view}
// ROWS:      r {{ *}}Reshape {{ *}}unknown_FP32 {{ *}}EXECUTED
// ROWS-NEXT: k {{ *}}Reshape {{ *}}unknown_FP32 {{ *}}NOT_RUN
// ROWS-NEXT: a {{ *}}Add {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// ROWS-NEXT: u {{ *}}Unsqueeze {{ *}}unknown_FP32 {{ *}}EXECUTED
// ROWS-NEXT: q {{ *}}Squeeze {{ *}}unknown_FP32 {{ *}}EXECUTED
builtin.module {
  func.func @main(%x: tensor<16xf32>) -> tensor<2x8xf32> {
    %s = ov.constant dense<[2, 8]> : tensor<2xi64>
    %zero = ov.constant dense<[0]> : tensor<1xi64>
    %c = ov.constant dense<1.5> : tensor<16xf32>
    %r = ov.reshape %x, %s special_zero = false {ov.name = "r"} : (tensor<16xf32>, tensor<2xi64>) -> tensor<2x8xf32>
    %k = ov.reshape %c, %s special_zero = false {ov.name = "k"} : (tensor<16xf32>, tensor<2xi64>) -> tensor<2x8xf32>
    %a = ov.add %r, %k {ov.name = "a"} : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
    %u = ov.unsqueeze %a, %zero {ov.name = "u"} : (tensor<2x8xf32>, tensor<1xi64>) -> tensor<1x2x8xf32>
    %q = ov.squeeze %u, %zero {ov.name = "q"} : (tensor<1x2x8xf32>, tensor<1xi64>) -> tensor<2x8xf32>
    func.return %q : tensor<2x8xf32>
  }
}
