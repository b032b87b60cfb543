// inline (MLIR's inliner): func.call, tf.PartitionedCall and tf.StatefulPartitionedCall of
// functions with a body are replaced by a copy of the body, nested calls too, in every function
// (public ones included); private callees left without references are erased; declarations
// and unprofitable calls (inlining-threshold) stay; recursion is an error and the module is
// unchanged.
// RUN: opt-tool %s --allow-unregistered-dialect --split-input-file --verify-diagnostics --inline | filecheck %s
// RUN: opt-tool %s --allow-unregistered-dialect --split-input-file --verify-diagnostics -p inline --print-debuginfo | filecheck %s --check-prefix=LOC
// RUN: opt-tool %s --allow-unregistered-dialect --split-input-file --verify-diagnostics -p 'inline{inlining-threshold=100}' | filecheck %s --check-prefix=LIMIT
// Without --verify-diagnostics: exit code 1, one line on stderr, no output.
// RUN: not opt-tool %s --allow-unregistered-dialect --split-input-file --inline > %t.out 2> %t.err
// RUN: filecheck %s --check-prefix=ERR < %t.err
// RUN: filecheck %s --check-prefix=NOOUT --allow-empty < %t.out
// ERR: inline.mlir:{{[0-9]+}}:3: error: 'func.call' op calls @f recursively (main -> f -> f)
// ERR-NOT: Traceback
// NOOUT-NOT: {{.}}
// RUN: not opt-tool %s --allow-unregistered-dialect --split-input-file -p 'inline{inlining-threshold=-2}' 2>&1 | filecheck %s --check-prefix=OPTION
// OPTION: inline: error: inlining-threshold must be a percentage >= 0 or -1 (no limit), got -2

// CHECK-LABEL: func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
// CHECK-NEXT:    %[[A:.*]] = ov.relu %x {ov.name = "a"} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %[[B:.*]] = ov.relu %[[A]] {ov.name = "b"} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %[[C:.*]] = "tf.Foo"(%[[B]]) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %[[D:.*]] = "tf.Foo"(%[[C]]) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %[[E:.*]] = func.call @external(%[[D]]) : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    func.return %[[E]] : tensor<2xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func @public_callee(%y: tensor<2xf32>) -> tensor<2xf32> {
// CHECK-NEXT:    %{{.*}} = ov.relu %y {ov.name = "a"} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %{{.*}} = ov.relu %{{.*}} {ov.name = "b"} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %{{.*}} = "tf.Foo"
// CHECK-NEXT:    %{{.*}} = "tf.Foo"
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
// CHECK-NEXT:  func.func private @external(tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:  func.func private @dead_unrelated
// CHECK-NOT:   @private_callee
// An inlined op is at callsite(its line in the callee at the call's line), nested calls nested.
// LOC-LABEL: func.func @main
// LOC-NEXT:    ov.relu {{.*}} loc(callsite("{{.*}}inline.mlir":[[# @LINE + 24]]:3 at callsite("{{.*}}inline.mlir":[[# @LINE + 18]]:3 at "{{.*}}inline.mlir":[[# @LINE + 13]]:3)))
// LOC-NEXT:    ov.relu {{.*}} loc(callsite("{{.*}}inline.mlir":[[# @LINE + 24]]:3 at callsite("{{.*}}inline.mlir":[[# @LINE + 17]]:3 at "{{.*}}inline.mlir":[[# @LINE + 12]]:3)))
// LOC-NEXT:    "tf.Foo"{{.*}} loc(callsite("{{.*}}inline.mlir":[[# @LINE + 17]]:3 at "{{.*}}inline.mlir":[[# @LINE + 11]]:3))
// inlining-threshold=100: @public_callee (5 ops) is 167% of @main (3 ops), so main's call stays;
// @private_callee (3 ops) is 60% of @public_callee and is inlined there (then erased).
// LIMIT-LABEL: func.func @main
// LIMIT-NEXT:    "tf.StatefulPartitionedCall"(%x) {config = "", f = @public_callee}
// LIMIT:       func.func @public_callee
// LIMIT-NEXT:    ov.relu
// LIMIT-NEXT:    ov.relu
// LIMIT-NEXT:    "tf.Foo"
// LIMIT-NOT:   @private_callee
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.StatefulPartitionedCall"(%x) {config = "", f = @public_callee} : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "func.call"(%0) <{callee = @external}> : (tensor<2xf32>) -> tensor<2xf32>
  func.return %1 : tensor<2xf32>
}
func.func @public_callee(%y: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.PartitionedCall"(%y) {config = "", f = @private_callee} : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "tf.Foo"(%0) : (tensor<2xf32>) -> tensor<2xf32>
  %2 = "tf.Foo"(%1) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %2 : tensor<2xf32>
}
func.func private @private_callee(%z: tensor<2xf32>) -> tensor<2xf32> {
  %0 = ov.relu %z {ov.name = "a"} : (tensor<2xf32>) -> tensor<2xf32>
  %1 = ov.relu %0 {ov.name = "b"} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %1 : tensor<2xf32>
}
func.func private @external(tensor<2xf32>) -> tensor<2xf32>
func.func private @dead_unrelated(%z: tensor<2xf32>) -> tensor<2xf32> {
  func.return %z : tensor<2xf32>
}

// -----

// Recursion: refused at the recursive call, the module unchanged (the first call is not
// inlined either: the chunk prints nothing).
// CHECK-NOT: @f
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "func.call"(%x) <{callee = @f}> : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
func.func private @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'func.call' op calls @f recursively (main -> f -> f)}}
  %0 = "func.call"(%x) <{callee = @f}> : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

// TensorFlow's rule for its calls: a callee with tf._noinline = true is not inlined (unless it
// has tf._XlaMustCompile); a func.call to it is (the func dialect's rule).
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %[[A:.*]] = "tf.PartitionedCall"(%x) {config = "", f = @noinline} : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %[[B:.*]] = ov.relu %[[A]] : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %[[C:.*]] = ov.sigmoid %[[B]] : (tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    func.return %[[C]] : tensor<2xf32>
// CHECK:       func.func private @noinline
// CHECK-NOT:   @must_compile
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "tf.PartitionedCall"(%x) {config = "", f = @noinline} : (tensor<2xf32>) -> tensor<2xf32>
  %1 = func.call @noinline(%0) : (tensor<2xf32>) -> tensor<2xf32>
  %2 = "tf.StatefulPartitionedCall"(%1) {config = "", f = @must_compile} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %2 : tensor<2xf32>
}
func.func private @noinline(%x: tensor<2xf32>) -> tensor<2xf32> attributes {tf._noinline = true} {
  %0 = ov.relu %x : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
func.func private @must_compile(%x: tensor<2xf32>) -> tensor<2xf32> attributes {tf._noinline = true, tf._XlaMustCompile = true} {
  %0 = ov.sigmoid %x : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
