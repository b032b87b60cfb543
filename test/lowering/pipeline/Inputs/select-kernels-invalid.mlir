// (read by select-kernels.mlir: an algorithm that does not exist is a parse error)
builtin.module {
  func.func @main(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
    %y = ov.relu %x {cpu.algorithm = #cpu<algorithm fft>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
    func.return %y : tensor<1x2x4x4xf32>
  }
}
