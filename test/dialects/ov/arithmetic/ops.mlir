// RUN: opt-tool %s | opt-tool | filecheck %s
// RUN: %roundtrip

// CHECK-LABEL: func.func @binary
func.func @binary(%x: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: ov.add %{{.*}}, %{{.*}} {ov.name = "add"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = ov.add %x, %b {ov.name = "add"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: ov.subtract %{{.*}}, %{{.*}} auto_broadcast = none : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = ov.subtract %0, %0 auto_broadcast = none : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: ov.multiply %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = ov.multiply %1, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: ov.divide %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %3 = ov.divide %2, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: ov.exp %{{.*}} {ov.name = "e"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = ov.exp %3 {ov.name = "e"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %4 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @divide_int
func.func @divide_int(%a: tensor<?x4xi32>, %b: tensor<4xi32>) -> tensor<?x4xi32> {
  // CHECK: ov.divide %{{.*}}, %{{.*}} pythondiv = false : (tensor<?x4xi32>, tensor<4xi32>) -> tensor<?x4xi32>
  %0 = ov.divide %a, %b pythondiv = false : (tensor<?x4xi32>, tensor<4xi32>) -> tensor<?x4xi32>
  // the default (true) is not printed
  // CHECK: ov.divide %{{.*}}, %{{.*}} auto_broadcast = none : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
  %1 = ov.divide %0, %0 pythondiv = true auto_broadcast = none : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
  // CHECK: ov.exp %{{.*}} : (tensor<?x4xi32>) -> tensor<?x4xi32>
  %2 = ov.exp %1 : (tensor<?x4xi32>) -> tensor<?x4xi32>
  func.return %2 : tensor<?x4xi32>
}
