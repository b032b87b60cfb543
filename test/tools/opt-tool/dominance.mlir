// A value used before its definition, or a cycle of values, is an error (MLIR's dominance
// rule), not a program that the devices run on stale memory.
// RUN: opt-tool %s --split-input-file --verify-diagnostics
// RUN: not opt-tool %s 2>&1 | filecheck %s --check-prefix=EXIT

func.func @use_before_definition(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'ov.add' op operand #1 does not dominate this use}}
  %z = ov.add %x, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %y = ov.relu %x : (tensor<2xf32>) -> tensor<2xf32>
  func.return %z : tensor<2xf32>
}

// -----

func.func @cycle(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'ov.add' op operand #1 does not dominate this use}}
  %a = ov.add %x, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %b = ov.relu %a : (tensor<2xf32>) -> tensor<2xf32>
  func.return %b : tensor<2xf32>
}

// EXIT: dominance.mlir:8:3: error: 'ov.add' op operand #1 does not dominate this use
