// The view-ov-graph pass (MLIR's -view-op-graph for ov graphs) draws the graph where it stands
// in the pipeline and leaves the module unchanged: DOT text on stderr, or a picture in `file`.
// Under opt-tool the picture is written with the other outputs, or not at all when a later
// pass fails. --view-graph FILE is view-ov-graph{file=FILE} at the end of the pipeline.
// RUN: rm -f %t.before.dot %t.after.dot %t.mlir %t.fail.dot %t.fail.mlir %t.alias.dot
// RUN: opt-tool %s -p 'view-ov-graph{file="%t.before.dot"},canonicalize,view-ov-graph{file="%t.after.dot"}' -o %t.mlir
// RUN: filecheck %s --check-prefix=BEFORE --input-file=%t.before.dot
// RUN: filecheck %s --check-prefix=AFTER --input-file=%t.after.dot
// RUN: filecheck %s --check-prefix=MLIR --input-file=%t.mlir
// RUN: opt-tool %s -p view-ov-graph 2>&1 >%t.stdout.mlir | filecheck %s --check-prefix=BEFORE
// RUN: filecheck %s --check-prefix=UNCHANGED --input-file=%t.stdout.mlir
// RUN: xdsl-opt %s -p view-ov-graph 2>&1 >%t.xstdout.mlir | filecheck %s --check-prefix=BEFORE
// RUN: not opt-tool %s -p 'view-ov-graph{file="%t.fail.dot"},ov-reshape{inputs="nope:1x2"}' -o %t.fail.mlir 2>&1 | filecheck %s --check-prefix=FAIL
// RUN: not test -e %t.fail.dot
// RUN: not test -e %t.fail.mlir
// RUN: opt-tool %s --canonicalize --view-graph %t.alias.dot -o %t.mlir
// RUN: cmp %t.alias.dot %t.after.dot

// BEFORE:    digraph lowpass {
// BEFORE:    label="two\nAdd
// AFTER:     digraph lowpass {
// AFTER-NOT: label="two\nAdd
// AFTER:     label="y\nMultiply
// MLIR-NOT:  ov.add
// UNCHANGED: ov.add
// FAIL:      error: {{.*}}nope
func.func @main(%x: tensor<1x4xf32> {ov.name = "x"}) -> (tensor<1x4xf32> {ov.name = "y"}) {
  %a = ov.constant dense<1.0> : tensor<4xf32> {ov.name = "a"}
  %b = ov.add %a, %a {ov.name = "two"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %y = ov.multiply %x, %b {ov.name = "y"} : (tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  func.return %y : tensor<1x4xf32>
}
