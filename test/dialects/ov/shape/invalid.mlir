// RUN: opt-tool %s --split-input-file --verify-diagnostics

func.func @reshape_count(%x: tensor<2x3xf32>) -> tensor<4x2xf32> {
  %s = ov.constant dense<[4, 2]> : tensor<2xi64>
  // expected-error @+1 {{'ov.reshape' op cannot reshape [2, 3] (6 elements) to [4, 2] (8 elements)}}
  %0 = ov.reshape %x, %s special_zero = false : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<4x2xf32>
  func.return %0 : tensor<4x2xf32>
}

// -----

func.func @reshape_two_minus_one(%x: tensor<2x3xf32>) -> tensor<?x?xf32> {
  %s = ov.constant dense<[-1, -1]> : tensor<2xi64>
  // expected-error @+1 {{'ov.reshape' op shape may hold at most one -1, got [-1, -1]}}
  %0 = ov.reshape %x, %s special_zero = false : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

func.func @reshape_negative(%x: tensor<2x3xf32>) -> tensor<?x?xf32> {
  %s = ov.constant dense<[-2, 3]> : tensor<2xi64>
  // expected-error @+1 {{'ov.reshape' op shape values must be >= -1, got [-2, 3]}}
  %0 = ov.reshape %x, %s special_zero = false : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

func.func @reshape_not_divisible(%x: tensor<2x3xf32>) -> tensor<4x?xf32> {
  %s = ov.constant dense<[4, -1]> : tensor<2xi64>
  // expected-error @+1 {{'ov.reshape' op cannot reshape [2, 3] to [4, -1]: 6 elements are not divisible by 4}}
  %0 = ov.reshape %x, %s special_zero = false : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<4x?xf32>
  func.return %0 : tensor<4x?xf32>
}

// -----

func.func @reshape_minus_one_zero(%x: tensor<2x0xf32>) -> tensor<0x?xf32> {
  %s = ov.constant dense<[0, -1]> : tensor<2xi64>
  // expected-error @+1 {{'ov.reshape' op cannot compute the -1 dimension of [0, -1]: the other dimensions have zero elements}}
  %0 = ov.reshape %x, %s special_zero = false : (tensor<2x0xf32>, tensor<2xi64>) -> tensor<0x?xf32>
  func.return %0 : tensor<0x?xf32>
}

// -----

func.func @reshape_copy_beyond_rank(%x: tensor<6xf32>) -> tensor<6x?xf32> {
  %s = ov.constant dense<[6, 0]> : tensor<2xi64>
  // expected-error @+1 {{'ov.reshape' op shape has a 0 (copy) at index 1, beyond the data rank 1 (special_zero = true)}}
  %0 = ov.reshape %x, %s special_zero = true : (tensor<6xf32>, tensor<2xi64>) -> tensor<6x?xf32>
  func.return %0 : tensor<6x?xf32>
}

// -----

func.func @reshape_shape_type(%x: tensor<6xf32>, %s: tensor<2xf32>) -> tensor<?x?xf32> {
  // expected-error @+1 {{'ov.reshape' op shape must have an integer element type, got f32}}
  %0 = ov.reshape %x, %s special_zero = true : (tensor<6xf32>, tensor<2xf32>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

func.func @reshape_shape_rank(%x: tensor<6xf32>, %s: tensor<2x1xi64>) -> tensor<?x?xf32> {
  // expected-error @+1 {{'ov.reshape' op shape must be 1-D, got shape [2, 1]}}
  %0 = ov.reshape %x, %s special_zero = true : (tensor<6xf32>, tensor<2x1xi64>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

func.func @reshape_shape_length(%x: tensor<6xf32>, %s: tensor<?xi64>) -> tensor<?x?xf32> {
  // expected-error @+1 {{'ov.reshape' op shape must have a static length (the rank of the result), got tensor<?x...>}}
  %0 = ov.reshape %x, %s special_zero = true : (tensor<6xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

func.func @reshape_wrong_result(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %s = ov.constant dense<[-1, 3]> : tensor<2xi64>
  // expected-error @+1 {{'ov.reshape' op inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x2xf32>'}}
  %0 = ov.reshape %x, %s special_zero = false : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}

// -----

func.func @squeeze_dynamic_no_axes(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  // expected-error @+1 {{'ov.squeeze' op squeeze without axes needs a static data shape, got [?, 3]}}
  %0 = ov.squeeze %x : (tensor<?x3xf32>) -> tensor<?x3xf32>
  func.return %0 : tensor<?x3xf32>
}

// -----

func.func @squeeze_axis_range(%x: tensor<1x3xf32>) -> tensor<3xf32> {
  %a = ov.constant dense<2> : tensor<i64>
  // expected-error @+1 {{'ov.squeeze' op axis 2 is out of range for rank 2, expected [-2, 1]}}
  %0 = ov.squeeze %x, %a : (tensor<1x3xf32>, tensor<i64>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @squeeze_axes_unknown(%x: tensor<1x3xf32>, %a: tensor<1xi64>) -> tensor<3xf32> {
  // expected-error @+1 {{'ov.squeeze' op axes must be known at compile time (a constant): the result rank depends on them}}
  %0 = ov.squeeze %x, %a : (tensor<1x3xf32>, tensor<1xi64>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @squeeze_axes_rank(%x: tensor<1x3xf32>) -> tensor<3xf32> {
  %a = ov.constant dense<[[0]]> : tensor<1x1xi64>
  // expected-error @+1 {{'ov.squeeze' op axes must be a scalar or 1-D, got shape [1, 1]}}
  %0 = ov.squeeze %x, %a : (tensor<1x3xf32>, tensor<1x1xi64>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @squeeze_scalar(%x: tensor<f32>) -> tensor<f32> {
  %a = ov.constant dense<0> : tensor<i64>
  // expected-error @+1 {{'ov.squeeze' op cannot squeeze a scalar (rank 0) along an axis}}
  %0 = ov.squeeze %x, %a : (tensor<f32>, tensor<i64>) -> tensor<f32>
  func.return %0 : tensor<f32>
}

// -----

func.func @unsqueeze_axis_range(%x: tensor<2x3xf32>) -> tensor<2x3x1xf32> {
  %a = ov.constant dense<3> : tensor<i64>
  // expected-error @+1 {{'ov.unsqueeze' op axis 3 is out of range for rank 3, expected [-3, 2]}}
  %0 = ov.unsqueeze %x, %a : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3x1xf32>
  func.return %0 : tensor<2x3x1xf32>
}

// -----

func.func @unsqueeze_repeated_axis(%x: tensor<2x3xf32>) -> tensor<1x2x3x1xf32> {
  %a = ov.constant dense<[0, -4]> : tensor<2xi64>
  // expected-error @+1 {{'ov.unsqueeze' op inferred type(s) 'tensor<1x2x3xf32>' are incompatible with return type(s) of operation 'tensor<1x2x3x1xf32>'}}
  %0 = ov.unsqueeze %x, %a : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<1x2x3x1xf32>
  func.return %0 : tensor<1x2x3x1xf32>
}

// -----

func.func @unsqueeze_axes_unknown(%x: tensor<2x3xf32>, %a: tensor<1xi64>) -> tensor<1x2x3xf32> {
  // expected-error @+1 {{'ov.unsqueeze' op axes must be known at compile time (a constant): the result rank depends on them}}
  %0 = ov.unsqueeze %x, %a : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<1x2x3xf32>
  func.return %0 : tensor<1x2x3xf32>
}

// -----

func.func @unsqueeze_axes_type(%x: tensor<2x3xf32>) -> tensor<1x2x3xf32> {
  %a = ov.constant dense<true> : tensor<1xi1>
  // expected-error @+1 {{'ov.unsqueeze' op axes must have an integer element type, got i1}}
  %0 = ov.unsqueeze %x, %a : (tensor<2x3xf32>, tensor<1xi1>) -> tensor<1x2x3xf32>
  func.return %0 : tensor<1x2x3xf32>
}

// -----

func.func @shape_of_output_type(%x: tensor<2x3xf32>) -> tensor<2xi8> {
  // expected-error @+1 {{'ov.shape_of' op output_type must be i64 or i32, got i8}}
  %0 = ov.shape_of %x output_type = i8 : (tensor<2x3xf32>) -> tensor<2xi8>
  func.return %0 : tensor<2xi8>
}

// -----

func.func @shape_of_wrong_result(%x: tensor<2x3xf32>) -> tensor<3xi64> {
  // expected-error @+1 {{'ov.shape_of' op inferred type(s) 'tensor<2xi64>' are incompatible with return type(s) of operation 'tensor<3xi64>'}}
  %0 = ov.shape_of %x : (tensor<2x3xf32>) -> tensor<3xi64>
  func.return %0 : tensor<3xi64>
}

// -----

func.func @non_zero_output_type(%x: tensor<2x3xf32>) -> tensor<2x?xf32> {
  // expected-error @+1 {{'ov.non_zero' op output_type must be i64 or i32, got f32}}
  %0 = ov.non_zero %x output_type = f32 : (tensor<2x3xf32>) -> tensor<2x?xf32>
  func.return %0 : tensor<2x?xf32>
}

// -----

func.func @non_zero_rank(%x: tensor<2x3xf32>) -> tensor<3x?xi64> {
  // expected-error @+1 {{'ov.non_zero' op inferred type(s) 'tensor<2x?xi64>' are incompatible with return type(s) of operation 'tensor<3x?xi64>'}}
  %0 = ov.non_zero %x : (tensor<2x3xf32>) -> tensor<3x?xi64>
  func.return %0 : tensor<3x?xi64>
}
