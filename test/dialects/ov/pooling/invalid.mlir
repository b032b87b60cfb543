// RUN: opt-tool %s --split-input-file --verify-diagnostics

func.func @rounding(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+1 {{Expected `floor`, or `ceil`.}}
  %0 = ov.max_pool %x {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>, rounding_type = #ov<rounding_type round>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  func.return %0 : tensor<1x1x2x2xf32>
}

// -----

func.func @auto_pad(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+1 {{Expected `explicit`, `same_upper`, `same_lower`, or `valid`.}}
  %0 = ov.avg_pool %x {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>, exclude_pad = true, auto_pad = #ov<auto_pad same>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  func.return %0 : tensor<1x1x2x2xf32>
}

// -----

func.func @rank(%x: tensor<4x4xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'ov.max_pool' op input must have rank 3, 4 or 5, got rank 2}}
  %0 = ov.max_pool %x {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>} : (tensor<4x4xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

func.func @kernel_size(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+1 {{'ov.max_pool' op kernel must have 2 values (one per spatial axis), got 1}}
  %0 = ov.max_pool %x {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  func.return %0 : tensor<1x1x2x2xf32>
}

// -----

func.func @kernel_zero(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+1 {{'ov.max_pool' op kernel values must be positive, got [2, 0]}}
  %0 = ov.max_pool %x {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 0>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  func.return %0 : tensor<1x1x2x2xf32>
}

// -----

func.func @stride_zero(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+1 {{'ov.max_pool' op strides values must be positive, got [0, 2]}}
  %0 = ov.max_pool %x {strides = array<i64: 0, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  func.return %0 : tensor<1x1x2x2xf32>
}

// -----

func.func @negative_pad(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+1 {{'ov.max_pool' op pads_begin values must be non-negative, got [0, -1]}}
  %0 = ov.max_pool %x {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, -1>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  func.return %0 : tensor<1x1x2x2xf32>
}

// -----

func.func @kernel_too_large(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x1x1xf32> {
  // expected-error @+1 {{'ov.max_pool' op kernel 6 is larger than the padded input 5 at spatial axis 1}}
  %0 = ov.max_pool %x {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 1>, kernel = array<i64: 2, 6>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x1x1xf32>
  func.return %0 : tensor<1x1x1x1xf32>
}

// -----

func.func @exclude_pad_window_in_padding(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32> {
  // expected-error @+1 {{'ov.avg_pool' op with exclude_pad, kernel 2 at spatial axis 0 must be larger than pads_begin 0 and pads_end 2 (a window would lie entirely in the padding)}}
  %0 = ov.avg_pool %x {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 2, 2>, kernel = array<i64: 2, 2>, exclude_pad = true} : (tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32>
  func.return %0 : tensor<1x1x3x3xf32>
}

// -----

func.func @wrong_result(%x: tensor<1x1x7x7xf32>) -> tensor<1x1x3x3xf32> {
  // expected-error @+1 {{'ov.avg_pool' op inferred type(s) 'tensor<1x1x4x4xf32>' are incompatible with return type(s) of operation 'tensor<1x1x3x3xf32>'}}
  %0 = ov.avg_pool %x {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>, exclude_pad = false, rounding_type = #ov<rounding_type ceil>} : (tensor<1x1x7x7xf32>) -> tensor<1x1x3x3xf32>
  func.return %0 : tensor<1x1x3x3xf32>
}

// -----

func.func @max_pool8_dilations(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32> {
  // expected-error @+1 {{'ov.max_pool8' op dilations values must be positive, got [1, 0]}}
  %0, %1 = ov.max_pool8 %x {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>, dilations = array<i64: 1, 0>} : (tensor<1x1x4x4xf32>) -> (tensor<1x1x3x3xf32>, tensor<1x1x3x3xi64>)
  func.return %0 : tensor<1x1x3x3xf32>
}

// -----

func.func @max_pool8_index_type(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32> {
  // expected-error @+1 {{'ov.max_pool8' op index_element_type must be i64 or i32, got f32}}
  %0, %1 = ov.max_pool8 %x {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>, dilations = array<i64: 1, 1>, index_element_type = f32} : (tensor<1x1x4x4xf32>) -> (tensor<1x1x3x3xf32>, tensor<1x1x3x3xf32>)
  func.return %0 : tensor<1x1x3x3xf32>
}

// -----

func.func @max_pool8_axis(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32> {
  // expected-error @+1 {{'ov.max_pool8' op axis 4 is out of range for rank 4, expected [-4, 3]}}
  %0, %1 = ov.max_pool8 %x {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>, dilations = array<i64: 1, 1>, axis = 4 : i64} : (tensor<1x1x4x4xf32>) -> (tensor<1x1x3x3xf32>, tensor<1x1x3x3xi64>)
  func.return %0 : tensor<1x1x3x3xf32>
}

// -----

func.func @max_pool8_shape(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x3x3xf32> {
  // expected-error @+1 {{'ov.max_pool8' op inferred type(s) 'tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>' are incompatible with return type(s) of operation 'tensor<1x1x3x3xf32>, tensor<1x1x3x3xi64>'}}
  %0, %1 = ov.max_pool8 %x {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>, dilations = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> (tensor<1x1x3x3xf32>, tensor<1x1x3x3xi64>)
  func.return %0 : tensor<1x1x3x3xf32>
}

// -----

// The string spelling of the IR before the enums is read with a deprecation warning
// (deprecated_strings.mlir) when it names a value; any other string is not an ov.auto_pad.
func.func @auto_pad_string(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error @+1 {{"same_middle" should be of base attribute ov.auto_pad}}
  %0 = ov.max_pool %x {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>, auto_pad = "same_middle"} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  func.return %0 : tensor<1x1x2x2xf32>
}
