// RUN: opt-tool %s --split-input-file --verify-diagnostics

func.func @scalar(%a: tensor<f32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ov.mat_mul' op operand a must have rank >= 1, got a scalar}}
  %0 = ov.mat_mul %a, %b : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @inner(%a: tensor<2x3xf32>, %b: tensor<3x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{'ov.mat_mul' op inner dimensions do not match: a [2, 3] (transpose_a = true) has K = 2, b [3, 3] (transpose_b = false) has K = 3}}
  %0 = ov.mat_mul %a, %b transpose_a = true : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  func.return %0 : tensor<3x3xf32>
}

// -----

func.func @batch(%a: tensor<2x3x4xf32>, %b: tensor<3x4x5xf32>) -> tensor<2x3x5xf32> {
  // expected-error @+1 {{'ov.mat_mul' op batch dimensions are not broadcast-compatible: 2 (a) and 3 (b) at batch axis 0 of a [2, 3, 4] and b [3, 4, 5]}}
  %0 = ov.mat_mul %a, %b : (tensor<2x3x4xf32>, tensor<3x4x5xf32>) -> tensor<2x3x5xf32>
  func.return %0 : tensor<2x3x5xf32>
}

// -----

func.func @int_operands(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) -> tensor<2x4xi8> {
  // expected-error @+1 {{'ov.mat_mul' op a must have element type f32, f16 or i32, got i8}}
  %0 = ov.mat_mul %a, %b : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi8>
  func.return %0 : tensor<2x4xi8>
}

// -----

func.func @int_mixed(%a: tensor<2x3xi32>, %b: tensor<3x4xf32>) -> tensor<2x4xi32> {
  // expected-error @+1 {{'ov.mat_mul' op a and b must have the same element type, got i32 and f32}}
  %0 = ov.mat_mul %a, %b : (tensor<2x3xi32>, tensor<3x4xf32>) -> tensor<2x4xi32>
  func.return %0 : tensor<2x4xi32>
}

// -----

func.func @mixed(%a: tensor<2x3xf32>, %b: tensor<3x4xf16>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'ov.mat_mul' op a and b must have the same element type, got f32 and f16}}
  %0 = ov.mat_mul %a, %b : (tensor<2x3xf32>, tensor<3x4xf16>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @wrong_result(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'ov.mat_mul' op inferred type(s) 'tensor<2x4xf32>' are incompatible with return type(s) of operation 'tensor<3x4xf32>'}}
  %0 = ov.mat_mul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return %0 : tensor<3x4xf32>
}
