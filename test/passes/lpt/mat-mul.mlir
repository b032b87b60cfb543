// RUN: opt-tool %s -p test-lpt-mat-mul | filecheck %s
// MatMulTransformation (mat_mul.cpp): A's DQ and B's (folded FQ or DQ) scales move after the
// MatMul as one Multiply(s_a * s_b); A's zero point moves as zp_a x B when B is constant.

builtin.module {
  // FQ weights [-3.84, 3.81] / 256 -> i8, scale 0.03; activations scale 0.02 -> 0.02*0.03 = 0.0006
  // CHECK-LABEL: func.func @fq_weights
  // CHECK-NOT:     ov.fake_quantize
  // CHECK:         %[[W:.*]] = ov.constant dense<{{\[}}[3, -7, 10], [17, 7, -33]]> : tensor<2x3xi8>
  // CHECK:         %[[MM:.*]] = ov.mat_mul %x, %[[W]] {ov.name = "mm_original"} : (tensor<1x4x2xui8>, tensor<2x3xi8>) -> tensor<1x4x3xf32>
  // CHECK:         %[[S:.*]] = ov.constant dense<0.00059999997> : tensor<f32>
  // CHECK:         %{{.*}} = ov.multiply %[[MM]], %[[S]] {ov.name = "mm"} : (tensor<1x4x3xf32>, tensor<f32>) -> tensor<1x4x3xf32>
  func.func @fq_weights(%x: tensor<1x4x2xui8>) -> tensor<1x4x3xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x2xui8>) -> tensor<1x4x2xf32>
    %s = ov.constant dense<0.02> : tensor<f32>
    %a = ov.multiply %c, %s : (tensor<1x4x2xf32>, tensor<f32>) -> tensor<1x4x2xf32>
    %w = ov.constant dense<[[0.1, -0.2, 0.3], [0.5, 0.2, -1.0]]> : tensor<2x3xf32>
    %wl = ov.constant dense<-3.84> : tensor<f32>
    %wh = ov.constant dense<3.81> : tensor<f32>
    %wfq = ov.fake_quantize %w, %wl, %wh, %wl, %wh levels = 256 : (tensor<2x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
    %y = ov.mat_mul %a, %wfq {ov.name = "mm"} : (tensor<1x4x2xf32>, tensor<2x3xf32>) -> tensor<1x4x3xf32>
    func.return %y : tensor<1x4x3xf32>
  }

  // A zero point 128 with constant B: Subtract(128 x B) = [1152, 1536] after the MatMul;
  // per-column B scales [0.5, 0.25] -> [0.01, 0.005]
  // CHECK-LABEL: func.func @zero_point
  // CHECK:         %[[MM:.*]] = ov.mat_mul %x, %w : (tensor<1x3xui8>, tensor<3x2xi8>) -> tensor<1x2xf32>
  // CHECK:         %[[ZP:.*]] = ov.constant dense<{{\[}}[1.152000e+03, 1.536000e+03]]> : tensor<1x2xf32>
  // CHECK:         %[[SUB:.*]] = ov.subtract %[[MM]], %[[ZP]]
  // CHECK:         %[[S:.*]] = ov.constant dense<{{\[}}[1.000000e-02, 5.000000e-03]]> : tensor<1x2xf32>
  // CHECK:         ov.multiply %[[SUB]], %[[S]] : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
  func.func @zero_point(%x: tensor<1x3xui8>) -> tensor<1x2xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x3xui8>) -> tensor<1x3xf32>
    %zp = ov.constant dense<128.0> : tensor<f32>
    %sub = ov.subtract %c, %zp : (tensor<1x3xf32>, tensor<f32>) -> tensor<1x3xf32>
    %s = ov.constant dense<0.02> : tensor<f32>
    %a = ov.multiply %sub, %s : (tensor<1x3xf32>, tensor<f32>) -> tensor<1x3xf32>
    %w = ov.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi8>
    %wc = ov.convert %w destination_type = f32 : (tensor<3x2xi8>) -> tensor<3x2xf32>
    %ws = ov.constant dense<[[0.5, 0.25]]> : tensor<1x2xf32>
    %b = ov.multiply %wc, %ws : (tensor<3x2xf32>, tensor<1x2xf32>) -> tensor<3x2xf32>
    %y = ov.mat_mul %a, %b : (tensor<1x3xf32>, tensor<3x2xf32>) -> tensor<1x2xf32>
    func.return %y : tensor<1x2xf32>
  }

  // scales along A's contracted dim cannot move: unchanged
  // CHECK-LABEL: func.func @scales_by_columns
  // CHECK:         ov.mat_mul %{{.*}}, %{{.*}} : (tensor<1x3xf32>, tensor<3x2xf32>) -> tensor<1x2xf32>
  func.func @scales_by_columns(%x: tensor<1x3xui8>) -> tensor<1x2xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x3xui8>) -> tensor<1x3xf32>
    %s = ov.constant dense<[[0.02, 0.03, 0.04]]> : tensor<1x3xf32>
    %a = ov.multiply %c, %s : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
    %w = ov.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi8>
    %wc = ov.convert %w destination_type = f32 : (tensor<3x2xi8>) -> tensor<3x2xf32>
    %ws = ov.constant dense<0.5> : tensor<f32>
    %b = ov.multiply %wc, %ws : (tensor<3x2xf32>, tensor<f32>) -> tensor<3x2xf32>
    %y = ov.mat_mul %a, %b : (tensor<1x3xf32>, tensor<3x2xf32>) -> tensor<1x2xf32>
    func.return %y : tensor<1x2xf32>
  }
}
