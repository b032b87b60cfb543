builtin.module {
  func.func @main(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
    %y = ov.relu %x {ov.name = "relu"} : (tensor<?x3xf32>) -> tensor<?x3xf32>
    func.return %y : tensor<?x3xf32>
  }
}
