// A type or attribute that lowpass's own dialects (ov, tfl, cpu) do not define is an error at
// its `!` or `#`, with --allow-unregistered-dialect too, as MLIR's registered dialects reject
// unknown ones (xDSL made it an unregistered type); another dialect's stays unregistered.
// RUN: not opt-tool %s --split-input-file --allow-unregistered-dialect 2>&1 | filecheck %s
// RUN: not opt-tool %s --split-input-file 2>&1 | filecheck %s --check-prefix=UNFLAGGED
// RUN: opt-tool %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// expected-error @+1 {{no type named 'ov.nosuch' in dialect 'ov'}}
func.func @main(%x: !ov.nosuch) -> tensor<2xf32> {
  %y = "tf.Foo"(%x) : (!ov.nosuch) -> tensor<2xf32>
  func.return %y : tensor<2xf32>
}
// CHECK:          unknown-dialect-names.mlir:[[# @LINE - 4]]:21: error: no type named 'ov.nosuch' in dialect 'ov'
// CHECK-NEXT:     {{^}}func.func @main(%x: !ov.nosuch) -> tensor<2xf32> {
// CHECK-NEXT:     {{^}}                    ^^^^^^^^^^
// UNFLAGGED:      unknown-dialect-names.mlir:[[# @LINE - 7]]:21: error: no type named 'ov.nosuch' in dialect 'ov'

// -----

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{no attribute named 'ov.nosuch' in dialect 'ov'}}
  %y = "tf.Foo"(%x) {foo = #ov.nosuch} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %y : tensor<2xf32>
}
// CHECK:          unknown-dialect-names.mlir:[[# @LINE - 3]]:28: error: no attribute named 'ov.nosuch' in dialect 'ov'

// -----

func.func @main(%x: !tf.resource) -> !tf.resource {
  %y = "tf.Identity"(%x) {foo = #tf.bar} : (!tf.resource) -> !tf.resource
  func.return %y : !tf.resource
}
// UNFLAGGED:      unknown-dialect-names.mlir:[[# @LINE - 4]]:{{[0-9]+}}: error: 'tf.resource' is not registered
