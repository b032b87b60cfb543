// RUN: opt-tool %s --split-input-file --verify-diagnostics

// zero_step
func.func @zero_step(%x: tensor<4x6xf32>) {
  %c = ov.constant dense<1> : tensor<1xi64>
  %s = ov.constant dense<0> : tensor<1xi64>
  // expected-error @+1 {{'ov.slice' op step must not contain 0, got [0]}}
  %y = ov.slice %x, %c, %c, %s : (tensor<4x6xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<0x6xf32>
  func.return
}

// -----

// lengths
func.func @lengths(%x: tensor<4x6xf32>, %a: tensor<1xi64>, %b: tensor<2xi64>) {
  // expected-error @+1 {{'ov.slice' op start, stop, step must have the same length, got 1, 2, 1}}
  %y = ov.slice %x, %a, %b, %a : (tensor<4x6xf32>, tensor<1xi64>, tensor<2xi64>, tensor<1xi64>) -> tensor<?x?xf32>
  func.return
}

// -----

// repeated_axis
func.func @repeated_axis(%x: tensor<4x6xf32>, %a: tensor<2xi64>) {
  %axes = ov.constant dense<[1, -1]> : tensor<2xi64>
  // expected-error @+1 {{'ov.slice' op axes must name each axis at most once, got [1, -1]}}
  %y = ov.slice %x, %a, %a, %a, %axes : (tensor<4x6xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x?xf32>
  func.return
}

// -----

// float_start
func.func @float_start(%x: tensor<4x6xf32>, %a: tensor<1xi64>, %f: tensor<1xf32>) {
  // expected-error @+1 {{'ov.slice' op start must have element type i32 or i64, got f32}}
  %y = ov.slice %x, %f, %a, %a : (tensor<4x6xf32>, tensor<1xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x6xf32>
  func.return
}
