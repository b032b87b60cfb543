// RUN: opt-tool %s | opt-tool | filecheck %s
// RUN: %roundtrip

// CHECK-LABEL: func.func @if_two_bodies
func.func @if_two_bodies(%c: tensor<i1>, %a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  // CHECK: ov.if(%{{.*}}, %{{.*}}, %{{.*}}) attributes {then_inputs = [#ov.invariant<input = 1, param = 0>, #ov.invariant<input = 2, param = 1>], else_inputs = [#ov.invariant<input = 1, param = 0>]
  // CHECK-SAME: : (tensor<i1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32> {
  // CHECK: ov.add
  // CHECK: ov.yield %{{.*}} : tensor<3xf32>
  // CHECK: } else {
  // CHECK: ov.yield %{{.*}} : tensor<3xf32>
  %y = ov.if(%c, %a, %b) attributes {then_inputs = [#ov.invariant<input = 1, param = 0>, #ov.invariant<input = 2, param = 1>], else_inputs = [#ov.invariant<input = 1, param = 0>], then_outputs = [#ov.body_output<result = 0, output = 0>], else_outputs = [#ov.body_output<result = 0, output = 0>]} : (tensor<i1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%x: tensor<3xf32>, %z: tensor<3xf32>):
    %s = ov.add %x, %z : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    ov.yield %s : tensor<3xf32>
  } else {
  ^bb0(%x: tensor<3xf32>):
    ov.yield %x : tensor<3xf32>
  }
  func.return %y : tensor<3xf32>
}

// Bodies whose results differ in a dimension: the result's dimension is dynamic.
// CHECK-LABEL: func.func @if_merged_shape
func.func @if_merged_shape(%c: tensor<1xi1>, %a: tensor<2x3xf32>) -> tensor<2x?xf32> {
  // CHECK: -> tensor<2x?xf32> {
  %y = ov.if(%c, %a) attributes {then_inputs = [#ov.invariant<input = 1, param = 0>], else_inputs = [#ov.invariant<input = 1, param = 0>], then_outputs = [#ov.body_output<result = 0, output = 0>], else_outputs = [#ov.body_output<result = 0, output = 0>]} : (tensor<1xi1>, tensor<2x3xf32>) -> tensor<2x?xf32> {
  ^bb0(%x: tensor<2x3xf32>):
    ov.yield %x : tensor<2x3xf32>
  } else {
  ^bb0(%x: tensor<2x3xf32>):
    %k = ov.constant dense<0.0> : tensor<2x5xf32>
    ov.yield %k : tensor<2x5xf32>
  }
  func.return %y : tensor<2x?xf32>
}
