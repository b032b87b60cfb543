// RUN: opt-tool %s -p test-lpt-gather | filecheck %s
// GatherTransformation (gather.cpp): gathering channels [3, 0, -1] gathers the per-channel
// constants too; gathering a spatial axis with 2-D indices keeps them per channel, at the
// output rank; gathering channels with 2-D indices is not supported (upstream: 0-D/1-D only).

builtin.module {
  // CHECK-LABEL: func.func @channels
  // CHECK-DAG:     %[[ZP:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}1.250000e+02]], {{\[}}{{\[}}1.280000e+02]], {{\[}}{{\[}}1.250000e+02]]]]> : tensor<1x3x1x1xf32>
  // CHECK-DAG:     %[[S:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}4.000000e-02]], {{\[}}{{\[}}1.000000e-02]], {{\[}}{{\[}}4.000000e-02]]]]> : tensor<1x3x1x1xf32>
  // CHECK:         %[[OP:.*]] = ov.gather %x, %i, %a : (tensor<1x4x4x4xui8>, tensor<3xi64>, tensor<i64>) -> tensor<1x3x4x4xui8>
  // CHECK-NEXT:    %[[CV:.*]] = ov.convert %[[OP]] destination_type = f32
  // CHECK-NEXT:    %[[SUB:.*]] = ov.subtract %[[CV]], %[[ZP]]
  // CHECK-NEXT:    %[[Y:.*]] = ov.multiply %[[SUB]], %[[S]]
  // CHECK-NEXT:    func.return %[[Y]]
  func.func @channels(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x3x4x4xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %zp = ov.constant dense<[[[[128.0]], [[127.0]], [[126.0]], [[125.0]]]]> : tensor<1x4x1x1xf32>
    %sb = ov.subtract %c, %zp : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<[[[[0.01]], [[0.02]], [[0.03]], [[0.04]]]]> : tensor<1x4x1x1xf32>
    %m = ov.multiply %sb, %s : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %i = ov.constant dense<[3, 0, -1]> : tensor<3xi64>
    %a = ov.constant dense<1> : tensor<i64>
    %y = ov.gather %m, %i, %a : (tensor<1x4x4x4xf32>, tensor<3xi64>, tensor<i64>) -> tensor<1x3x4x4xf32>
    func.return %y : tensor<1x3x4x4xf32>
  }

  // CHECK-LABEL: func.func @spatial_2d_indices
  // CHECK-DAG:     %[[ZP:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}{{\[}}1.280000e+02]]], {{\[}}{{\[}}{{\[}}1.270000e+02]]], {{\[}}{{\[}}{{\[}}1.260000e+02]]], {{\[}}{{\[}}{{\[}}1.250000e+02]]]]]> : tensor<1x4x1x1x1xf32>
  // CHECK-DAG:     %[[S:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}{{\[}}1.000000e-02]]], {{\[}}{{\[}}{{\[}}2.000000e-02]]], {{\[}}{{\[}}{{\[}}3.000000e-02]]], {{\[}}{{\[}}{{\[}}4.000000e-02]]]]]> : tensor<1x4x1x1x1xf32>
  // CHECK:         %[[OP:.*]] = ov.gather %x, %i, %a : (tensor<1x4x4x4xui8>, tensor<2x2xi64>, tensor<i64>) -> tensor<1x4x4x2x2xui8>
  // CHECK-NEXT:    %[[CV:.*]] = ov.convert %[[OP]] destination_type = f32
  // CHECK-NEXT:    %[[SUB:.*]] = ov.subtract %[[CV]], %[[ZP]]
  // CHECK-NEXT:    %[[Y:.*]] = ov.multiply %[[SUB]], %[[S]]
  // CHECK-NEXT:    func.return %[[Y]]
  func.func @spatial_2d_indices(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x4x4x2x2xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %zp = ov.constant dense<[[[[128.0]], [[127.0]], [[126.0]], [[125.0]]]]> : tensor<1x4x1x1xf32>
    %sb = ov.subtract %c, %zp : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<[[[[0.01]], [[0.02]], [[0.03]], [[0.04]]]]> : tensor<1x4x1x1xf32>
    %m = ov.multiply %sb, %s : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %i = ov.constant dense<[[0, 1], [3, 3]]> : tensor<2x2xi64>
    %a = ov.constant dense<3> : tensor<i64>
    %y = ov.gather %m, %i, %a : (tensor<1x4x4x4xf32>, tensor<2x2xi64>, tensor<i64>) -> tensor<1x4x4x2x2xf32>
    func.return %y : tensor<1x4x4x2x2xf32>
  }

  // CHECK-LABEL: func.func @channels_2d_indices
  // CHECK:         ov.gather %m, %i, %a : (tensor<1x4x4x4xf32>
  func.func @channels_2d_indices(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x1x2x4x4xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<[[[[0.01]], [[0.02]], [[0.03]], [[0.04]]]]> : tensor<1x4x1x1xf32>
    %m = ov.multiply %c, %s : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %i = ov.constant dense<[[0, 1]]> : tensor<1x2xi64>
    %a = ov.constant dense<1> : tensor<i64>
    %y = ov.gather %m, %i, %a : (tensor<1x4x4x4xf32>, tensor<1x2xi64>, tensor<i64>) -> tensor<1x1x2x4x4xf32>
    func.return %y : tensor<1x1x2x4x4xf32>
  }
}
