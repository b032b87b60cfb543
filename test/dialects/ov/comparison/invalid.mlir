// RUN: opt-tool %s --split-input-file --verify-diagnostics

func.func @result_not_boolean(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'ov.less' op inferred type(s) 'tensor<3xi1>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  %0 = ov.less %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @mixed_types(%a: tensor<3xf32>, %b: tensor<3xi32>) -> tensor<3xi1> {
  // expected-error @+1 {{'ov.greater' op operands must have the same element type, got f32 and i32}}
  %0 = ov.greater %a, %b : (tensor<3xf32>, tensor<3xi32>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}

// -----

func.func @not_broadcastable(%a: tensor<2x3xi64>, %b: tensor<2xi64>) -> tensor<2x3xi1> {
  // expected-error @+1 {{'ov.equal' op operands are not broadcast-compatible: shapes [2, 3] and [2]}}
  %0 = ov.equal %a, %b : (tensor<2x3xi64>, tensor<2xi64>) -> tensor<2x3xi1>
  func.return %0 : tensor<2x3xi1>
}

// -----

func.func @no_broadcast(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xi1> {
  // expected-error @+1 {{'ov.less_equal' op auto_broadcast = none needs equal shapes, got [2, 3] and [3]}}
  %0 = ov.less_equal %a, %b auto_broadcast = none : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  func.return %0 : tensor<2x3xi1>
}

// -----

func.func @pdpd(%a: tensor<3xf32>) -> tensor<3xi1> {
  // expected-error @+1 {{Expected `numpy`, or `none`.}}
  %0 = ov.not_equal %a, %a auto_broadcast = pdpd : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}

// -----

func.func @logical_of_floats(%a: tensor<3xf32>) -> tensor<3xi1> {
  // expected-error @+1 {{'ov.logical_and' op operands must have element type i1 (boolean), got f32}}
  %0 = ov.logical_and %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}

// -----

func.func @logical_mixed(%a: tensor<3xi1>, %b: tensor<3xui8>) -> tensor<3xi1> {
  // expected-error @+1 {{'ov.logical_or' op operands must have the same element type, got i1 and ui8}}
  %0 = ov.logical_or %a, %b : (tensor<3xi1>, tensor<3xui8>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}

// -----

func.func @xor_shapes(%a: tensor<3xi1>, %b: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'ov.logical_xor' op operands are not broadcast-compatible: shapes [3] and [4]}}
  %0 = ov.logical_xor %a, %b : (tensor<3xi1>, tensor<4xi1>) -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}

// -----

func.func @not_of_ints(%a: tensor<3xi32>) -> tensor<3xi32> {
  // expected-error @+1 {{'ov.logical_not' op input must have element type i1 (boolean), got i32}}
  %0 = ov.logical_not %a : (tensor<3xi32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

func.func @not_wrong_result(%a: tensor<3xi1>) -> tensor<1x3xi1> {
  // expected-error @+1 {{'ov.logical_not' op inferred type(s) 'tensor<3xi1>' are incompatible with return type(s) of operation 'tensor<1x3xi1>'}}
  %0 = ov.logical_not %a : (tensor<3xi1>) -> tensor<1x3xi1>
  func.return %0 : tensor<1x3xi1>
}

// -----

func.func @select_condition(%c: tensor<3xf32>, %t: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'ov.select' op condition must have element type i1 (boolean), got f32}}
  %0 = ov.select %c, %t, %t : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @select_types(%c: tensor<3xi1>, %t: tensor<3xf32>, %e: tensor<3xf16>) -> tensor<3xf32> {
  // expected-error @+1 {{'ov.select' op then and else must have the same element type, got f32 and f16}}
  %0 = ov.select %c, %t, %e : (tensor<3xi1>, tensor<3xf32>, tensor<3xf16>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @select_values_shapes(%c: tensor<3xi1>, %t: tensor<3xf32>, %e: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'ov.select' op then and else are not broadcast-compatible: shapes [3] and [2]}}
  %0 = ov.select %c, %t, %e : (tensor<3xi1>, tensor<3xf32>, tensor<2xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @select_condition_shape(%c: tensor<4x2xi1>, %t: tensor<3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'ov.select' op the condition and the values are not broadcast-compatible: shapes [3] and [4, 2]}}
  %0 = ov.select %c, %t, %t : (tensor<4x2xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// -----

func.func @select_none(%c: tensor<1xi1>, %t: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'ov.select' op auto_broadcast = none needs equal shapes, got [1], [3] and [3]}}
  %0 = ov.select %c, %t, %t auto_broadcast = none : (tensor<1xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @select_mode(%c: tensor<3xi1>, %t: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{Expected `numpy`, or `none`.}}
  %0 = ov.select %c, %t, %t auto_broadcast = pdpd : (tensor<3xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @select_result(%c: tensor<3xi1>, %t: tensor<3xi32>) -> tensor<3xf32> {
  // expected-error @+1 {{'ov.select' op inferred type(s) 'tensor<3xi32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  %0 = ov.select %c, %t, %t : (tensor<3xi1>, tensor<3xi32>, tensor<3xi32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @is_nan_integer(%x: tensor<3xi32>) -> tensor<3xi1> {
  // expected-error @+1 {{'ov.is_nan' op input must have element type f32 or f16, got i32}}
  %0 = ov.is_nan %x : (tensor<3xi32>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}

// -----

func.func @is_nan_result(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'ov.is_nan' op inferred type(s) 'tensor<3xi1>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  %0 = ov.is_nan %x : (tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
