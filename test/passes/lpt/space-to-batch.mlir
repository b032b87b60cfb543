// RUN: opt-tool %s -p test-lpt-space-to-batch | filecheck %s
// SpaceToBatchTransformation (space_to_batch.cpp): per-tensor DQ only; the output stays u8.
// With padding, a zero point is not moved (the u8 pads would dequantize to -zp * s, not 0).

builtin.module {
  // CHECK-LABEL: func.func @per_tensor
  // CHECK-DAG:     %[[S:.*]] = ov.constant dense<3.000000e-02> : tensor<f32>
  // CHECK:         %[[OP:.*]] = ov.space_to_batch %x, %b, %pb, %pe : (tensor<1x4x4x4xui8>, {{.*}}) -> tensor<4x4x2x3xui8>
  // CHECK-NEXT:    %[[CV:.*]] = ov.convert %[[OP]] destination_type = f32
  // CHECK-NEXT:    %[[Y:.*]] = ov.multiply %[[CV]], %[[S]]
  // CHECK-NEXT:    func.return %[[Y]]
  func.func @per_tensor(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<4x4x2x3xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<0.03> : tensor<f32>
    %m = ov.multiply %c, %s : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    %b = ov.constant dense<[1, 1, 2, 2]> : tensor<4xi64>
    %pb = ov.constant dense<[0, 0, 0, 2]> : tensor<4xi64>
    %pe = ov.constant dense<[0, 0, 0, 0]> : tensor<4xi64>
    %y = ov.space_to_batch %m, %b, %pb, %pe : (tensor<1x4x4x4xf32>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<4x4x2x3xf32>
    func.return %y : tensor<4x4x2x3xf32>
  }

  // CHECK-LABEL: func.func @padded_zero_point
  // CHECK:         ov.space_to_batch %m, {{.*}} : (tensor<1x4x4x4xf32>
  func.func @padded_zero_point(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<4x4x2x3xf32> {ov.name = "r0"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %zp = ov.constant dense<128.0> : tensor<f32>
    %sb = ov.subtract %c, %zp : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<0.02> : tensor<f32>
    %m = ov.multiply %sb, %s : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    %b = ov.constant dense<[1, 1, 2, 2]> : tensor<4xi64>
    %pb = ov.constant dense<[0, 0, 0, 2]> : tensor<4xi64>
    %pe = ov.constant dense<[0, 0, 0, 0]> : tensor<4xi64>
    %y = ov.space_to_batch %m, %b, %pb, %pe : (tensor<1x4x4x4xf32>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<4x4x2x3xf32>
    func.return %y : tensor<4x4x2x3xf32>
  }
}
