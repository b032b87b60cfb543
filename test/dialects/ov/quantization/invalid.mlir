// RUN: opt-tool %s --split-input-file --verify-diagnostics

func.func @levels_one(%x: tensor<2x3xf32>, %l: tensor<f32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ov.fake_quantize' op levels must be >= 2, got 1}}
  %0 = ov.fake_quantize %x, %l, %l, %l, %l levels = 1 : (tensor<2x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @levels_negative(%x: tensor<2x3xf32>, %l: tensor<f32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ov.fake_quantize' op levels must be >= 2, got -256}}
  %0 = ov.fake_quantize %x, %l, %l, %l, %l levels = -256 : (tensor<2x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @bad_auto_broadcast(%x: tensor<2x3xf32>, %l: tensor<f32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{Expected `numpy`, or `none`.}}
  %0 = ov.fake_quantize %x, %l, %l, %l, %l levels = 256 auto_broadcast = pdpd : (tensor<2x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @integer_x(%x: tensor<2x3xi32>, %l: tensor<i32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{'ov.fake_quantize' op x must have element type f32 or f16, got i32}}
  %0 = ov.fake_quantize %x, %l, %l, %l, %l levels = 256 : (tensor<2x3xi32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x3xi32>
  func.return %0 : tensor<2x3xi32>
}

// -----

// FakeQuantize is relaxed in its result only: a ui8 x is not read as float.
func.func @low_precision_x(%x: tensor<2x3xui8>, %l: tensor<f32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ov.fake_quantize' op x must have element type f32 or f16, got ui8}}
  %0 = ov.fake_quantize %x, %l, %l, %l, %l levels = 256 : (tensor<2x3xui8>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @limit_element_type(%x: tensor<2x3xf32>, %l: tensor<f32>, %h: tensor<f16>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ov.fake_quantize' op output_high must have the element type of x (f32), got f16}}
  %0 = ov.fake_quantize %x, %l, %l, %l, %h levels = 256 : (tensor<2x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f16>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @limit_not_broadcastable(%x: tensor<1x3x4x4xf32>, %l: tensor<f32>, %c: tensor<1x2x1x1xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'ov.fake_quantize' op input_low of shape [1, 2, 1, 1] does not broadcast to x of shape [1, 3, 4, 4] (auto_broadcast = numpy)}}
  %0 = ov.fake_quantize %x, %c, %l, %l, %l levels = 256 : (tensor<1x3x4x4xf32>, tensor<1x2x1x1xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x4x4xf32>
  func.return %0 : tensor<1x3x4x4xf32>
}

// -----

// A limit may not widen x (the result has x's shape).
func.func @limit_widens_x(%x: tensor<3x1xf32>, %l: tensor<f32>, %c: tensor<3x4xf32>) -> tensor<3x1xf32> {
  // expected-error @+1 {{'ov.fake_quantize' op input_high of shape [3, 4] does not broadcast to x of shape [3, 1] (auto_broadcast = numpy)}}
  %0 = ov.fake_quantize %x, %l, %c, %l, %l levels = 256 : (tensor<3x1xf32>, tensor<f32>, tensor<3x4xf32>, tensor<f32>, tensor<f32>) -> tensor<3x1xf32>
  func.return %0 : tensor<3x1xf32>
}

// -----

func.func @no_broadcast_scalar_limit(%x: tensor<2x3xf32>, %l: tensor<f32>, %f: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ov.fake_quantize' op output_high of shape [] does not broadcast to x of shape [2, 3] (auto_broadcast = none)}}
  %0 = ov.fake_quantize %x, %f, %f, %f, %l levels = 256 auto_broadcast = none : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @input_low_above_input_high(%x: tensor<1x3x2x2xf32>, %l: tensor<f32>) -> tensor<1x3x2x2xf32> {
  %il = ov.constant dense<[[[[0.0]], [[2.0]], [[0.0]]]]> : tensor<1x3x1x1xf32>
  %ih = ov.constant dense<1.0> : tensor<f32>
  // expected-error @+1 {{'ov.fake_quantize' op input_low must be <= input_high, got 2.0 > 1.0 at element 1}}
  %0 = ov.fake_quantize %x, %il, %ih, %l, %l levels = 256 : (tensor<1x3x2x2xf32>, tensor<1x3x1x1xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x2x2xf32>
  func.return %0 : tensor<1x3x2x2xf32>
}

// -----

func.func @result_shape(%x: tensor<2x3xf32>, %l: tensor<f32>) -> tensor<3x2xui8> {
  // expected-error @+1 {{'ov.fake_quantize' op inferred type(s) 'tensor<2x3xui8>' are incompatible with return type(s) of operation 'tensor<3x2xui8>'}}
  %0 = ov.fake_quantize %x, %l, %l, %l, %l levels = 256 : (tensor<2x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<3x2xui8>
  func.return %0 : tensor<3x2xui8>
}

// -----

func.func @fake_quantize_i64_result(%x: tensor<2x3xf32>, %l: tensor<f32>) -> tensor<2x3xi64> {
  // expected-error @+1 {{'ov.fake_quantize' op result #0 of a type-relaxed op must have element type f32, f16, ui8, i8, i32, got i64}}
  %0 = ov.fake_quantize %x, %l, %l, %l, %l levels = 256 : (tensor<2x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2x3xi64>
  func.return %0 : tensor<2x3xi64>
}

// -----

func.func @convolution_i64_result(%x: tensor<1x3x4x4xui8>, %w: tensor<2x3x1x1xi8>) -> tensor<1x2x4x4xi64> {
  // expected-error @+1 {{'ov.convolution' op result #0 of a type-relaxed op must have element type f32, f16, ui8, i8, i32, got i64}}
  %0 = ov.convolution %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x4x4xui8>, tensor<2x3x1x1xi8>) -> tensor<1x2x4x4xi64>
  func.return %0 : tensor<1x2x4x4xi64>
}

// -----

func.func @subtract_boolean_result(%x: tensor<4xui8>, %y: tensor<4xui8>) -> tensor<4xi1> {
  // expected-error @+1 {{'ov.subtract' op result #0 of a type-relaxed op must have element type f32, f16, ui8, i8, i32, got i1}}
  %0 = ov.subtract %x, %y : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}

// -----

// Only ui8/i8 operands are relaxed: an i32 input with i8 (read as f32) weights is still an
// error (an i32 convolution takes i32 weights).
func.func @convolution_i32_input(%x: tensor<1x3x4x4xi32>, %w: tensor<2x3x1x1xi8>) -> tensor<1x2x4x4xf32> {
  // expected-error @+1 {{'ov.convolution' op input and filter must have the same element type, got i32 and f32}}
  %0 = ov.convolution %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x4x4xi32>, tensor<2x3x1x1xi8>) -> tensor<1x2x4x4xf32>
  func.return %0 : tensor<1x2x4x4xf32>
}

// -----

// The relaxed result keeps the inferred shape.
func.func @relaxed_result_shape(%x: tensor<1x3x4x4xui8>) -> tensor<1x3x3x3xf32> {
  // expected-error @+1 {{'ov.avg_pool' op inferred type(s) 'tensor<1x3x2x2xf32>' are incompatible with return type(s) of operation 'tensor<1x3x3x3xf32>'}}
  %0 = ov.avg_pool %x {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>, exclude_pad = true} : (tensor<1x3x4x4xui8>) -> tensor<1x3x3x3xf32>
  func.return %0 : tensor<1x3x3x3xf32>
}

// -----

// max_pool is not type relaxed: its result keeps the input element type.
func.func @max_pool_not_relaxed(%x: tensor<1x3x4x4xui8>) -> tensor<1x3x2x2xf32> {
  // expected-error @+1 {{'ov.max_pool' op inferred type(s) 'tensor<1x3x2x2xui8>' are incompatible with return type(s) of operation 'tensor<1x3x2x2xf32>'}}
  %0 = ov.max_pool %x {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>} : (tensor<1x3x4x4xui8>) -> tensor<1x3x2x2xf32>
  func.return %0 : tensor<1x3x2x2xf32>
}
