// A TensorIterator whose body lowers becomes a loop inside lowpass_main (one jit row, no
// fallback call) and computes what the REFERENCE device computes.
// RUN: rm -rf %t && mkdir -p %t
// RUN: lowpass-run --device REFERENCE %s --random-inputs 1 --save-outputs %t/ref
// RUN: lowpass-run --threads 1 %s --random-inputs 1 --device CPU --save-outputs %t/cpu --emit-llvm %t/ti.ll -pcsort no_sort | filecheck %s --check-prefix=ROWS
// RUN: filecheck %s < %t/ti.ll
// RUN: python3 %S/../tools/lowpass-run/Inputs/compare_outputs.py %t/ref %t/cpu | filecheck %s --check-prefix=SAME
// CHECK:      define {{.*}}i32 @lowpass_main(
// CHECK-NOT:  %fallback(
// ROWS:       ti {{ *}}TensorIterator {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// SAME-DAG:   same h
// SAME-DAG:   same ys
builtin.module {
  func.func @main(%x: tensor<1x5x4xf32> {ov.name = "x"}, %h0: tensor<1x1x4xf32> {ov.name = "h0"}, %w: tensor<1x1x4xf32> {ov.name = "w"}) -> (tensor<1x1x4xf32> {ov.name = "h"}, tensor<1x5x4xf32> {ov.name = "ys"}) {
    %h, %ys = ov.tensor_iterator(%x, %h0, %w) attributes {ov.name = "ti", input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>, #ov.invariant<input = 2, param = 2>], output_descriptions = [#ov.body_output<result = 0, output = 0>, #ov.concat_output<result = 0, output = 1, axis = 1>]} : (tensor<1x5x4xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> (tensor<1x1x4xf32>, tensor<1x5x4xf32>) {
    ^bb0(%x_t: tensor<1x1x4xf32>, %h_t: tensor<1x1x4xf32>, %w_t: tensor<1x1x4xf32>):
      %m = ov.multiply %h_t, %w_t : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
      %a = ov.add %m, %x_t : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
      %n = ov.tanh %a : (tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
      ov.yield %n : tensor<1x1x4xf32>
    }
    func.return %h, %ys : tensor<1x1x4xf32>, tensor<1x5x4xf32>
  }
}
