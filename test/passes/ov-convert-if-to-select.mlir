// ov-convert-if-to-select computes both bodies of an If whose bodies are a few small ops
// that cannot fail, and selects each result: what TorchScript's `break` in a loop becomes
// (Inputs/loop-break.mlir: an If in the Loop body that gives the loop's condition, `false`
// or `i + 1 < 8`). The bodies' ops keep their names, the Select takes the If's. REFERENCE
// computes the same before and after; the CPU device, which converts it itself
// (cpu-decompose), runs the Loop in native code (it ran on the reference fallback, 5.6 ms
// where it now takes microseconds). Kept: an integer Divide (it would divide by zero where
// the other body guarded it), a body of more than 256 elements, an operand of dynamic shape.
// RUN: opt-tool --ov-convert-if-to-select %S/Inputs/loop-break.mlir | filecheck %s
// RUN: opt-tool --ov-convert-if-to-select %S/Inputs/loop-break.mlir | opt-tool | filecheck %s
// RUN: opt-tool --ov-convert-if-to-select %s --split-input-file | filecheck %s --check-prefix=KEPT
// RUN: rm -rf %t && mkdir -p %t
// RUN: lowpass-run %S/Inputs/loop-break.mlir --random-inputs 1 --device REFERENCE --save-outputs %t/before
// RUN: opt-tool --ov-convert-if-to-select %S/Inputs/loop-break.mlir -o %t/selected.mlir
// RUN: lowpass-run %t/selected.mlir --random-inputs 1 --device REFERENCE --save-outputs %t/after
// RUN: python3 %S/../tools/lowpass-run/Inputs/compare_outputs.py %t/before %t/after | filecheck %s --check-prefix=SAME
// RUN: lowpass-run %S/Inputs/loop-break.mlir --random-inputs 1 --device CPU --save-outputs %t/cpu -pcsort no_sort | filecheck %s --check-prefix=ROWS
// RUN: python3 %S/../tools/lowpass-run/Inputs/compare_outputs.py %t/before %t/cpu | filecheck %s --check-prefix=SAME

// CHECK:      %[[STOP:.*]] = ov.greater %{{.*}}, %{{.*}} {ov.name = "stop"}
// CHECK-NEXT: %[[F:.*]] = ov.constant dense<false> : tensor<i1> {ov.name = "f"}
// CHECK-NEXT: %[[ONE:.*]] = ov.constant dense<1> : tensor<i64> {ov.name = "one"}
// CHECK-NEXT: %[[NEXT:.*]] = ov.add %i, %[[ONE]] {ov.name = "next"}
// CHECK-NEXT: %[[N:.*]] = ov.constant dense<8> : tensor<i64> {ov.name = "n"}
// CHECK-NEXT: %[[MORE:.*]] = ov.less %[[NEXT]], %[[N]] {ov.name = "more"}
// CHECK-NEXT: %[[CONT:.*]] = ov.select %[[STOP]], %[[F]], %[[MORE]] {ov.name = "break"} : (tensor<i1>, tensor<i1>, tensor<i1>) -> tensor<i1>
// CHECK-NEXT: ov.yield %{{.*}}, %[[CONT]] : tensor<1x4xf32>, tensor<i1>

// SAME: same h

// ROWS: decode {{ *}}Loop {{ *}}jit_{{.*}}_FP32 EXECUTED

// KEPT-LABEL: func.func @integer_divide
// KEPT:         ov.if
// KEPT:         ov.divide
func.func @integer_divide(%c: tensor<i1>, %a: tensor<i32>, %b: tensor<i32>) -> tensor<i32> {
  %y = ov.if(%c, %a, %b) attributes {then_inputs = [#ov.invariant<input = 1, param = 0>, #ov.invariant<input = 2, param = 1>], else_inputs = [], then_outputs = [#ov.body_output<result = 0, output = 0>], else_outputs = [#ov.body_output<result = 0, output = 0>]} : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32> {
  ^bb0(%x: tensor<i32>, %z: tensor<i32>):
    %q = ov.divide %x, %z : (tensor<i32>, tensor<i32>) -> tensor<i32>
    ov.yield %q : tensor<i32>
  } else {
    %k = ov.constant dense<0> : tensor<i32>
    ov.yield %k : tensor<i32>
  }
  func.return %y : tensor<i32>
}

// -----

// KEPT-LABEL: func.func @large_body
// KEPT:         ov.if
func.func @large_body(%c: tensor<i1>, %a: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %y = ov.if(%c, %a) attributes {then_inputs = [#ov.invariant<input = 1, param = 0>], else_inputs = [#ov.invariant<input = 1, param = 0>], then_outputs = [#ov.body_output<result = 0, output = 0>], else_outputs = [#ov.body_output<result = 0, output = 0>]} : (tensor<i1>, tensor<16x32xf32>) -> tensor<16x32xf32> {
  ^bb0(%x: tensor<16x32xf32>):
    %s = ov.add %x, %x : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
    ov.yield %s : tensor<16x32xf32>
  } else {
  ^bb0(%x: tensor<16x32xf32>):
    ov.yield %x : tensor<16x32xf32>
  }
  func.return %y : tensor<16x32xf32>
}

// -----

// A condition of shape [1] is reshaped to a scalar, so that it does not broadcast the
// results; a result both bodies give the same value needs no Select.
// KEPT-LABEL: func.func @one_element_condition
// KEPT-NEXT:    %[[S:.*]] = ov.add %a, %a
// KEPT-NEXT:    %[[SHAPE:.*]] = ov.constant dense<> : tensor<0xi64>
// KEPT-NEXT:    %[[C:.*]] = ov.reshape %c, %[[SHAPE]] special_zero = false : (tensor<1xi1>, tensor<0xi64>) -> tensor<i1>
// KEPT-NEXT:    %[[Y:.*]] = ov.select %[[C]], %[[S]], %a : (tensor<i1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// KEPT-NEXT:    func.return %[[Y]], %a
func.func @one_element_condition(%c: tensor<1xi1>, %a: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  %y, %z = ov.if(%c, %a) attributes {then_inputs = [#ov.invariant<input = 1, param = 0>], else_inputs = [#ov.invariant<input = 1, param = 0>], then_outputs = [#ov.body_output<result = 0, output = 0>, #ov.body_output<result = 1, output = 1>], else_outputs = [#ov.body_output<result = 0, output = 0>, #ov.body_output<result = 0, output = 1>]} : (tensor<1xi1>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {
  ^bb0(%x: tensor<3xf32>):
    %s = ov.add %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    ov.yield %s, %x : tensor<3xf32>, tensor<3xf32>
  } else {
  ^bb0(%x: tensor<3xf32>):
    ov.yield %x : tensor<3xf32>
  }
  func.return %y, %z : tensor<3xf32>, tensor<3xf32>
}

// -----

// An operand of dynamic shape: the Add of a [?] and a [2] is typed [2], and fails where the
// ? is not 2, which the condition may be there to avoid.
// KEPT-LABEL: func.func @dynamic_operand
// KEPT:         ov.if
func.func @dynamic_operand(%c: tensor<i1>, %a: tensor<?xf32>) -> tensor<2xf32> {
  %y = ov.if(%c, %a) attributes {then_inputs = [#ov.invariant<input = 1, param = 0>], else_inputs = [], then_outputs = [#ov.body_output<result = 0, output = 0>], else_outputs = [#ov.body_output<result = 0, output = 0>]} : (tensor<i1>, tensor<?xf32>) -> tensor<2xf32> {
  ^bb0(%x: tensor<?xf32>):
    %w = ov.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %s = ov.add %x, %w : (tensor<?xf32>, tensor<2xf32>) -> tensor<2xf32>
    ov.yield %s : tensor<2xf32>
  } else {
    %k = ov.constant dense<0.0> : tensor<2xf32>
    ov.yield %k : tensor<2xf32>
  }
  func.return %y : tensor<2xf32>
}
