// Errors are MLIR-style diagnostics with file:line:col on stderr, exit code 1, and no output.
// RUN: not opt-tool %s -o %t.out 2>&1 | filecheck %s
// RUN: not test -e %t.out
// RUN: not opt-tool %S/Inputs/syntax-error.mlir 2>&1 | filecheck %s --check-prefix=PARSE
// RUN: not opt-tool %s -p no-such-pass 2>&1 | filecheck %s --check-prefix=PASS
// RUN: not opt-tool %S/Inputs/does-not-exist.mlir 2>&1 | filecheck %s --check-prefix=FILE

// CHECK: diagnostics.mlir:18:3: error: 'ov.add' op operands are not broadcast-compatible: shapes [2, 3] and [4]
// CHECK-NOT: Traceback
// (the result type missing at the end of line 3: reported at the token found instead)
// (mlir-opt's form: the place and the message on the first line, then the source and a caret)
// PARSE: syntax-error.mlir:4:1: error: type expected
// PARSE-NOT: Traceback
// PASS: opt-tool: error: {{.*}}no-such-pass
// FILE: opt-tool: error: {{.*}}does-not-exist.mlir: No such file or directory

func.func @main(%x: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  %0 = ov.add %x, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
// RUN: not opt-tool %S/Inputs/wrong-attribute-kind.mlir 2>&1 | filecheck %s --check-prefix=KIND
// RUN: not opt-tool %S 2>&1 | filecheck %s --check-prefix=DIR
// KIND: wrong-attribute-kind.mlir:2:3
// KIND: should be of base attribute array
// DIR: opt-tool: error: {{.*}}opt-tool: Is a directory
