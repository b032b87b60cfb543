// RUN: opt-tool %s -p test-lpt-reshape | filecheck %s
// ReshapeTransformation (reshape.cpp, spec 5.5): [1,4,4,4] -> [1,4,16] keeps the channel dim;
// the per-channel constants are rebuilt as [1, C, 1] for the output rank.

builtin.module {
  // CHECK-LABEL: func.func @merge_spatial
  // CHECK-DAG:     %[[ZP:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}1.280000e+02], {{\[}}1.270000e+02], {{\[}}1.260000e+02], {{\[}}1.250000e+02]]]> : tensor<1x4x1xf32>
  // CHECK-DAG:     %[[S:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}1.000000e-02], {{\[}}2.000000e-02], {{\[}}3.000000e-02], {{\[}}4.000000e-02]]]> : tensor<1x4x1xf32>
  // CHECK:         %[[OP:.*]] = ov.reshape %x, %sh special_zero = false : (tensor<1x4x4x4xui8>, tensor<3xi64>) -> tensor<1x4x16xui8>
  // CHECK-NEXT:    %[[CV:.*]] = ov.convert %[[OP]] destination_type = f32
  // CHECK-NEXT:    %[[SUB:.*]] = ov.subtract %[[CV]], %[[ZP]]
  // CHECK-NEXT:    %[[Y:.*]] = ov.multiply %[[SUB]], %[[S]]
  // CHECK-NEXT:    func.return %[[Y]]
  func.func @merge_spatial(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x4x16xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %zp = ov.constant dense<[[[[128.0]], [[127.0]], [[126.0]], [[125.0]]]]> : tensor<1x4x1x1xf32>
    %sb = ov.subtract %c, %zp : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<[[[[0.01]], [[0.02]], [[0.03]], [[0.04]]]]> : tensor<1x4x1x1xf32>
    %m = ov.multiply %sb, %s : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %sh = ov.constant dense<[1, 4, 16]> : tensor<3xi64>
    %y = ov.reshape %m, %sh special_zero = false : (tensor<1x4x4x4xf32>, tensor<3xi64>) -> tensor<1x4x16xf32>
    func.return %y : tensor<1x4x16xf32>
  }
}
