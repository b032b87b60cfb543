// RUN: opt-tool %s --split-input-file --verify-diagnostics

func.func @bad_auto_pad(%x: tensor<1x4x6x6xf32>, %w: tensor<3x4x3x3xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{Expected `explicit`, `same_upper`, `same_lower`, or `valid`.}}
  %0 = ov.convolution %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>, auto_pad = #ov<auto_pad same>} : (tensor<1x4x6x6xf32>, tensor<3x4x3x3xf32>) -> tensor<1x3x4x4xf32>
  func.return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @input_rank(%x: tensor<4x6xf32>, %w: tensor<3x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'ov.convolution' op input must have rank 3, 4 or 5 (N, C and 1 to 3 spatial axes), got rank 2}}
  %0 = ov.convolution %x, %w {strides = array<i64>, pads_begin = array<i64>, pads_end = array<i64>, dilations = array<i64>} : (tensor<4x6xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  func.return %0 : tensor<3x4xf32>
}

// -----

func.func @filter_rank(%x: tensor<1x4x6x6xf32>, %w: tensor<3x4x3xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'ov.convolution' op filter must have rank 4 (C_out x C_in and the 2 spatial axes of the rank-4 input), got rank 3}}
  %0 = ov.convolution %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x6xf32>, tensor<3x4x3xf32>) -> tensor<1x3x4x4xf32>
  func.return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @strides_length(%x: tensor<1x4x6x6xf32>, %w: tensor<3x4x3x3xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'ov.convolution' op strides must have 2 values (one per spatial axis), got 1: [1]}}
  %0 = ov.convolution %x, %w {strides = array<i64: 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x6xf32>, tensor<3x4x3x3xf32>) -> tensor<1x3x4x4xf32>
  func.return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @pads_end_length(%x: tensor<1x4x6x6xf32>, %w: tensor<3x4x3x3xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'ov.convolution' op pads_end must have 2 values (one per spatial axis), got 3: [0, 0, 0]}}
  %0 = ov.convolution %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x6xf32>, tensor<3x4x3x3xf32>) -> tensor<1x3x4x4xf32>
  func.return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @zero_stride(%x: tensor<1x4x6x6xf32>, %w: tensor<3x4x3x3xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'ov.convolution' op strides must be positive, got [1, 0]}}
  %0 = ov.convolution %x, %w {strides = array<i64: 1, 0>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x6xf32>, tensor<3x4x3x3xf32>) -> tensor<1x3x4x4xf32>
  func.return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @negative_dilation(%x: tensor<1x4x6x6xf32>, %w: tensor<3x4x3x3xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'ov.convolution' op dilations must be positive, got [-1, 1]}}
  %0 = ov.convolution %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: -1, 1>} : (tensor<1x4x6x6xf32>, tensor<3x4x3x3xf32>) -> tensor<1x3x4x4xf32>
  func.return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @negative_pad(%x: tensor<1x4x6x6xf32>, %w: tensor<3x4x3x3xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'ov.convolution' op pads_begin must be non-negative, got [0, -1]}}
  %0 = ov.convolution %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, -1>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x6xf32>, tensor<3x4x3x3xf32>) -> tensor<1x3x4x4xf32>
  func.return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @channels(%x: tensor<1x4x6x6xf32>, %w: tensor<3x5x3x3xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'ov.convolution' op input channel count 4 does not match the filter's input channel count 5 (filter layout C_out x C_in x K...)}}
  %0 = ov.convolution %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x6xf32>, tensor<3x5x3x3xf32>) -> tensor<1x3x4x4xf32>
  func.return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @int_input(%x: tensor<1x4x6x6xi64>, %w: tensor<3x4x3x3xi64>) -> tensor<1x3x4x4xi64> {
  // expected-error @+1 {{'ov.convolution' op input must have element type f32, f16 or i32, got i64}}
  %0 = ov.convolution %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x6xi64>, tensor<3x4x3x3xi64>) -> tensor<1x3x4x4xi64>
  func.return %0 : tensor<1x3x4x4xi64>
}

// -----

func.func @mixed_types(%x: tensor<1x4x6x6xf32>, %w: tensor<3x4x3x3xf16>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'ov.convolution' op input and filter must have the same element type, got f32 and f16}}
  %0 = ov.convolution %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x6xf32>, tensor<3x4x3x3xf16>) -> tensor<1x3x4x4xf32>
  func.return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @kernel_too_large(%x: tensor<1x4x6x2xf32>, %w: tensor<3x4x3x3xf32>) -> tensor<1x3x4x1xf32> {
  // expected-error @+1 {{'ov.convolution' op kernel after dilation has size 3, larger than the padded input size 2 at spatial axis 1}}
  %0 = ov.convolution %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x2xf32>, tensor<3x4x3x3xf32>) -> tensor<1x3x4x1xf32>
  func.return %0 : tensor<1x3x4x1xf32>
}

// -----

func.func @wrong_result(%x: tensor<1x4x6x6xf32>, %w: tensor<3x4x3x3xf32>) -> tensor<1x3x6x6xf32> {
  // expected-error @+1 {{'ov.convolution' op inferred type(s) 'tensor<1x3x4x4xf32>' are incompatible with return type(s) of operation 'tensor<1x3x6x6xf32>'}}
  %0 = ov.convolution %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x6xf32>, tensor<3x4x3x3xf32>) -> tensor<1x3x6x6xf32>
  func.return %0 : tensor<1x3x6x6xf32>
}

// -----

func.func @group_filter_rank(%x: tensor<1x4x6x6xf32>, %w: tensor<3x4x3x3xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'ov.group_convolution' op filter must have rank 5 (G x C_out/G x C_in/G and the 2 spatial axes of the rank-4 input), got rank 4}}
  %0 = ov.group_convolution %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x6xf32>, tensor<3x4x3x3xf32>) -> tensor<1x3x4x4xf32>
  func.return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @group_channels(%x: tensor<1x4x6x6xf32>, %w: tensor<2x3x3x3x3xf32>) -> tensor<1x6x4x4xf32> {
  // expected-error @+1 {{'ov.group_convolution' op input channel count 4 does not match groups * input channels per group = 2 * 3 = 6 (filter layout G x C_out/G x C_in/G x K...)}}
  %0 = ov.group_convolution %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x6xf32>, tensor<2x3x3x3x3xf32>) -> tensor<1x6x4x4xf32>
  func.return %0 : tensor<1x6x4x4xf32>
}

// -----

func.func @group_divisible(%x: tensor<1x5x6x6xf32>, %w: tensor<2x3x?x3x3xf32>) -> tensor<1x6x4x4xf32> {
  // expected-error @+1 {{'ov.group_convolution' op input channel count 5 is not divisible by the number of groups 2}}
  %0 = ov.group_convolution %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x5x6x6xf32>, tensor<2x3x?x3x3xf32>) -> tensor<1x6x4x4xf32>
  func.return %0 : tensor<1x6x4x4xf32>
}

// -----

func.func @zero_groups(%x: tensor<1x4x6x6xf32>, %w: tensor<0x3x2x3x3xf32>) -> tensor<1x0x4x4xf32> {
  // expected-error @+1 {{'ov.group_convolution' op the number of groups (filter dimension 0) must be positive}}
  %0 = ov.group_convolution %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x6xf32>, tensor<0x3x2x3x3xf32>) -> tensor<1x0x4x4xf32>
  func.return %0 : tensor<1x0x4x4xf32>
}

// -----

func.func @backprop_channels(%x: tensor<1x3x3x3xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x3x5x5xf32> {
  // expected-error @+1 {{'ov.convolution_backprop_data' op input channel count 3 does not match the filter's input channel count 2 (filter layout C_in x C_out x K...)}}
  %0 = ov.convolution_backprop_data %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x3x3xf32>, tensor<2x3x3x3xf32>) -> tensor<1x3x5x5xf32>
  func.return %0 : tensor<1x3x5x5xf32>
}

// -----

func.func @output_padding_length(%x: tensor<1x3x3x3xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x2x5x5xf32> {
  // expected-error @+1 {{'ov.convolution_backprop_data' op output_padding must have 2 values (one per spatial axis) or none, got 1: [1]}}
  %0 = ov.convolution_backprop_data %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>, output_padding = array<i64: 1>} : (tensor<1x3x3x3xf32>, tensor<3x2x3x3xf32>) -> tensor<1x2x5x5xf32>
  func.return %0 : tensor<1x2x5x5xf32>
}

// -----

func.func @output_padding_negative(%x: tensor<1x3x3x3xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x2x5x5xf32> {
  // expected-error @+1 {{'ov.convolution_backprop_data' op output_padding must be non-negative, got [0, -1]}}
  %0 = ov.convolution_backprop_data %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>, output_padding = array<i64: 0, -1>} : (tensor<1x3x3x3xf32>, tensor<3x2x3x3xf32>) -> tensor<1x2x5x5xf32>
  func.return %0 : tensor<1x2x5x5xf32>
}

// -----

func.func @negative_output(%x: tensor<1x3x1x3xf32>, %w: tensor<3x2x1x3xf32>) -> tensor<1x2x1x5xf32> {
  // expected-error @+1 {{'ov.convolution_backprop_data' op output size at spatial axis 0 would be negative (-1): strides * (X - 1) + dilated kernel - pads_begin - pads_end + output_padding = 1 * (1 - 1) + 1 - 1 - 1 + 0}}
  %0 = ov.convolution_backprop_data %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 0>, pads_end = array<i64: 1, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x1x3xf32>, tensor<3x2x1x3xf32>) -> tensor<1x2x1x5xf32>
  func.return %0 : tensor<1x2x1x5xf32>
}

// -----

func.func @output_shape_type(%x: tensor<1x3x3x3xf32>, %w: tensor<3x2x3x3xf32>, %s: tensor<2xf32>) -> tensor<1x2x?x?xf32> {
  // expected-error @+1 {{'ov.convolution_backprop_data' op output_shape must have element type i64 or i32, got f32}}
  %0 = ov.convolution_backprop_data %x, %w, %s {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x3x3xf32>, tensor<3x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x?x?xf32>
  func.return %0 : tensor<1x2x?x?xf32>
}

// -----

func.func @output_shape_rank(%x: tensor<1x3x3x3xf32>, %w: tensor<3x2x3x3xf32>, %s: tensor<1x2xi64>) -> tensor<1x2x?x?xf32> {
  // expected-error @+1 {{'ov.convolution_backprop_data' op output_shape must be a 1-D tensor, got rank 2}}
  %0 = ov.convolution_backprop_data %x, %w, %s {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x3x3xf32>, tensor<3x2x3x3xf32>, tensor<1x2xi64>) -> tensor<1x2x?x?xf32>
  func.return %0 : tensor<1x2x?x?xf32>
}

// -----

func.func @output_shape_length(%x: tensor<1x3x3x3xf32>, %w: tensor<3x2x3x3xf32>, %s: tensor<3xi64>) -> tensor<1x2x?x?xf32> {
  // expected-error @+1 {{'ov.convolution_backprop_data' op output_shape must have 2 values (one per spatial axis), got 3}}
  %0 = ov.convolution_backprop_data %x, %w, %s {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x3x3xf32>, tensor<3x2x3x3xf32>, tensor<3xi64>) -> tensor<1x2x?x?xf32>
  func.return %0 : tensor<1x2x?x?xf32>
}

// -----

func.func @output_shape_negative(%x: tensor<1x3x3x3xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x2x?x?xf32> {
  %s = ov.constant dense<[4, -4]> : tensor<2xi64>
  // expected-error @+1 {{'ov.convolution_backprop_data' op output_shape values must be non-negative, got [4, -4]}}
  %0 = ov.convolution_backprop_data %x, %w, %s {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x3x3xf32>, tensor<3x2x3x3xf32>, tensor<2xi64>) -> tensor<1x2x?x?xf32>
  func.return %0 : tensor<1x2x?x?xf32>
}
