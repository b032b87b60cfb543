// A Keras LSTM function without tf.time_major: TensorFlow Lite erases the body, then fails
// without a message; here it is an error, and nothing changes.
func.func @no_time_major(%arg0: tensor<3x2x4xf32>, %arg1: tensor<2x1xf32>, %arg2: tensor<2x1xf32>, %arg3: tensor<4x4xf32>, %arg4: tensor<1x4xf32>, %arg5: tensor<4xf32>) -> (tensor<2x1xf32>, tensor<3x2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_b4e9f0e7", tf.go_backwards = false} {
  %0:5 = "tf.Add"(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5) : (tensor<3x2x4xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<4x4xf32>, tensor<1x4xf32>, tensor<4xf32>) -> (tensor<2x1xf32>, tensor<3x2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<f32>)
  func.return %0#0, %0#1, %0#2, %0#3, %0#4 : tensor<2x1xf32>, tensor<3x2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<f32>
}
