// RUN: opt-tool %s -p test-lpt-depth-to-space | filecheck %s
// DepthToSpaceTransformation (depth_to_space.cpp): scalar-like constants only (a [1,4,1,1]
// zero point with equal values becomes a scalar); per-channel scales are not moved.

builtin.module {
  // CHECK-LABEL: func.func @scalar_like
  // CHECK-DAG:     %[[ZP:.*]] = ov.constant dense<1.280000e+02> : tensor<f32>
  // CHECK-DAG:     %[[S:.*]] = ov.constant dense<2.000000e-02> : tensor<f32>
  // CHECK:         %[[OP:.*]] = ov.depth_to_space %x mode = blocks_first block_size = 2 : (tensor<1x4x4x4xui8>) -> tensor<1x1x8x8xui8>
  // CHECK-NEXT:    %[[CV:.*]] = ov.convert %[[OP]] destination_type = f32
  // CHECK-NEXT:    %[[SUB:.*]] = ov.subtract %[[CV]], %[[ZP]]
  // CHECK-NEXT:    %[[Y:.*]] = ov.multiply %[[SUB]], %[[S]]
  // CHECK-NEXT:    func.return %[[Y]]
  func.func @scalar_like(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x1x8x8xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %zp = ov.constant dense<[[[[128.0]], [[128.0]], [[128.0]], [[128.0]]]]> : tensor<1x4x1x1xf32>
    %sb = ov.subtract %c, %zp : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<0.02> : tensor<f32>
    %m = ov.multiply %sb, %s : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    %y = ov.depth_to_space %m mode = blocks_first block_size = 2 : (tensor<1x4x4x4xf32>) -> tensor<1x1x8x8xf32>
    func.return %y : tensor<1x1x8x8xf32>
  }

  // CHECK-LABEL: func.func @per_channel
  // CHECK:         ov.depth_to_space %m mode = depth_first block_size = 2 : (tensor<1x4x4x4xf32>)
  func.func @per_channel(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x1x8x8xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<[[[[0.01]], [[0.02]], [[0.03]], [[0.04]]]]> : tensor<1x4x1x1xf32>
    %m = ov.multiply %c, %s : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %y = ov.depth_to_space %m mode = depth_first block_size = 2 : (tensor<1x4x4x4xf32>) -> tensor<1x1x8x8xf32>
    func.return %y : tensor<1x1x8x8xf32>
  }
}
