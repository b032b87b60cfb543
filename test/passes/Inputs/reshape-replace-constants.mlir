// Read by reshape.mlir (FIX): replace-constants="seq/shape:-1x16" fixes the first case; the
// second has no constant of that name: its shape constants are listed.

func.func @hard_coded(%x: tensor<2x1x16xf32> {ov.name = "X"}) -> tensor<2x16xf32> {
  %s = ov.constant dense<[2, 16]> : tensor<2xi64> {ov.name = "seq/shape"}
  %y = ov.reshape %x, %s special_zero = false {ov.name = "seq/squeeze"} : (tensor<2x1x16xf32>, tensor<2xi64>) -> tensor<2x16xf32>
  %r = ov.relu %y : (tensor<2x16xf32>) -> tensor<2x16xf32>
  func.return %r : tensor<2x16xf32>
}

// -----

// expected-error @+1 {{'func.func' op @convnet: replace-constants: the model has no ov.constant named 'seq/shape' (its named integer constants of rank 0 or 1 are 'flatten/shape')}}
func.func @convnet(%x: tensor<2x1x16xf32> {ov.name = "X"}) -> (tensor<2x10xf32> {ov.name = "prob"}) {
  %w = ov.constant dense<0.5> : tensor<4x1x3xf32>
  %c = ov.convolution %x, %w {strides = array<i64: 1>, pads_begin = array<i64: 0>, pads_end = array<i64: 0>, dilations = array<i64: 1>, ov.name = "conv"} : (tensor<2x1x16xf32>, tensor<4x1x3xf32>) -> tensor<2x4x14xf32>
  %s = ov.constant dense<[0, -1]> : tensor<2xi64> {ov.name = "flatten/shape"}
  %f = ov.reshape %c, %s special_zero = true {ov.name = "flatten"} : (tensor<2x4x14xf32>, tensor<2xi64>) -> tensor<2x56xf32>
  %m = ov.constant dense<0.125> : tensor<56x10xf32>
  %fc = ov.mat_mul %f, %m {ov.name = "fc"} : (tensor<2x56xf32>, tensor<56x10xf32>) -> tensor<2x10xf32>
  %b = ov.constant dense<1.0> : tensor<10xf32>
  %a = ov.add %fc, %b : (tensor<2x10xf32>, tensor<10xf32>) -> tensor<2x10xf32>
  %p = ov.softmax %a axis = 1 {ov.name = "prob"} : (tensor<2x10xf32>) -> tensor<2x10xf32>
  func.return %p : tensor<2x10xf32>
}
