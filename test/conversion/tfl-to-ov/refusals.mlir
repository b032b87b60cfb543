// Every case is refused with a diagnostic that names the op, where it is and why; nothing is
// converted (--verify-diagnostics checks each case's expected-error and goes on with the next).
// RUN: opt-tool %s --allow-unregistered-dialect --split-input-file --verify-diagnostics --convert-tfl-to-ov
// Without --verify-diagnostics: exit code 1, the diagnostic on stderr, no output.
// RUN: not opt-tool %s --allow-unregistered-dialect --split-input-file --convert-tfl-to-ov > %t.out 2> %t.err
// RUN: filecheck %s --check-prefix=ERR < %t.err
// RUN: filecheck %s --check-prefix=NOOUT --allow-empty < %t.out
// ERR: refusals.mlir:{{[0-9]+}}:3: error: 'tfl.unidirectional_sequence_lstm' op cannot be converted to OpenVINO: peephole
// ERR-NOT: Traceback
// NOOUT-NOT: {{.}}

// Peephole connections (cell_to_*_weights).
func.func @main(%x: tensor<1x2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %h: tensor<1x4xf32>, %c: tensor<1x4xf32>, %v: tensor<4xf32>, %p: tensor<4x4xf32>) -> tensor<1x2x4xf32> {
  %n = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.unidirectional_sequence_lstm' op cannot be converted to OpenVINO: peephole connections (cell_to_*_weights) are not supported by OpenVINO's LSTM ops (operand 9, 10, 11)}}
  %y = "tfl.unidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %v, %v, %v, %b, %b, %b, %b, %n, %n, %h, %c, %n, %n, %n, %n) <{cell_clip = 0.000000e+00 : f32, fused_activation_function = "TANH", proj_clip = 0.000000e+00 : f32, time_major = false}> : (tensor<1x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<1x4xf32>, tensor<1x4xf32>, none, none, none, none) -> tensor<1x2x4xf32>
  func.return %y : tensor<1x2x4xf32>
}

// -----

// A projection.
func.func @main(%x: tensor<1x2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %h: tensor<1x4xf32>, %c: tensor<1x4xf32>, %v: tensor<4xf32>, %p: tensor<4x4xf32>) -> tensor<1x2x4xf32> {
  %n = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.unidirectional_sequence_lstm' op cannot be converted to OpenVINO: a projection (projection_weights/bias) is not supported by OpenVINO's LSTM ops (operand 16)}}
  %y = "tfl.unidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %n, %n, %n, %b, %b, %b, %b, %p, %n, %h, %c, %n, %n, %n, %n) <{cell_clip = 0.000000e+00 : f32, fused_activation_function = "TANH", proj_clip = 0.000000e+00 : f32, time_major = false}> : (tensor<1x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x4xf32>, none, tensor<1x4xf32>, tensor<1x4xf32>, none, none, none, none) -> tensor<1x2x4xf32>
  func.return %y : tensor<1x2x4xf32>
}

// -----

// Layer normalization.
func.func @main(%x: tensor<1x2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %h: tensor<1x4xf32>, %c: tensor<1x4xf32>, %v: tensor<4xf32>, %p: tensor<4x4xf32>) -> tensor<1x2x4xf32> {
  %n = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.unidirectional_sequence_lstm' op cannot be converted to OpenVINO: layer normalization (*_layer_norm_coefficients) is not supported by OpenVINO's LSTM ops (operand 20, 21, 22, 23)}}
  %y = "tfl.unidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %n, %n, %n, %b, %b, %b, %b, %n, %n, %h, %c, %v, %v, %v, %v) <{cell_clip = 0.000000e+00 : f32, fused_activation_function = "TANH", proj_clip = 0.000000e+00 : f32, time_major = false}> : (tensor<1x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<1x4xf32>, tensor<1x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x2x4xf32>
  func.return %y : tensor<1x2x4xf32>
}

// -----

// CIFG (no input gate).
func.func @main(%x: tensor<1x2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %h: tensor<1x4xf32>, %c: tensor<1x4xf32>, %v: tensor<4xf32>, %p: tensor<4x4xf32>) -> tensor<1x2x4xf32> {
  %n = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.unidirectional_sequence_lstm' op cannot be converted to OpenVINO: CIFG (coupled input and forget gates: no input_to_input_weights) has no OpenVINO LSTM equivalent}}
  %y = "tfl.unidirectional_sequence_lstm"(%x, %n, %w, %w, %w, %n, %r, %r, %r, %n, %n, %n, %n, %b, %b, %b, %n, %n, %h, %c, %n, %n, %n, %n) <{cell_clip = 0.000000e+00 : f32, fused_activation_function = "TANH", proj_clip = 0.000000e+00 : f32, time_major = false}> : (tensor<1x2x3xf32>, none, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, none, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<1x4xf32>, tensor<1x4xf32>, none, none, none, none) -> tensor<1x2x4xf32>
  func.return %y : tensor<1x2x4xf32>
}

// -----

// IndyLSTM's diagonal recurrent weights.
func.func @main(%x: tensor<1x2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %h: tensor<1x4xf32>, %c: tensor<1x4xf32>, %v: tensor<4xf32>, %p: tensor<4x4xf32>) -> tensor<1x2x4xf32> {
  %n = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.unidirectional_sequence_lstm' op cannot be converted to OpenVINO: diagonal_recurrent_tensors (IndyLSTM: elementwise recurrent weights) is not supported by OpenVINO's LSTM ops}}
  %y = "tfl.unidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %v, %v, %v, %v, %n, %n, %n, %b, %b, %b, %b, %n, %n, %h, %c, %n, %n, %n, %n) <{cell_clip = 0.000000e+00 : f32, fused_activation_function = "TANH", proj_clip = 0.000000e+00 : f32, time_major = false, diagonal_recurrent_tensors = true}> : (tensor<1x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<1x4xf32>, tensor<1x4xf32>, none, none, none, none) -> tensor<1x2x4xf32>
  func.return %y : tensor<1x2x4xf32>
}

// -----

// A cell clip: TFLite clips the cell state, OpenVINO's clip is on the gate pre-activations.
func.func @main(%x: tensor<1x2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %h: tensor<1x4xf32>, %c: tensor<1x4xf32>, %v: tensor<4xf32>, %p: tensor<4x4xf32>) -> tensor<1x2x4xf32> {
  %n = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.unidirectional_sequence_lstm' op cannot be converted to OpenVINO: cell_clip = 10 clips the cell state, which OpenVINO's RNN ops cannot do (their clip clamps the gate pre-activations, a different function)}}
  %y = "tfl.unidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %n, %n, %n, %b, %b, %b, %b, %n, %n, %h, %c, %n, %n, %n, %n) <{cell_clip = 1.000000e+01 : f32, fused_activation_function = "TANH", proj_clip = 0.000000e+00 : f32, time_major = false}> : (tensor<1x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<1x4xf32>, tensor<1x4xf32>, none, none, none, none) -> tensor<1x2x4xf32>
  func.return %y : tensor<1x2x4xf32>
}

// -----

// An activation OpenVINO's RNN ops do not have.
func.func @main(%x: tensor<1x2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %h: tensor<1x4xf32>, %c: tensor<1x4xf32>, %v: tensor<4xf32>, %p: tensor<4x4xf32>) -> tensor<1x2x4xf32> {
  %n = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.unidirectional_sequence_lstm' op cannot be converted to OpenVINO: fused_activation_function RELU6 has no OpenVINO equivalent (RNN ops apply sigmoid, tanh or relu): supported are TANH and RELU}}
  %y = "tfl.unidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %n, %n, %n, %b, %b, %b, %b, %n, %n, %h, %c, %n, %n, %n, %n) <{cell_clip = 0.000000e+00 : f32, fused_activation_function = "RELU6", proj_clip = 0.000000e+00 : f32, time_major = false}> : (tensor<1x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<1x4xf32>, tensor<1x4xf32>, none, none, none, none) -> tensor<1x2x4xf32>
  func.return %y : tensor<1x2x4xf32>
}

// -----

// An op without an ov counterpart.
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'tf.Softsign' op cannot be converted to OpenVINO: no conversion for 'tf.Softsign' (see docs/passes.md#convert-tfl-to-ov)}}
  %y = "tf.Softsign"(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %y : tensor<2xf32>
}

// -----

// tfl.reverse_v2 needs constant axes (they become OpenVINO StridedSlice strides).
func.func @main(%x: tensor<2x3xf32>, %axis: tensor<1xi32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'tfl.reverse_v2' op cannot be converted to OpenVINO: axis must be a constant (the ov op takes it as a static value)}}
  %y = "tfl.reverse_v2"(%x, %axis) : (tensor<2x3xf32>, tensor<1xi32>) -> tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}

// -----

// A call to a function without a body; the diagnostic points at the call.
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'tf.PartitionedCall' op calls @external, a declaration without a body}}
  %y = "tf.PartitionedCall"(%x) {config = "", f = @external} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %y : tensor<2xf32>
}
func.func private @external(tensor<2xf32>) -> tensor<2xf32>

// -----

// A refused op inside a callee: the diagnostic points into the callee.
func.func @main(%x: tensor<2xf32>) -> tensor<4xf32> {
  %y = "func.call"(%x) <{callee = @__inference_composite_5}> : (tensor<2xf32>) -> tensor<4xf32>
  func.return %y : tensor<4xf32>
}
func.func private @__inference_composite_5(%x: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tfl.concatenation' op cannot be converted to OpenVINO: fused_activation_function SIGN_BIT has no OpenVINO equivalent}}
  %c = "tfl.concatenation"(%x, %x) <{axis = 0 : i32, fused_activation_function = "SIGN_BIT"}> : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  func.return %c : tensor<4xf32>
}
