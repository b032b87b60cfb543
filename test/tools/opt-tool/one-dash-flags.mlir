// mlir-opt's flags with one dash, as LLVM's command line takes them (MLIR's own lit tests run
// `mlir-opt %s -split-input-file -verify-diagnostics`): each is its two-dash flag. A one-dash
// word that is no flag is refused, not read as a short flag with its value stuck on
// (`-output=x` had written a file named `utput=x`).
// RUN: opt-tool %S/parse-diagnostics.mlir -split-input-file -verify-diagnostics
// RUN: opt-tool %s -pass-pipeline='builtin.module(cse)' -mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: opt-tool %s -cse -o=%t.out && filecheck %s --check-prefix=CSE < %t.out
// RUN: not opt-tool %s -output=%t.bad 2>&1 | filecheck %s --check-prefix=STUCK
// RUN: not test -e %t.bad
// RUN: opt-tool -version | filecheck %s --check-prefix=VERSION
// A short flag's value goes after a space or '=', as mlir-opt takes it (`-o=FILE` works).
// RUN: not opt-tool %s -o%t.attached 2>&1 | filecheck %s --check-prefix=ATTACHED
// After `--`, file names whatever they look like: not a pass flag with its options.
// RUN: rm -rf %t.d && mkdir %t.d && cp %s %t.d/--cse=x.mlir
// RUN: cd %t.d && opt-tool -- --cse=x.mlir | filecheck %s --check-prefix=AFTER

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = ov.add %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = ov.add %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = ov.multiply %0, %1 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %2 : tensor<2xf32>
}

// GENERIC: "ov.multiply"
// CSE:      %0 = ov.add %x, %x
// CSE-NEXT: %1 = ov.multiply %0, %0
// STUCK: opt-tool: error: unknown flag '-output' (did you mean '--output-file'?)
// VERSION: opt-tool (lowpass {{[0-9.]+}}) built from xdsl version 0.74.0
// ATTACHED: opt-tool: error: unknown flag '-o{{.*}}.attached' (-o takes its value after a space or '=': -o {{.*}}.attached)
// AFTER:      %1 = ov.add %x, %x
// AFTER-NEXT: %2 = ov.multiply %0, %1
