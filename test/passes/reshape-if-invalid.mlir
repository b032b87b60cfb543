// An ov.if body that cannot take the new shape: ov-reshape names the op in the body, its
// constant and a replacement, exit code 1, and the module is not changed.
// RUN: not opt-tool %s --ov-reshape='inputs="X:3x3"' 2>&1 | filecheck %s
// The shape that the body's constant holds reshapes.
// RUN: opt-tool %s --ov-reshape='inputs="X:2x4"' | filecheck %s --check-prefix=OK

// CHECK: error: 'ov.reshape' op "body/flat"
// CHECK-SAME: (after reshape: input 'X' [?, ?] -> [3, 3])
// CHECK: note: the target shape of 'ov.reshape' "body/flat" comes from ov.constant "body/shape" = [8]
// CHECK-NOT: func.func

// OK: ov.if(%c, %x)
// OK-SAME: : (tensor<i1>, tensor<2x4xf32>) -> tensor<8xf32> {
// OK-NEXT: ^{{.*}}(%{{.*}}: tensor<2x4xf32>):
func.func @main(%x: tensor<?x?xf32> {ov.name = "X"}, %c: tensor<i1> {ov.name = "C"}) -> tensor<8xf32> {
  %y = ov.if(%c, %x) attributes {then_inputs = [#ov.invariant<input = 1, param = 0>], else_inputs = [], then_outputs = [#ov.body_output<result = 0, output = 0>], else_outputs = [#ov.body_output<result = 0, output = 0>]} : (tensor<i1>, tensor<?x?xf32>) -> tensor<8xf32> {
  ^bb0(%a: tensor<?x?xf32>):
    %s = ov.constant dense<[8]> : tensor<1xi64> {ov.name = "body/shape"}
    %r = ov.reshape %a, %s special_zero = false {ov.name = "body/flat"} : (tensor<?x?xf32>, tensor<1xi64>) -> tensor<8xf32>
    ov.yield %r : tensor<8xf32>
  } else {
    %z = ov.constant dense<0.0> : tensor<8xf32>
    ov.yield %z : tensor<8xf32>
  }
  func.return %y : tensor<8xf32>
}
