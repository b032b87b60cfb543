// MLIR-style pass flags take unquoted values; -p needs xDSL's quotes; a bad pipeline is a
// one-line diagnostic, not a traceback.
// RUN: opt-tool %s --ov-reshape='inputs=x:4x3' | filecheck %s
// RUN: opt-tool %s -p 'ov-reshape{inputs="x:4x3"}' | filecheck %s
// RUN: opt-tool %s '--pass-pipeline=builtin.module(ov-reshape{inputs=x:4x3})' | filecheck %s
// RUN: not opt-tool %s -p 'ov-reshape{inputs=x:4x3}' 2>&1 | filecheck %s --check-prefix=BAD
// RUN: not opt-tool %s -p 'ov-reshape{bogus=1}' 2>&1 | filecheck %s --check-prefix=UNKNOWN

// CHECK: func.func @main(%x: tensor<4x3xf32>) -> tensor<4x3xf32>
// BAD: opt-tool: error: bad pass pipeline 'ov-reshape{inputs=x:4x3}' at column 20: Unknown token (in -p, an option value other than a name or a number needs double quotes: -p 'ov-reshape{inputs="X:1x1x16"}')
// BAD-EMPTY:
// BAD-NOT: Traceback
// UNKNOWN: opt-tool: error: {{.*}}bogus
// UNKNOWN-NOT: Traceback

func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %a = ov.add %x, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %a : tensor<2x3xf32>
}
