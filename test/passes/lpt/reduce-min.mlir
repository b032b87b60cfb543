// RUN: opt-tool %s -p test-lpt-reduce-min | filecheck %s
// ReduceMinTransformation (reduce_min.cpp): reducing axes 0 and 2 leaves the per-channel
// constants as [4, 1]; the output stays u8.

builtin.module {
  // CHECK-LABEL: func.func @batch_and_height
  // CHECK-DAG:     %[[ZP:.*]] = ov.constant dense<{{\[}}{{\[}}1.280000e+02], {{\[}}1.270000e+02], {{\[}}1.260000e+02], {{\[}}1.250000e+02]]> : tensor<4x1xf32>
  // CHECK-DAG:     %[[S:.*]] = ov.constant dense<{{\[}}{{\[}}1.000000e-02], {{\[}}2.000000e-02], {{\[}}3.000000e-02], {{\[}}4.000000e-02]]> : tensor<4x1xf32>
  // CHECK:         %[[OP:.*]] = ov.reduce_min %x, %a : (tensor<1x4x4x4xui8>, tensor<2xi64>) -> tensor<4x4xui8>
  // CHECK-NEXT:    %[[CV:.*]] = ov.convert %[[OP]] destination_type = f32
  // CHECK-NEXT:    %[[SUB:.*]] = ov.subtract %[[CV]], %[[ZP]]
  // CHECK-NEXT:    %[[Y:.*]] = ov.multiply %[[SUB]], %[[S]]
  // CHECK-NEXT:    func.return %[[Y]]
  func.func @batch_and_height(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<4x4xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %zp = ov.constant dense<[[[[128.0]], [[127.0]], [[126.0]], [[125.0]]]]> : tensor<1x4x1x1xf32>
    %sb = ov.subtract %c, %zp : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<[[[[0.01]], [[0.02]], [[0.03]], [[0.04]]]]> : tensor<1x4x1x1xf32>
    %m = ov.multiply %sb, %s : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %a = ov.constant dense<[0, 2]> : tensor<2xi64>
    %y = ov.reduce_min %m, %a : (tensor<1x4x4x4xf32>, tensor<2xi64>) -> tensor<4x4xf32>
    func.return %y : tensor<4x4xf32>
  }
}
