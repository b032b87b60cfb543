// Read by verify-diagnostics.mlir: no expected-* comment and nothing wrong.

func.func @clean(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = ov.relu %x : (tensor<3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}
