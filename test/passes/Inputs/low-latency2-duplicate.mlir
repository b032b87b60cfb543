// Two sequences with the same friendly name would give the same variable id.
func.func @main(%x: tensor<1x3x3xf32>, %h: tensor<1x1x4xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>, %b: tensor<1x4xf32>) -> (tensor<1x1x4xf32>, tensor<1x1x4xf32>) {
  %len = ov.constant dense<[3]> : tensor<1xi64>
  %y, %ho = ov.rnn_sequence %x, %h, %len, %w, %r, %b {ov.name = "rnn", hidden_size = 4 : i64, direction = #ov<direction forward>} : (tensor<1x3x3xf32>, tensor<1x1x4xf32>, tensor<1xi64>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, tensor<1x4xf32>) -> (tensor<1x1x3x4xf32>, tensor<1x1x4xf32>)
  %y2, %ho2 = ov.rnn_sequence %x, %h, %len, %w, %r, %b {ov.name = "rnn", hidden_size = 4 : i64, direction = #ov<direction forward>} : (tensor<1x3x3xf32>, tensor<1x1x4xf32>, tensor<1xi64>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, tensor<1x4xf32>) -> (tensor<1x1x3x4xf32>, tensor<1x1x4xf32>)
  func.return %ho, %ho2 : tensor<1x1x4xf32>, tensor<1x1x4xf32>
}
