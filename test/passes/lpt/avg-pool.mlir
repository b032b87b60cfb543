// RUN: opt-tool %s -p test-lpt-avg-pool | filecheck %s
// AvgPoolTransformation (avg_pool.cpp, spec 5.5 and 4.5): an AvgPool feeding only a Result is
// not precision preserved: it takes the u8 data, outputs f32, and the Subtract/Multiply follow
// without a Convert. Feeding a quantized Convolution it is precision preserved (markup):
// u8 -> u8, then Convert -> Subtract -> Multiply.

builtin.module {
  // CHECK-LABEL: func.func @not_precision_preserved
  // CHECK-DAG:     %[[ZP:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}1.280000e+02]], {{\[}}{{\[}}1.270000e+02]], {{\[}}{{\[}}1.260000e+02]], {{\[}}{{\[}}1.250000e+02]]]]> : tensor<1x4x1x1xf32>
  // CHECK-DAG:     %[[S:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}1.000000e-02]], {{\[}}{{\[}}2.000000e-02]], {{\[}}{{\[}}3.000000e-02]], {{\[}}{{\[}}4.000000e-02]]]]> : tensor<1x4x1x1xf32>
  // CHECK:         %[[OP:.*]] = ov.avg_pool %x {{.*}} : (tensor<1x4x4x4xui8>) -> tensor<1x4x2x2xf32>
  // CHECK-NEXT:    %[[SUB:.*]] = ov.subtract %[[OP]], %[[ZP]]
  // CHECK-NEXT:    %[[Y:.*]] = ov.multiply %[[SUB]], %[[S]]
  // CHECK-NEXT:    func.return %[[Y]]
  func.func @not_precision_preserved(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x4x2x2xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %zp = ov.constant dense<[[[[128.0]], [[127.0]], [[126.0]], [[125.0]]]]> : tensor<1x4x1x1xf32>
    %sb = ov.subtract %c, %zp : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<[[[[0.01]], [[0.02]], [[0.03]], [[0.04]]]]> : tensor<1x4x1x1xf32>
    %m = ov.multiply %sb, %s : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %y = ov.avg_pool %m {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>, exclude_pad = true} : (tensor<1x4x4x4xf32>) -> tensor<1x4x2x2xf32>
    func.return %y : tensor<1x4x2x2xf32>
  }

  // CHECK-LABEL: func.func @precision_preserved
  // CHECK-DAG:     %[[ZP:.*]] = ov.constant dense<1.280000e+02> : tensor<f32>
  // CHECK-DAG:     %[[S:.*]] = ov.constant dense<2.000000e-02> : tensor<f32>
  // CHECK:         %[[OP:.*]] = ov.avg_pool %x {{.*}} : (tensor<1x4x4x4xui8>) -> tensor<1x4x2x2xui8>
  // CHECK-NEXT:    %[[CV:.*]] = ov.convert %[[OP]] destination_type = f32
  // CHECK-NEXT:    %[[SUB:.*]] = ov.subtract %[[CV]], %[[ZP]]
  // CHECK-NEXT:    %[[Y:.*]] = ov.multiply %[[SUB]], %[[S]]
  // CHECK:         ov.convolution %[[Y]]
  func.func @precision_preserved(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x4x2x2xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %zp = ov.constant dense<128.0> : tensor<f32>
    %sb = ov.subtract %c, %zp : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<0.02> : tensor<f32>
    %m = ov.multiply %sb, %s : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    %y = ov.avg_pool %m {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>, exclude_pad = true} : (tensor<1x4x4x4xf32>) -> tensor<1x4x2x2xf32>
    %w = ov.constant dense<[[[[1]], [[0]], [[0]], [[0]]], [[[0]], [[1]], [[0]], [[0]]], [[[0]], [[0]], [[1]], [[0]]], [[[0]], [[0]], [[0]], [[1]]]]> : tensor<4x4x1x1xi8>
    %wc = ov.convert %w destination_type = f32 : (tensor<4x4x1x1xi8>) -> tensor<4x4x1x1xf32>
    %ws = ov.constant dense<0.5> : tensor<f32>
    %wm = ov.multiply %wc, %ws : (tensor<4x4x1x1xf32>, tensor<f32>) -> tensor<4x4x1x1xf32>
    %z = ov.convolution %y, %wm {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x2x2xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x2x2xf32>
    func.return %z : tensor<1x4x2x2xf32>
  }
}
