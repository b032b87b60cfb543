// --verify-diagnostics checks the expected-* comments as mlir-opt does: each diagnostic must be
// expected at its line and each expected one given; a difference fails (exit code 1) with
// MLIR's messages on stderr, chunk by chunk in file order, and nothing on stdout.
// RUN: opt-tool %s --split-input-file --verify-diagnostics | filecheck %s --check-prefix=OUT
// RUN: not opt-tool %S/Inputs/verify-diagnostics-wrong.mlir --split-input-file --verify-diagnostics 2>&1 | filecheck %s --check-prefix=WRONG
// RUN: not opt-tool %S/Inputs/verify-diagnostics-wrong.mlir --split-input-file --verify-diagnostics > %t.out 2>/dev/null
// RUN: filecheck %s --check-prefix=NOOUT --allow-empty < %t.out
// An input without expected-* comments: every diagnostic is unexpected (not xDSL's convention,
// the error on stdout and exit code 0); one without diagnostics passes. An expectation that
// nothing meets fails as well.
// RUN: not opt-tool %S/Inputs/verify-diagnostics-none.mlir --split-input-file --verify-diagnostics 2>&1 | filecheck %s --check-prefix=NONE
// RUN: opt-tool %S/Inputs/verify-diagnostics-clean.mlir --verify-diagnostics | filecheck %s --check-prefix=CLEAN
// RUN: not opt-tool %S/Inputs/verify-diagnostics-unmatched.mlir --verify-diagnostics 2>&1 | filecheck %s --check-prefix=UNMATCHED

// OUT:      {{^}}{{//}} -----
// OUT-NEXT: {{^}}{{//}} -----
// OUT-NEXT: {{^}}{{//}} -----
// OUT-NEXT: {{^}}{{//}} -----
// OUT-NEXT: {{^}}{{//}} -----
// OUT-NEXT: builtin.module {
// OUT-NEXT:   func.func @fine

// WRONG:      verify-diagnostics-wrong.mlir:6:3: error: unexpected error: 'ov.add' op operands are not broadcast-compatible: shapes [2, 3] and [4]
// WRONG-NEXT: verify-diagnostics-wrong.mlir:5:6: error: expected error "this is not the message" was not produced
// WRONG-NEXT: verify-diagnostics-wrong.mlir:14:6: error: expected warning "never given" was not produced
// WRONG-NEXT: verify-diagnostics-wrong.mlir:21:{{[0-9]+}}: error: unexpected error: no op named 'ov.addd' in dialect 'ov' (did you mean 'ov.add'?)
// WRONG-NOT:  error
// NOOUT-NOT:  {{.}}
// NONE:       verify-diagnostics-none.mlir:10:3: error: unexpected error: 'ov.add' op operands are not broadcast-compatible: shapes [2, 3] and [4]
// NONE-NOT:   {{.}}
// CLEAN:      func.func @clean
// CLEAN-NEXT:   ov.relu
// UNMATCHED:     verify-diagnostics-unmatched.mlir:4:6: error: expected error "operands are not broadcast-compatible" was not produced
// UNMATCHED-NOT: {{.}}

func.func @below(%x: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  // expected-error @below {{operands are not broadcast-compatible: shapes [2, 3] and [4]}}
  %0 = ov.add %x, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @same_line_and_offsets(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = ov.addd %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32> // expected-error {{no op named 'ov.addd' in dialect 'ov' (did you mean 'ov.add'?)}}
  func.return %0 : tensor<3xf32>
}

// -----

func.func @above(%x: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  %0 = ov.add %x, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  // expected-error @above {{'ov.add' op operands}}
  func.return %0 : tensor<2x3xf32>
}

// -----

// expected-error @+2 {{shapes [2, 3] and [4]}}
func.func @plus(%x: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  %0 = ov.add %x, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @minus_and_regex(%x: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  %0 = ov.add %x, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  // expected-error-re @-1 {{shapes [{{[0-9, ]+}}] and [4]}}
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @fine(%x: tensor<3xf32>) -> tensor<3xf32> {
  func.return %x : tensor<3xf32>
}
