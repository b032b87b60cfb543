func.func @a() {
  func.return
}

// -----

func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  cf.br ^bb7
^bb1:
  func.return %x : tensor<2xf32>
}
