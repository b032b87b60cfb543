// mlir-opt's names of the printing and verifying flags, its listing and reporting flags, and
// the flags accepted that change nothing here (MLIR's MlirOptMain.cpp).
// RUN: opt-tool %s --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: opt-tool %s --mlir-print-debuginfo | filecheck %s --check-prefix=DEBUGINFO
// RUN: opt-tool %s --mlir-print-local-scope --mlir-disable-threading --cse | filecheck %s --check-prefix=CSE
// RUN: opt-tool %s --verify-each=false --cse | filecheck %s --check-prefix=CSE
// mlir-opt's -p is an alias of --pass-pipeline (xDSL's -p pipelines have no parentheses)
// RUN: opt-tool %s -p 'builtin.module(canonicalize,cse)' | filecheck %s --check-prefix=CSE
// RUN: opt-tool %s -p 'any(cse)' | filecheck %s --check-prefix=CSE
// RUN: not opt-tool %s -p 'builtin.module(func.func(cse))' 2>&1 | filecheck %s --check-prefix=NESTED
// NESTED: opt-tool: error: --pass-pipeline: cannot read 'func.func(cse)' (nested pipelines
// RUN: not opt-tool %s --verify-each=maybe 2>&1 | filecheck %s --check-prefix=BADBOOL
// Standard input is `<stdin>`, as mlir-opt names it, in locations and diagnostics.
// RUN: opt-tool --mlir-print-debuginfo < %s | filecheck %s --check-prefix=STDIN
// RUN: opt-tool - --mlir-print-debuginfo < %s | filecheck %s --check-prefix=STDIN
// STDIN: %0 = ov.add %x, %x {{.*}} loc("<stdin>":{{[0-9]+}}:3)
// RUN: opt-tool --show-dialects < /dev/null | filecheck %s --check-prefix=DIALECTS
// RUN: opt-tool %s --dump-pass-pipeline -p 'cse,ov-reshape{inputs="x:2"}' 2>&1 >/dev/null | filecheck %s --check-prefix=PIPELINE
// RUN: opt-tool %s --mlir-timing --cse --canonicalize 2>&1 >/dev/null | filecheck %s --check-prefix=TIMING

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = ov.add %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = ov.add %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = ov.multiply %0, %1 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %2 : tensor<2xf32>
}

// GENERIC: "func.func"() <{sym_name = "main"
// GENERIC: "ov.add"(%x, %x)
// DEBUGINFO: %0 = ov.add %x, %x {{.*}} loc("{{.*}}mlir-opt-spellings.mlir":{{[0-9]+}}:3)

// CSE:      %0 = ov.add %x, %x
// CSE-NEXT: %1 = ov.multiply %0, %0

// BADBOOL: opt-tool: error: argument --verify-each: 'maybe' is invalid value for boolean argument! Try 0 or 1

// DIALECTS: {{^}}Available Dialects: {{.*}},cpu,{{.*}},ov,{{.*}},tfl,

// PIPELINE:      {{^}}Pass Manager with 2 passes:
// PIPELINE-NEXT: {{^}}builtin.module(cse,ov-reshape{inputs=x:2})

// TIMING:      {{^}}===-------------------------------------------------------------------------==={{$}}
// TIMING-NEXT: {{^}}                         ... Execution time report ...
// TIMING-NEXT: {{^}}===-------------------------------------------------------------------------==={{$}}
// TIMING-NEXT: {{^}}  Total Execution Time: {{[0-9]+\.[0-9]+}} seconds
// TIMING-EMPTY:
// TIMING-NEXT: {{^}}  ----Wall Time----  ----Name----
// TIMING-NEXT: {{^}}  {{ *[0-9]+\.[0-9]+ \( *[0-9]+\.[0-9]%\)}}  Parser
// TIMING-NEXT: {{\)}}  CommonSubexpressionElimination
// TIMING-NEXT: {{\)}}  CanonicalizePass
// TIMING-NEXT: {{\)}}  Output
// TIMING-NEXT: {{\)}}  Rest
// TIMING-NEXT: {{\(100.0%\)}}  Total
// The pipeline printed reads back with --pass-pipeline, options and defaults included.
// RUN: opt-tool %s --dump-pass-pipeline -p 'canonicalize,inline' 2>&1 >/dev/null | filecheck %s --check-prefix=DEFAULTS
// DEFAULTS: {{^}}builtin.module(canonicalize,inline{inlining-threshold={{-?[0-9]+}}})
// A boolean pass option takes MLIR's other spellings (llvm::cl::parser<bool>): 1, 0, TRUE, False.
// RUN: opt-tool %s --dump-pass-pipeline --pass-pipeline='builtin.module(lpt{keep-markup=1})' 2>&1 >/dev/null | filecheck %s --check-prefix=BOOL-1
// RUN: opt-tool %s --dump-pass-pipeline --lpt='keep-markup=FALSE' 2>&1 >/dev/null | filecheck %s --check-prefix=BOOL-0
// RUN: not opt-tool %s -p 'lpt{keep-markup=2}' 2>&1 | filecheck %s --check-prefix=BOOL-2
// BOOL-1: lpt{{{.*}} keep-markup=true}
// BOOL-0: lpt{{{.*}} keep-markup=false}
// BOOL-2: opt-tool: error: pass 'lpt': option 'keep-markup' expects <bool>, got '2'
