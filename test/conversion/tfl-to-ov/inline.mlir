// RUN: opt-tool %s --allow-unregistered-dialect --split-input-file --convert-tfl-to-ov | filecheck %s
// RUN: opt-tool %s --allow-unregistered-dialect --split-input-file --convert-tfl-to-ov | opt-tool --split-input-file | filecheck %s

// Calls are inlined (tf.PartitionedCall, tf.StatefulPartitionedCall, func.call, nested); the
// callees that nothing calls any more are erased, and so is a private function that nothing
// references (a Keras function's dead while body). Ops are named after the functions they come
// from (the callee's symbol without TensorFlow's __inference_ prefix and number suffix, or the
// call's ov.name). The weights passed as tf.Const arguments fold with the callee's tfl ops.
// CHECK-LABEL: func.func @main(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
// CHECK-NEXT:    %[[W:.*]] = ov.constant dense<{{\[\[}}1.000000e+00, 3.000000e+00, 5.000000e+00], [2.000000e+00, 4.000000e+00, 6.000000e+00]]> : tensor<2x3xf32> {ov.name = "layer_call/dense/transpose"}
// CHECK-NEXT:    %[[A:.*]] = ov.add %x, %[[W]] : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[P:.*]] = ov.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:    %[[T:.*]] = ov.transpose %[[A]], %[[P]] {ov.name = "layer_call/transpose/transpose"} : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
// CHECK-NEXT:    func.return %[[T]] : tensor<3x2xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  }
// CHECK-NOT:   func.func
func.func @main(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %w = "tf.Const"() {value = dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>} : () -> tensor<3x2xf32>
  %r:2 = "tf.StatefulPartitionedCall"(%x, %w) {config = "", f = @__inference_layer_call_12} : (tensor<2x3xf32>, tensor<3x2xf32>) -> (tensor<3x2xf32>, tensor<f32>)
  func.return %r#0 : tensor<3x2xf32>
}
func.func private @__inference_layer_call_12(%a: tensor<2x3xf32>, %w: tensor<3x2xf32>) -> (tensor<3x2xf32>, tensor<f32>) {
  %0 = "tf.PartitionedCall"(%a, %w) {config = "", f = @__inference_dense_7, ov.name = "dense"} : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x3xf32>
  %1 = "func.call"(%0) <{callee = @__inference_transpose_8}> : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %z = "tf.Const"() {value = dense<0.0> : tensor<1xf32>} : () -> tensor<f32>
  func.return %1, %z : tensor<3x2xf32>, tensor<f32>
}
func.func private @__inference_dense_7(%a: tensor<2x3xf32>, %w: tensor<3x2xf32>) -> tensor<2x3xf32> {
  %perm = arith.constant dense<[1, 0]> : tensor<2xi32>
  %wt = "tfl.transpose"(%w, %perm) : (tensor<3x2xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  %0 = ov.add %a, %wt : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
func.func private @__inference_transpose_8(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %perm = arith.constant dense<[1, 0]> : tensor<2xi32>
  %0 = "tfl.transpose"(%a, %perm) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}
func.func private @while_body_3(%i: tensor<i32>) -> tensor<i32> {
  %0 = "tf.TensorListGetItem"(%i) : (tensor<i32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}

// -----

// The prepare pass refines the callee's result types without updating its callers: the
// inlined values keep the refined types, and so does the function's signature.
// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%x: tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK:         %[[T:.*]] = ov.transpose %x, %{{.*}} {ov.name = "f/transpose"} : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
// CHECK:         func.return %[[T]] : tensor<3x2xf32>
func.func @main(%x: tensor<2x3xf32>) -> tensor<?x?xf32> {
  %r = "tf.PartitionedCall"(%x) {config = "", f = @f} : (tensor<2x3xf32>) -> tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}
func.func private @f(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %perm = arith.constant dense<[1, 0]> : tensor<2xi32>
  %0 = "tfl.transpose"(%a, %perm) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}
