// Parse errors as mlir-opt gives them: `FILE:LINE:COL: error: MESSAGE` on the first line, at
// the place an `expected-error` names (a value used but never defined at its first use, not
// at the end of the input; an unknown op at its name), then the source line and a caret.
// RUN: not opt-tool %s --split-input-file 2>&1 | filecheck %s
// RUN: opt-tool %s --split-input-file --verify-diagnostics

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{use of undeclared SSA value name %z}}
  %y = ov.relu %z : (tensor<2xf32>) -> tensor<2xf32>
  func.return %y : tensor<2xf32>
}
// CHECK:      parse-diagnostics.mlir:9:16: error: use of undeclared SSA value name %z{{$}}
// CHECK-NEXT: {{^}}  %y = ov.relu %z : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: {{^}}               ^^

// -----

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{use of undeclared SSA value name %a (also undeclared: %b)}}
  %y = ov.add %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %x : tensor<2xf32>
}
// CHECK: parse-diagnostics.mlir:20:15: error: use of undeclared SSA value name %a (also undeclared: %b)

// -----

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{no op named 'ov.addd' in dialect 'ov' (did you mean 'ov.add'?)}}
  %y = ov.addd %x : (tensor<2xf32>) -> tensor<2xf32>
  func.return %y : tensor<2xf32>
}
// CHECK:      parse-diagnostics.mlir:29:8: error: no op named 'ov.addd' in dialect 'ov' (did you mean 'ov.add'?)
// CHECK-NEXT: {{^}}  %y = ov.addd %x : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT: {{^}}       ^^^^^^^

// -----

// The op's name, not a comment between it and its operands.
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{no op named 'ov.addd'}}
  %y = ov.addd
    // ov.addd again
    %x : (tensor<2xf32>) -> tensor<2xf32>
  func.return %y : tensor<2xf32>
}
// CHECK: parse-diagnostics.mlir:41:8: error: no op named 'ov.addd'

// A note's place (xDSL's notes of a block used and never defined) counts the chunks above too.
// RUN: not opt-tool %S/Inputs/dangling-block.mlir --split-input-file 2>&1 | filecheck %s --check-prefix=NOTE
// NOTE:      dangling-block.mlir:{{[0-9]+}}:1: error: region ends with missing block declarations for block(s) bb7
// NOTE:      dangling-block.mlir:8:9
// NOTE-NEXT: {{^}}  cf.br ^bb7

// -----

// An op of no registered dialect: at its name too (the next token is a line below).
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{Operation foo.bar is not registered}}
  foo.bar
  func.return %x : tensor<2xf32>
}
// CHECK: parse-diagnostics.mlir:{{[0-9]+}}:3: error: operation 'foo.bar' is not registered
