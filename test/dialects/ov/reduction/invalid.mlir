// RUN: opt-tool %s --split-input-file --verify-diagnostics

func.func @axes_type(%x: tensor<2x3xf32>, %a: tensor<1xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'ov.reduce_sum' op axes must have element type i32 or i64, got f32}}
  %0 = ov.reduce_sum %x, %a : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @axes_rank(%x: tensor<2x3xf32>, %a: tensor<1x1xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{'ov.reduce_max' op axes must be a scalar or a 1D tensor, got rank 2}}
  %0 = ov.reduce_max %x, %a : (tensor<2x3xf32>, tensor<1x1xi64>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @axis_range(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %a = ov.constant dense<[2]> : tensor<1xi64>
  // expected-error @+1 {{'ov.reduce_min' op reduction axis 2 is out of range for rank 2, expected [-2, 1]}}
  %0 = ov.reduce_min %x, %a : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @unknown_rank(%x: tensor<2x3xf32>, %a: tensor<?xi64>) -> tensor<?xf32> {
  // expected-error @+1 {{'ov.reduce_mean' op the number of reduced axes must be known to infer the result rank: make axes a constant, give it a static shape or use keep_dims = true}}
  %0 = ov.reduce_mean %x, %a : (tensor<2x3xf32>, tensor<?xi64>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

func.func @wrong_result(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %a = ov.constant dense<1> : tensor<i64>
  // expected-error @+1 {{'ov.reduce_sum' op inferred type(s) 'tensor<2x1xf32>' are incompatible with return type(s) of operation 'tensor<2xf32>'}}
  %0 = ov.reduce_sum %x, %a keep_dims = true : (tensor<2x3xf32>, tensor<i64>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @logical_of_floats(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %a = ov.constant dense<[1]> : tensor<1xi64>
  // expected-error @+1 {{'ov.reduce_logical_and' op x must be boolean (i1), got f32}}
  %0 = ov.reduce_logical_and %x, %a : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @l2_of_booleans(%x: tensor<2x3xi1>) -> tensor<2xi1> {
  %a = ov.constant dense<[1]> : tensor<1xi64>
  // expected-error @+1 {{'ov.reduce_l2' op x must be numeric, got boolean (i1)}}
  %0 = ov.reduce_l2 %x, %a : (tensor<2x3xi1>, tensor<1xi64>) -> tensor<2xi1>
  func.return %0 : tensor<2xi1>
}
