// RUN: opt-tool %s -p test-lpt-reduce-sum | filecheck %s
// ReduceSumTransformation (reduce_sum.cpp): the zero point is multiplied by the number of reduced
// elements (128*16 = 2048, 127*16 = 2032, 126*16 = 2016); the DQ moves after the reduction, which outputs f32.

builtin.module {
  // CHECK-LABEL: func.func @spatial
  // CHECK-DAG:     %[[ZP:.*]] = ov.constant dense<{{\[\[}}2.048000e+03, 2.032000e+03, 2.016000e+03]]> : tensor<1x3xf32>
  // CHECK-DAG:     %[[S:.*]] = ov.constant dense<{{\[\[}}2.000000e-02, 3.000000e-02, 4.000000e-02]]> : tensor<1x3xf32>
  // CHECK:         %[[R:.*]] = ov.reduce_sum %x, %ax : (tensor<1x3x4x4xui8>, tensor<2xi64>) -> tensor<1x3xf32>
  // CHECK:         %[[SUB:.*]] = ov.subtract %[[R]], %[[ZP]]
  // CHECK:         ov.multiply %[[SUB]], %[[S]] : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
  func.func @spatial(%x: tensor<1x3x4x4xui8>) -> tensor<1x3xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32>
    %zp = ov.constant dense<[[[[128.0]], [[127.0]], [[126.0]]]]> : tensor<1x3x1x1xf32>
    %sb = ov.subtract %c, %zp : (tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x4x4xf32>
    %s = ov.constant dense<[[[[0.02]], [[0.03]], [[0.04]]]]> : tensor<1x3x1x1xf32>
    %m = ov.multiply %sb, %s : (tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x4x4xf32>
    %ax = ov.constant dense<[2, 3]> : tensor<2xi64>
    %y = ov.reduce_sum %m, %ax : (tensor<1x3x4x4xf32>, tensor<2xi64>) -> tensor<1x3xf32>
    func.return %y : tensor<1x3xf32>
  }

  // per-channel scales and the channel axis reduced: unchanged
  // CHECK-LABEL: func.func @over_channels
  // CHECK:         ov.reduce_sum %m, %ax : (tensor<1x3x4x4xf32>, tensor<1xi64>) -> tensor<1x4x4xf32>
  func.func @over_channels(%x: tensor<1x3x4x4xui8>) -> tensor<1x4x4xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32>
    %s = ov.constant dense<[[[[0.02]], [[0.03]], [[0.04]]]]> : tensor<1x3x1x1xf32>
    %m = ov.multiply %c, %s : (tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x4x4xf32>
    %ax = ov.constant dense<[1]> : tensor<1xi64>
    %y = ov.reduce_sum %m, %ax : (tensor<1x3x4x4xf32>, tensor<1xi64>) -> tensor<1x4x4xf32>
    func.return %y : tensor<1x4x4xf32>
  }
}
