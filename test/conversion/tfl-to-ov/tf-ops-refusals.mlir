// TensorFlow ops that tfl-to-ov does not convert, or given what OpenVINO's ops cannot express:
// a one-line diagnostic naming the op, where it is and why; nothing is converted.
// RUN: opt-tool %s --allow-unregistered-dialect --split-input-file --verify-diagnostics --convert-tfl-to-ov
// RUN: not opt-tool %s --allow-unregistered-dialect --split-input-file --convert-tfl-to-ov > %t.out 2> %t.err
// RUN: filecheck %s --check-prefix=ERR < %t.err
// RUN: filecheck %s --check-prefix=NOOUT --allow-empty < %t.out
// ERR: tf-ops-refusals.mlir:{{[0-9]+}}:3: error: 'tf.NotEqual' op cannot be converted to OpenVINO: incompatible_shape_error = false
// ERR-NOT: Traceback
// NOOUT-NOT: {{.}}

// incompatible_shape_error = false needs to know whether the shapes broadcast: with dynamic
// dims only the run time knows (TensorFlow's result is then a scalar or the broadcast shape).
func.func @main(%x: tensor<?x3xf32>, %y: tensor<?xf32>) -> tensor<?x3xi1> {
  // expected-error @+1 {{'tf.NotEqual' op cannot be converted to OpenVINO: incompatible_shape_error = false and dynamic shapes [?, 3], [?]: whether they broadcast is decided only at run time}}
  %0 = "tf.NotEqual"(%x, %y) <{incompatible_shape_error = false}> : (tensor<?x3xf32>, tensor<?xf32>) -> tensor<?x3xi1>
  func.return %0 : tensor<?x3xi1>
}

// -----

func.func @main(%x: tensor<2x3xf32>, %y: tensor<4xf32>) -> tensor<2x3xi1> {
  // expected-error @+1 {{'tf.Less' op cannot be converted to OpenVINO: shapes [2, 3] and [4] do not broadcast}}
  %0 = "tf.Less"(%x, %y) : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xi1>
  func.return %0 : tensor<2x3xi1>
}

// -----

func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x3xi32>) -> tensor<2x3xi1> {
  // expected-error @+1 {{'tf.Equal' op cannot be converted to OpenVINO: operands have different element types f32, i32}}
  %0 = "tf.Equal"(%x, %y) <{incompatible_shape_error = true}> : (tensor<2x3xf32>, tensor<2x3xi32>) -> tensor<2x3xi1>
  func.return %0 : tensor<2x3xi1>
}

// -----

func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x3xi1>) -> tensor<2x3xi1> {
  // expected-error @+1 {{'tf.LogicalAnd' op cannot be converted to OpenVINO: an operand has element type f32; expected i1}}
  %0 = "tf.LogicalAnd"(%x, %y) : (tensor<2x3xf32>, tensor<2x3xi1>) -> tensor<2x3xi1>
  func.return %0 : tensor<2x3xi1>
}

// -----

// TF1 Select: a vector condition runs along the first dimension of t and e.
func.func @main(%c: tensor<3xi1>, %t: tensor<2x3xf32>, %e: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tf.Select' op cannot be converted to OpenVINO: the condition has 3 elements, expected 2 (the first dimension of t and e)}}
  %0 = "tf.Select"(%c, %t, %e) : (tensor<3xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// TF1 Select does not broadcast (SelectV2 does).
func.func @main(%c: tensor<2x1xi1>, %t: tensor<2x3xf32>, %e: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tf.Select' op cannot be converted to OpenVINO: the condition has shape [2, 1]; expected a scalar, t's shape [2, 3] or (t of rank >= 2) a vector of its first dimension}}
  %0 = "tf.Select"(%c, %t, %e) : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @main(%c: tensor<2xi1>, %t: tensor<2x3xf32>, %e: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tf.Select' op cannot be converted to OpenVINO: t and e must have one shape, got [2, 3] and [3]}}
  %0 = "tf.Select"(%c, %t, %e) : (tensor<2xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @main(%c: tensor<2xi1>, %t: tensor<2x3xf32>, %e: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tf.SelectV2' op cannot be converted to OpenVINO: shapes [2], [2, 3], [2, 3] do not broadcast}}
  %0 = "tf.SelectV2"(%c, %t, %e) : (tensor<2xi1>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @main(%x: tensor<2x5x4xf32>) -> tensor<2x5x1xi1> {
  %axis = "tf.Const"() <{value = dense<-1> : tensor<i32>}> : () -> tensor<i32>
  // expected-error @+1 {{'tf.Any' op cannot be converted to OpenVINO: the operand has element type f32; expected i1}}
  %0 = "tf.Any"(%x, %axis) <{keep_dims = true}> : (tensor<2x5x4xf32>, tensor<i32>) -> tensor<2x5x1xi1>
  func.return %0 : tensor<2x5x1xi1>
}

// -----

func.func @main(%x: tensor<2xi1>, %y: tensor<2xi1>) -> tensor<2xi1> {
  // expected-error @+1 {{'tf.Maximum' op cannot be converted to OpenVINO: the operands are booleans; TensorFlow takes numbers}}
  %0 = "tf.Maximum"(%x, %y) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  func.return %0 : tensor<2xi1>
}

// -----

// A Keras RNN function left unfused (here prepare-composite-functions was not run) with a
// TensorList that no While loop takes: the diagnostic names the function.
func.func @main(%x: tensor<2x5x4xf32>) -> tensor<2x3xf32> {
  %0 = "tf.PartitionedCall"(%x) <{config = "", config_proto = "", executor_type = "", f = @standard_lstm}> : (tensor<2x5x4xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
func.func private @standard_lstm(%x: tensor<2x5x4xf32>) -> tensor<2x3xf32> attributes {tf.api_implements = "lstm_0"} {
  %shape = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %n = "tf.Const"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
  // expected-error @+1 {{'tf.TensorListReserve' op cannot be converted to OpenVINO: a TensorList that no While loop of the graph takes (tf.While loops over TensorLists as Keras writes them are converted); Keras RNN functions that prepare-composite-functions did not fuse (with a mask argument, or the pass not run): @standard_lstm (lstm_0)}}
  %list = "tf.TensorListReserve"(%shape, %n) : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
  %h = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  func.return %h : tensor<2x3xf32>
}

// -----

func.func @main(%x: tensor<2x3x4xf32>, %b: tensor<4xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'tf.BiasAdd' op cannot be converted to OpenVINO: data_format 'NDHWC': expected 'NHWC' or 'NCHW'}}
  %0 = "tf.BiasAdd"(%x, %b) <{data_format = "NDHWC"}> : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  func.return %0 : tensor<2x3x4xf32>
}

// -----

func.func @main(%x: tensor<2x3x1xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'tf.Squeeze' op cannot be converted to OpenVINO: cannot squeeze dim 1: its size is 3, not 1}}
  %0 = "tf.Squeeze"(%x) <{squeeze_dims = [1]}> : (tensor<2x3x1xf32>) -> tensor<2x1xf32>
  func.return %0 : tensor<2x1xf32>
}

// -----

func.func @main(%x: tensor<?x3x1xf32>) -> tensor<?x3xf32> {
  // expected-error @+1 {{'tf.Squeeze' op cannot be converted to OpenVINO: squeeze_dims is empty and the shape is dynamic: which dims go is unknown}}
  %0 = "tf.Squeeze"(%x) : (tensor<?x3x1xf32>) -> tensor<?x3xf32>
  func.return %0 : tensor<?x3xf32>
}

// -----

func.func @main(%x: tensor<2x3xf32>, %axis: tensor<i32>) -> tensor<?x?x?xf32> {
  // expected-error @+1 {{'tf.ExpandDims' op cannot be converted to OpenVINO: axis must be a constant (the ov op takes it as a static value)}}
  %0 = "tf.ExpandDims"(%x, %axis) : (tensor<2x3xf32>, tensor<i32>) -> tensor<?x?x?xf32>
  func.return %0 : tensor<?x?x?xf32>
}

// -----

func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf16> {
  // expected-error @+1 {{'tf.Cast' op cannot be converted to OpenVINO: Truncate = true drops mantissa bits; OpenVINO's Convert rounds to nearest}}
  %0 = "tf.Cast"(%x) <{Truncate = true}> : (tensor<2x3xf32>) -> tensor<2x3xf16>
  func.return %0 : tensor<2x3xf16>
}

// -----

func.func @main(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{'tf.RealDiv' op cannot be converted to OpenVINO: the dividend has element type i32; only floats are supported}}
  %0 = "tf.RealDiv"(%x, %x) : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  func.return %0 : tensor<2x3xi32>
}

// -----

func.func @main(%x: tensor<2x3x4xf32>, %w: tensor<4x5xf32>) -> tensor<2x3x5xf32> {
  // expected-error @+1 {{'tf.MatMul' op cannot be converted to OpenVINO: operand a must have rank 2, got 3}}
  %0 = "tf.MatMul"(%x, %w) <{transpose_a = false, transpose_b = false}> : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  func.return %0 : tensor<2x3x5xf32>
}

// -----

func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3x2xf32> {
  // expected-error @+1 {{'tf.Pack' op cannot be converted to OpenVINO: axis 3 is out of range [-3, 2]}}
  %0 = "tf.Pack"(%x, %x) <{axis = 3 : i64}> : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3x2xf32>
  func.return %0 : tensor<2x3x2xf32>
}

// -----

// What the ov op rejects is reported at the TensorFlow op.
func.func @main(%x: tensor<2x3xf32>) -> tensor<4xf32> {
  %shape = "tf.Const"() <{value = dense<[4]> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-error @+1 {{'tf.Reshape' op cannot be converted to OpenVINO: cannot reshape [2, 3] (6 elements) to [4] (4 elements)}}
  %0 = "tf.Reshape"(%x, %shape) : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

// The declared result type must be what the converted ops compute.
func.func @main(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'tf.Tanh' op cannot be converted to OpenVINO: result #0 is declared tensor<3x2xf32> but computes tensor<2x3xf32>}}
  %0 = "tf.Tanh"(%x) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}

// -----

func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3x1xf32> {
  %axis = "tf.Const"() <{value = dense<[1, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  // expected-error @+1 {{'tf.ExpandDims' op cannot be converted to OpenVINO: axis must have one element, got 2}}
  %0 = "tf.ExpandDims"(%x, %axis) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<2x3x1xf32>
  func.return %0 : tensor<2x3x1xf32>
}

// -----

// Malformed ops: the operand and result counts and the types are checked first.
func.func @main(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  // expected-error @+1 {{'tf.Reshape' op cannot be converted to OpenVINO: expected 2 operands, got 1}}
  %0 = "tf.Reshape"(%x) : (tensor<2x3xf32>) -> tensor<6xf32>
  func.return %0 : tensor<6xf32>
}

// -----

func.func @main(%x: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'tf.Tanh' op cannot be converted to OpenVINO: operand #0 has type tensor<*xf32>; expected a ranked tensor}}
  %0 = "tf.Tanh"(%x) : (tensor<*xf32>) -> tensor<*xf32>
  func.return %0 : tensor<*xf32>
}

// -----

func.func @main(%x: tensor<2x6xf32>) -> tensor<2x3xf32> {
  %axis = "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
  // expected-error @+1 {{'tf.Split' op cannot be converted to OpenVINO: num_split is 3 but the op has 2 results}}
  %0:2 = "tf.Split"(%axis, %x) <{num_split = 3 : i64}> : (tensor<i32>, tensor<2x6xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  func.return %0#0 : tensor<2x3xf32>
}

// -----

func.func @main() -> tensor<0xf32> {
  // expected-error @+1 {{'tf.Pack' op cannot be converted to OpenVINO: expected one or more operands, got 0}}
  %0 = "tf.Pack"() <{axis = 0 : i64}> : () -> tensor<0xf32>
  func.return %0 : tensor<0xf32>
}

// -----

func.func @main(%x: tensor<*xf32>) -> tensor<*xf32> {
  %axis = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
  // expected-error @+1 {{'tf.ReverseV2' op cannot be converted to OpenVINO: operand #0 has type tensor<*xf32>; expected a ranked tensor}}
  %0 = "tf.ReverseV2"(%x, %axis) : (tensor<*xf32>, tensor<1xi32>) -> tensor<*xf32>
  func.return %0 : tensor<*xf32>
}

// -----

func.func @main(%x: tensor<1x5x5x4xf32>, %w: tensor<3x3x2x4xf32>) -> tensor<1x3x3x4xf32> {
  // expected-error @+1 {{'tf.Conv2D' op cannot be converted to OpenVINO: the input has 4 channels and the filter 2: grouped or dynamic channels are not supported}}
  %0 = "tf.Conv2D"(%x, %w) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "VALID", strides = [1, 1, 1, 1]}> : (tensor<1x5x5x4xf32>, tensor<3x3x2x4xf32>) -> tensor<1x3x3x4xf32>
  func.return %0 : tensor<1x3x3x4xf32>
}

// -----

func.func @main(%x: tensor<2x5x5x4xf32>, %w: tensor<3x3x4x4xf32>) -> tensor<1x3x3x4xf32> {
  // expected-error @+1 {{'tf.Conv2D' op cannot be converted to OpenVINO: strides [2, 1, 1, 1]: expected 4 values, 1 for the batch and channel dims}}
  %0 = "tf.Conv2D"(%x, %w) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "VALID", strides = [2, 1, 1, 1]}> : (tensor<2x5x5x4xf32>, tensor<3x3x4x4xf32>) -> tensor<1x3x3x4xf32>
  func.return %0 : tensor<1x3x3x4xf32>
}
