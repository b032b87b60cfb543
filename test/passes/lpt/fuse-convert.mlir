// RUN: opt-tool %s -p test-lpt-fuse-convert | filecheck %s
// FuseConvertTransformation (fuse_convert.cpp).

builtin.module {
  // Multiply(Convert(x_u8), 0.25) -> a type-relaxed Multiply(x_u8, 0.25) -> f32.
  // CHECK-LABEL: func.func @multiply
  // CHECK-NOT:     ov.convert
  // CHECK:         %[[S:.*]] = ov.constant dense<2.500000e-01> : tensor<f32>
  // CHECK:         ov.multiply %x, %[[S]] {ov.name = "mul"} : (tensor<1x3x2x2xui8>, tensor<f32>) -> tensor<1x3x2x2xf32>
  func.func @multiply(%x: tensor<1x3x2x2xui8>) -> tensor<1x3x2x2xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x3x2x2xui8>) -> tensor<1x3x2x2xf32>
    %s = ov.constant dense<0.25> : tensor<f32>
    %y = ov.multiply %c, %s {ov.name = "mul"} : (tensor<1x3x2x2xf32>, tensor<f32>) -> tensor<1x3x2x2xf32>
    func.return %y : tensor<1x3x2x2xf32>
  }
  // Subtract by 128 (representable in u8): the Subtract reads x_u8.
  // CHECK-LABEL: func.func @subtract
  // CHECK-NOT:     ov.convert
  // CHECK:         %[[Z:.*]] = ov.constant dense<1.280000e+02> : tensor<f32>
  // CHECK:         ov.subtract %x, %[[Z]] : (tensor<1x3x2x2xui8>, tensor<f32>) -> tensor<1x3x2x2xf32>
  func.func @subtract(%x: tensor<1x3x2x2xui8>) -> tensor<1x3x2x2xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x3x2x2xui8>) -> tensor<1x3x2x2xf32>
    %z = ov.constant dense<128.0> : tensor<f32>
    %y = ov.subtract %c, %z : (tensor<1x3x2x2xf32>, tensor<f32>) -> tensor<1x3x2x2xf32>
    func.return %y : tensor<1x3x2x2xf32>
  }
  // A negative zero point on u8 data (checkConstantValuePrecision): unchanged.
  // CHECK-LABEL: func.func @negative_zero_point
  // CHECK:         %[[C:.*]] = ov.convert %x destination_type = f32
  // CHECK:         ov.subtract %[[C]], %{{.*}} : (tensor<1x3x2x2xf32>, tensor<f32>)
  func.func @negative_zero_point(%x: tensor<1x3x2x2xui8>) -> tensor<1x3x2x2xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x3x2x2xui8>) -> tensor<1x3x2x2xf32>
    %z = ov.constant dense<-1.0> : tensor<f32>
    %y = ov.subtract %c, %z : (tensor<1x3x2x2xf32>, tensor<f32>) -> tensor<1x3x2x2xf32>
    func.return %y : tensor<1x3x2x2xf32>
  }
  // Add(Convert(x_i8), -1) -> Add(x_i8, -1) -> f32.
  // CHECK-LABEL: func.func @signed_zero_point
  // CHECK-NOT:     ov.convert
  // CHECK:         ov.add %x, %{{.*}} : (tensor<1x3x2x2xi8>, tensor<f32>) -> tensor<1x3x2x2xf32>
  func.func @signed_zero_point(%x: tensor<1x3x2x2xi8>) -> tensor<1x3x2x2xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x3x2x2xi8>) -> tensor<1x3x2x2xf32>
    %z = ov.constant dense<-1.0> : tensor<f32>
    %y = ov.add %c, %z : (tensor<1x3x2x2xf32>, tensor<f32>) -> tensor<1x3x2x2xf32>
    func.return %y : tensor<1x3x2x2xf32>
  }
  // Convert(Constant i8 [1, 2, 3]) is folded to f32 [1, 2, 3].
  // CHECK-LABEL: func.func @constant
  // CHECK-NOT:     ov.convert
  // CHECK:         %[[C:.*]] = ov.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
  // CHECK:         ov.multiply %[[C]], %{{.*}} : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  func.func @constant(%x: tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32> {
    %w = ov.constant dense<[1, 2, 3]> : tensor<3xi8>
    %c = ov.convert %w destination_type = f32 : (tensor<3xi8>) -> tensor<3xf32>
    %s = ov.constant dense<0.5> : tensor<f32>
    %m = ov.multiply %c, %s : (tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
    %r = ov.constant dense<[1, 3, 1, 1]> : tensor<4xi64>
    %mr = ov.reshape %m, %r special_zero = false : (tensor<3xf32>, tensor<4xi64>) -> tensor<1x3x1x1xf32>
    %y = ov.add %x, %mr : (tensor<1x3x2x2xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x2x2xf32>
    func.return %y : tensor<1x3x2x2xf32>
  }
}
