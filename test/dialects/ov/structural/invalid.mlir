// RUN: opt-tool %s --split-input-file --verify-diagnostics

// range_float_to_int
func.func @range_float_to_int() {
  %a = ov.constant dense<0.5> : tensor<f32>
  // expected-error @+1 {{'ov.range' op start, stop, step must be integers for the integer output type i64}}
  %r = ov.range %a, %a, %a output_type = i64 : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xi64>
  func.return
}

// -----

// range_zero_step
func.func @range_zero_step() {
  %a = ov.constant dense<0> : tensor<i64>
  // expected-error @+1 {{'ov.range' op step is 0 (after conversion to the output type)}}
  %r = ov.range %a, %a, %a output_type = i64 : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  func.return
}

// -----

// tile_negative
func.func @tile_negative(%x: tensor<2xf32>) {
  %r = ov.constant dense<-1> : tensor<1xi64>
  // expected-error @+1 {{'ov.tile' op repeats must be non-negative, got [-1]}}
  %t = ov.tile %x, %r : (tensor<2xf32>, tensor<1xi64>) -> tensor<?xf32>
  func.return
}

// -----

// cumsum_axis
func.func @cumsum_axis(%x: tensor<2x3xf32>) {
  %a = ov.constant dense<2> : tensor<i64>
  // expected-error @+1 {{'ov.cumsum' op axis 2 is out of range for rank 2, expected [-2, 1]}}
  %s = ov.cumsum %x, %a : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
  func.return
}

// -----

// scatter_shape
func.func @scatter_shape(%x: tensor<2x3xf32>, %u: tensor<3x2xf32>) {
  %a = ov.constant dense<1> : tensor<i64>
  %i = ov.constant dense<[1, 0]> : tensor<2xi64>
  // expected-error @+1 {{'ov.scatter_update' op updates must have shape data[:axis] + indices + data[axis+1:] = [2, 2], got [3, 2]}}
  %s = ov.scatter_update %x, %i, %u, %a : (tensor<2x3xf32>, tensor<2xi64>, tensor<3x2xf32>, tensor<i64>) -> tensor<2x3xf32>
  func.return
}

// -----

func.func @scatter_nd_update_updates_shape(%x: tensor<4x3xf32>, %i: tensor<2x1xi64>, %u: tensor<2x4xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'ov.scatter_nd_update' op updates must have shape indices[:-1] + data[1:] = [2, 3], got [2, 4]}}
  %0 = ov.scatter_nd_update %x, %i, %u : (tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x4xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// -----

func.func @scatter_nd_update_index_too_long(%x: tensor<4x3xf32>, %i: tensor<2x3xi64>, %u: tensor<2xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'ov.scatter_nd_update' op the last dimension of indices, 3, must be <= the rank of data, 2}}
  %0 = ov.scatter_nd_update %x, %i, %u : (tensor<4x3xf32>, tensor<2x3xi64>, tensor<2xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// -----

func.func @scatter_nd_update_scalar_indices(%x: tensor<4x3xf32>, %i: tensor<i64>, %u: tensor<3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'ov.scatter_nd_update' op indices must have rank >= 1, got a scalar}}
  %0 = ov.scatter_nd_update %x, %i, %u : (tensor<4x3xf32>, tensor<i64>, tensor<3xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// -----

func.func @scatter_nd_update_float_indices(%x: tensor<4x3xf32>, %i: tensor<2x1xf32>, %u: tensor<2x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'ov.scatter_nd_update' op indices must have element type i32 or i64, got f32}}
  %0 = ov.scatter_nd_update %x, %i, %u : (tensor<4x3xf32>, tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// -----

func.func @scatter_nd_update_updates_type(%x: tensor<4x3xf32>, %i: tensor<2x1xi64>, %u: tensor<2x3xf16>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'ov.scatter_nd_update' op updates must have the element type of data, f32, got f16}}
  %0 = ov.scatter_nd_update %x, %i, %u : (tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf16>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}

// -----

func.func @scatter_nd_update_reduction(%x: tensor<4x3xf32>, %i: tensor<2x1xi64>, %u: tensor<2x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{Expected `none`, `sum`, `sub`, `prod`, `min`, or `max`}}
  %0 = ov.scatter_nd_update %x, %i, %u reduction = mean : (tensor<4x3xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<4x3xf32>
  func.return %0 : tensor<4x3xf32>
}
