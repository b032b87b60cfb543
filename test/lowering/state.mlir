// ReadValue reads the variable's flag (variables[1]) and copies the value buffer
// (variables[0]) or its initializer; Assign stores the value and sets the flag to 1. Three
// requests: the state carries over (same outputs as the REFERENCE device).
// RUN: rm -rf %t && mkdir -p %t
// RUN: lowpass-run --device REFERENCE %s --random-inputs 2 --iterations 3 --save-outputs %t/ref
// RUN: lowpass-run --threads 1 %s --random-inputs 2 --iterations 3 --device CPU --save-outputs %t/cpu --emit-llvm %t/state.ll -pcsort no_sort | filecheck %s --check-prefix=ROWS
// RUN: filecheck %s < %t/state.ll
// RUN: python3 %S/../tools/lowpass-run/Inputs/compare_outputs.py %t/ref %t/cpu | filecheck %s --check-prefix=SAME
// CHECK:      define {{.*}}i32 @lowpass_main(
// CHECK-DAG:  getelementptr ptr, ptr %variables, i64 1
// CHECK-DAG:  load i8, ptr
// CHECK-DAG:  store i8 1, ptr
// ROWS:       read {{ *}}ReadValue {{ *}}unknown_FP32 {{ *}}EXECUTED
// ROWS:       write {{ *}}Assign {{ *}}unknown_FP32 {{ *}}EXECUTED
// SAME:       same y
builtin.module {
  ov.variable @"acc" : tensor<1x8xf32>
  func.func @main(%x: tensor<1x8xf32> {ov.name = "x"}) -> (tensor<1x8xf32> {ov.name = "y"}) {
    %a = ov.read_value @"acc" {ov.name = "read"} : tensor<1x8xf32>
    %s = ov.add %a, %x {ov.name = "sum"} : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
    ov.assign @"acc", %s {ov.name = "write"} : tensor<1x8xf32>
    func.return %s : tensor<1x8xf32>
  }
}
