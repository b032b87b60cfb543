// RUN: opt-tool %s -p test-lpt-transpose | filecheck %s
// TransposeTransformation (transpose.cpp): order [0, 1, 3, 2] keeps the channel dim, so a
// per-channel DQ moves; its constants are transposed the same way (still [1, 4, 1, 1]).

builtin.module {
  // CHECK-LABEL: func.func @spatial_swap
  // CHECK-DAG:     %[[ZP:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}1.280000e+02]], {{\[}}{{\[}}1.270000e+02]], {{\[}}{{\[}}1.260000e+02]], {{\[}}{{\[}}1.250000e+02]]]]> : tensor<1x4x1x1xf32>
  // CHECK-DAG:     %[[S:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}1.000000e-02]], {{\[}}{{\[}}2.000000e-02]], {{\[}}{{\[}}3.000000e-02]], {{\[}}{{\[}}4.000000e-02]]]]> : tensor<1x4x1x1xf32>
  // CHECK:         %[[OP:.*]] = ov.transpose %x, %o : (tensor<1x4x4x4xui8>, tensor<4xi64>) -> tensor<1x4x4x4xui8>
  // CHECK-NEXT:    %[[CV:.*]] = ov.convert %[[OP]] destination_type = f32
  // CHECK-NEXT:    %[[SUB:.*]] = ov.subtract %[[CV]], %[[ZP]]
  // CHECK-NEXT:    %[[Y:.*]] = ov.multiply %[[SUB]], %[[S]]
  // CHECK-NEXT:    func.return %[[Y]]
  func.func @spatial_swap(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x4x4x4xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %zp = ov.constant dense<[[[[128.0]], [[127.0]], [[126.0]], [[125.0]]]]> : tensor<1x4x1x1xf32>
    %sb = ov.subtract %c, %zp : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<[[[[0.01]], [[0.02]], [[0.03]], [[0.04]]]]> : tensor<1x4x1x1xf32>
    %m = ov.multiply %sb, %s : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %o = ov.constant dense<[0, 1, 3, 2]> : tensor<4xi64>
    %y = ov.transpose %m, %o : (tensor<1x4x4x4xf32>, tensor<4xi64>) -> tensor<1x4x4x4xf32>
    func.return %y : tensor<1x4x4x4xf32>
  }
}
