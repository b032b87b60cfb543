// RUN: opt-tool %s --allow-unregistered-dialect --split-input-file --convert-tfl-to-ov | filecheck %s
// RUN: opt-tool %s --allow-unregistered-dialect --split-input-file --convert-tfl-to-ov | opt-tool --split-input-file | filecheck %s

// tfl.transpose -> ov.transpose (the i32 permutation is kept); tfl.reshape -> ov.reshape with
// special_zero = false (TensorFlow's 0 is a zero-size dim). Data movement ops are named after
// their op.
// CHECK-LABEL: func.func @main
// CHECK:         %[[P:.*]] = ov.constant dense<[2, 0, 1]> : tensor<3xi32>
// CHECK:         %[[T:.*]] = ov.transpose %x, %[[P]] {ov.name = "transpose"} : (tensor<2x3x4xf32>, tensor<3xi32>) -> tensor<4x2x3xf32>
// CHECK:         %[[S:.*]] = ov.constant dense<[4, -1]> : tensor<2xi32>
// CHECK:         %[[R:.*]] = ov.reshape %[[T]], %[[S]] special_zero = false {ov.name = "reshape"} : (tensor<4x2x3xf32>, tensor<2xi32>) -> tensor<4x6xf32>
// CHECK:         func.return %[[R]]
func.func @main(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %perm = arith.constant dense<[2, 0, 1]> : tensor<3xi32>
  %t = "tfl.transpose"(%x, %perm) : (tensor<2x3x4xf32>, tensor<3xi32>) -> tensor<4x2x3xf32>
  %shape = arith.constant dense<[4, -1]> : tensor<2xi32>
  %r = "tfl.reshape"(%t, %shape) : (tensor<4x2x3xf32>, tensor<2xi32>) -> tensor<4x6xf32>
  func.return %r : tensor<4x6xf32>
}

// -----

// tfl.slice -> ov.strided_slice: end = begin + size, a size of -1 is an end_mask bit.
// CHECK-LABEL: func.func @main
// CHECK-DAG:     %[[B:.*]] = ov.constant dense<[1, 2]> : tensor<2xi64>
// CHECK-DAG:     %[[E:.*]] = ov.constant dense<[3, 0]> : tensor<2xi64>
// CHECK:         ov.strided_slice %x, %[[B]], %[[E]] {ov.name = "slice", end_mask = array<i64: 0, 1>} : (tensor<4x5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x3xf32>
func.func @main(%x: tensor<4x5xf32>) -> tensor<2x3xf32> {
  %begin = arith.constant dense<[1, 2]> : tensor<2xi32>
  %size = arith.constant dense<[2, -1]> : tensor<2xi32>
  %s = "tfl.slice"(%x, %begin, %size) : (tensor<4x5xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x3xf32>
  func.return %s : tensor<2x3xf32>
}

// -----

// tfl.strided_slice -> ov.strided_slice: the masks (bit fields) become arrays of bits (the
// last step of a batch-major sequence, as prepare-composite-functions slices it).
// CHECK-LABEL: func.func @main
// CHECK:         ov.strided_slice %y, %{{.*}}, %{{.*}}, %{{.*}} {ov.name = "strided_slice", begin_mask = array<i64: 1, 0, 1>, end_mask = array<i64: 1, 0, 1>, new_axis_mask = array<i64: 0, 0, 0>, shrink_axis_mask = array<i64: 0, 1, 0>, ellipsis_mask = array<i64: 0, 0, 0>} : (tensor<2x5x3xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x3xf32>
func.func @main(%y: tensor<2x5x3xf32>) -> tensor<2x3xf32> {
  %begin = arith.constant dense<[0, -1, 0]> : tensor<3xi32>
  %end = arith.constant dense<0> : tensor<3xi32>
  %strides = arith.constant dense<1> : tensor<3xi32>
  %last = "tfl.strided_slice"(%y, %begin, %end, %strides) <{begin_mask = 5 : i32, ellipsis_mask = 0 : i32, end_mask = 5 : i32, new_axis_mask = 0 : i32, offset = false, shrink_axis_mask = 2 : i32}> : (tensor<2x5x3xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x3xf32>
  func.return %last : tensor<2x3xf32>
}

// -----

// tfl.reverse_v2 -> ov.strided_slice with stride -1 on the reversed axes (whole range).
// CHECK-LABEL: func.func @main
// CHECK:         %[[S:.*]] = ov.constant dense<[1, -1, 1]> : tensor<3xi64>
// CHECK:         ov.strided_slice %x, %{{.*}}, %{{.*}}, %[[S]] {ov.name = "reverse_v2", begin_mask = array<i64: 1, 1, 1>, end_mask = array<i64: 1, 1, 1>} : (tensor<2x?x3xf32>, tensor<3xi64>, tensor<3xi64>, tensor<3xi64>) -> tensor<2x?x3xf32>
func.func @main(%x: tensor<2x?x3xf32>) -> tensor<2x?x3xf32> {
  %axis = arith.constant dense<[1]> : tensor<1xi32>
  %r = "tfl.reverse_v2"(%x, %axis) : (tensor<2x?x3xf32>, tensor<1xi32>) -> tensor<2x?x3xf32>
  func.return %r : tensor<2x?x3xf32>
}

// -----

// tfl.split_v -> ov.variadic_split (axis and lengths swap places); a -1 length takes the rest.
// CHECK-LABEL: func.func @main
// CHECK-DAG:     %[[L:.*]] = ov.constant dense<[1, -1, 2]> : tensor<3xi32>
// CHECK-DAG:     %[[A:.*]] = ov.constant dense<1> : tensor<i32>
// CHECK:         %{{.*}}, %{{.*}}, %{{.*}} = ov.variadic_split %x, %[[A]], %[[L]] {ov.name = "split_v"} : (tensor<3x6xf32>, tensor<i32>, tensor<3xi32>) -> (tensor<3x1xf32>, tensor<3x3xf32>, tensor<3x2xf32>)
func.func @main(%x: tensor<3x6xf32>) -> (tensor<3x1xf32>, tensor<3x3xf32>, tensor<3x2xf32>) {
  %sizes = arith.constant dense<[1, -1, 2]> : tensor<3xi32>
  %axis = arith.constant dense<1> : tensor<i32>
  %a, %b, %c = "tfl.split_v"(%x, %sizes, %axis) <{num_splits = 3 : i32}> : (tensor<3x6xf32>, tensor<3xi32>, tensor<i32>) -> (tensor<3x1xf32>, tensor<3x3xf32>, tensor<3x2xf32>)
  func.return %a, %b, %c : tensor<3x1xf32>, tensor<3x3xf32>, tensor<3x2xf32>
}

// -----

// tfl.concatenation -> ov.concat, then its fused activation (RELU6 -> ov.clamp 0..6).
// CHECK-LABEL: func.func @main
// CHECK:         %[[C:.*]] = ov.concat %x, %y axis = 1 {ov.name = "concatenation/concat"} : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
// CHECK:         ov.clamp %[[C]] {{.*}}ov.name = "concatenation"
func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x1xf32>) -> tensor<2x4xf32> {
  %c = "tfl.concatenation"(%x, %y) <{axis = 1 : i32, fused_activation_function = "RELU6"}> : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  func.return %c : tensor<2x4xf32>
}

// -----

// tfl.embedding_lookup -> ov.gather on axis 0 of the table.
// CHECK-LABEL: func.func @main
// CHECK:         ov.gather %table, %ids, %{{.*}} {ov.name = "embedding_lookup"} : (tensor<10x4xf32>, tensor<2x3xi32>, tensor<i64>) -> tensor<2x3x4xf32>
func.func @main(%ids: tensor<2x3xi32>, %table: tensor<10x4xf32>) -> tensor<2x3x4xf32> {
  %e = "tfl.embedding_lookup"(%ids, %table) : (tensor<2x3xi32>, tensor<10x4xf32>) -> tensor<2x3x4xf32>
  func.return %e : tensor<2x3x4xf32>
}

// -----

// Folding: tfl ops whose operands are all constant become one ov.constant each, computed with
// their reference semantics; what is left unused is dropped.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %[[C:.*]] = ov.constant dense<{{\[\[}}1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]> : tensor<2x2xf32> {ov.name = "transpose"}
// CHECK-NEXT:    %[[A:.*]] = ov.add %x, %[[C]]
// CHECK-NEXT:    func.return %[[A]]
func.func @main(%x: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %v = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %unused = "tf.Const"() {value = dense<0.0> : tensor<1xf32>} : () -> tensor<3xf32>
  %perm = arith.constant dense<[1, 0]> : tensor<2xi32>
  %t = "tfl.transpose"(%v, %perm) : (tensor<2x2xf32>, tensor<2xi32>) -> tensor<2x2xf32>
  %a = ov.add %x, %t : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %a : tensor<2x2xf32>
}

// -----

// What Keras' Bidirectional layer puts around its calls: tf.ReverseV2 (as tfl.reverse_v2) and
// tf.ConcatV2 (its last operand is the constant axis) -> ov.concat.
// CHECK-LABEL: func.func @main
// CHECK:         %[[R:.*]] = ov.strided_slice %b, {{.*}} {ov.name = "ReverseV2", begin_mask = array<i64: 1, 1, 1>, end_mask = array<i64: 1, 1, 1>} : (tensor<2x5x4xf32>, tensor<3xi64>, tensor<3xi64>, tensor<3xi64>) -> tensor<2x5x4xf32>
// CHECK:         %[[C:.*]] = ov.concat %a, %[[R]] axis = -1 {ov.name = "ConcatV2"} : (tensor<2x5x4xf32>, tensor<2x5x4xf32>) -> tensor<2x5x8xf32>
// CHECK:         func.return %[[C]]
func.func @main(%a: tensor<2x5x4xf32>, %b: tensor<2x5x4xf32>) -> tensor<2x5x8xf32> {
  %time = "tf.Const"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %rev = "tf.ReverseV2"(%b, %time) : (tensor<2x5x4xf32>, tensor<1xi32>) -> tensor<2x5x4xf32>
  %axis = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %y = "tf.ConcatV2"(%a, %rev, %axis) : (tensor<2x5x4xf32>, tensor<2x5x4xf32>, tensor<i32>) -> tensor<2x5x8xf32>
  func.return %y : tensor<2x5x8xf32>
}
