// RUN: opt-tool %s -p test-lpt-max-pool | filecheck %s
// MaxPoolTransformation (max_pool.cpp): the DQ (per-channel zero point and scales) moves after
// the MaxPool, which now runs on u8; a negative scale (it would swap max and min) or a DQ
// without Multiply (the pattern is MaxPool(Multiply)) is not moved.

builtin.module {
  // CHECK-LABEL: func.func @per_channel
  // CHECK-DAG:     %[[ZP:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}1.280000e+02]], {{\[}}{{\[}}1.270000e+02]], {{\[}}{{\[}}1.260000e+02]], {{\[}}{{\[}}1.250000e+02]]]]> : tensor<1x4x1x1xf32>
  // CHECK-DAG:     %[[S:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}1.000000e-02]], {{\[}}{{\[}}2.000000e-02]], {{\[}}{{\[}}3.000000e-02]], {{\[}}{{\[}}4.000000e-02]]]]> : tensor<1x4x1x1xf32>
  // CHECK:         %[[OP:.*]] = ov.max_pool %x {{.*}} : (tensor<1x4x4x4xui8>) -> tensor<1x4x2x2xui8>
  // CHECK-NEXT:    %[[CV:.*]] = ov.convert %[[OP]] destination_type = f32
  // CHECK-NEXT:    %[[SUB:.*]] = ov.subtract %[[CV]], %[[ZP]]
  // CHECK-NEXT:    %[[Y:.*]] = ov.multiply %[[SUB]], %[[S]] : {{.*}} -> tensor<1x4x2x2xf32>
  // CHECK-NEXT:    func.return %[[Y]]
  func.func @per_channel(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x4x2x2xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %zp = ov.constant dense<[[[[128.0]], [[127.0]], [[126.0]], [[125.0]]]]> : tensor<1x4x1x1xf32>
    %sb = ov.subtract %c, %zp : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<[[[[0.01]], [[0.02]], [[0.03]], [[0.04]]]]> : tensor<1x4x1x1xf32>
    %m = ov.multiply %sb, %s : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %y = ov.max_pool %m {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>} : (tensor<1x4x4x4xf32>) -> tensor<1x4x2x2xf32>
    func.return %y : tensor<1x4x2x2xf32>
  }

  // CHECK-LABEL: func.func @negative_scale
  // CHECK:         ov.max_pool %m {{.*}} : (tensor<1x4x4x4xf32>)
  func.func @negative_scale(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x4x2x2xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<-0.02> : tensor<f32>
    %m = ov.multiply %c, %s : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    %y = ov.max_pool %m {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>} : (tensor<1x4x4x4xf32>) -> tensor<1x4x2x2xf32>
    func.return %y : tensor<1x4x2x2xf32>
  }

  // CHECK-LABEL: func.func @subtract_only
  // CHECK:         ov.max_pool %m {{.*}} : (tensor<1x4x4x4xf32>)
  func.func @subtract_only(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x4x2x2xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %zp = ov.constant dense<128.0> : tensor<f32>
    %m = ov.subtract %c, %zp : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    %y = ov.max_pool %m {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>} : (tensor<1x4x4x4xf32>) -> tensor<1x4x2x2xf32>
    func.return %y : tensor<1x4x2x2xf32>
  }
}
