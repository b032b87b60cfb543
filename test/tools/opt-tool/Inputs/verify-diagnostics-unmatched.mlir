// Read by verify-diagnostics.mlir: a valid module whose expected error never comes.

func.func @fine(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{operands are not broadcast-compatible}}
  func.return %x : tensor<3xf32>
}
