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

// -----

func.func @sdpa_rank(%q: tensor<5x8xf32>, %v: tensor<6x3xf32>) -> tensor<5x3xf32> {
  // expected-error @+1 {{'ov.scaled_dot_product_attention' op query must have rank >= 3 ([N..., L or S, E]), got [5, 8]}}
  %0 = ov.scaled_dot_product_attention %q, %q, %v : (tensor<5x8xf32>, tensor<5x8xf32>, tensor<6x3xf32>) -> tensor<5x3xf32>
  func.return %0 : tensor<5x3xf32>
}

// -----

func.func @sdpa_e(%q: tensor<1x5x8xf32>, %k: tensor<1x6x7xf32>, %v: tensor<1x6x3xf32>) -> tensor<1x5x3xf32> {
  // expected-error @+1 {{'ov.scaled_dot_product_attention' op the query's and the key's E do not match: query [1, 5, 8], key [1, 6, 7], value [1, 6, 3]}}
  %0 = ov.scaled_dot_product_attention %q, %k, %v : (tensor<1x5x8xf32>, tensor<1x6x7xf32>, tensor<1x6x3xf32>) -> tensor<1x5x3xf32>
  func.return %0 : tensor<1x5x3xf32>
}

// -----

func.func @sdpa_s(%q: tensor<1x5x8xf32>, %k: tensor<1x6x8xf32>, %v: tensor<1x7x3xf32>) -> tensor<1x5x3xf32> {
  // expected-error @+1 {{'ov.scaled_dot_product_attention' op the key's and the value's S do not match: query [1, 5, 8], key [1, 6, 8], value [1, 7, 3]}}
  %0 = ov.scaled_dot_product_attention %q, %k, %v : (tensor<1x5x8xf32>, tensor<1x6x8xf32>, tensor<1x7x3xf32>) -> tensor<1x5x3xf32>
  func.return %0 : tensor<1x5x3xf32>
}

// -----

func.func @sdpa_batch(%q: tensor<2x5x8xf32>, %k: tensor<3x6x8xf32>, %v: tensor<3x6x3xf32>) -> tensor<3x5x3xf32> {
  // expected-error @+1 {{'ov.scaled_dot_product_attention' op the batch axes are not broadcast-compatible: shapes [2] and [3]}}
  %0 = ov.scaled_dot_product_attention %q, %k, %v : (tensor<2x5x8xf32>, tensor<3x6x8xf32>, tensor<3x6x3xf32>) -> tensor<3x5x3xf32>
  func.return %0 : tensor<3x5x3xf32>
}

// -----

func.func @sdpa_mask_type(%q: tensor<1x5x8xf32>, %v: tensor<1x5x3xf32>, %m: tensor<5x5xi64>) -> tensor<1x5x3xf32> {
  // expected-error @+1 {{'ov.scaled_dot_product_attention' op attention_mask must have the query's element type (f32) or i1, got i64}}
  %0 = ov.scaled_dot_product_attention %q, %q, %v, %m : (tensor<1x5x8xf32>, tensor<1x5x8xf32>, tensor<1x5x3xf32>, tensor<5x5xi64>) -> tensor<1x5x3xf32>
  func.return %0 : tensor<1x5x3xf32>
}

// -----

func.func @sdpa_mask_shape(%q: tensor<1x5x8xf32>, %v: tensor<1x5x3xf32>, %m: tensor<4x5xf32>) -> tensor<1x5x3xf32> {
  // expected-error @+1 {{'ov.scaled_dot_product_attention' op the scores [L, S] and the attention_mask's last two axes are not broadcast-compatible: shapes [5, 5] and [4, 5]}}
  %0 = ov.scaled_dot_product_attention %q, %q, %v, %m : (tensor<1x5x8xf32>, tensor<1x5x8xf32>, tensor<1x5x3xf32>, tensor<4x5xf32>) -> tensor<1x5x3xf32>
  func.return %0 : tensor<1x5x3xf32>
}

// -----

func.func @sdpa_scale(%q: tensor<1x5x8xf32>, %v: tensor<1x5x3xf32>, %m: tensor<f32>, %s: tensor<2xf32>) -> tensor<1x5x3xf32> {
  // expected-error @+1 {{'ov.scaled_dot_product_attention' op scale must be a scalar or have 1 element, got [2]}}
  %0 = ov.scaled_dot_product_attention %q, %q, %v, %m, %s : (tensor<1x5x8xf32>, tensor<1x5x8xf32>, tensor<1x5x3xf32>, tensor<f32>, tensor<2xf32>) -> tensor<1x5x3xf32>
  func.return %0 : tensor<1x5x3xf32>
}

// -----

func.func @sdpa_operands(%q: tensor<1x5x8xf32>, %v: tensor<1x5x3xf32>, %m: tensor<f32>) -> tensor<1x5x3xf32> {
  // expected-error @+1 {{'ov.scaled_dot_product_attention' op has 6 operands, expected 3 to 5 (query, key, value, attention_mask, scale)}}
  %0 = ov.scaled_dot_product_attention %q, %q, %v, %m, %m, %m : (tensor<1x5x8xf32>, tensor<1x5x8xf32>, tensor<1x5x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x5x3xf32>
  func.return %0 : tensor<1x5x3xf32>
}

// -----

func.func @sdpa_mixed(%q: tensor<1x5x8xf32>, %h: tensor<1x5x8xf16>, %v: tensor<1x5x3xf32>) -> tensor<1x5x3xf32> {
  // expected-error @+1 {{'ov.scaled_dot_product_attention' op query and key must have the same element type, got f32 and f16}}
  %0 = ov.scaled_dot_product_attention %q, %h, %v : (tensor<1x5x8xf32>, tensor<1x5x8xf16>, tensor<1x5x3xf32>) -> tensor<1x5x3xf32>
  func.return %0 : tensor<1x5x3xf32>
}
