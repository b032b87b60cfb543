// RUN: opt-tool %s | opt-tool | filecheck %s
// RUN: %roundtrip

// CHECK-LABEL: func.func @normalization
func.func @normalization(%x: tensor<2x3x?xf32>, %axes: tensor<2xi32>) -> tensor<2x3x?xf32> {
  %a = ov.constant dense<[1, -1]> : tensor<2xi64>
  // CHECK: ov.mvn %{{.*}}, %{{.*}} {ov.name = "mvn", eps = 1.000000e-09 : f32, eps_mode = #ov<mvn_eps_mode inside_sqrt>} : (tensor<2x3x?xf32>, tensor<2xi64>) -> tensor<2x3x?xf32>
  %0 = ov.mvn %x, %a {eps = 1.000000e-09 : f32, eps_mode = #ov<mvn_eps_mode inside_sqrt>, ov.name = "mvn"} : (tensor<2x3x?xf32>, tensor<2xi64>) -> tensor<2x3x?xf32>
  // CHECK: ov.mvn %{{.*}}, %{{.*}} {normalize_variance = false, eps = 1.000000e-05 : f32, eps_mode = #ov<mvn_eps_mode outside_sqrt>} : (tensor<2x3x?xf32>, tensor<2xi32>) -> tensor<2x3x?xf32>
  %1 = ov.mvn %0, %axes {normalize_variance = false, eps = 1.000000e-05 : f32, eps_mode = #ov<mvn_eps_mode outside_sqrt>} : (tensor<2x3x?xf32>, tensor<2xi32>) -> tensor<2x3x?xf32>
  // CHECK: ov.normalize_l2 %{{.*}}, %{{.*}} {eps = 1.000000e-10 : f32, eps_mode = #ov<eps_mode max>} : (tensor<2x3x?xf32>, tensor<2xi64>) -> tensor<2x3x?xf32>
  %2 = ov.normalize_l2 %1, %a {eps = 1.000000e-10 : f32, eps_mode = #ov<eps_mode max>} : (tensor<2x3x?xf32>, tensor<2xi64>) -> tensor<2x3x?xf32>
  func.return %2 : tensor<2x3x?xf32>
}

// CHECK-LABEL: func.func @lrn
func.func @lrn(%x: tensor<1x8x?x5xf32>) -> tensor<1x8x?x5xf32> {
  %a = ov.constant dense<[1]> : tensor<1xi64>
  // CHECK: ov.lrn %{{.*}}, %{{.*}} {ov.name = "norm1", alpha = 1.000000e-04 : f64, beta = 7.500000e-01 : f64, bias = 1.000000e+00 : f64, size = 5 : i64} : (tensor<1x8x?x5xf32>, tensor<1xi64>) -> tensor<1x8x?x5xf32>
  %0 = ov.lrn %x, %a {alpha = 1.000000e-04 : f64, beta = 7.500000e-01 : f64, bias = 1.000000e+00 : f64, size = 5 : i64, ov.name = "norm1"} : (tensor<1x8x?x5xf32>, tensor<1xi64>) -> tensor<1x8x?x5xf32>
  func.return %0 : tensor<1x8x?x5xf32>
}

// CHECK-LABEL: func.func @batch_norm_inference
func.func @batch_norm_inference(%x: tensor<?x4x5x5xf32>, %p: tensor<4xf32>) -> tensor<?x4x5x5xf32> {
  // CHECK: ov.batch_norm_inference %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {ov.name = "bn", epsilon = 1.000000e-05 : f64} : (tensor<?x4x5x5xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4x5x5xf32>
  %0 = ov.batch_norm_inference %x, %p, %p, %p, %p {epsilon = 1.000000e-05 : f64, ov.name = "bn"} : (tensor<?x4x5x5xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4x5x5xf32>
  func.return %0 : tensor<?x4x5x5xf32>
}
