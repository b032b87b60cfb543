// Pass names as MLIR's: verb-first conversions (convert-tfl-to-ov), the ov- prefix for a
// dialect's passes (ov-reshape), test- for the single LPT transformations (test-lpt-relu).
// The old names still work in opt-tool for one release, with a warning naming the new one;
// --help lists only the new names.
// RUN: opt-tool %s --ov-reshape='inputs=x:4x3' --test-lpt-relu 2>&1 | filecheck %s --check-prefix=NEW
// RUN: opt-tool %s --reshape='inputs=x:4x3' --lpt-relu 2>&1 | filecheck %s --check-prefix=OLD
// RUN: opt-tool %s -p 'reshape{inputs="x:4x3"},lpt-markup' 2>&1 | filecheck %s --check-prefix=OLDP
// RUN: opt-tool %s --help | filecheck %s --check-prefix=HELP
// RUN: opt-tool %s --help | not grep -E -e '--(tfl-to-ov|reshape|lpt-relu|lpt-markup)'
// RUN: not opt-tool %s -p 'lpt{only=relu,convolutoin}' 2>&1 | filecheck %s --check-prefix=TYPO

// NEW-NOT:   warning
// NEW:       func.func @main(%x: tensor<4x3xf32>) -> tensor<4x3xf32>

// OLD:       opt-tool: warning: pass 'reshape' is deprecated and will be removed in the next release: use 'ov-reshape'
// OLD-NEXT:  opt-tool: warning: pass 'lpt-relu' is deprecated and will be removed in the next release: use 'test-lpt-relu'
// OLD:       func.func @main(%x: tensor<4x3xf32>) -> tensor<4x3xf32>

// OLDP:      opt-tool: warning: pass 'reshape' is deprecated {{.*}} use 'ov-reshape'
// OLDP-NEXT: opt-tool: warning: pass 'lpt-markup' is deprecated {{.*}} use 'test-lpt-markup'
// OLDP:      func.func @main(%x: tensor<4x3xf32>) -> tensor<4x3xf32>

// HELP:      --convert-tfl-to-ov
// HELP:      --ov-reshape
// HELP:      --test-lpt-relu

// TYPO:      opt-tool: error: {{.*}}pass-names.mlir: lpt: unknown transformation 'convolutoin' in only= (valid: fold-static-shape-of, convert-quantize-dequantize, fold-reshaped-dequantization-constants, pull-reshape-through-dequantization, {{.*}}, convolution, {{.*}}; the markup always runs whole)
// TYPO-NOT:  Traceback

func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = ov.relu %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %r : tensor<2x3xf32>
}
