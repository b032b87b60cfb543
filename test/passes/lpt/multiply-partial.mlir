// RUN: opt-tool %s -p test-lpt-multiply-partial | filecheck %s
// MultiplyPartialTransformation (multiply_partial.cpp):
// Y = (SC1*(X1-SH1)) * (SC2*X2) = ((X1-SH1) * (SC1*SC2)) * X2

builtin.module {
  // SC1 = 0.02 with SH1 = 10 (full path), SC2 = 0.5 (i8 empty path): scale 0.02*0.5 = 0.01
  // CHECK-LABEL: func.func @two_branches
  // CHECK:         %[[C:.*]] = ov.convert %a destination_type = f32
  // CHECK:         %[[SH:.*]] = ov.constant dense<1.000000e+01> : tensor<f32>
  // CHECK:         %[[SUB:.*]] = ov.subtract %[[C]], %[[SH]]
  // CHECK:         %[[S:.*]] = ov.constant dense<1.000000e-02> : tensor<f32>
  // CHECK:         %[[M:.*]] = ov.multiply %[[SUB]], %[[S]]
  // CHECK:         ov.multiply %[[M]], %b {ov.name = "prod"} : (tensor<1x3x4x4xf32>, tensor<1x3x4x4xi8>) -> tensor<1x3x4x4xf32>
  func.func @two_branches(%a: tensor<1x3x4x4xui8>, %b: tensor<1x3x4x4xi8>) -> tensor<1x3x4x4xf32> {
    %ca = ov.convert %a destination_type = f32 : (tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32>
    %sha = ov.constant dense<10.0> : tensor<f32>
    %sa = ov.subtract %ca, %sha : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    %sca = ov.constant dense<0.02> : tensor<f32>
    %ma = ov.multiply %sa, %sca : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    %cb = ov.convert %b destination_type = f32 : (tensor<1x3x4x4xi8>) -> tensor<1x3x4x4xf32>
    %scb = ov.constant dense<0.5> : tensor<f32>
    %mb = ov.multiply %cb, %scb : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    %y = ov.multiply %ma, %mb {ov.name = "prod"} : (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
    func.return %y : tensor<1x3x4x4xf32>
  }

  // an empty path with a zero point cannot be consumed raw: unchanged
  // CHECK-LABEL: func.func @zero_point_on_both
  // CHECK:         %[[MA:.*]] = ov.multiply %{{.*}}, %sca
  // CHECK:         %[[MB:.*]] = ov.multiply %{{.*}}, %scb
  // CHECK:         ov.multiply %[[MA]], %[[MB]]
  func.func @zero_point_on_both(%a: tensor<1x3x4x4xui8>, %b: tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32> {
    %ca = ov.convert %a destination_type = f32 : (tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32>
    %sha = ov.constant dense<10.0> : tensor<f32>
    %sa = ov.subtract %ca, %sha : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    %sca = ov.constant dense<0.02> : tensor<f32>
    %ma = ov.multiply %sa, %sca : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    %cb = ov.convert %b destination_type = f32 : (tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32>
    %shb = ov.constant dense<3.0> : tensor<f32>
    %sb = ov.subtract %cb, %shb : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    %scb = ov.constant dense<0.5> : tensor<f32>
    %mb = ov.multiply %sb, %scb : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    %y = ov.multiply %ma, %mb : (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
    func.return %y : tensor<1x3x4x4xf32>
  }

  // a constant branch: (x*0.5)*3 -> x*1.5
  // CHECK-LABEL: func.func @constant_branch
  // CHECK:         %[[C:.*]] = ov.convert %x destination_type = f32
  // CHECK:         %[[S:.*]] = ov.constant dense<1.500000e+00> : tensor<f32>
  // CHECK:         ov.multiply %[[C]], %[[S]]
  // CHECK-NEXT:    func.return
  func.func @constant_branch(%x: tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32>
    %s = ov.constant dense<0.5> : tensor<f32>
    %m = ov.multiply %c, %s : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    %k = ov.constant dense<3.0> : tensor<f32>
    %y = ov.multiply %m, %k : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    func.return %y : tensor<1x3x4x4xf32>
  }
}
