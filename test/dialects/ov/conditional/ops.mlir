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

// Bodies whose results differ in rank: the result has a dynamic rank (OpenVINO's If,
// `resolve_shape`), which ShapeOf, the element-wise ops, Convert, Reshape, Squeeze, Unsqueeze
// and Concat take.
// CHECK-LABEL: func.func @if_dynamic_rank
func.func @if_dynamic_rank(%c: tensor<i1>, %a: tensor<3xf32>) -> (tensor<*xf32>, tensor<?xi64>, tensor<?xf32>, tensor<*xi1>) {
  // CHECK: -> tensor<*xf32> {
  %y = ov.if(%c, %a) attributes {then_inputs = [#ov.invariant<input = 1, param = 0>], else_inputs = [#ov.invariant<input = 1, param = 0>], then_outputs = [#ov.body_output<result = 0, output = 0>], else_outputs = [#ov.body_output<result = 0, output = 0>]} : (tensor<i1>, tensor<3xf32>) -> tensor<*xf32> {
  ^bb0(%x: tensor<3xf32>):
    ov.yield %x : tensor<3xf32>
  } else {
  ^bb0(%x: tensor<3xf32>):
    %k = ov.constant dense<0.0> : tensor<1x3xf32>
    ov.yield %k : tensor<1x3xf32>
  }
  // CHECK: ov.shape_of %{{.*}} : (tensor<*xf32>) -> tensor<?xi64>
  %s = ov.shape_of %y : (tensor<*xf32>) -> tensor<?xi64>
  // CHECK: ov.relu %{{.*}} : (tensor<*xf32>) -> tensor<*xf32>
  %r = ov.relu %y : (tensor<*xf32>) -> tensor<*xf32>
  // CHECK: ov.add %{{.*}}, %{{.*}} : (tensor<*xf32>, tensor<3xf32>) -> tensor<*xf32>
  %m = ov.add %r, %a : (tensor<*xf32>, tensor<3xf32>) -> tensor<*xf32>
  // CHECK: ov.greater %{{.*}}, %{{.*}} : (tensor<*xf32>, tensor<3xf32>) -> tensor<*xi1>
  %e = ov.greater %m, %a : (tensor<*xf32>, tensor<3xf32>) -> tensor<*xi1>
  // CHECK: ov.convert %{{.*}} destination_type = f32 : (tensor<*xi1>) -> tensor<*xf32>
  %cv = ov.convert %e destination_type = f32 : (tensor<*xi1>) -> tensor<*xf32>
  %t = ov.constant dense<[-1]> : tensor<1xi64>
  // CHECK: ov.reshape %{{.*}}, %{{.*}} special_zero = false : (tensor<*xf32>, tensor<1xi64>) -> tensor<?xf32>
  %f = ov.reshape %cv, %t special_zero = false : (tensor<*xf32>, tensor<1xi64>) -> tensor<?xf32>
  %ax = ov.constant dense<0> : tensor<1xi64>
  // CHECK: ov.unsqueeze %{{.*}}, %{{.*}} : (tensor<*xf32>, tensor<1xi64>) -> tensor<*xf32>
  %u = ov.unsqueeze %m, %ax : (tensor<*xf32>, tensor<1xi64>) -> tensor<*xf32>
  // CHECK: ov.squeeze %{{.*}}, %{{.*}} : (tensor<*xf32>, tensor<1xi64>) -> tensor<*xf32>
  %q = ov.squeeze %u, %ax : (tensor<*xf32>, tensor<1xi64>) -> tensor<*xf32>
  // CHECK: ov.concat %{{.*}}, %{{.*}} axis = 0 : (tensor<*xf32>, tensor<?xf32>) -> tensor<?xf32>
  %cc = ov.concat %q, %f axis = 0 : (tensor<*xf32>, tensor<?xf32>) -> tensor<?xf32>
  // CHECK: ov.reduce_mean %{{.*}}, %{{.*}} keep_dims = true : (tensor<*xf32>, tensor<1xi64>) -> tensor<*xf32>
  %rm = ov.reduce_mean %q, %ax keep_dims = true : (tensor<*xf32>, tensor<1xi64>) -> tensor<*xf32>
  func.return %q, %s, %cc, %e : tensor<*xf32>, tensor<?xi64>, tensor<?xf32>, tensor<*xi1>
}

// A constant condition picks its body's rank: the result is ranked.
// CHECK-LABEL: func.func @if_constant_condition_rank
func.func @if_constant_condition_rank(%a: tensor<3xf32>) -> tensor<1x3xf32> {
  %c = ov.constant dense<false> : tensor<i1>
  // CHECK: -> tensor<1x3xf32> {
  %y = ov.if(%c, %a) attributes {then_inputs = [#ov.invariant<input = 1, param = 0>], else_inputs = [#ov.invariant<input = 1, param = 0>], then_outputs = [#ov.body_output<result = 0, output = 0>], else_outputs = [#ov.body_output<result = 0, output = 0>]} : (tensor<i1>, tensor<3xf32>) -> tensor<1x3xf32> {
  ^bb0(%x: tensor<3xf32>):
    ov.yield %x : tensor<3xf32>
  } else {
  ^bb0(%x: tensor<3xf32>):
    %k = ov.constant dense<0.0> : tensor<1x3xf32>
    ov.yield %k : tensor<1x3xf32>
  }
  func.return %y : tensor<1x3xf32>
}
