// The CPU pipeline's passes report what they cannot compile as any pass does, in MLIR's form:
// `file:line:col: error: ...` at the op the error is about, else `<pass>: error: ...` (opt-tool
// puts the file in front). So --verify-diagnostics expects them (@unknown where there is no op),
// and with --split-input-file each chunk reports its own error, the chunks after a failing one
// too (as mlir-opt). -t cpu-llvm, which runs the pipeline, reports them the same way.
// RUN: opt-tool %s --split-input-file --verify-diagnostics -p cpu-fold-constants,cpu-remove-views,cpu-select-kernels
// RUN: not opt-tool %s --split-input-file -p cpu-fold-constants,cpu-remove-views,cpu-select-kernels 2>&1 | filecheck %s --check-prefix=SPLIT
// RUN: not opt-tool %s --split-input-file -t cpu-llvm 2>&1 | filecheck %s --check-prefix=LLVM

// SPLIT:      cpu-pass-diagnostics.mlir: cpu-fold-constants: error: the CPU device needs static shapes: input #0 ('x') has type tensor<?x4xf32>
// SPLIT-NEXT: cpu-pass-diagnostics.mlir:[[# @LINE + 22]]:{{[0-9]+}}: error: the CPU device needs static shapes: NonZero 'nz' has result #0
// SPLIT-NEXT: cpu-pass-diagnostics.mlir:[[# @LINE + 30]]:{{[0-9]+}}: error: Relu 'relu' is neither constant, view nor in a kernel; run the CPU pipeline first
// SPLIT-NEXT: cpu-pass-diagnostics.mlir:[[# @LINE + 38]]:{{[0-9]+}}: error: Relu 'relu': only LSTMCell and RNNCell take cpu.quantized
// SPLIT-NEXT: cpu-pass-diagnostics.mlir:[[# @LINE + 48]]:{{[0-9]+}}: error: Relu 'second': #cpu.kernel group 2, expected 1 (groups are numbered in graph order)
// SPLIT-NOT:  error
// LLVM:       cpu-pass-diagnostics.mlir: cpu-llvm: error: the CPU device needs static shapes: input #0 ('x') has type tensor<?x4xf32>
// LLVM-NEXT:  cpu-pass-diagnostics.mlir:[[# @LINE + 16]]:{{[0-9]+}}: error: the CPU device needs static shapes: NonZero 'nz'
// LLVM-NEXT:  cpu-pass-diagnostics.mlir:[[# @LINE + 33]]:{{[0-9]+}}: error: Relu 'relu': only LSTMCell and RNNCell take cpu.quantized
// LLVM-NEXT:  cpu-pass-diagnostics.mlir:[[# @LINE + 43]]:{{[0-9]+}}: error: Relu 'second': #cpu.kernel group 2, expected 1
// LLVM-NOT:   error

// A dynamic input: no op to point at (cpu-fold-constants checks the shapes first).
// expected-error @unknown {{the CPU device needs static shapes: input #0 ('x') has type tensor<?x4xf32>}}
func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  func.return %x : tensor<?x4xf32>
}

// -----

// A result of dynamic shape: at its op.
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x?xi64> {
  // expected-error @+1 {{the CPU device needs static shapes: NonZero 'nz' has result #0}}
  %nz = ov.non_zero %x output_type = i64 {ov.name = "nz"} : (tensor<2x3xf32>) -> tensor<2x?xi64>
  func.return %nz : tensor<2x?xi64>
}

// -----

// cpu-select-kernels without the groups of cpu-fuse-kernels: at the first op in no group.
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{Relu 'relu' is neither constant, view nor in a kernel; run the CPU pipeline first}}
  %y = ov.relu %x {ov.name = "relu"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}

// -----

// A mark edited by hand onto an op that does not take it.
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{Relu 'relu': only LSTMCell and RNNCell take cpu.quantized}}
  %y = ov.relu %x {ov.name = "relu", cpu.kernel = #cpu.kernel<0, "elementwise">, cpu.quantized = #cpu.quantized_cell<x 256, h 256, weights 127, gemms 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}

// -----

// Groups numbered out of graph order: at the op whose number is wrong (a module with its
// #cpu.arena went through the pipeline: -t cpu-llvm compiles its marks as they are).
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> attributes {cpu.arena = #cpu.arena<0>} {
  %y = ov.relu %x {ov.name = "first", cpu.kernel = #cpu.kernel<0, "elementwise">} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // expected-error @+1 {{Relu 'second': #cpu.kernel group 2, expected 1 (groups are numbered in graph order)}}
  %z = ov.relu %y {ov.name = "second", cpu.kernel = #cpu.kernel<2, "elementwise">} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %z : tensor<2x3xf32>
}
