// Outputs whose every value is tiny print in scientific notation (fixed notation printed the
// ~1e-9 outputs of a quantized mobilenet_v3_small as rows of 0.); the others stay fixed.
// RUN: lowpass-run %s --random-inputs 0 | filecheck %s

// CHECK:      tiny: f32[1, 3]
// CHECK-NEXT: {{\[\[}} 1.257302e-10 -1.321049e-10  6.404226e-10]]
// CHECK-NEXT: plain: f32[1, 3]
// CHECK-NEXT: {{\[\[}} 0.012573 -0.01321   0.064042]]
func.func @main(%x: tensor<1x3xf32> {ov.name = "x"}) -> (tensor<1x3xf32> {ov.name = "tiny"}, tensor<1x3xf32> {ov.name = "plain"}) {
  %s = ov.constant dense<1.0e-09> : tensor<f32>
  %t = ov.multiply %x, %s : (tensor<1x3xf32>, tensor<f32>) -> tensor<1x3xf32>
  %h = ov.constant dense<0.1> : tensor<f32>
  %p = ov.multiply %x, %h : (tensor<1x3xf32>, tensor<f32>) -> tensor<1x3xf32>
  func.return %t, %p : tensor<1x3xf32>, tensor<1x3xf32>
}
