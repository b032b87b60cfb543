// RUN: opt-tool %s -p test-lpt-batch-to-space | filecheck %s
// BatchToSpaceTransformation (batch_to_space.cpp): per-tensor DQ only (a Multiply is not
// required); the output stays u8.

builtin.module {
  // CHECK-LABEL: func.func @per_tensor
  // CHECK-DAG:     %[[ZP:.*]] = ov.constant dense<1.280000e+02> : tensor<f32>
  // CHECK-DAG:     %[[S:.*]] = ov.constant dense<2.000000e-02> : tensor<f32>
  // CHECK:         %[[OP:.*]] = ov.batch_to_space %x, %b, %cb, %ce : (tensor<1x4x4x4xui8>, {{.*}}) -> tensor<1x4x3x3xui8>
  // CHECK-NEXT:    %[[CV:.*]] = ov.convert %[[OP]] destination_type = f32
  // CHECK-NEXT:    %[[SUB:.*]] = ov.subtract %[[CV]], %[[ZP]]
  // CHECK-NEXT:    %[[Y:.*]] = ov.multiply %[[SUB]], %[[S]]
  // CHECK-NEXT:    func.return %[[Y]]
  func.func @per_tensor(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x4x3x3xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %zp = ov.constant dense<128.0> : tensor<f32>
    %sb = ov.subtract %c, %zp : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<0.02> : tensor<f32>
    %m = ov.multiply %sb, %s : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    %b = ov.constant dense<[1, 1, 1, 1]> : tensor<4xi64>
    %cb = ov.constant dense<[0, 0, 0, 1]> : tensor<4xi64>
    %ce = ov.constant dense<[0, 0, 1, 0]> : tensor<4xi64>
    %y = ov.batch_to_space %m, %b, %cb, %ce : (tensor<1x4x4x4xf32>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<1x4x3x3xf32>
    func.return %y : tensor<1x4x3x3xf32>
  }

  // CHECK-LABEL: func.func @subtract_only
  // CHECK-DAG:     %[[ZP:.*]] = ov.constant dense<1.000000e+02> : tensor<f32>
  // CHECK:         %[[OP:.*]] = ov.batch_to_space %x, %b, %cb, %ce : (tensor<2x4x2x4xui8>, {{.*}}) -> tensor<1x4x4x4xui8>
  // CHECK-NEXT:    %[[CV:.*]] = ov.convert %[[OP]] destination_type = f32
  // CHECK-NEXT:    %[[Y:.*]] = ov.subtract %[[CV]], %[[ZP]]
  // CHECK-NEXT:    func.return %[[Y]]
  func.func @subtract_only(%x: tensor<2x4x2x4xui8> {ov.name = "x"}) -> (tensor<1x4x4x4xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<2x4x2x4xui8>) -> tensor<2x4x2x4xf32>
    %zp = ov.constant dense<100.0> : tensor<f32>
    %m = ov.subtract %c, %zp : (tensor<2x4x2x4xf32>, tensor<f32>) -> tensor<2x4x2x4xf32>
    %b = ov.constant dense<[1, 1, 2, 1]> : tensor<4xi64>
    %cb = ov.constant dense<[0, 0, 0, 0]> : tensor<4xi64>
    %ce = ov.constant dense<[0, 0, 0, 0]> : tensor<4xi64>
    %y = ov.batch_to_space %m, %b, %cb, %ce : (tensor<2x4x2x4xf32>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<1x4x4x4xf32>
    func.return %y : tensor<1x4x4x4xf32>
  }

  // CHECK-LABEL: func.func @per_channel
  // CHECK:         ov.batch_to_space %m, {{.*}} : (tensor<1x4x4x4xf32>
  func.func @per_channel(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x4x3x3xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<[[[[0.01]], [[0.02]], [[0.03]], [[0.04]]]]> : tensor<1x4x1x1xf32>
    %m = ov.multiply %c, %s : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %b = ov.constant dense<[1, 1, 1, 1]> : tensor<4xi64>
    %cb = ov.constant dense<[0, 0, 0, 1]> : tensor<4xi64>
    %ce = ov.constant dense<[0, 0, 1, 0]> : tensor<4xi64>
    %y = ov.batch_to_space %m, %b, %cb, %ce : (tensor<1x4x4x4xf32>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<1x4x3x3xf32>
    func.return %y : tensor<1x4x3x3xf32>
  }
}
