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

// CHECK-LABEL: func.func @einsum
func.func @einsum(%q: tensor<2x3x4x5xf32>, %k: tensor<2x3x6x5xf32>, %a: tensor<2x1x3x4xf32>, %b: tensor<5x4x2xf32>, %i: tensor<3xf16>, %j: tensor<4xf16>, %s: tensor<3x3xi32>, %d: tensor<?x4x?xf32>, %e: tensor<2x?x5xf32>, %w: tensor<5x?xf32>) -> tensor<2x3x4x6xf32> {
  // CHECK: ov.einsum %{{.*}}, %{{.*}} equation = "bhid,bhjd->bhij" {ov.name = "scores"} : (tensor<2x3x4x5xf32>, tensor<2x3x6x5xf32>) -> tensor<2x3x4x6xf32>
  %0 = ov.einsum %q, %k equation = "bhid,bhjd->bhij" {ov.name = "scores"} : (tensor<2x3x4x5xf32>, tensor<2x3x6x5xf32>) -> tensor<2x3x4x6xf32>
  // the ellipses broadcast ([2, 1] and [5]), right-aligned as numpy's
  // CHECK: ov.einsum %{{.*}}, %{{.*}} equation = "...ij,...jk->...ik" : (tensor<2x1x3x4xf32>, tensor<5x4x2xf32>) -> tensor<2x5x3x2xf32>
  %1 = ov.einsum %a, %b equation = "...ij,...jk->...ik" : (tensor<2x1x3x4xf32>, tensor<5x4x2xf32>) -> tensor<2x5x3x2xf32>
  // implicit output: the labels no other input has, sorted; an outer product of f16
  // CHECK: ov.einsum %{{.*}}, %{{.*}} equation = "j,i" : (tensor<4xf16>, tensor<3xf16>) -> tensor<3x4xf16>
  %2 = ov.einsum %j, %i equation = "j,i" : (tensor<4xf16>, tensor<3xf16>) -> tensor<3x4xf16>
  // a diagonal and a trace (i32); an implicit transpose ('A' sorts before 'b')
  // CHECK: ov.einsum %{{.*}} equation = "ii->i" : (tensor<3x3xi32>) -> tensor<3xi32>
  %3 = ov.einsum %s equation = "ii->i" : (tensor<3x3xi32>) -> tensor<3xi32>
  // CHECK: ov.einsum %{{.*}} equation = "ii->" : (tensor<3x3xi32>) -> tensor<i32>
  %4 = ov.einsum %s equation = "ii->" : (tensor<3x3xi32>) -> tensor<i32>
  // CHECK: ov.einsum %{{.*}} equation = "bA" : (tensor<5x?xf32>) -> tensor<?x5xf32>
  %5 = ov.einsum %w equation = "bA" : (tensor<5x?xf32>) -> tensor<?x5xf32>
  // three inputs; dynamic dimensions take a known one of the same label
  // CHECK: ov.einsum %{{.*}}, %{{.*}}, %{{.*}} equation = "bij,bjk,kl->bil" : (tensor<?x4x?xf32>, tensor<2x?x5xf32>, tensor<5x?xf32>) -> tensor<2x4x?xf32>
  %6 = ov.einsum %d, %e, %w equation = "bij,bjk,kl->bil" : (tensor<?x4x?xf32>, tensor<2x?x5xf32>, tensor<5x?xf32>) -> tensor<2x4x?xf32>
  // an explicit output without the inputs' '...' sums those axes (OpenVINO's rule)
  // CHECK: ov.einsum %{{.*}} equation = "...ij->ij" : (tensor<2x1x3x4xf32>) -> tensor<3x4xf32>
  %7 = ov.einsum %a equation = "...ij->ij" : (tensor<2x1x3x4xf32>) -> tensor<3x4xf32>
  func.return %0 : tensor<2x3x4x6xf32>
}
