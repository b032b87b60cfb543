// RUN: opt-tool %s --split-input-file --verify-diagnostics

func.func @mvn_eps_mode(%x: tensor<2x3xf32>, %a: tensor<1xi64>) -> tensor<2x3xf32> {
  // expected-error @+1 {{Expected `inside_sqrt`, or `outside_sqrt`.}}
  %0 = ov.mvn %x, %a {eps = 1.000000e-05 : f32, eps_mode = #ov<mvn_eps_mode add>} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @mvn_eps(%x: tensor<2x3xf32>, %a: tensor<1xi64>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ov.mvn' op eps must be non-negative, got -1e-05}}
  %0 = ov.mvn %x, %a {eps = -1.000000e-05 : f32, eps_mode = #ov<mvn_eps_mode inside_sqrt>} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @mvn_int(%x: tensor<2x3xi32>, %a: tensor<1xi64>) -> tensor<2x3xi32> {
  // expected-error @+1 {{'ov.mvn' op data must have a floating-point element type, got i32}}
  %0 = ov.mvn %x, %a {eps = 1.000000e-05 : f32, eps_mode = #ov<mvn_eps_mode inside_sqrt>} : (tensor<2x3xi32>, tensor<1xi64>) -> tensor<2x3xi32>
  func.return %0 : tensor<2x3xi32>
}

// -----

func.func @mvn_duplicate_axes(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %a = ov.constant dense<[1, -1]> : tensor<2xi64>
  // expected-error @+1 {{'ov.mvn' op axes must be unique, got [1, -1]}}
  %0 = ov.mvn %x, %a {eps = 1.000000e-05 : f32, eps_mode = #ov<mvn_eps_mode inside_sqrt>} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @l2_eps_mode(%x: tensor<2x3xf32>, %a: tensor<1xi64>) -> tensor<2x3xf32> {
  // expected-error @+1 {{Expected `add`, or `max`.}}
  %0 = ov.normalize_l2 %x, %a {eps = 1.000000e-05 : f32, eps_mode = #ov<eps_mode inside_sqrt>} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @l2_axes_type(%x: tensor<2x3xf32>, %a: tensor<1xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'ov.normalize_l2' op axes must have element type i32 or i64, got f32}}
  %0 = ov.normalize_l2 %x, %a {eps = 1.000000e-05 : f32, eps_mode = #ov<eps_mode add>} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @l2_axis_range(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %a = ov.constant dense<[3]> : tensor<1xi64>
  // expected-error @+1 {{'ov.normalize_l2' op reduction axis 3 is out of range for rank 2, expected [-2, 1]}}
  %0 = ov.normalize_l2 %x, %a {eps = 1.000000e-05 : f32, eps_mode = #ov<eps_mode add>} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @l2_wrong_result(%x: tensor<2x3xf32>, %a: tensor<1xi64>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'ov.normalize_l2' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x2xf32>'}}
  %0 = ov.normalize_l2 %x, %a {eps = 1.000000e-05 : f32, eps_mode = #ov<eps_mode add>} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}

// -----

func.func @lrn_size(%x: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
  %a = ov.constant dense<[1]> : tensor<1xi64>
  // expected-error @+1 {{'ov.lrn' op size must be positive, got 0}}
  %0 = ov.lrn %x, %a {alpha = 1.000000e-04 : f64, beta = 7.500000e-01 : f64, bias = 1.000000e+00 : f64, size = 0 : i64} : (tensor<1x8x4x4xf32>, tensor<1xi64>) -> tensor<1x8x4x4xf32>
  func.return %0 : tensor<1x8x4x4xf32>
}

// -----

func.func @lrn_integer_data(%x: tensor<1x8x4x4xi32>) -> tensor<1x8x4x4xi32> {
  %a = ov.constant dense<[1]> : tensor<1xi64>
  // expected-error @+1 {{'ov.lrn' op data must have a floating-point element type, got i32}}
  %0 = ov.lrn %x, %a {alpha = 1.000000e-04 : f64, beta = 7.500000e-01 : f64, bias = 1.000000e+00 : f64, size = 5 : i64} : (tensor<1x8x4x4xi32>, tensor<1xi64>) -> tensor<1x8x4x4xi32>
  func.return %0 : tensor<1x8x4x4xi32>
}

// -----

func.func @lrn_too_many_axes(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %a = ov.constant dense<[0, 1, 1]> : tensor<3xi64>
  // expected-error @+1 {{'ov.lrn' op axes must be unique, got [0, 1, 1]}}
  %0 = ov.lrn %x, %a {alpha = 1.000000e-04 : f64, beta = 7.500000e-01 : f64, bias = 1.000000e+00 : f64, size = 5 : i64} : (tensor<8x4xf32>, tensor<3xi64>) -> tensor<8x4xf32>
  func.return %0 : tensor<8x4xf32>
}

// -----

func.func @batch_norm_channels(%x: tensor<1x4x5x5xf32>, %p: tensor<4xf32>, %q: tensor<3xf32>) -> tensor<1x4x5x5xf32> {
  // expected-error @+1 {{'ov.batch_norm_inference' op mean must have shape [4] (one value per channel), got shape [3]}}
  %0 = ov.batch_norm_inference %x, %p, %p, %q, %p {epsilon = 1.000000e-05 : f64} : (tensor<1x4x5x5xf32>, tensor<4xf32>, tensor<4xf32>, tensor<3xf32>, tensor<4xf32>) -> tensor<1x4x5x5xf32>
  func.return %0 : tensor<1x4x5x5xf32>
}

// -----

func.func @batch_norm_rank(%x: tensor<4xf32>, %p: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'ov.batch_norm_inference' op data must have rank >= 2 (N, C, ...), got rank 1}}
  %0 = ov.batch_norm_inference %x, %p, %p, %p, %p {epsilon = 1.000000e-05 : f64} : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @batch_norm_epsilon(%x: tensor<1x4xf32>, %p: tensor<4xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'ov.batch_norm_inference' op epsilon must be non-negative, got -1}}
  %0 = ov.batch_norm_inference %x, %p, %p, %p, %p {epsilon = -1.000000e+00 : f64} : (tensor<1x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  func.return %0 : tensor<1x4xf32>
}
