// mlir-opt's spellings: --pass-pipeline (MLIR's textual pipeline), --mlir-print-ir-after-all,
// --mlir-print-ir-after=/--mlir-print-ir-before= (the IR on stderr under MLIR's header) and
// --mlir-elide-elementsattrs-if-larger=N.
// RUN: opt-tool %s --pass-pipeline='builtin.module(canonicalize,ov-reshape{inputs=x:2x3})' --mlir-print-ir-after-all 2>&1 | filecheck %s --check-prefix=PIPELINE
// RUN: not opt-tool %s --pass-pipeline='builtin.module(cse)' -p dce 2>&1 | filecheck %s --check-prefix=BOTH
// RUN: not opt-tool %s --pass-pipeline='builtin.module(func.func(cse))' 2>&1 | filecheck %s --check-prefix=NESTED
// RUN: opt-tool %s -p canonicalize,cse --mlir-print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=AFTERALL
// RUN: opt-tool %s -p canonicalize,cse --mlir-print-ir-before=cse --mlir-print-ir-after=canonicalize 2>&1 >/dev/null | filecheck %s --check-prefix=SOME
// RUN: not opt-tool %s -p cse --mlir-print-ir-after=cs 2>&1 | filecheck %s --check-prefix=NOPASS
// RUN: opt-tool %s --mlir-elide-elementsattrs-if-larger=4 | filecheck %s --check-prefix=ELIDE
// RUN: opt-tool %s --mlir-elide-elementsattrs-if-larger=4 -p cse --mlir-print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=ELIDE
// RUN: opt-tool %s | filecheck %s --check-prefix=FULL
// RUN: not opt-tool %s --mlir-elide-elementsattrs-if-larger=x 2>&1 | filecheck %s --check-prefix=BADN
// Pass options: errors name the pass and the option.
// RUN: not opt-tool %s -p 'ov-reshape{bogus=1}' 2>&1 | filecheck %s --check-prefix=OPTION
// RUN: not opt-tool %s --ov-reshape='input=x:4x3' 2>&1 | filecheck %s --check-prefix=OPTION2
// RUN: not opt-tool %s -p 'inline{inlining-threshold=abc}' 2>&1 | filecheck %s --check-prefix=TYPE
// RUN: not opt-tool %s -p canonicalise 2>&1 | filecheck %s --check-prefix=PASSNAME

// PIPELINE: IR Dump After CanonicalizePass (canonicalize)
// PIPELINE: IR Dump After {{.*}} (ov-reshape)
// PIPELINE: func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32>
// BOTH: opt-tool: error: --pass-pipeline cannot be combined with -p or pass flags (given: -p 'dce')
// NESTED: opt-tool: error: --pass-pipeline: cannot read 'func.func(cse)' (nested pipelines such as 'func.func(...)' are not supported: lowpass's passes run on the module)

// AFTERALL:      {{^}}// -----// IR Dump After CanonicalizePass (canonicalize) //----- //
// AFTERALL-NEXT: builtin.module {
// AFTERALL:      {{^}}// -----// IR Dump After CommonSubexpressionElimination (cse) //----- //
// AFTERALL-NEXT: builtin.module {
// AFTERALL-NOT:  IR Dump

// SOME:          {{^}}// -----// IR Dump After CanonicalizePass (canonicalize) //----- //
// SOME:          {{^}}// -----// IR Dump Before CommonSubexpressionElimination (cse) //----- //
// SOME-NOT:      IR Dump
// NOPASS: opt-tool: error: --mlir-print-ir-after: no pass named 'cs' (did you mean 'cse'?)

// ELIDE:    ov.constant dense_resource<__elided__> : tensor<2x3xf32>
// ELIDE:    ov.constant dense<1.000000e+00> : tensor<2x3xf32>
// ELIDE:    ov.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
// FULL:     ov.constant dense<[[1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
// BADN: opt-tool: error: argument --mlir-elide-elementsattrs-if-larger: 'x' is not an integer

// OPTION:   opt-tool: error: pass 'ov-reshape': unknown option 'bogus' (options: inputs, replace-constants)
// OPTION2:  opt-tool: error: pass 'ov-reshape': unknown option 'input' (did you mean 'inputs'?) (options: inputs, replace-constants)
// TYPE:     opt-tool: error: pass 'inline': option 'inlining-threshold' expects <int>, got 'abc'
// PASSNAME: opt-tool: error: no pass named 'canonicalise' (did you mean 'canonicalize'?)

func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %w = ov.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %s = ov.constant dense<1.0> : tensor<2x3xf32>
  %v = ov.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %a = ov.add %x, %w : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %b = ov.add %a, %s : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %c = ov.add %b, %v : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %c : tensor<2x3xf32>
}
