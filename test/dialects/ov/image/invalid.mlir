// RUN: opt-tool %s --split-input-file --verify-diagnostics

func.func @mode(%x: tensor<1x1x4x4xf32>, %s: tensor<2xi64>, %a: tensor<2xi64>) -> tensor<1x1x?x?xf32> {
  // expected-error @+1 {{Expected `nearest`, `linear`, `linear_onnx`, `cubic`, `bilinear_pillow`, or `bicubic_pillow`.}}
  %0 = ov.interpolate %x, %s, %a {mode = #ov<interpolate_mode area>, shape_calculation_mode = #ov<shape_calculation_mode sizes>} : (tensor<1x1x4x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1x?x?xf32>
  func.return %0 : tensor<1x1x?x?xf32>
}

// -----

func.func @pillow(%x: tensor<1x1x4x4xf32>, %s: tensor<2xi64>, %a: tensor<2xi64>) -> tensor<1x1x?x?xf32> {
  // expected-error @+1 {{'ov.interpolate' op mode 'bilinear_pillow' is not supported (supported: nearest, linear, linear_onnx, cubic)}}
  %0 = ov.interpolate %x, %s, %a {mode = #ov<interpolate_mode bilinear_pillow>, shape_calculation_mode = #ov<shape_calculation_mode sizes>} : (tensor<1x1x4x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1x?x?xf32>
  func.return %0 : tensor<1x1x?x?xf32>
}

// -----

func.func @antialias(%x: tensor<1x1x4x4xf32>, %s: tensor<2xi64>, %a: tensor<2xi64>) -> tensor<1x1x?x?xf32> {
  // expected-error @+1 {{'ov.interpolate' op antialias = true is not supported}}
  %0 = ov.interpolate %x, %s, %a {mode = #ov<interpolate_mode linear>, shape_calculation_mode = #ov<shape_calculation_mode sizes>, antialias = true} : (tensor<1x1x4x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1x?x?xf32>
  func.return %0 : tensor<1x1x?x?xf32>
}

// -----

func.func @shape_calculation_mode(%x: tensor<1x1x4x4xf32>, %s: tensor<2xi64>, %a: tensor<2xi64>) -> tensor<1x1x?x?xf32> {
  // expected-error @+1 {{Expected `sizes`, or `scales`.}}
  %0 = ov.interpolate %x, %s, %a {mode = #ov<interpolate_mode nearest>, shape_calculation_mode = #ov<shape_calculation_mode shape>} : (tensor<1x1x4x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1x?x?xf32>
  func.return %0 : tensor<1x1x?x?xf32>
}

// -----

func.func @coordinate_transformation_mode(%x: tensor<1x1x4x4xf32>, %s: tensor<2xi64>, %a: tensor<2xi64>) -> tensor<1x1x?x?xf32> {
  // expected-error @+1 {{Expected `half_pixel`, `pytorch_half_pixel`, `asymmetric`, `tf_half_pixel_for_nn`, or `align_corners`.}}
  %0 = ov.interpolate %x, %s, %a {mode = #ov<interpolate_mode nearest>, shape_calculation_mode = #ov<shape_calculation_mode sizes>, coordinate_transformation_mode = #ov<coordinate_transformation_mode corners>} : (tensor<1x1x4x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1x?x?xf32>
  func.return %0 : tensor<1x1x?x?xf32>
}

// -----

func.func @nearest_mode(%x: tensor<1x1x4x4xf32>, %s: tensor<2xi64>, %a: tensor<2xi64>) -> tensor<1x1x?x?xf32> {
  // expected-error @+1 {{Expected `round_prefer_floor`, `round_prefer_ceil`, `floor`, `ceil`, or `simple`.}}
  %0 = ov.interpolate %x, %s, %a {mode = #ov<interpolate_mode nearest>, shape_calculation_mode = #ov<shape_calculation_mode sizes>, nearest_mode = #ov<nearest_mode round>} : (tensor<1x1x4x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1x?x?xf32>
  func.return %0 : tensor<1x1x?x?xf32>
}

// -----

func.func @pads(%x: tensor<1x1x4x4xf32>, %s: tensor<2xi64>, %a: tensor<2xi64>) -> tensor<1x1x?x?xf32> {
  // expected-error @+1 {{'ov.interpolate' op pads_begin has 5 values, expected at most the data rank 4}}
  %0 = ov.interpolate %x, %s, %a {mode = #ov<interpolate_mode nearest>, shape_calculation_mode = #ov<shape_calculation_mode sizes>, pads_begin = array<i64: 0, 0, 0, 0, 1>} : (tensor<1x1x4x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1x?x?xf32>
  func.return %0 : tensor<1x1x?x?xf32>
}

// -----

func.func @negative_pads(%x: tensor<1x1x4x4xf32>, %s: tensor<2xi64>, %a: tensor<2xi64>) -> tensor<1x1x?x?xf32> {
  // expected-error @+1 {{'ov.interpolate' op pads_end values must be non-negative, got [0, 0, -1]}}
  %0 = ov.interpolate %x, %s, %a {mode = #ov<interpolate_mode nearest>, shape_calculation_mode = #ov<shape_calculation_mode sizes>, pads_end = array<i64: 0, 0, -1>} : (tensor<1x1x4x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1x?x?xf32>
  func.return %0 : tensor<1x1x?x?xf32>
}

// -----

func.func @sizes_type(%x: tensor<1x1x4x4xf32>, %s: tensor<2xf32>, %a: tensor<2xi64>) -> tensor<1x1x?x?xf32> {
  // expected-error @+1 {{'ov.interpolate' op sizes (shape_calculation_mode = sizes) must have element type i32 or i64, got f32}}
  %0 = ov.interpolate %x, %s, %a {mode = #ov<interpolate_mode nearest>, shape_calculation_mode = #ov<shape_calculation_mode sizes>} : (tensor<1x1x4x4xf32>, tensor<2xf32>, tensor<2xi64>) -> tensor<1x1x?x?xf32>
  func.return %0 : tensor<1x1x?x?xf32>
}

// -----

func.func @scales_type(%x: tensor<1x1x4x4xf32>, %s: tensor<2xi64>, %a: tensor<2xi64>) -> tensor<1x1x?x?xf32> {
  // expected-error @+1 {{'ov.interpolate' op scales (shape_calculation_mode = scales) must have a floating-point element type, got i64}}
  %0 = ov.interpolate %x, %s, %a {mode = #ov<interpolate_mode nearest>, shape_calculation_mode = #ov<shape_calculation_mode scales>} : (tensor<1x1x4x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1x?x?xf32>
  func.return %0 : tensor<1x1x?x?xf32>
}

// -----

func.func @values_rank(%x: tensor<1x1x4x4xf32>, %s: tensor<1x2xi64>, %a: tensor<2xi64>) -> tensor<1x1x?x?xf32> {
  // expected-error @+1 {{'ov.interpolate' op scales_or_sizes must be a 1D tensor, got rank 2}}
  %0 = ov.interpolate %x, %s, %a {mode = #ov<interpolate_mode nearest>, shape_calculation_mode = #ov<shape_calculation_mode sizes>} : (tensor<1x1x4x4xf32>, tensor<1x2xi64>, tensor<2xi64>) -> tensor<1x1x?x?xf32>
  func.return %0 : tensor<1x1x?x?xf32>
}

// -----

func.func @axes_type(%x: tensor<1x1x4x4xf32>, %s: tensor<2xi64>, %a: tensor<2xf32>) -> tensor<1x1x?x?xf32> {
  // expected-error @+1 {{'ov.interpolate' op axes must have element type i32 or i64, got f32}}
  %0 = ov.interpolate %x, %s, %a {mode = #ov<interpolate_mode nearest>, shape_calculation_mode = #ov<shape_calculation_mode sizes>} : (tensor<1x1x4x4xf32>, tensor<2xi64>, tensor<2xf32>) -> tensor<1x1x?x?xf32>
  func.return %0 : tensor<1x1x?x?xf32>
}

// -----

func.func @axes_rank(%x: tensor<1x1x4x4xf32>, %s: tensor<2xi64>, %a: tensor<2x1xi64>) -> tensor<1x1x?x?xf32> {
  // expected-error @+1 {{'ov.interpolate' op axes must be a 1D tensor, got rank 2}}
  %0 = ov.interpolate %x, %s, %a {mode = #ov<interpolate_mode nearest>, shape_calculation_mode = #ov<shape_calculation_mode sizes>} : (tensor<1x1x4x4xf32>, tensor<2xi64>, tensor<2x1xi64>) -> tensor<1x1x?x?xf32>
  func.return %0 : tensor<1x1x?x?xf32>
}

// -----

func.func @count(%x: tensor<1x1x4x4xf32>, %s: tensor<3xi64>, %a: tensor<2xi64>) -> tensor<1x1x?x?xf32> {
  // expected-error @+1 {{'ov.interpolate' op scales_or_sizes has 3 values but axes has 2, expected as many}}
  %0 = ov.interpolate %x, %s, %a {mode = #ov<interpolate_mode nearest>, shape_calculation_mode = #ov<shape_calculation_mode sizes>} : (tensor<1x1x4x4xf32>, tensor<3xi64>, tensor<2xi64>) -> tensor<1x1x?x?xf32>
  func.return %0 : tensor<1x1x?x?xf32>
}

// -----

func.func @count_no_axes(%x: tensor<1x1x4x4xf32>, %s: tensor<2xi64>) -> tensor<?x?x?x?xf32> {
  // expected-error @+1 {{'ov.interpolate' op without axes, scales_or_sizes must have one value per data axis (4), got 2}}
  %0 = ov.interpolate %x, %s {mode = #ov<interpolate_mode nearest>, shape_calculation_mode = #ov<shape_calculation_mode sizes>} : (tensor<1x1x4x4xf32>, tensor<2xi64>) -> tensor<?x?x?x?xf32>
  func.return %0 : tensor<?x?x?x?xf32>
}

// -----

func.func @negative_axis(%x: tensor<1x1x4x4xf32>, %s: tensor<2xi64>) -> tensor<1x1x?x?xf32> {
  %a = ov.constant dense<[2, -1]> : tensor<2xi64>
  // expected-error @+1 {{'ov.interpolate' op axis -1 is out of range for rank 4, expected [0, 3]}}
  %0 = ov.interpolate %x, %s, %a {mode = #ov<interpolate_mode nearest>, shape_calculation_mode = #ov<shape_calculation_mode sizes>} : (tensor<1x1x4x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1x?x?xf32>
  func.return %0 : tensor<1x1x?x?xf32>
}

// -----

func.func @duplicate_axes(%x: tensor<1x1x4x4xf32>, %s: tensor<2xi64>) -> tensor<1x1x?x?xf32> {
  %a = ov.constant dense<[3, 3]> : tensor<2xi64>
  // expected-error @+1 {{'ov.interpolate' op axes must be unique, got [3, 3]}}
  %0 = ov.interpolate %x, %s, %a {mode = #ov<interpolate_mode nearest>, shape_calculation_mode = #ov<shape_calculation_mode sizes>} : (tensor<1x1x4x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1x?x?xf32>
  func.return %0 : tensor<1x1x?x?xf32>
}

// -----

func.func @wrong_result(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x8x8xf32> {
  %s = ov.constant dense<[2.0, 1.5]> : tensor<2xf32>
  %a = ov.constant dense<[2, 3]> : tensor<2xi64>
  // expected-error @+1 {{'ov.interpolate' op inferred type(s) 'tensor<1x1x8x6xf32>' are incompatible with return type(s) of operation 'tensor<1x1x8x8xf32>'}}
  %0 = ov.interpolate %x, %s, %a {mode = #ov<interpolate_mode nearest>, shape_calculation_mode = #ov<shape_calculation_mode scales>} : (tensor<1x1x4x4xf32>, tensor<2xf32>, tensor<2xi64>) -> tensor<1x1x8x8xf32>
  func.return %0 : tensor<1x1x8x8xf32>
}
