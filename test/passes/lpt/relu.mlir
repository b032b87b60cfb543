// RUN: opt-tool %s -p test-lpt-relu | filecheck %s
// ReluTransformation (relu.cpp): a DQ without zero point and with non-negative scales moves
// after the Relu (u8 -> u8); with a Subtract it is not moved.

builtin.module {
  // CHECK-LABEL: func.func @scales
  // CHECK-DAG:     %[[S:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}1.000000e-02]], {{\[}}{{\[}}2.000000e-02]], {{\[}}{{\[}}3.000000e-02]], {{\[}}{{\[}}4.000000e-02]]]]> : tensor<1x4x1x1xf32>
  // CHECK:         %[[OP:.*]] = ov.relu %x : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xui8>
  // CHECK-NEXT:    %[[CV:.*]] = ov.convert %[[OP]] destination_type = f32
  // CHECK-NEXT:    %[[Y:.*]] = ov.multiply %[[CV]], %[[S]]
  // CHECK-NEXT:    func.return %[[Y]]
  func.func @scales(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x4x4x4xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<[[[[0.01]], [[0.02]], [[0.03]], [[0.04]]]]> : tensor<1x4x1x1xf32>
    %m = ov.multiply %c, %s : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %y = ov.relu %m : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    func.return %y : tensor<1x4x4x4xf32>
  }

  // CHECK-LABEL: func.func @with_subtract
  // CHECK:         ov.relu %m : (tensor<1x4x4x4xf32>)
  func.func @with_subtract(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x4x4x4xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %zp = ov.constant dense<128.0> : tensor<f32>
    %sb = ov.subtract %c, %zp : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<0.02> : tensor<f32>
    %m = ov.multiply %sb, %s : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    %y = ov.relu %m : (tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    func.return %y : tensor<1x4x4x4xf32>
  }
}
