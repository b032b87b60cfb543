// RUN: opt-tool %s --split-input-file --verify-diagnostics

func.func @unsupported_destination(%x: tensor<3xf32>) -> tensor<3xi16> {
  // expected-error @+1 {{'ov.convert' op result #0 has unsupported element type i16, expected one of f32, f16, i64, i32, i8, ui8, i1}}
  %0 = ov.convert %x destination_type = i16 : (tensor<3xf32>) -> tensor<3xi16>
  func.return %0 : tensor<3xi16>
}

// -----

func.func @unsupported_destination_only(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'ov.convert' op destination_type must be one of f32, f16, i64, i32, i8, ui8, i1, got f64}}
  %0 = ov.convert %x destination_type = f64 : (tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @result_type_mismatch(%x: tensor<3xf32>) -> tensor<3xi64> {
  // expected-error @+1 {{'ov.convert' op inferred type(s) 'tensor<3xi32>' are incompatible with return type(s) of operation 'tensor<3xi64>'}}
  %0 = ov.convert %x destination_type = i32 : (tensor<3xf32>) -> tensor<3xi64>
  func.return %0 : tensor<3xi64>
}
