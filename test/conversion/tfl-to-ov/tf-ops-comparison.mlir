// RUN: opt-tool %s --allow-unregistered-dialect --split-input-file --convert-tfl-to-ov | filecheck %s
// RUN: opt-tool %s --allow-unregistered-dialect --split-input-file --convert-tfl-to-ov | opt-tool --split-input-file | filecheck %s

// TensorFlow's comparisons, logical ops and selections (passes/conversion/tfl_to_ov/tf_ops.py). Keras' Masking, as
// TensorFlow's importer writes it: NotEqual(x, 0), Any over the features (keep_dims), Cast to
// f32, Mul; the mask for the RNN is the Squeeze. Any is the booleans as u8, their max, back.
// CHECK-LABEL: func.func @main
// CHECK:         %[[NE:.*]] = ov.not_equal %x, %zero {ov.name = "NotEqual"} : (tensor<2x5x4xf32>, tensor<f32>) -> tensor<2x5x4xi1>
// CHECK:         %[[U8:.*]] = ov.convert %[[NE]] destination_type = ui8 {ov.name = "Any/u8"} : (tensor<2x5x4xi1>) -> tensor<2x5x4xui8>
// CHECK:         %[[MAX:.*]] = ov.reduce_max %[[U8]], %axis keep_dims = true {ov.name = "Any/reduce"} : (tensor<2x5x4xui8>, tensor<i32>) -> tensor<2x5x1xui8>
// CHECK:         %[[ANY:.*]] = ov.convert %[[MAX]] destination_type = i1 {ov.name = "Any"} : (tensor<2x5x1xui8>) -> tensor<2x5x1xi1>
// CHECK:         %[[F:.*]] = ov.convert %[[ANY]] destination_type = f32 {ov.name = "Cast"} : (tensor<2x5x1xi1>) -> tensor<2x5x1xf32>
// CHECK:         %[[MUL:.*]] = ov.multiply %x, %[[F]] {ov.name = "Mul"} : (tensor<2x5x4xf32>, tensor<2x5x1xf32>) -> tensor<2x5x4xf32>
// CHECK:         %[[SQ:.*]] = ov.squeeze %[[ANY]], %{{.*}} {ov.name = "Squeeze"} : (tensor<2x5x1xi1>, tensor<1xi64>) -> tensor<2x5xi1>
// CHECK:         func.return %[[MUL]], %[[SQ]]
func.func @main(%x: tensor<2x5x4xf32>) -> (tensor<2x5x4xf32>, tensor<2x5xi1>) {
  %zero = "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
  %axis = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
  %0 = "tf.NotEqual"(%x, %zero) <{incompatible_shape_error = true}> {device = ""} : (tensor<2x5x4xf32>, tensor<f32>) -> tensor<2x5x4xi1>
  %1 = "tf.Any"(%0, %axis) <{keep_dims = true}> {device = ""} : (tensor<2x5x4xi1>, tensor<i32>) -> tensor<2x5x1xi1>
  %2 = "tf.Cast"(%1) <{Truncate = false}> {device = ""} : (tensor<2x5x1xi1>) -> tensor<2x5x1xf32>
  %3 = "tf.Mul"(%x, %2) {device = ""} : (tensor<2x5x4xf32>, tensor<2x5x1xf32>) -> tensor<2x5x4xf32>
  %4 = "tf.Squeeze"(%1) <{squeeze_dims = [-1]}> {device = ""} : (tensor<2x5x1xi1>) -> tensor<2x5xi1>
  func.return %3, %4 : tensor<2x5x4xf32>, tensor<2x5xi1>
}

// -----

// The comparisons and the binary logical ops broadcast like numpy, as OpenVINO's
// (auto_broadcast numpy, the default); NotEqual with incompatible_shape_error = false on shapes
// that broadcast is the plain ov.not_equal.
// CHECK-LABEL: func.func @main
// CHECK:         ov.equal %a, %b {ov.name = "Equal"} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
// CHECK:         ov.not_equal %a, %b {ov.name = "NotEqual"} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
// CHECK:         ov.less %a, %b {ov.name = "Less"} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
// CHECK:         ov.less_equal %a, %b {ov.name = "LessEqual"} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
// CHECK:         ov.greater %a, %b {ov.name = "Greater"} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
// CHECK:         ov.greater_equal %a, %b {ov.name = "GreaterEqual"} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
// CHECK:         ov.logical_and %p, %q {ov.name = "LogicalAnd"} : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
// CHECK:         ov.logical_or %p, %q {ov.name = "LogicalOr"} : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
// CHECK:         ov.logical_not %p {ov.name = "LogicalNot"} : (tensor<2x3xi1>) -> tensor<2x3xi1>
func.func @main(%a: tensor<2x3xi32>, %b: tensor<3xi32>, %p: tensor<2x3xi1>, %q: tensor<3xi1>) -> (tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>) {
  %0 = "tf.Equal"(%a, %b) <{incompatible_shape_error = true}> : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  %1 = "tf.NotEqual"(%a, %b) <{incompatible_shape_error = false}> : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  %2 = "tf.Less"(%a, %b) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  %3 = "tf.LessEqual"(%a, %b) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  %4 = "tf.Greater"(%a, %b) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  %5 = "tf.GreaterEqual"(%a, %b) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
  %6 = "tf.LogicalAnd"(%p, %q) : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  %7 = "tf.LogicalOr"(%p, %q) : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  %8 = "tf.LogicalNot"(%p) : (tensor<2x3xi1>) -> tensor<2x3xi1>
  func.return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>, tensor<2x3xi1>
}

// -----

// incompatible_shape_error = false on static shapes that do not broadcast: TensorFlow's scalar
// true (NotEqual) / false (Equal), a constant.
// CHECK-LABEL: func.func @main
// CHECK-DAG:     %[[T:.*]] = ov.constant dense<true> : tensor<i1>
// CHECK-DAG:     %[[F:.*]] = ov.constant dense<false> : tensor<i1>
// CHECK:         %[[E:.*]] = ov.equal %i, %i {ov.name = "Equal_1"} : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
// CHECK:         func.return %[[T]], %[[F]], %[[E]]
func.func @main(%a: tensor<2x3xf32>, %b: tensor<4xf32>, %i: tensor<2x3xi32>) -> (tensor<i1>, tensor<i1>, tensor<2x3xi1>) {
  %0 = "tf.NotEqual"(%a, %b) <{incompatible_shape_error = false}> : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<i1>
  %1 = "tf.Equal"(%a, %b) <{incompatible_shape_error = false}> : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<i1>
  %2 = "tf.Equal"(%i, %i) : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
  func.return %0, %1, %2 : tensor<i1>, tensor<i1>, tensor<2x3xi1>
}

// -----

// TF1 Select: a vector condition picks whole rows (reshaped to [-1, 1, 1]); a condition of the
// values' shape or a scalar is ov.select as it is. SelectV2 broadcasts its three operands.
// CHECK-LABEL: func.func @main
// CHECK:         %[[S:.*]] = ov.constant dense<[-1, 1, 1]> : tensor<3xi64>
// CHECK:         %[[ROWS:.*]] = ov.reshape %rows, %[[S]] special_zero = false {ov.name = "Select/rows"} : (tensor<2xi1>, tensor<3xi64>) -> tensor<2x1x1xi1>
// CHECK:         ov.select %[[ROWS]], %t, %e {ov.name = "Select"} : (tensor<2x1x1xi1>, tensor<2x5x3xf32>, tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
// CHECK:         ov.select %c, %t, %e {ov.name = "Select_1"} : (tensor<2x5x3xi1>, tensor<2x5x3xf32>, tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
// CHECK:         ov.select %s, %t, %e {ov.name = "Select_2"} : (tensor<i1>, tensor<2x5x3xf32>, tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
// CHECK:         ov.select %v, %t, %w {ov.name = "SelectV2"} : (tensor<5x1xi1>, tensor<2x5x3xf32>, tensor<3xf32>) -> tensor<2x5x3xf32>
func.func @main(%rows: tensor<2xi1>, %c: tensor<2x5x3xi1>, %s: tensor<i1>, %v: tensor<5x1xi1>, %t: tensor<2x5x3xf32>, %e: tensor<2x5x3xf32>, %w: tensor<3xf32>) -> (tensor<2x5x3xf32>, tensor<2x5x3xf32>, tensor<2x5x3xf32>, tensor<2x5x3xf32>) {
  %0 = "tf.Select"(%rows, %t, %e) : (tensor<2xi1>, tensor<2x5x3xf32>, tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  %1 = "tf.Select"(%c, %t, %e) : (tensor<2x5x3xi1>, tensor<2x5x3xf32>, tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  %2 = "tf.Select"(%s, %t, %e) : (tensor<i1>, tensor<2x5x3xf32>, tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  %3 = "tf.SelectV2"(%v, %t, %w) : (tensor<5x1xi1>, tensor<2x5x3xf32>, tensor<3xf32>) -> tensor<2x5x3xf32>
  func.return %0, %1, %2, %3 : tensor<2x5x3xf32>, tensor<2x5x3xf32>, tensor<2x5x3xf32>, tensor<2x5x3xf32>
}

// -----

// All is the u8 min; Maximum / Minimum select y where x < y / y < x, then y where y is NaN (for
// floats), so that a NaN on either side gives NaN; integers need no NaN test.
// CHECK-LABEL: func.func @main
// CHECK:         %[[U:.*]] = ov.convert %m destination_type = ui8 {ov.name = "All/u8"} : (tensor<2x5x4xi1>) -> tensor<2x5x4xui8>
// CHECK:         %[[MIN:.*]] = ov.reduce_min %[[U]], %a02 keep_dims = true {ov.name = "All/reduce"} : (tensor<2x5x4xui8>, tensor<2xi32>) -> tensor<1x5x1xui8>
// CHECK:         %[[ALL:.*]] = ov.convert %[[MIN]] destination_type = i1 {ov.name = "All"} : (tensor<1x5x1xui8>) -> tensor<1x5x1xi1>
// CHECK:         %[[LT:.*]] = ov.less %x, %y {ov.name = "Maximum/less"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
// CHECK:         %[[SEL:.*]] = ov.select %[[LT]], %y, %x {ov.name = "Maximum/select"} : (tensor<2x3xi1>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK:         %[[NAN:.*]] = ov.not_equal %y, %y {ov.name = "Maximum/nan"} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
// CHECK:         %[[MAX:.*]] = ov.select %[[NAN]], %y, %[[SEL]] {ov.name = "Maximum"} : (tensor<3xi1>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK:         %[[GT:.*]] = ov.less %y, %x {ov.name = "Minimum/less"} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK:         %[[SEL2:.*]] = ov.select %[[GT]], %y, %x {ov.name = "Minimum/select"}
// CHECK:         %[[NAN2:.*]] = ov.not_equal %y, %y {ov.name = "Minimum/nan"}
// CHECK:         %[[MIN2:.*]] = ov.select %[[NAN2]], %y, %[[SEL2]] {ov.name = "Minimum"}
// CHECK:         %[[ILT:.*]] = ov.less %i, %j {ov.name = "Maximum_1/less"} : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %[[IMAX:.*]] = ov.select %[[ILT]], %j, %i {ov.name = "Maximum_1"} : (tensor<2x3xi1>, tensor<3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
// CHECK-NEXT:    func.return %[[ALL]], %[[MAX]], %[[MIN2]], %[[IMAX]]
func.func @main(%m: tensor<2x5x4xi1>, %x: tensor<2x3xf32>, %y: tensor<3xf32>, %i: tensor<2x3xi32>, %j: tensor<3xi32>) -> (tensor<1x5x1xi1>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi32>) {
  %a02 = "tf.Const"() <{value = dense<[0, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "tf.All"(%m, %a02) <{keep_dims = true}> : (tensor<2x5x4xi1>, tensor<2xi32>) -> tensor<1x5x1xi1>
  %1 = "tf.Maximum"(%x, %y) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = "tf.Minimum"(%x, %y) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %3 = "tf.Maximum"(%i, %j) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  func.return %0, %1, %2, %3 : tensor<1x5x1xi1>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xi32>
}
