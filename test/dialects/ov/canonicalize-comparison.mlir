// RUN: opt-tool %s --split-input-file --canonicalize | filecheck %s

// Comparisons, logical ops and Select of constants fold to constants (i1 for the masks),
// keeping the folded op's name; a Select with a computed value stays.
// CHECK-LABEL: func.func @fold_masks
// CHECK-NEXT:    %[[M:.*]] = ov.constant dense<[true, false, true]> : tensor<3xi1> {ov.name = "mask"}
// CHECK-NEXT:    %[[Z:.*]] = ov.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[Y:.*]] = ov.select %[[M]], %x, %[[Z]] {ov.name = "pick"}
// CHECK-NEXT:    func.return %[[Y]]
func.func @fold_masks(%x: tensor<3xf32>) -> tensor<3xf32> {
  %a = ov.constant dense<[1.0, 2.0, 1.5]> : tensor<3xf32>
  %b = ov.constant dense<1.5> : tensor<f32>
  %lt = ov.less %a, %b : (tensor<3xf32>, tensor<f32>) -> tensor<3xi1>
  %eq = ov.equal %a, %b : (tensor<3xf32>, tensor<f32>) -> tensor<3xi1>
  %gt = ov.greater %a, %b : (tensor<3xf32>, tensor<f32>) -> tensor<3xi1>
  %le = ov.logical_or %lt, %eq : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  %not_gt = ov.logical_not %gt : (tensor<3xi1>) -> tensor<3xi1>
  %same = ov.logical_xor %le, %not_gt : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  %never = ov.logical_and %same, %lt : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  %mask = ov.not_equal %le, %never {ov.name = "mask"} : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  %zero = ov.constant dense<0.0> : tensor<f32>
  %y = ov.select %mask, %x, %zero {ov.name = "pick"} : (tensor<3xi1>, tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %y : tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @fold_select
// CHECK-NEXT:    %[[C:.*]] = ov.constant dense<{{\[}}[1, 7], [3, 7]]> : tensor<2x2xi32>
// CHECK-NEXT:    func.return %[[C]]
func.func @fold_select() -> tensor<2x2xi32> {
  %c = ov.constant dense<[true, false]> : tensor<2xi1>
  %t = ov.constant dense<[[1], [3]]> : tensor<2x1xi32>
  %e = ov.constant dense<7> : tensor<i32>
  %y = ov.select %c, %t, %e : (tensor<2xi1>, tensor<2x1xi32>, tensor<i32>) -> tensor<2x2xi32>
  func.return %y : tensor<2x2xi32>
}
