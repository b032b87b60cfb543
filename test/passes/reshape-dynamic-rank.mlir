// RUN: opt-tool %s --ov-reshape='inputs="x:1x4x1"' | filecheck %s
// RUN: opt-tool %s --ov-reshape='inputs="x:1x4x3"' | filecheck %s --check-prefix=T3

// silero-vad's decoder: y = If(Shape(x)[2] == 1) then Squeeze(x, [2]) else x. With x's third
// dim dynamic the bodies give ranks 2 and 3: y has a dynamic rank. ov-reshape to static shapes
// makes the condition known, and y, the Relu after it and the graph output take the taken
// body's rank again.
func.func @main(%x: tensor<1x4x?xf32> {ov.name = "x"}) -> tensor<*xf32> {
  %s = ov.shape_of %x : (tensor<1x4x?xf32>) -> tensor<3xi64>
  %two = ov.constant dense<2> : tensor<i64>
  %zero = ov.constant dense<0> : tensor<i64>
  %t = ov.gather %s, %two, %zero : (tensor<3xi64>, tensor<i64>, tensor<i64>) -> tensor<i64>
  %one = ov.constant dense<1> : tensor<i64>
  %c = ov.equal %t, %one : (tensor<i64>, tensor<i64>) -> tensor<i1>
  %y = ov.if(%c, %x) attributes {then_inputs = [#ov.invariant<input = 1, param = 0>], else_inputs = [#ov.invariant<input = 1, param = 0>], then_outputs = [#ov.body_output<result = 0, output = 0>], else_outputs = [#ov.body_output<result = 0, output = 0>]} : (tensor<i1>, tensor<1x4x?xf32>) -> tensor<*xf32> {
  ^bb0(%a: tensor<1x4x?xf32>):
    %ax = ov.constant dense<[2]> : tensor<1xi64>
    %q = ov.squeeze %a, %ax : (tensor<1x4x?xf32>, tensor<1xi64>) -> tensor<1x4xf32>
    ov.yield %q : tensor<1x4xf32>
  } else {
  ^bb0(%a: tensor<1x4x?xf32>):
    ov.yield %a : tensor<1x4x?xf32>
  }
  %r = ov.relu %y : (tensor<*xf32>) -> tensor<*xf32>
  func.return %r : tensor<*xf32>
}
// CHECK: func.func @main(%x: tensor<1x4x1xf32> {ov.name = "x"}) -> tensor<1x4xf32>
// CHECK: ov.if({{.*}}) -> tensor<1x4xf32> {
// CHECK: ov.relu %{{.*}} : (tensor<1x4xf32>) -> tensor<1x4xf32>
// CHECK: func.return %{{.*}} : tensor<1x4xf32>

// T3: func.func @main(%x: tensor<1x4x3xf32> {ov.name = "x"}) -> tensor<1x4x3xf32>
// T3: ov.if({{.*}}) -> tensor<1x4x3xf32> {
// T3: ov.relu %{{.*}} : (tensor<1x4x3xf32>) -> tensor<1x4x3xf32>
