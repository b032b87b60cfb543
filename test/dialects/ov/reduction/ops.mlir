// RUN: opt-tool %s | opt-tool | filecheck %s
// RUN: %roundtrip

// CHECK-LABEL: func.func @reductions
func.func @reductions(%x: tensor<2x3x4xf32>, %axes: tensor<1xi64>) -> tensor<2x1x1xf32> {
  %a = ov.constant dense<[-1, 1]> : tensor<2xi64>
  %b = ov.constant dense<[0, 2]> : tensor<2xi64>
  // CHECK: ov.reduce_sum %{{.*}}, %{{.*}} keep_dims = true {ov.name = "sum"} : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x1x1xf32>
  %0 = ov.reduce_sum %x, %a keep_dims = true {ov.name = "sum"} : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x1x1xf32>
  // CHECK: ov.reduce_mean %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2xf32>
  %1 = ov.reduce_mean %x, %a : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2xf32>
  // CHECK: ov.reduce_max %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<?x?xf32>
  %2 = ov.reduce_max %x, %axes : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<?x?xf32>
  // CHECK: ov.reduce_min %{{.*}}, %{{.*}} keep_dims = true : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<?x?x?xf32>
  %3 = ov.reduce_min %x, %axes keep_dims = true : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<?x?x?xf32>
  // CHECK: ov.reduce_prod %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<3xf32>
  %4 = ov.reduce_prod %x, %b : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<3xf32>
  func.return %0 : tensor<2x1x1xf32>
}
