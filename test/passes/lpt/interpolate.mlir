// RUN: opt-tool %s -p test-lpt-interpolate | filecheck %s
// InterpolateTransformation (interpolate.cpp): nearest mode, spatial axes only: the per-channel
// DQ moves unchanged, the output stays u8; linear mode is not transformed.

builtin.module {
  // CHECK-LABEL: func.func @nearest
  // CHECK-DAG:     %[[ZP:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}1.280000e+02]], {{\[}}{{\[}}1.270000e+02]], {{\[}}{{\[}}1.260000e+02]], {{\[}}{{\[}}1.250000e+02]]]]> : tensor<1x4x1x1xf32>
  // CHECK-DAG:     %[[S:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}1.000000e-02]], {{\[}}{{\[}}2.000000e-02]], {{\[}}{{\[}}3.000000e-02]], {{\[}}{{\[}}4.000000e-02]]]]> : tensor<1x4x1x1xf32>
  // CHECK:         %[[OP:.*]] = ov.interpolate %x, %sz, %ax {{.*}} : (tensor<1x4x4x4xui8>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x4x8x6xui8>
  // CHECK-NEXT:    %[[CV:.*]] = ov.convert %[[OP]] destination_type = f32
  // CHECK-NEXT:    %[[SUB:.*]] = ov.subtract %[[CV]], %[[ZP]]
  // CHECK-NEXT:    %[[Y:.*]] = ov.multiply %[[SUB]], %[[S]]
  // CHECK-NEXT:    func.return %[[Y]]
  func.func @nearest(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x4x8x6xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %zp = ov.constant dense<[[[[128.0]], [[127.0]], [[126.0]], [[125.0]]]]> : tensor<1x4x1x1xf32>
    %sb = ov.subtract %c, %zp : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<[[[[0.01]], [[0.02]], [[0.03]], [[0.04]]]]> : tensor<1x4x1x1xf32>
    %m = ov.multiply %sb, %s : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %sz = ov.constant dense<[8, 6]> : tensor<2xi64>
    %ax = ov.constant dense<[2, 3]> : tensor<2xi64>
    %y = ov.interpolate %m, %sz, %ax {mode = #ov<interpolate_mode nearest>, shape_calculation_mode = #ov<shape_calculation_mode sizes>} : (tensor<1x4x4x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x4x8x6xf32>
    func.return %y : tensor<1x4x8x6xf32>
  }

  // CHECK-LABEL: func.func @linear
  // CHECK:         ov.interpolate %m, %sz, %ax {{.*}} : (tensor<1x4x4x4xf32>
  func.func @linear(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x4x8x6xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<0.02> : tensor<f32>
    %m = ov.multiply %c, %s : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    %sz = ov.constant dense<[8, 6]> : tensor<2xi64>
    %ax = ov.constant dense<[2, 3]> : tensor<2xi64>
    %y = ov.interpolate %m, %sz, %ax {mode = #ov<interpolate_mode linear>, shape_calculation_mode = #ov<shape_calculation_mode sizes>} : (tensor<1x4x4x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x4x8x6xf32>
    func.return %y : tensor<1x4x8x6xf32>
  }
}
