// symbol-dce (MLIR's SymbolDCE): a private function is erased unless a live symbol (a public
// one, or one they reach) or a top-level op that is not a symbol refers to it; public
// functions and what they reach stay, through nested regions and TensorFlow's calls.
// RUN: opt-tool %s --allow-unregistered-dialect --symbol-dce | filecheck %s
// RUN: opt-tool %s --allow-unregistered-dialect -p symbol-dce | filecheck %s

// CHECK-LABEL: func.func @main
// CHECK:       func.func private @called_by_main
// CHECK:       func.func private @reached_through_tf_call
// CHECK-NOT:   @dead
// CHECK:       func.func public @public_unused
// CHECK:       func.func private @kept_by_attribute
// CHECK-NOT:   @dead

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = func.call @called_by_main(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %y : tensor<2xf32>
}

func.func private @called_by_main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = "tf.PartitionedCall"(%x) {f = @reached_through_tf_call} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %y : tensor<2xf32>
}

func.func private @reached_through_tf_call(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}

func.func private @dead_body(%x: tensor<2xf32>) -> tensor<2xf32> {
  %y = func.call @dead_callee(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %y : tensor<2xf32>
}

func.func private @dead_callee(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}

func.func public @public_unused(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}

func.func private @kept_by_attribute(%x: tensor<2xf32>) -> tensor<2xf32> {
  func.return %x : tensor<2xf32>
}

func.func private @dead_declaration(tensor<2xf32>) -> tensor<2xf32>

"test.uses_symbol"() {ref = @kept_by_attribute} : () -> ()
