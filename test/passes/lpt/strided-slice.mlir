// RUN: opt-tool %s -p test-lpt-strided-slice | filecheck %s
// StridedSliceTransformation (strided_slice.cpp): the per-channel constants are sliced like the
// data (channels 1:4:2 -> [1, 3]); a shrunk channel axis leaves scalars.

builtin.module {
  // CHECK-LABEL: func.func @channels_strided
  // CHECK-DAG:     %[[ZP:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}1.270000e+02]], {{\[}}{{\[}}1.250000e+02]]]]> : tensor<1x2x1x1xf32>
  // CHECK-DAG:     %[[S:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}2.000000e-02]], {{\[}}{{\[}}4.000000e-02]]]]> : tensor<1x2x1x1xf32>
  // CHECK:         %[[OP:.*]] = ov.strided_slice %x, %b, %e, %st : (tensor<1x4x4x4xui8>, {{.*}}) -> tensor<1x2x4x3xui8>
  // CHECK-NEXT:    %[[CV:.*]] = ov.convert %[[OP]] destination_type = f32
  // CHECK-NEXT:    %[[SUB:.*]] = ov.subtract %[[CV]], %[[ZP]]
  // CHECK-NEXT:    %[[Y:.*]] = ov.multiply %[[SUB]], %[[S]]
  // CHECK-NEXT:    func.return %[[Y]]
  func.func @channels_strided(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x2x4x3xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %zp = ov.constant dense<[[[[128.0]], [[127.0]], [[126.0]], [[125.0]]]]> : tensor<1x4x1x1xf32>
    %sb = ov.subtract %c, %zp : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<[[[[0.01]], [[0.02]], [[0.03]], [[0.04]]]]> : tensor<1x4x1x1xf32>
    %m = ov.multiply %sb, %s : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %b = ov.constant dense<[0, 1, 0, 0]> : tensor<4xi64>
    %e = ov.constant dense<[1, 4, 4, 3]> : tensor<4xi64>
    %st = ov.constant dense<[1, 2, 1, 1]> : tensor<4xi64>
    %y = ov.strided_slice %m, %b, %e, %st : (tensor<1x4x4x4xf32>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<1x2x4x3xf32>
    func.return %y : tensor<1x2x4x3xf32>
  }

  // CHECK-LABEL: func.func @channel_shrunk
  // CHECK-DAG:     %[[ZP:.*]] = ov.constant dense<1.260000e+02> : tensor<f32>
  // CHECK-DAG:     %[[S:.*]] = ov.constant dense<3.000000e-02> : tensor<f32>
  // CHECK:         %[[OP:.*]] = ov.strided_slice %x, %b, %e {{.*}} : (tensor<1x4x4x4xui8>, {{.*}}) -> tensor<1x4x4xui8>
  // CHECK-NEXT:    %[[CV:.*]] = ov.convert %[[OP]] destination_type = f32
  // CHECK-NEXT:    %[[SUB:.*]] = ov.subtract %[[CV]], %[[ZP]]
  // CHECK-NEXT:    %[[Y:.*]] = ov.multiply %[[SUB]], %[[S]]
  // CHECK-NEXT:    func.return %[[Y]]
  func.func @channel_shrunk(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x4x4xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %zp = ov.constant dense<[[[[128.0]], [[127.0]], [[126.0]], [[125.0]]]]> : tensor<1x4x1x1xf32>
    %sb = ov.subtract %c, %zp : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<[[[[0.01]], [[0.02]], [[0.03]], [[0.04]]]]> : tensor<1x4x1x1xf32>
    %m = ov.multiply %sb, %s : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %b = ov.constant dense<[0, 2]> : tensor<2xi64>
    %e = ov.constant dense<[1, 3]> : tensor<2xi64>
    %y = ov.strided_slice %m, %b, %e {shrink_axis_mask = array<i64: 0, 1>} : (tensor<1x4x4x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x4x4xf32>
    func.return %y : tensor<1x4x4xf32>
  }
}
