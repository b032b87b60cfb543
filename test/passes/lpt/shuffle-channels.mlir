// RUN: opt-tool %s -p test-lpt-shuffle-channels | filecheck %s
// ShuffleChannelsTransformation (shuffle_channels.cpp): per-channel constants are shuffled like
// the data (group 2: channels [0, 2, 1, 3]).

builtin.module {
  // CHECK-LABEL: func.func @per_channel
  // CHECK-DAG:     %[[ZP:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}1.280000e+02]], {{\[}}{{\[}}1.260000e+02]], {{\[}}{{\[}}1.270000e+02]], {{\[}}{{\[}}1.250000e+02]]]]> : tensor<1x4x1x1xf32>
  // CHECK-DAG:     %[[S:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}1.000000e-02]], {{\[}}{{\[}}3.000000e-02]], {{\[}}{{\[}}2.000000e-02]], {{\[}}{{\[}}4.000000e-02]]]]> : tensor<1x4x1x1xf32>
  // CHECK:         %[[OP:.*]] = ov.shuffle_channels %x group = 2 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xui8>
  // CHECK-NEXT:    %[[CV:.*]] = ov.convert %[[OP]] destination_type = f32
  // CHECK-NEXT:    %[[SUB:.*]] = ov.subtract %[[CV]], %[[ZP]]
  // CHECK-NEXT:    %[[Y:.*]] = ov.multiply %[[SUB]], %[[S]]
  // CHECK-NEXT:    func.return %[[Y]]
  func.func @per_channel(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x4x4x4xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %zp = ov.constant dense<[[[[128.0]], [[127.0]], [[126.0]], [[125.0]]]]> : tensor<1x4x1x1xf32>
    %sb = ov.subtract %c, %zp : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<[[[[0.01]], [[0.02]], [[0.03]], [[0.04]]]]> : tensor<1x4x1x1xf32>
    %m = ov.multiply %sb, %s : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %y = ov.shuffle_channels %m axis = 1 group = 2 : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    func.return %y : tensor<1x4x4x4xf32>
  }
}
