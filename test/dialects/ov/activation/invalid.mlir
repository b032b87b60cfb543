// RUN: opt-tool %s --split-input-file --verify-diagnostics

func.func @relu_boolean(%x: tensor<3xi1>) -> tensor<3xi1> {
  // expected-error @+1 {{'ov.relu' op input must have a numeric element type (f32, f16, i64, i32, i8, ui8), got i1}}
  %0 = ov.relu %x : (tensor<3xi1>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}

// -----

func.func @relu_wrong_result(%x: tensor<3xf32>) -> tensor<3xf16> {
  // expected-error @+1 {{'ov.relu' op inferred type(s) 'tensor<3xf32>' are incompatible with return type(s) of operation 'tensor<3xf16>'}}
  %0 = ov.relu %x : (tensor<3xf32>) -> tensor<3xf16>
  func.return %0 : tensor<3xf16>
}

// -----

func.func @sigmoid_int(%x: tensor<3xi32>) -> tensor<3xi32> {
  // expected-error @+1 {{'ov.sigmoid' op input must have element type f32 or f16, got i32}}
  %0 = ov.sigmoid %x : (tensor<3xi32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

func.func @tanh_boolean(%x: tensor<3xi1>) -> tensor<3xi1> {
  // expected-error @+1 {{'ov.tanh' op input must have a numeric element type (f32, f16, i64, i32, i8, ui8), got i1}}
  %0 = ov.tanh %x : (tensor<3xi1>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}

// -----

func.func @clamp_min_above_max(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'ov.clamp' op min must be <= max, got min = 2.0, max = 1.0}}
  %0 = ov.clamp %x min = 2.0 max = 1.0 : (tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @clamp_nan(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'ov.clamp' op min and max must not be NaN, got min = nan, max = 1.0}}
  %0 = "ov.clamp"(%x) <{min = 0x7FF8000000000000 : f64, max = 1.0 : f64}> : (tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @clamp_boolean(%x: tensor<3xi1>) -> tensor<3xi1> {
  // expected-error @+1 {{'ov.clamp' op input must have a numeric element type (f32, f16, i64, i32, i8, ui8), got i1}}
  %0 = ov.clamp %x min = 0.0 max = 1.0 : (tensor<3xi1>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}

// -----

func.func @prelu_int(%x: tensor<2x3xi32>, %s: tensor<3xi32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{'ov.prelu' op data must have element type f32 or f16, got i32}}
  %0 = ov.prelu %x, %s : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  func.return %0 : tensor<2x3xi32>
}

// -----

func.func @prelu_slope_type(%x: tensor<2x3xf32>, %s: tensor<3xf16>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ov.prelu' op slope must have the element type of data (f32), got f16}}
  %0 = ov.prelu %x, %s : (tensor<2x3xf32>, tensor<3xf16>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @prelu_slope_mismatch(%x: tensor<2x3x4xf32>, %s: tensor<5xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'ov.prelu' op data and slope are not broadcast-compatible: shapes [2, 3, 4] and [5]}}
  %0 = ov.prelu %x, %s : (tensor<2x3x4xf32>, tensor<5xf32>) -> tensor<2x3x4xf32>
  func.return %0 : tensor<2x3x4xf32>
}

// -----

func.func @prelu_slope_expands(%x: tensor<2x1xf32>, %s: tensor<3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'ov.prelu' op slope of shape [3] does not broadcast to data of shape [2, 1]}}
  %0 = ov.prelu %x, %s : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x1xf32>
  func.return %0 : tensor<2x1xf32>
}

// -----

func.func @prelu_slope_rank(%x: tensor<2x3xf32>, %s: tensor<2x2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ov.prelu' op slope of shape [2, 2, 3] does not broadcast to data of shape [2, 3]: it has a higher rank}}
  %0 = ov.prelu %x, %s : (tensor<2x3xf32>, tensor<2x2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @softmax_axis(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ov.softmax' op axis -3 is out of range for rank 2, expected [-2, 1]}}
  %0 = ov.softmax %x axis = -3 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @softmax_int(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{'ov.softmax' op input must have element type f32 or f16, got i32}}
  %0 = ov.softmax %x axis = 1 : (tensor<2x3xi32>) -> tensor<2x3xi32>
  func.return %0 : tensor<2x3xi32>
}

// -----

func.func @gelu_mode(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{Expected `erf`, or `tanh`.}}
  %0 = ov.gelu %x approximation_mode = sigmoid : (tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @hswish_int(%x: tensor<3xi32>) -> tensor<3xi32> {
  // expected-error @+1 {{'ov.hswish' op input must have element type f32 or f16, got i32}}
  %0 = ov.hswish %x : (tensor<3xi32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

func.func @swish_beta_type(%x: tensor<3xf32>, %b: tensor<f16>) -> tensor<3xf32> {
  // expected-error @+1 {{'ov.swish' op beta must have the element type of the input (f32), got f16}}
  %0 = ov.swish %x, %b : (tensor<3xf32>, tensor<f16>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @swish_beta_shape(%x: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'ov.swish' op beta must be a scalar or a 1-element 1-D tensor, got shape [3]}}
  %0 = ov.swish %x, %b : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @hard_sigmoid_alpha_type(%x: tensor<2x3xf32>, %a: tensor<f16>, %b: tensor<f32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ov.hard_sigmoid' op alpha must have the element type of data (f32), got f16}}
  %0 = ov.hard_sigmoid %x, %a, %b : (tensor<2x3xf32>, tensor<f16>, tensor<f32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @hard_sigmoid_beta_shape(%x: tensor<2x3xf32>, %a: tensor<f32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ov.hard_sigmoid' op beta must be a scalar or hold one element, got shape [3]}}
  %0 = ov.hard_sigmoid %x, %a, %b : (tensor<2x3xf32>, tensor<f32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @softmax_axis_in_attribute_dictionary(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // (the attribute dictionary sets the property: verified as the op's axis)
  // expected-error @+1 {{'ov.softmax' op axis 5 is out of range for rank 2, expected [-2, 1]}}
  %0 = ov.softmax %x {axis = 5 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @softmax_axis_twice(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ov.softmax' op axis is given twice: 0 : i64 and, in its attribute dictionary, 1 : i64}}
  %0 = ov.softmax %x axis = 0 {axis = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @softmax_axis_twice_generic(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // (the generic form's <{...}> is written, not defaulted: its default value conflicts too)
  // expected-error @+1 {{'ov.softmax' op axis is given twice: 1 : i64 and, in its attribute dictionary, 0 : i64}}
  %0 = "ov.softmax"(%x) <{axis = 1 : i64}> {axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @elu_negative_alpha(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'ov.elu' op alpha must be non-negative, got -1.0}}
  %0 = ov.elu %x alpha = -1.0 : (tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @elu_integer(%x: tensor<3xi32>) -> tensor<3xi32> {
  // expected-error @+1 {{'ov.elu' op input must have element type f32 or f16, got i32}}
  %0 = ov.elu %x alpha = 1.0 : (tensor<3xi32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

func.func @selu_lambda_shape(%x: tensor<2x3xf32>, %a: tensor<f32>, %l: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ov.selu' op lambda must be a scalar or hold one element, got shape [2]}}
  %0 = ov.selu %x, %a, %l : (tensor<2x3xf32>, tensor<f32>, tensor<2xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @selu_alpha_type(%x: tensor<2x3xf32>, %a: tensor<f16>, %l: tensor<f32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ov.selu' op alpha must have the element type of data (f32), got f16}}
  %0 = ov.selu %x, %a, %l : (tensor<2x3xf32>, tensor<f16>, tensor<f32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
