func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c = ov.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %a = ov.add %x, %x : (tensor<3xf32>, tensor<3xf32>) -> 
}
