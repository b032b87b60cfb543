// ov-reshape carries the new input shapes into the bodies of an ov.if: each body parameter takes
// the type of the outer input it describes, the bodies are re-inferred, then the op's results.
// RUN: opt-tool %s --ov-reshape='inputs="X:2x4"' | filecheck %s
// The CPU device compiles the dynamic model for the shapes of its inputs the same way.
// RUN: python -c "import numpy as np; np.save('%t.x.npy', np.arange(8, dtype=np.float32).reshape(2, 4) - 3.5)"
// RUN: python -c "import numpy as np; np.save('%t.c.npy', np.array(False))"
// RUN: lowpass-run %s -i X=%t.x.npy -i C=%t.c.npy --device CPU --full > %t.cpu
// RUN: lowpass-run %s -i X=%t.x.npy -i C=%t.c.npy --device REFERENCE --full > %t.ref
// RUN: diff %t.cpu %t.ref

// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%x: tensor<2x4xf32> {ov.name = "X"}, %c: tensor<i1> {ov.name = "C"}) -> tensor<2x4xf32>
// CHECK:         ov.if(%c, %x)
// CHECK-SAME:      : (tensor<i1>, tensor<2x4xf32>) -> tensor<2x4xf32> {
// CHECK-NEXT:    ^{{.*}}(%{{.*}}: tensor<2x4xf32>):
// CHECK-NEXT:      ov.relu %{{.*}} : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK:         } else {
// CHECK-NEXT:    ^{{.*}}(%{{.*}}: tensor<2x4xf32>):
// CHECK-NEXT:      ov.negative %{{.*}} : (tensor<2x4xf32>) -> tensor<2x4xf32>
// CHECK:         func.return %{{.*}} : tensor<2x4xf32>
func.func @main(%x: tensor<?x?xf32> {ov.name = "X"}, %c: tensor<i1> {ov.name = "C"}) -> tensor<?x?xf32> {
  %y = ov.if(%c, %x) attributes {then_inputs = [#ov.invariant<input = 1, param = 0>], else_inputs = [#ov.invariant<input = 1, param = 0>], then_outputs = [#ov.body_output<result = 0, output = 0>], else_outputs = [#ov.body_output<result = 0, output = 0>]} : (tensor<i1>, tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%a: tensor<?x?xf32>):
    %r = ov.relu %a : (tensor<?x?xf32>) -> tensor<?x?xf32>
    ov.yield %r : tensor<?x?xf32>
  } else {
  ^bb0(%a: tensor<?x?xf32>):
    %n = ov.negative %a : (tensor<?x?xf32>) -> tensor<?x?xf32>
    ov.yield %n : tensor<?x?xf32>
  }
  func.return %y : tensor<?x?xf32>
}
