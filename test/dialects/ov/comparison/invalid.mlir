// RUN: opt-tool %s --split-input-file --verify-diagnostics --parsing-diagnostics | filecheck %s

func.func @result_not_boolean(%a: tensor<3xf32>) -> tensor<3xf32> {
  %0 = ov.less %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
// CHECK: invalid.mlir:4:3: error: 'ov.less' op inferred type(s) 'tensor<3xi1>' are incompatible with return type(s) of operation 'tensor<3xf32>'

// -----

func.func @mixed_types(%a: tensor<3xf32>, %b: tensor<3xi32>) -> tensor<3xi1> {
  %0 = ov.greater %a, %b : (tensor<3xf32>, tensor<3xi32>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}
// CHECK: error: 'ov.greater' op operands must have the same element type, got f32 and i32

// -----

func.func @not_broadcastable(%a: tensor<2x3xi64>, %b: tensor<2xi64>) -> tensor<2x3xi1> {
  %0 = ov.equal %a, %b : (tensor<2x3xi64>, tensor<2xi64>) -> tensor<2x3xi1>
  func.return %0 : tensor<2x3xi1>
}
// CHECK: error: 'ov.equal' op operands are not broadcast-compatible: shapes [2, 3] and [2]

// -----

func.func @no_broadcast(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xi1> {
  %0 = ov.less_equal %a, %b auto_broadcast = none : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  func.return %0 : tensor<2x3xi1>
}
// CHECK: error: 'ov.less_equal' op auto_broadcast = none needs equal shapes, got [2, 3] and [3]

// -----

func.func @pdpd(%a: tensor<3xf32>) -> tensor<3xi1> {
  %0 = ov.not_equal %a, %a auto_broadcast = pdpd : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}
// CHECK: Expected `numpy`, or `none`.

// -----

func.func @logical_of_floats(%a: tensor<3xf32>) -> tensor<3xi1> {
  %0 = ov.logical_and %a, %a : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}
// CHECK: error: 'ov.logical_and' op operands must have element type i1 (boolean), got f32

// -----

func.func @logical_mixed(%a: tensor<3xi1>, %b: tensor<3xui8>) -> tensor<3xi1> {
  %0 = ov.logical_or %a, %b : (tensor<3xi1>, tensor<3xui8>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}
// CHECK: error: 'ov.logical_or' op operands must have the same element type, got i1 and ui8

// -----

func.func @xor_shapes(%a: tensor<3xi1>, %b: tensor<4xi1>) -> tensor<4xi1> {
  %0 = ov.logical_xor %a, %b : (tensor<3xi1>, tensor<4xi1>) -> tensor<4xi1>
  func.return %0 : tensor<4xi1>
}
// CHECK: error: 'ov.logical_xor' op operands are not broadcast-compatible: shapes [3] and [4]

// -----

func.func @not_of_ints(%a: tensor<3xi32>) -> tensor<3xi32> {
  %0 = ov.logical_not %a : (tensor<3xi32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}
// CHECK: error: 'ov.logical_not' op input must have element type i1 (boolean), got i32

// -----

func.func @not_wrong_result(%a: tensor<3xi1>) -> tensor<1x3xi1> {
  %0 = ov.logical_not %a : (tensor<3xi1>) -> tensor<1x3xi1>
  func.return %0 : tensor<1x3xi1>
}
// CHECK: error: 'ov.logical_not' op inferred type(s) 'tensor<3xi1>' are incompatible with return type(s) of operation 'tensor<1x3xi1>'

// -----

func.func @select_condition(%c: tensor<3xf32>, %t: tensor<3xf32>) -> tensor<3xf32> {
  %0 = ov.select %c, %t, %t : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
// CHECK: error: 'ov.select' op condition must have element type i1 (boolean), got f32

// -----

func.func @select_types(%c: tensor<3xi1>, %t: tensor<3xf32>, %e: tensor<3xf16>) -> tensor<3xf32> {
  %0 = ov.select %c, %t, %e : (tensor<3xi1>, tensor<3xf32>, tensor<3xf16>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
// CHECK: error: 'ov.select' op then and else must have the same element type, got f32 and f16

// -----

func.func @select_values_shapes(%c: tensor<3xi1>, %t: tensor<3xf32>, %e: tensor<2xf32>) -> tensor<3xf32> {
  %0 = ov.select %c, %t, %e : (tensor<3xi1>, tensor<3xf32>, tensor<2xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
// CHECK: error: 'ov.select' op then and else are not broadcast-compatible: shapes [3] and [2]

// -----

func.func @select_condition_shape(%c: tensor<4x2xi1>, %t: tensor<3xf32>) -> tensor<4x3xf32> {
  %0 = ov.select %c, %t, %t : (tensor<4x2xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}
// CHECK: error: 'ov.select' op the condition and the values are not broadcast-compatible: shapes [3] and [4, 2]

// -----

func.func @select_none(%c: tensor<1xi1>, %t: tensor<3xf32>) -> tensor<3xf32> {
  %0 = ov.select %c, %t, %t auto_broadcast = none : (tensor<1xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
// CHECK: error: 'ov.select' op auto_broadcast = none needs equal shapes, got [1], [3] and [3]

// -----

func.func @select_mode(%c: tensor<3xi1>, %t: tensor<3xf32>) -> tensor<3xf32> {
  %0 = ov.select %c, %t, %t auto_broadcast = pdpd : (tensor<3xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
// CHECK: Expected `numpy`, or `none`.

// -----

func.func @select_result(%c: tensor<3xi1>, %t: tensor<3xi32>) -> tensor<3xf32> {
  %0 = ov.select %c, %t, %t : (tensor<3xi1>, tensor<3xi32>, tensor<3xi32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
// CHECK: error: 'ov.select' op inferred type(s) 'tensor<3xi32>' are incompatible with return type(s) of operation 'tensor<3xf32>'

// -----

func.func @is_nan_integer(%x: tensor<3xi32>) -> tensor<3xi1> {
  %0 = ov.is_nan %x : (tensor<3xi32>) -> tensor<3xi1>
  func.return %0 : tensor<3xi1>
}
// CHECK: error: 'ov.is_nan' op input must have element type f32 or f16, got i32

// -----

func.func @is_nan_result(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = ov.is_nan %x : (tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
// CHECK: error: 'ov.is_nan' op inferred type(s) 'tensor<3xi1>' are incompatible with return type(s) of operation 'tensor<3xf32>'
