// RUN: opt-tool %s -p test-lpt-clamp | filecheck %s
// ClampTransformation (clamp.cpp): the bounds move into the integer domain (min / s + zp,
// max / s + zp, in double: 1.5 / 0.02f + 128 = 203.0000016...; swapped for s < 0); the Clamp
// takes u8 and outputs f32, the Subtract/Multiply follow without Convert. Per-channel scales
// are not supported.

builtin.module {
  // CHECK-LABEL: func.func @scalar
  // CHECK-DAG:     %[[ZP:.*]] = ov.constant dense<1.280000e+02> : tensor<f32>
  // CHECK-DAG:     %[[S:.*]] = ov.constant dense<2.000000e-02> : tensor<f32>
  // CHECK:         %[[OP:.*]] = ov.clamp %x min = 1.280000e+02 max = 203.0000016{{[0-9]*}} : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
  // CHECK-NEXT:    %[[SUB:.*]] = ov.subtract %[[OP]], %[[ZP]]
  // CHECK-NEXT:    %[[Y:.*]] = ov.multiply %[[SUB]], %[[S]]
  // CHECK-NEXT:    func.return %[[Y]]
  func.func @scalar(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x4x4x4xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %zp = ov.constant dense<128.0> : tensor<f32>
    %sb = ov.subtract %c, %zp : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<0.02> : tensor<f32>
    %m = ov.multiply %sb, %s : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    %y = ov.clamp %m min = 0.0 max = 1.5 : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    func.return %y : tensor<1x4x4x4xf32>
  }

  // [-1, 0.5] with s = -0.02, zp = 100: [0.5 / -0.02 + 100, -1 / -0.02 + 100]
  // CHECK-LABEL: func.func @negative_scale
  // CHECK-DAG:     %[[ZP:.*]] = ov.constant dense<1.000000e+02> : tensor<f32>
  // CHECK-DAG:     %[[S:.*]] = ov.constant dense<-2.000000e-02> : tensor<f32>
  // CHECK:         %[[OP:.*]] = ov.clamp %x min = 74.99999{{[0-9]*}} max = 150.0000{{[0-9]*}} : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
  // CHECK-NEXT:    %[[SUB:.*]] = ov.subtract %[[OP]], %[[ZP]]
  // CHECK-NEXT:    %[[Y:.*]] = ov.multiply %[[SUB]], %[[S]]
  // CHECK-NEXT:    func.return %[[Y]]
  func.func @negative_scale(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x4x4x4xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %zp = ov.constant dense<100.0> : tensor<f32>
    %sb = ov.subtract %c, %zp : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<-0.02> : tensor<f32>
    %m = ov.multiply %sb, %s : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    %y = ov.clamp %m min = -1.0 max = 0.5 : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    func.return %y : tensor<1x4x4x4xf32>
  }

  // CHECK-LABEL: func.func @per_channel
  // CHECK:         ov.clamp %m min = 0.000000e+00 max = 1.500000e+00 : (tensor<1x4x4x4xf32>)
  func.func @per_channel(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x4x4x4xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<[[[[0.01]], [[0.02]], [[0.03]], [[0.04]]]]> : tensor<1x4x1x1xf32>
    %m = ov.multiply %c, %s : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %y = ov.clamp %m min = 0.0 max = 1.5 : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    func.return %y : tensor<1x4x4x4xf32>
  }
}
