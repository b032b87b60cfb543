// Read by verify-diagnostics.mlir: each chunk's expectations are wrong.

func.func @wrong_message(%x: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  // the message differs: the expected error is not produced and the real one is unexpected
  // expected-error @below {{this is not the message}}
  %0 = ov.add %x, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @never(%x: tensor<3xf32>) -> tensor<3xf32> {
  // nothing is wrong here
  // expected-warning @+1 {{never given}}
  func.return %x : tensor<3xf32>
}

// -----

func.func @not_expected(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = ov.addd %x, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
