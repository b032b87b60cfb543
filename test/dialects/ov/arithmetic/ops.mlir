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

// CHECK-LABEL: func.func @math
func.func @math(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %i: tensor<?x4xi32>) -> (tensor<2x3xf32>, tensor<?x4xi32>) {
  // CHECK: ov.power %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = ov.power %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: ov.squared_difference %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = ov.squared_difference %0, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: ov.minimum %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %2 = ov.minimum %1, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: ov.maximum %{{.*}}, %{{.*}} auto_broadcast = none : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = ov.maximum %2, %a auto_broadcast = none : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: ov.sqrt %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = ov.sqrt %3 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: ov.erf %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = ov.erf %4 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: ov.log %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = ov.log %5 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: ov.abs %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = ov.abs %6 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: ov.negative %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %8 = ov.negative %7 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: ov.floor %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %9 = ov.floor %8 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: ov.ceiling %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %10 = ov.ceiling %9 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // the default mode (half_to_even) is not printed
  // CHECK: ov.round %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %11 = ov.round %10 mode = half_to_even : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: ov.round %{{.*}} mode = half_away_from_zero : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %12 = ov.round %11 mode = half_away_from_zero : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // integers
  // CHECK: ov.power %{{.*}}, %{{.*}} : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
  %13 = ov.power %i, %i : (tensor<?x4xi32>, tensor<?x4xi32>) -> tensor<?x4xi32>
  // CHECK: ov.abs %{{.*}} : (tensor<?x4xi32>) -> tensor<?x4xi32>
  %14 = ov.abs %13 : (tensor<?x4xi32>) -> tensor<?x4xi32>
  // CHECK: ov.negative %{{.*}} : (tensor<?x4xi32>) -> tensor<?x4xi32>
  %15 = ov.negative %14 : (tensor<?x4xi32>) -> tensor<?x4xi32>
  func.return %12, %15 : tensor<2x3xf32>, tensor<?x4xi32>
}

// CHECK-LABEL: func.func @remainders
func.func @remainders(%a: tensor<2x4xi32>, %b: tensor<4xi32>, %x: tensor<3xf16>, %y: tensor<f16>) -> (tensor<2x4xi32>, tensor<3xf16>) {
  // CHECK: ov.floor_mod %{{.*}}, %{{.*}} : (tensor<2x4xi32>, tensor<4xi32>) -> tensor<2x4xi32>
  %0 = ov.floor_mod %a, %b : (tensor<2x4xi32>, tensor<4xi32>) -> tensor<2x4xi32>
  // CHECK: ov.mod %{{.*}}, %{{.*}} auto_broadcast = none : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
  %1 = ov.mod %0, %a auto_broadcast = none : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
  // CHECK: ov.mod %{{.*}}, %{{.*}} : (tensor<3xf16>, tensor<f16>) -> tensor<3xf16>
  %2 = ov.mod %x, %y : (tensor<3xf16>, tensor<f16>) -> tensor<3xf16>
  // CHECK: ov.floor_mod %{{.*}}, %{{.*}} : (tensor<3xf16>, tensor<f16>) -> tensor<3xf16>
  %3 = ov.floor_mod %2, %y : (tensor<3xf16>, tensor<f16>) -> tensor<3xf16>
  func.return %1, %3 : tensor<2x4xi32>, tensor<3xf16>
}

// CHECK-LABEL: func.func @trigonometry_and_sign
func.func @trigonometry_and_sign(%x: tensor<?x4xf32>, %h: tensor<3xf16>, %i: tensor<3xi32>) -> (tensor<?x4xf32>, tensor<3xf16>, tensor<3xi32>) {
  // CHECK: ov.sin %{{.*}} {ov.name = "sin"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %0 = ov.sin %x {ov.name = "sin"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  // CHECK: ov.cos %{{.*}} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = ov.cos %0 : (tensor<?x4xf32>) -> tensor<?x4xf32>
  // CHECK: ov.sign %{{.*}} : (tensor<3xf16>) -> tensor<3xf16>
  %2 = ov.sign %h : (tensor<3xf16>) -> tensor<3xf16>
  // CHECK: ov.sign %{{.*}} : (tensor<3xi32>) -> tensor<3xi32>
  %3 = ov.sign %i : (tensor<3xi32>) -> tensor<3xi32>
  func.return %1, %2, %3 : tensor<?x4xf32>, tensor<3xf16>, tensor<3xi32>
}
