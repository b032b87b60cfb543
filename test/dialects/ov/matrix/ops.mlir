// RUN: opt-tool %s | opt-tool | filecheck %s
// RUN: %roundtrip

// CHECK-LABEL: func.func @mat_mul
func.func @mat_mul(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>, %bt: tensor<5x4xf32>, %v: tensor<4xf32>, %h: tensor<7x1x4x3xf16>, %g: tensor<2x5x4xf16>, %d: tensor<?x3x?xf32>, %e: tensor<6x?x2xf32>) -> tensor<2x3x5xf32> {
  // CHECK: ov.mat_mul %{{.*}}, %{{.*}} {ov.name = "mm"} : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  %0 = ov.mat_mul %a, %b {ov.name = "mm"} : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  // CHECK: ov.mat_mul %{{.*}}, %{{.*}} transpose_b = true : (tensor<2x3x4xf32>, tensor<5x4xf32>) -> tensor<2x3x5xf32>
  %1 = ov.mat_mul %a, %bt transpose_b = true : (tensor<2x3x4xf32>, tensor<5x4xf32>) -> tensor<2x3x5xf32>
  // CHECK: ov.mat_mul %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  %2 = ov.mat_mul %a, %v : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  // CHECK: ov.mat_mul %{{.*}}, %{{.*}} transpose_a = true : (tensor<4xf32>, tensor<4x5xf32>) -> tensor<5xf32>
  %3 = ov.mat_mul %v, %b transpose_a = true : (tensor<4xf32>, tensor<4x5xf32>) -> tensor<5xf32>
  // CHECK: ov.mat_mul %{{.*}}, %{{.*}} : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  %4 = ov.mat_mul %v, %v : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  // CHECK: ov.mat_mul %{{.*}}, %{{.*}} transpose_a = true transpose_b = true : (tensor<7x1x4x3xf16>, tensor<2x5x4xf16>) -> tensor<7x2x3x5xf16>
  %5 = ov.mat_mul %h, %g transpose_a = true transpose_b = true : (tensor<7x1x4x3xf16>, tensor<2x5x4xf16>) -> tensor<7x2x3x5xf16>
  // CHECK: ov.mat_mul %{{.*}}, %{{.*}} : (tensor<?x3x?xf32>, tensor<6x?x2xf32>) -> tensor<6x3x2xf32>
  %6 = ov.mat_mul %d, %e : (tensor<?x3x?xf32>, tensor<6x?x2xf32>) -> tensor<6x3x2xf32>
  func.return %0 : tensor<2x3x5xf32>
}

// CHECK-LABEL: func.func @mat_mul_i32
func.func @mat_mul_i32(%a: tensor<2x3xi32>, %b: tensor<3x4xi32>) -> tensor<2x4xi32> {
  // i32, as OpenVINO's ONNX frontend makes MatMulInteger
  // CHECK: ov.mat_mul %{{.*}}, %{{.*}} : (tensor<2x3xi32>, tensor<3x4xi32>) -> tensor<2x4xi32>
  %0 = ov.mat_mul %a, %b : (tensor<2x3xi32>, tensor<3x4xi32>) -> tensor<2x4xi32>
  func.return %0 : tensor<2x4xi32>
}

// CHECK-LABEL: func.func @scaled_dot_product_attention
func.func @scaled_dot_product_attention(%q: tensor<2x4x5x8xf32>, %k: tensor<2x1x6x8xf32>, %v: tensor<1x4x6x3xf32>, %m: tensor<5x6xi1>, %f: tensor<2x1x1x6xf32>, %s: tensor<f32>, %h: tensor<1x?x16xf16>, %hv: tensor<1x?x4xf16>) -> tensor<2x4x5x3xf32> {
  // CHECK: ov.scaled_dot_product_attention %{{.*}}, %{{.*}}, %{{.*}} {ov.name = "attention"} : (tensor<2x4x5x8xf32>, tensor<2x1x6x8xf32>, tensor<1x4x6x3xf32>) -> tensor<2x4x5x3xf32>
  %0 = ov.scaled_dot_product_attention %q, %k, %v {ov.name = "attention"} : (tensor<2x4x5x8xf32>, tensor<2x1x6x8xf32>, tensor<1x4x6x3xf32>) -> tensor<2x4x5x3xf32>
  // CHECK: ov.scaled_dot_product_attention %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x4x5x8xf32>, tensor<2x1x6x8xf32>, tensor<1x4x6x3xf32>, tensor<5x6xi1>, tensor<f32>) -> tensor<2x4x5x3xf32>
  %1 = ov.scaled_dot_product_attention %q, %k, %v, %m, %s : (tensor<2x4x5x8xf32>, tensor<2x1x6x8xf32>, tensor<1x4x6x3xf32>, tensor<5x6xi1>, tensor<f32>) -> tensor<2x4x5x3xf32>
  // CHECK: ov.scaled_dot_product_attention %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x4x5x8xf32>, tensor<2x1x6x8xf32>, tensor<1x4x6x3xf32>, tensor<2x1x1x6xf32>) -> tensor<2x4x5x3xf32>
  %2 = ov.scaled_dot_product_attention %q, %k, %v, %f : (tensor<2x4x5x8xf32>, tensor<2x1x6x8xf32>, tensor<1x4x6x3xf32>, tensor<2x1x1x6xf32>) -> tensor<2x4x5x3xf32>
  // CHECK: ov.scaled_dot_product_attention %{{.*}}, %{{.*}}, %{{.*}} causal = true : (tensor<2x4x5x8xf32>, tensor<2x1x6x8xf32>, tensor<1x4x6x3xf32>) -> tensor<2x4x5x3xf32>
  %3 = ov.scaled_dot_product_attention %q, %k, %v causal = true : (tensor<2x4x5x8xf32>, tensor<2x1x6x8xf32>, tensor<1x4x6x3xf32>) -> tensor<2x4x5x3xf32>
  // CHECK: ov.scaled_dot_product_attention %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x?x16xf16>, tensor<1x?x16xf16>, tensor<1x?x4xf16>) -> tensor<1x?x4xf16>
  %4 = ov.scaled_dot_product_attention %h, %h, %hv : (tensor<1x?x16xf16>, tensor<1x?x16xf16>, tensor<1x?x4xf16>) -> tensor<1x?x4xf16>
  func.return %0 : tensor<2x4x5x3xf32>
}
