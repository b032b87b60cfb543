// The body of a TensorIterator that becomes a loop goes through the same stages: its constants,
// views, groups (numbered from 0 in the body) and buffers (offsets from the body's own memory,
// whose size is the op's #cpu.arena) are in the IR; the loop op itself is a "loop" kernel whose
// results are the request's outputs. A TensorIterator whose body has an op without a kernel is
// one "reference" group and its body gets no groups. Both compute what REFERENCE computes.
// RUN: opt-tool -p cpu-fold-constants,cpu-remove-views,cpu-quantize-cells,cpu-fuse-kernels,cpu-assign-buffers %s | filecheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: lowpass-run --device REFERENCE %s --random-inputs 1 --save-outputs %t/ref
// RUN: lowpass-run %s --random-inputs 1 --device CPU --save-outputs %t/cpu -pcsort no_sort | filecheck %s --check-prefix=ROWS
// RUN: python3 %S/../../tools/lowpass-run/Inputs/compare_outputs.py %t/ref %t/cpu | filecheck %s --check-prefix=SAME
// CHECK:      %h, %ys = ov.tensor_iterator(%x, %h0, %w) attributes {ov.name = "ti", cpu.kernel = #cpu.kernel<0, "loop">, cpu.buffers = [#cpu.buffer<output 0, 16>, #cpu.buffer<output 1, 80>], cpu.arena = #cpu.arena<128>
// CHECK:      ^bb0(%x_t: tensor<1x1x4xf32>, %h_t: tensor<1x1x4xf32>, %w_t: tensor<1x1x4xf32>):
// CHECK-NEXT:   %four = ov.constant dense<4> : tensor<1xi64>
// CHECK-NEXT:   %shape = ov.shape_of %x_t {cpu.constant}
// CHECK-NEXT:   %flat = ov.reshape %x_t, %four special_zero = false {cpu.view}
// CHECK-NEXT:   %r = ov.relu %flat {cpu.kernel = #cpu.kernel<0, "elementwise">, cpu.buffers = [#cpu.buffer<arena 0, 64>]}
// CHECK-NEXT:   %back = ov.reshape %r, %shape special_zero = false {cpu.view}
// CHECK-NEXT:   %m = ov.multiply %h_t, %w_t {cpu.kernel = #cpu.kernel<1, "elementwise">, cpu.buffers = [#cpu.buffer<none>]}
// CHECK-NEXT:   %a = ov.add %m, %back {cpu.fused = #cpu.fused<1>, cpu.buffers = [#cpu.buffer<none>]}
// CHECK-NEXT:   %n = ov.tanh %a {cpu.fused = #cpu.fused<1>, cpu.buffers = [#cpu.buffer<arena 64, 64>]}
// CHECK-NEXT:   ov.yield %n
// CHECK:      %g = ov.tensor_iterator(%x) attributes {ov.name = "ti_ref", cpu.kernel = #cpu.kernel<1, "reference">, cpu.buffers = [#cpu.buffer<output 2, 16>]
// CHECK-NEXT: ^bb0(%y_t: tensor<1x1x4xf32>):
// CHECK-NEXT:   %ax = ov.constant
// CHECK-NEXT:   %e = ov.reduce_prod %y_t, %ax keep_dims = true :
// ROWS:       ti {{ *}}TensorIterator {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// ROWS:       ti_ref {{ *}}TensorIterator {{ *}}ref_FP32 {{ *}}EXECUTED
// SAME-DAG:   same h
// SAME-DAG:   same ys
// SAME-DAG:   same g
builtin.module {
  func.func @main(%x: tensor<1x5x4xf32> {ov.name = "x"}, %h0: tensor<1x1x4xf32> {ov.name = "h0"}, %w: tensor<1x1x4xf32> {ov.name = "w"}) -> (tensor<1x1x4xf32> {ov.name = "h"}, tensor<1x5x4xf32> {ov.name = "ys"}, tensor<1x1x4xf32> {ov.name = "g"}) {
    %h, %ys = ov.tensor_iterator(%x, %h0, %w) attributes {ov.name = "ti", input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>, #ov.invariant<input = 2, param = 2>], output_descriptions = [#ov.body_output<result = 0, output = 0>, #ov.concat_output<result = 0, output = 1, axis = 1>]} : (tensor<1x5x4xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> (tensor<1x1x4xf32>, tensor<1x5x4xf32>) {
    ^bb0(%x_t: tensor<1x1x4xf32>, %h_t: tensor<1x1x4xf32>, %w_t: tensor<1x1x4xf32>):
      %four = ov.constant dense<4> : tensor<1xi64>
      %shape = ov.shape_of %x_t : (tensor<1x1x4xf32>) -> tensor<3xi64>
      %flat = ov.reshape %x_t, %four special_zero = false : (tensor<1x1x4xf32>, tensor<1xi64>) -> tensor<4xf32>
      %r = ov.relu %flat : (tensor<4xf32>) -> tensor<4xf32>
      %back = ov.reshape %r, %shape special_zero = false : (tensor<4xf32>, tensor<3xi64>) -> tensor<1x1x4xf32>
      %m = ov.multiply %h_t, %w_t : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
      %a = ov.add %m, %back : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
      %n = ov.tanh %a : (tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
      ov.yield %n : tensor<1x1x4xf32>
    }
    %g = ov.tensor_iterator(%x) attributes {ov.name = "ti_ref", input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>], output_descriptions = [#ov.body_output<result = 0, output = 0>]} : (tensor<1x5x4xf32>) -> tensor<1x1x4xf32> {
    ^bb0(%y_t: tensor<1x1x4xf32>):
      %ax = ov.constant dense<[1]> : tensor<1xi64>
      %e = ov.reduce_prod %y_t, %ax keep_dims = true : (tensor<1x1x4xf32>, tensor<1xi64>) -> tensor<1x1x4xf32>
      ov.yield %e : tensor<1x1x4xf32>
    }
    func.return %h, %ys, %g : tensor<1x1x4xf32>, tensor<1x5x4xf32>, tensor<1x1x4xf32>
  }
}
