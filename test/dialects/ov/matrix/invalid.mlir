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

// -----

func.func @einsum_count(%a: tensor<2x3xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'ov.einsum' op equation 'ij,jk->ik' has 2 input subscripts, but the op has 1 operands}}
  %0 = ov.einsum %a equation = "ij,jk->ik" : (tensor<2x3xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

func.func @einsum_no_operand() -> tensor<f32> {
  // expected-error @+1 {{'ov.einsum' op must have at least one operand}}
  %0 = ov.einsum equation = "->" : () -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @einsum_label(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'ov.einsum' op input subscript 'i1' of equation 'i1->i' must be letters and at most one '...'}}
  %0 = ov.einsum %a equation = "i1->i" : (tensor<2x3xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @einsum_two_ellipses(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ov.einsum' op input subscript '......' of equation '......' must be letters and at most one '...'}}
  %0 = ov.einsum %a equation = "......" : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @einsum_two_arrows(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'ov.einsum' op output subscript 'j->i' of equation 'ij->j->i' must be letters and at most one '...'}}
  %0 = ov.einsum %a equation = "ij->j->i" : (tensor<2x3xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @einsum_output_label(%a: tensor<2x3xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'ov.einsum' op output subscript 'ik' of equation 'ij->ik' has label 'k' that no input subscript has}}
  %0 = ov.einsum %a equation = "ij->ik" : (tensor<2x3xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

func.func @einsum_output_repeats(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{'ov.einsum' op output subscript 'ii' of equation 'ij->ii' repeats label 'i'}}
  %0 = ov.einsum %a equation = "ij->ii" : (tensor<3x3xf32>) -> tensor<3x3xf32>
  func.return %0 : tensor<3x3xf32>
}

// -----

func.func @einsum_implicit_repeats(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{'ov.einsum' op the implicit output of equation 'ii' repeats label 'i' (OpenVINO keeps every label of one input that no other has); write the output, e.g. 'ii->i'}}
  %0 = ov.einsum %a equation = "ii" : (tensor<3x3xf32>) -> tensor<3x3xf32>
  func.return %0 : tensor<3x3xf32>
}

// -----

func.func @einsum_rank(%a: tensor<2x3x4xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ov.einsum' op operand 0 has rank 3, but its subscript 'ij' has 2 labels}}
  %0 = ov.einsum %a equation = "ij->ij" : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @einsum_rank_ellipsis(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'ov.einsum' op operand 0 has rank 1, but its subscript 'i...j' has 2 labels besides '...'}}
  %0 = ov.einsum %a equation = "i...j->i" : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @einsum_dims(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{'ov.einsum' op label 'j' has dimension 3 in operand 0 and 4 in operand 1}}
  %0 = ov.einsum %a, %b equation = "ij,jk->ik" : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  func.return %0 : tensor<2x5xf32>
}

// -----

func.func @einsum_diagonal(%a: tensor<3x4xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'ov.einsum' op label 'i' repeats in operand 0 with dimensions 3 and 4 (a diagonal needs equal ones)}}
  %0 = ov.einsum %a equation = "ii->i" : (tensor<3x4xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @einsum_ellipsis_broadcast(%a: tensor<2x3x4xf32>, %b: tensor<3x4x5xf32>) -> tensor<2x3x5xf32> {
  // expected-error @+1 {{'ov.einsum' op the dimensions under '...' do not broadcast: [2] in operand 0 and [3] in operand 1}}
  %0 = ov.einsum %a, %b equation = "...ij,...jk->...ik" : (tensor<2x3x4xf32>, tensor<3x4x5xf32>) -> tensor<2x3x5xf32>
  func.return %0 : tensor<2x3x5xf32>
}

// -----

func.func @einsum_types(%a: tensor<2x3xf32>, %b: tensor<3xf16>) -> tensor<2xf32> {
  // expected-error @+1 {{'ov.einsum' op operands must have one element type, got f32 (operand 0) and f16 (operand 1)}}
  %0 = ov.einsum %a, %b equation = "ij,j->i" : (tensor<2x3xf32>, tensor<3xf16>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @einsum_boolean(%a: tensor<2x3xi1>) -> tensor<3x2xi1> {
  // expected-error @+1 {{'ov.einsum' op operands must have a numeric element type, got i1}}
  %0 = ov.einsum %a equation = "ij->ji" : (tensor<2x3xi1>) -> tensor<3x2xi1>
  func.return %0 : tensor<3x2xi1>
}

// -----

func.func @einsum_result(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ov.einsum' op inferred type(s) 'tensor<3x2xf32>' are incompatible with return type(s) of operation 'tensor<2x3xf32>'}}
  %0 = ov.einsum %a equation = "ij->ji" : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
