// RUN: opt-tool %s | opt-tool | filecheck %s
// RUN: %roundtrip

// CHECK-LABEL: func.func @structural
func.func @structural(%x: tensor<2x3xf32>, %n: tensor<i64>) -> tensor<4x9xf32> {
  %c0 = ov.constant dense<0> : tensor<i64>
  %c1 = ov.constant dense<1> : tensor<i64>
  %c7 = ov.constant dense<7> : tensor<i64>
  %c2 = ov.constant dense<2> : tensor<i64>
  // CHECK: ov.range %{{.*}}, %{{.*}}, %{{.*}} output_type = i64 : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<4xi64>
  %r = ov.range %c0, %c7, %c2 output_type = i64 : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<4xi64>
  // CHECK: ov.range %{{.*}}, %{{.*}}, %{{.*}} output_type = f32 : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xf32>
  %rf = ov.range %c0, %n, %c1 output_type = f32 : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xf32>
  %reps = ov.constant dense<[2, 3]> : tensor<2xi64>
  // CHECK: ov.tile %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<4x9xf32>
  %t = ov.tile %x, %reps : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<4x9xf32>
  // CHECK: ov.cumsum %{{.*}}, %{{.*}} exclusive = true reverse = true : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
  %s = ov.cumsum %x, %c1 exclusive = true reverse = true : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
  %i = ov.constant dense<[1, 0]> : tensor<2xi64>
  %u = ov.constant dense<0.5> : tensor<2x2xf32>
  // CHECK: ov.scatter_update %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<2xi64>, tensor<2x2xf32>, tensor<i64>) -> tensor<2x3xf32>
  %su = ov.scatter_update %x, %i, %u, %c1 : (tensor<2x3xf32>, tensor<2xi64>, tensor<2x2xf32>, tensor<i64>) -> tensor<2x3xf32>
  func.return %t : tensor<4x9xf32>
}

// CHECK-LABEL: func.func @scatter_nd_update
func.func @scatter_nd_update(%x: tensor<4x3x2xf32>, %i: tensor<2x1xi64>, %u: tensor<2x3x2xf32>, %e: tensor<?x3xi32>, %v: tensor<?xf32>, %b: tensor<4x3x2xi1>, %ub: tensor<2x3x2xi1>) -> (tensor<4x3x2xf32>, tensor<4x3x2xf32>, tensor<4x3x2xf32>, tensor<4x3x2xi1>) {
  // CHECK: ov.scatter_nd_update %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x3x2xf32>, tensor<2x1xi64>, tensor<2x3x2xf32>) -> tensor<4x3x2xf32>
  %0 = ov.scatter_nd_update %x, %i, %u : (tensor<4x3x2xf32>, tensor<2x1xi64>, tensor<2x3x2xf32>) -> tensor<4x3x2xf32>
  // the default reduction is not printed
  // CHECK: ov.scatter_nd_update %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x3x2xf32>, tensor<?x3xi32>, tensor<?xf32>) -> tensor<4x3x2xf32>
  %1 = ov.scatter_nd_update %x, %e, %v reduction = none : (tensor<4x3x2xf32>, tensor<?x3xi32>, tensor<?xf32>) -> tensor<4x3x2xf32>
  // CHECK: ov.scatter_nd_update %{{.*}}, %{{.*}}, %{{.*}} reduction = sum {ov.name = "acc"} : (tensor<4x3x2xf32>, tensor<2x1xi64>, tensor<2x3x2xf32>) -> tensor<4x3x2xf32>
  %2 = ov.scatter_nd_update %x, %i, %u reduction = sum {ov.name = "acc"} : (tensor<4x3x2xf32>, tensor<2x1xi64>, tensor<2x3x2xf32>) -> tensor<4x3x2xf32>
  // CHECK: ov.scatter_nd_update %{{.*}}, %{{.*}}, %{{.*}} reduction = sub : (tensor<4x3x2xi1>, tensor<2x1xi64>, tensor<2x3x2xi1>) -> tensor<4x3x2xi1>
  %3 = ov.scatter_nd_update %b, %i, %ub reduction = sub : (tensor<4x3x2xi1>, tensor<2x1xi64>, tensor<2x3x2xi1>) -> tensor<4x3x2xi1>
  func.return %0, %1, %2, %3 : tensor<4x3x2xf32>, tensor<4x3x2xf32>, tensor<4x3x2xf32>, tensor<4x3x2xi1>
}
