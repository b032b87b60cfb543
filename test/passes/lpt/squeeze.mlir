// RUN: opt-tool %s -p test-lpt-squeeze | filecheck %s
// SqueezeTransformation (squeeze.cpp): the constants are squeezed like the data ([1,4,1,1] ->
// [4,1,1] for axis 0); a scalar-like [1,1,1,1] constant becomes [1,1,1] (the output rank).

builtin.module {
  // CHECK-LABEL: func.func @per_channel
  // CHECK-DAG:     %[[ZP:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}1.280000e+02]], {{\[}}{{\[}}1.270000e+02]], {{\[}}{{\[}}1.260000e+02]], {{\[}}{{\[}}1.250000e+02]]]> : tensor<4x1x1xf32>
  // CHECK-DAG:     %[[S:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}1.000000e-02]], {{\[}}{{\[}}2.000000e-02]], {{\[}}{{\[}}3.000000e-02]], {{\[}}{{\[}}4.000000e-02]]]> : tensor<4x1x1xf32>
  // CHECK:         %[[OP:.*]] = ov.squeeze %x, %a : (tensor<1x4x4x4xui8>, tensor<1xi64>) -> tensor<4x4x4xui8>
  // CHECK-NEXT:    %[[CV:.*]] = ov.convert %[[OP]] destination_type = f32
  // CHECK-NEXT:    %[[SUB:.*]] = ov.subtract %[[CV]], %[[ZP]]
  // CHECK-NEXT:    %[[Y:.*]] = ov.multiply %[[SUB]], %[[S]]
  // CHECK-NEXT:    func.return %[[Y]]
  func.func @per_channel(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<4x4x4xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %zp = ov.constant dense<[[[[128.0]], [[127.0]], [[126.0]], [[125.0]]]]> : tensor<1x4x1x1xf32>
    %sb = ov.subtract %c, %zp : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<[[[[0.01]], [[0.02]], [[0.03]], [[0.04]]]]> : tensor<1x4x1x1xf32>
    %m = ov.multiply %sb, %s : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %a = ov.constant dense<[0]> : tensor<1xi64>
    %y = ov.squeeze %m, %a : (tensor<1x4x4x4xf32>, tensor<1xi64>) -> tensor<4x4x4xf32>
    func.return %y : tensor<4x4x4xf32>
  }

  // CHECK-LABEL: func.func @scalar_like
  // CHECK-DAG:     %[[ZP:.*]] = ov.constant dense<1.280000e+02> : tensor<1x1x1xf32>
  // CHECK-DAG:     %[[S:.*]] = ov.constant dense<2.000000e-02> : tensor<1x1x1xf32>
  // CHECK:         %[[OP:.*]] = ov.squeeze %x, %a : (tensor<1x4x4x4xui8>, tensor<1xi64>) -> tensor<4x4x4xui8>
  // CHECK-NEXT:    %[[CV:.*]] = ov.convert %[[OP]] destination_type = f32
  // CHECK-NEXT:    %[[SUB:.*]] = ov.subtract %[[CV]], %[[ZP]]
  // CHECK-NEXT:    %[[Y:.*]] = ov.multiply %[[SUB]], %[[S]] : {{.*}} -> tensor<4x4x4xf32>
  // CHECK-NEXT:    func.return %[[Y]]
  func.func @scalar_like(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<4x4x4xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %zp = ov.constant dense<[[[[128.0]]]]> : tensor<1x1x1x1xf32>
    %sb = ov.subtract %c, %zp : (tensor<1x4x4x4xf32>, tensor<1x1x1x1xf32>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<[[[[0.02]]]]> : tensor<1x1x1x1xf32>
    %m = ov.multiply %sb, %s : (tensor<1x4x4x4xf32>, tensor<1x1x1x1xf32>) -> tensor<1x4x4x4xf32>
    %a = ov.constant dense<[0]> : tensor<1xi64>
    %y = ov.squeeze %m, %a : (tensor<1x4x4x4xf32>, tensor<1xi64>) -> tensor<4x4x4xf32>
    func.return %y : tensor<4x4x4xf32>
  }
}
