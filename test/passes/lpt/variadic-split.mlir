// RUN: opt-tool %s -p test-lpt-variadic-split | filecheck %s
// VariadicSplitTransformation (variadic_split.cpp): lengths [1, -1] along the channels: the
// scales split into a scalar (one channel) and [1, 3, 1, 1]; the scalar zero point is copied.

builtin.module {
  // CHECK-LABEL: func.func @channels
  // CHECK:         %[[OUT0:[^ ,]+]], %[[OUT1:[^ ,]+]] = ov.variadic_split %x, %a, %l : (tensor<1x4x4x4xui8>, tensor<i64>, tensor<2xi64>) -> (tensor<1x1x4x4xui8>, tensor<1x3x4x4xui8>)
  // CHECK-NEXT:    %[[CV0:.*]] = ov.convert %[[OUT0]] destination_type = f32
  // CHECK-NEXT:    %[[ZP0:.*]] = ov.constant dense<1.280000e+02> : tensor<f32>
  // CHECK-NEXT:    %[[SUB0:.*]] = ov.subtract %[[CV0]], %[[ZP0]]
  // CHECK-NEXT:    %[[S0:.*]] = ov.constant dense<1.000000e-02> : tensor<f32>
  // CHECK-NEXT:    %[[Y0:.*]] = ov.multiply %[[SUB0]], %[[S0]] : {{.*}} -> tensor<1x1x4x4xf32>
  // CHECK-NEXT:    %[[CV1:.*]] = ov.convert %[[OUT1]] destination_type = f32
  // CHECK-NEXT:    %[[ZP1:.*]] = ov.constant dense<1.280000e+02> : tensor<f32>
  // CHECK-NEXT:    %[[SUB1:.*]] = ov.subtract %[[CV1]], %[[ZP1]]
  // CHECK-NEXT:    %[[S1:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}2.000000e-02]], {{\[}}{{\[}}3.000000e-02]], {{\[}}{{\[}}4.000000e-02]]]]> : tensor<1x3x1x1xf32>
  // CHECK-NEXT:    %[[Y1:.*]] = ov.multiply %[[SUB1]], %[[S1]] : {{.*}} -> tensor<1x3x4x4xf32>
  // CHECK-NEXT:    func.return %[[Y0]], %[[Y1]]
  func.func @channels(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x1x4x4xf32> {ov.name = "r0"}, tensor<1x3x4x4xf32> {ov.name = "r1"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %zp = ov.constant dense<128.0> : tensor<f32>
    %sb = ov.subtract %c, %zp : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<[[[[0.01]], [[0.02]], [[0.03]], [[0.04]]]]> : tensor<1x4x1x1xf32>
    %m = ov.multiply %sb, %s : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %a = ov.constant dense<1> : tensor<i64>
    %l = ov.constant dense<[1, -1]> : tensor<2xi64>
    %y0, %y1 = ov.variadic_split %m, %a, %l : (tensor<1x4x4x4xf32>, tensor<i64>, tensor<2xi64>) -> (tensor<1x1x4x4xf32>, tensor<1x3x4x4xf32>)
    func.return %y0, %y1 : tensor<1x1x4x4xf32>, tensor<1x3x4x4xf32>
  }
}
