// RUN: opt-tool %s -p 'test-lpt-multiply-to-group-convolution{cpu-callbacks=false}' | filecheck %s
// RUN: opt-tool %s -p test-lpt-multiply-to-group-convolution | filecheck %s --check-prefix=DEFAULT
// MultiplyToGroupConvolutionTransformation (multiply_to_group_convolution.cpp).

builtin.module {
  // (x_u8 - [1, 2, 3]) * [0.5, 0.25, 2] -> GroupConvolution(x_u8, identity i8 weights, 3 groups)
  // + [-1, -2, -3] -> Multiply([0.5, 0.25, 2]). The CPU callbacks disable it (DEFAULT).
  // CHECK-LABEL: func.func @dequantization
  // CHECK:         %[[K:.*]] = ov.constant dense<{{\[\[\[\[}}5.000000e-01]], {{\[\[}}2.500000e-01]], {{\[\[}}2.000000e+00]]]]> : tensor<1x3x1x1xf32>
  // CHECK:         %[[W:.*]] = ov.constant dense<1> : tensor<3x1x1x1x1xi8>
  // CHECK:         %[[G:.*]] = ov.group_convolution %x, %[[W]] {ov.name = "dq/GroupConvolution"{{.*}}} : (tensor<1x3x2x2xui8>, tensor<3x1x1x1x1xi8>) -> tensor<1x3x2x2xf32>
  // CHECK:         %[[Z:.*]] = ov.constant dense<{{\[\[\[\[}}-1.000000e+00]], {{\[\[}}-2.000000e+00]], {{\[\[}}-3.000000e+00]]]]> : tensor<1x3x1x1xf32>
  // CHECK:         %[[A:.*]] = ov.add %[[G]], %[[Z]]
  // CHECK:         ov.multiply %[[A]], %[[K]] {ov.name = "dq"}
  // DEFAULT-LABEL: func.func @dequantization
  // DEFAULT-NOT:   ov.group_convolution
  func.func @dequantization(%x: tensor<1x3x2x2xui8>) -> tensor<1x3x2x2xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x3x2x2xui8>) -> tensor<1x3x2x2xf32>
    %z = ov.constant dense<[[[[1.0]], [[2.0]], [[3.0]]]]> : tensor<1x3x1x1xf32>
    %s = ov.subtract %c, %z : (tensor<1x3x2x2xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x2x2xf32>
    %k = ov.constant dense<[[[[0.5]], [[0.25]], [[2.0]]]]> : tensor<1x3x1x1xf32>
    %m = ov.multiply %s, %k {ov.name = "dq"} : (tensor<1x3x2x2xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x2x2xf32>
    %r = ov.sigmoid %m : (tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
    func.return %r : tensor<1x3x2x2xf32>
  }
  // i8 data is not allowed by the CPU GroupConvolution restriction on 4-D inputs ([u8]).
  // CHECK-LABEL: func.func @signed
  // CHECK-NOT:     ov.group_convolution
  // CHECK:         ov.multiply
  func.func @signed(%x: tensor<1x3x2x2xi8>) -> tensor<1x3x2x2xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x3x2x2xi8>) -> tensor<1x3x2x2xf32>
    %k = ov.constant dense<0.5> : tensor<f32>
    %m = ov.multiply %c, %k : (tensor<1x3x2x2xf32>, tensor<f32>) -> tensor<1x3x2x2xf32>
    %r = ov.sigmoid %m : (tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
    func.return %r : tensor<1x3x2x2xf32>
  }
}
