// mlir-opt's split markers. --split-input-file=MARKER splits the input at MARKER; without a
// value, or with an empty one, at the default marker (a value only after '=': `-split-input-file
// FILE` reads FILE). --output-split-marker=MARKER is written between the chunks' outputs (by
// default the default marker). Each chunk as with the default marker: --verify-diagnostics, the
// file's line numbers in diagnostics, nothing printed for a failed chunk. A near miss of the
// marker (its text less its last two characters, not followed by them) is a warning and splits
// nothing. (The RUN lines quote the marker in two parts: written whole, it would split them.)
// RUN: opt-tool %s --split-input-file='// ====''= cut' --verify-diagnostics | filecheck %s --check-prefix=VERIFY
// RUN: opt-tool %s -split-input-file='// ====''= cut' --verify-diagnostics --output-split-marker='// ===== next' | filecheck %s --check-prefix=OUTPUT
// RUN: opt-tool %s --split-input-file='// ====''= cut' --verify-diagnostics --output-split-marker= | filecheck %s --check-prefix=EMPTY
// RUN: not opt-tool %s --split-input-file='// ====''= cut' 2>&1 | filecheck %s --check-prefix=ERROR
// RUN: not opt-tool -split-input-file %s 2>&1 | filecheck %s --check-prefix=NEAR
// RUN: not opt-tool %s --split-input-file= 2>&1 | filecheck %s --check-prefix=NEAR
// RUN: not opt-tool --split-input-file '// ====''= cut' %s 2>&1 | filecheck %s --check-prefix=SPACE

// VERIFY:      func.func @first
// VERIFY:      {{^}}{{//}} -----
// VERIFY-NEXT: {{^}}{{//}} -----
// VERIFY-NEXT: builtin.module {
// VERIFY-NEXT:   func.func @third
// VERIFY-NOT:  cut
// OUTPUT:      func.func @first
// OUTPUT:      {{^}}// ===== next
// OUTPUT-NEXT: {{^}}// ===== next
// OUTPUT-NEXT: builtin.module {
// OUTPUT-NEXT:   func.func @third
// OUTPUT-NOT:  {{//}} -----
// EMPTY:       {{^}}}{{$}}
// EMPTY-EMPTY:
// EMPTY-EMPTY:
// EMPTY-EMPTY:
// EMPTY-NEXT:  builtin.module {
// EMPTY-NEXT:    func.func @third
// ERROR-NOT:   warning
// ERROR:       split-marker.mlir:[[# @LINE + 17]]:3: error: 'ov.add' op operands are not broadcast-compatible: shapes [2, 3] and [4]
// ERROR-NOT:   {{warning|Traceback}}
// NEAR:        split-marker.mlir:[[# @LINE + 20]]:7: warning: near miss with file split marker
// NEAR-NEXT:   {{^}}{{//}} ---- a near miss of the default marker
// NEAR-NEXT:   {{^      \^$}}
// NEAR:        split-marker.mlir:[[# @LINE + 12]]:3: error: 'ov.add' op operands are not broadcast-compatible
// SPACE:       opt-tool: error: unexpected argument '{{.*}}split-marker.mlir' (see opt-tool --help)

func.func @first(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = ov.relu %x : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// ===== cut

func.func @second(%x: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  // expected-error @below {{operands are not broadcast-compatible: shapes [2, 3] and [4]}}
  %0 = ov.add %x, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// ===== cut
// ---- a near miss of the default marker

func.func @third(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}
