// RUN: opt-tool %s -p test-lpt-fold-fake-quantize | filecheck %s
// FoldFakeQuantizeTransformation (fold_fake_quantize.cpp).

builtin.module {
  // [0.1, 0.5, 2, -1] quantized on [0, 1] -> [0, 255] with 256 levels: 25.5 and 127.5 round
  // half to even (26, 128), 2 clamps to 255, -1 to 0.
  // CHECK-LABEL: func.func @constant_path
  // CHECK:         ov.constant dense<[2.600000e+01, 1.280000e+02, 2.550000e+02, 0.000000e+00]> : tensor<4xf32> {ov.name = "w"}
  // CHECK-NOT:     ov.fake_quantize
  func.func @constant_path() -> tensor<4xf32> {
    %x = ov.constant dense<[0.1, 0.5, 2.0, -1.0]> : tensor<4xf32>
    %lo = ov.constant dense<0.0> : tensor<f32>
    %hi = ov.constant dense<1.0> : tensor<f32>
    %ol = ov.constant dense<0.0> : tensor<f32>
    %oh = ov.constant dense<255.0> : tensor<f32>
    %q = ov.fake_quantize %x, %lo, %hi, %ol, %oh levels = 256 {ov.name = "w"} : (tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
    func.return %q : tensor<4xf32>
  }
  // An integral result type: foldFakeQuantize rounds half to even before the Convert. A
  // 255-level u8 FakeQuantize on [0, 255] has levels k * 255 / 254: 1.0039, 127.5, 253.996, 255
  // -> 1, 128, 254, 255 (truncation would give 1, 127, 253, 255).
  // CHECK-LABEL: func.func @integer_result_rounds
  // CHECK:         ov.constant dense<[1, 128, 254, 255]> : tensor<4xui8> {ov.name = "w"}
  // CHECK-NOT:     ov.fake_quantize
  func.func @integer_result_rounds() -> tensor<4xui8> {
    %x = ov.constant dense<[0.01, 1.27, 2.53, 2.54]> : tensor<4xf32>
    %lo = ov.constant dense<0.0> : tensor<f32>
    %hi = ov.constant dense<2.54> : tensor<f32>
    %ol = ov.constant dense<0.0> : tensor<f32>
    %oh = ov.constant dense<255.0> : tensor<f32>
    %q = ov.fake_quantize %x, %lo, %hi, %ol, %oh levels = 255 {ov.name = "w"} : (tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xui8>
    func.return %q : tensor<4xui8>
  }
  // output_low == output_high == 3: a constant of the output shape.
  // CHECK-LABEL: func.func @constant_output
  // CHECK:         %[[C:.*]] = ov.constant dense<3.000000e+00> : tensor<1x3x2x2xf32>
  // CHECK:         ov.relu %[[C]]
  func.func @constant_output(%x: tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32> {
    %lo = ov.constant dense<0.0> : tensor<f32>
    %hi = ov.constant dense<1.0> : tensor<f32>
    %o = ov.constant dense<3.0> : tensor<f32>
    %q = ov.fake_quantize %x, %lo, %hi, %o, %o levels = 256 : (tensor<1x3x2x2xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x2x2xf32>
    %r = ov.relu %q : (tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
    func.return %r : tensor<1x3x2x2xf32>
  }
  // CHECK-LABEL: func.func @activation
  // CHECK:         ov.fake_quantize %x
  func.func @activation(%x: tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32> {
    %lo = ov.constant dense<0.0> : tensor<f32>
    %hi = ov.constant dense<1.0> : tensor<f32>
    %q = ov.fake_quantize %x, %lo, %hi, %lo, %hi levels = 256 : (tensor<1x3x2x2xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x2x2xf32>
    %r = ov.relu %q : (tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
    func.return %r : tensor<1x3x2x2xf32>
  }
}
