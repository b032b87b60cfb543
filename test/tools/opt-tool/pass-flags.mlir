// Pass flags run in command-line order; --print-between-passes shows the order. -p mixed with
// pass flags is an error (which order was meant?); flags are exact, not prefixes.
// RUN: opt-tool %s --dce --canonicalize --print-between-passes | filecheck %s
// RUN: opt-tool %s -p canonicalize,dce --print-between-passes | filecheck %s --check-prefix=PIPE
// RUN: not opt-tool %s --canonicalize -p dce 2>&1 | filecheck %s --check-prefix=MIXED
// RUN: not opt-tool %s -p dce --canonicalize 2>&1 | filecheck %s --check-prefix=MIXED
// RUN: not opt-tool %s --low 2>&1 | filecheck %s --check-prefix=PREFIX
// RUN: not opt-tool %s --low-latency 2>&1 | filecheck %s --check-prefix=PREFIX2
// RUN: not opt-tool %s --canonicalise 2>&1 | filecheck %s --check-prefix=TYPO
// RUN: not opt-tool %s --no-such-flag=3 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: opt-tool %s --help | filecheck %s --check-prefix=HELP

// CHECK:       IR after dce:
// CHECK:         ov.multiply
// CHECK:       func.func @main
// CHECK-NOT:     ov.multiply
// PIPE:        IR after canonicalize:
// MIXED:       opt-tool: error: -p 'dce' and pass flags (--canonicalize) cannot be mixed: give the whole pipeline with -p, or one flag per pass
// MIXED-EMPTY:
// PREFIX:      opt-tool: error: unknown flag '--low' (did you mean '--low-latency2'?)
// PREFIX-EMPTY:
// PREFIX2:     opt-tool: error: unknown flag '--low-latency' (did you mean '--low-latency2'?)
// TYPO:        opt-tool: error: unknown flag '--canonicalise' (did you mean '--canonicalize'?)
// UNKNOWN:     opt-tool: error: unknown flag '--no-such-flag'
// UNKNOWN-NOT: usage:
// HELP:        --canonicalize {{.*}}run the 'canonicalize' pass

func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c = ov.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %m = ov.multiply %c, %c : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %a = ov.add %x, %m : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %a : tensor<3xf32>
}
