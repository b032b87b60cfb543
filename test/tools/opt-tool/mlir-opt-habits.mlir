// What mlir-opt users write in lit tests: any file is MLIR text (lit's %t, /dev/stdin); a
// one-value flag given twice is an error; --dump-pass-pipeline's text, empty options
// included, reads back with --pass-pipeline; a boolean option without a value is true.
// RUN: opt-tool %s -o %t && opt-tool %t --cse | filecheck %s --check-prefix=TMP
// RUN: opt-tool %s < %s | opt-tool /dev/stdin | filecheck %s --check-prefix=TMP
// RUN: not opt-tool %s -p cse -p dce 2>&1 | filecheck %s --check-prefix=TWICE-P
// RUN: not opt-tool %s -o %t.a -o %t.b 2>&1 | filecheck %s --check-prefix=TWICE-O
// RUN: not opt-tool %s --pass-pipeline='builtin.module(cse)' --pass-pipeline='builtin.module(dce)' 2>&1 | filecheck %s --check-prefix=TWICE-PIPELINE
// RUN: opt-tool %s -p 'make-stateful{pairs="H0:H"}' --dump-pass-pipeline -o /dev/null 2>&1 | filecheck %s --check-prefix=DUMP
// RUN: opt-tool %s --pass-pipeline='builtin.module(make-stateful{pairs=H0:H rule=})' | filecheck %s --check-prefix=STATEFUL
// RUN: opt-tool %s -p 'low-latency2{use-const-initializer}' --dump-pass-pipeline -o /dev/null 2>&1 | filecheck %s --check-prefix=BOOL
// RUN: not opt-tool %s --pass-pipeline='builtin.module(cse,)' 2>&1 | filecheck %s --check-prefix=COMMA

// TMP:            func.func @main
// TMP-NEXT:         %0 = ov.relu %H0
// TWICE-P:        opt-tool: error: for the -p option: may only occur zero or one times!
// TWICE-O:        opt-tool: error: for the -o option: may only occur zero or one times!
// TWICE-PIPELINE: opt-tool: error: for the --pass-pipeline option: may only occur zero or one times!
// DUMP:           builtin.module(make-stateful{pairs=H0:H rule=})
// STATEFUL:       ov.read_value
// STATEFUL:       ov.assign
// BOOL:           builtin.module(low-latency2{use-const-initializer=true})
// COMMA:          opt-tool: error: --pass-pipeline: a pass name is missing in 'builtin.module(cse,)' (a comma too many?)

func.func @main(%H0: tensor<2xf32> {ov.name = "H0"}) -> (tensor<2xf32> {ov.name = "H"}) {
  %0 = ov.relu %H0 : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
