// RUN: opt-tool %s | opt-tool | filecheck %s
// RUN: %roundtrip

// CHECK-LABEL: func.func @comparisons
func.func @comparisons(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %i: tensor<?x4xi64>, %n: tensor<i64>) -> (tensor<2x3xi1>, tensor<?x4xi1>) {
  // CHECK: ov.equal %{{.*}}, %{{.*}} {ov.name = "eq"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %0 = ov.equal %a, %b {ov.name = "eq"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: ov.not_equal %{{.*}}, %{{.*}} auto_broadcast = none : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %1 = ov.not_equal %a, %a auto_broadcast = none : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK: ov.greater %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %2 = ov.greater %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: ov.greater_equal %{{.*}}, %{{.*}} : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %3 = ov.greater_equal %b, %a : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  // a dynamic dimension broadcasts with anything
  // CHECK: ov.less %{{.*}}, %{{.*}} : (tensor<?x4xi64>, tensor<i64>) -> tensor<?x4xi1>
  %4 = ov.less %i, %n : (tensor<?x4xi64>, tensor<i64>) -> tensor<?x4xi1>
  // CHECK: ov.less_equal %{{.*}}, %{{.*}} : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %5 = ov.less_equal %n, %n : (tensor<i64>, tensor<i64>) -> tensor<i1>
  // booleans compare too (false < true)
  // CHECK: ov.greater %{{.*}}, %{{.*}} : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  %6 = ov.greater %0, %2 : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  func.return %6, %4 : tensor<2x3xi1>, tensor<?x4xi1>
}

// CHECK-LABEL: func.func @logical
func.func @logical(%p: tensor<2x3xi1>, %q: tensor<3xi1>, %r: tensor<i1>) -> tensor<2x3xi1> {
  // CHECK: ov.logical_and %{{.*}}, %{{.*}} : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  %0 = ov.logical_and %p, %q : (tensor<2x3xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  // CHECK: ov.logical_or %{{.*}}, %{{.*}} auto_broadcast = none : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  %1 = ov.logical_or %0, %p auto_broadcast = none : (tensor<2x3xi1>, tensor<2x3xi1>) -> tensor<2x3xi1>
  // CHECK: ov.logical_xor %{{.*}}, %{{.*}} {ov.name = "x"} : (tensor<2x3xi1>, tensor<i1>) -> tensor<2x3xi1>
  %2 = ov.logical_xor %1, %r {ov.name = "x"} : (tensor<2x3xi1>, tensor<i1>) -> tensor<2x3xi1>
  // CHECK: ov.logical_not %{{.*}} : (tensor<2x3xi1>) -> tensor<2x3xi1>
  %3 = ov.logical_not %2 : (tensor<2x3xi1>) -> tensor<2x3xi1>
  func.return %3 : tensor<2x3xi1>
}

// CHECK-LABEL: func.func @select
func.func @select(%c: tensor<2x1xi1>, %t: tensor<3xf32>, %e: tensor<f32>, %ci: tensor<4xi1>, %ti: tensor<4xi32>) -> (tensor<2x3xf32>, tensor<4xi32>) {
  // CHECK: ov.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x1xi1>, tensor<3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %0 = ov.select %c, %t, %e : (tensor<2x1xi1>, tensor<3xf32>, tensor<f32>) -> tensor<2x3xf32>
  // CHECK: ov.select %{{.*}}, %{{.*}}, %{{.*}} auto_broadcast = none {ov.name = "s"} : (tensor<4xi1>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = ov.select %ci, %ti, %ti auto_broadcast = none {ov.name = "s"} : (tensor<4xi1>, tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  func.return %0, %1 : tensor<2x3xf32>, tensor<4xi32>
}

// CHECK-LABEL: func.func @is_nan
func.func @is_nan(%x: tensor<?x3xf32>, %h: tensor<f16>) -> (tensor<?x3xi1>, tensor<i1>) {
  // CHECK: ov.is_nan %{{.*}} : (tensor<?x3xf32>) -> tensor<?x3xi1>
  %0 = ov.is_nan %x : (tensor<?x3xf32>) -> tensor<?x3xi1>
  // CHECK: ov.is_nan %{{.*}} {ov.name = "n"} : (tensor<f16>) -> tensor<i1>
  %1 = ov.is_nan %h {ov.name = "n"} : (tensor<f16>) -> tensor<i1>
  func.return %0, %1 : tensor<?x3xi1>, tensor<i1>
}
