// RUN: opt-tool %s --split-input-file --canonicalize | filecheck %s

// Constant folding keeps the folded op's name; the dead add disappears.
// CHECK-LABEL: func.func @fold_constants
// CHECK-NEXT:    %[[C:.*]] = ov.constant dense<[2.000000e+00, 6.000000e+00, 1.200000e+01]> : tensor<3xf32> {ov.name = "scale"}
// CHECK-NEXT:    %[[A:.*]] = ov.add %{{.*}}, %[[C]] {ov.name = "add"}
// CHECK-NEXT:    func.return %[[A]]
func.func @fold_constants(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = ov.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %d = ov.constant dense<[2.0, 3.0, 4.0]> : tensor<3xf32>
  %e = ov.multiply %c, %d {ov.name = "scale"} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %dead = ov.add %x, %c : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %a = ov.add %x, %e {ov.name = "add"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %a : tensor<2x3xf32>
}

// -----

// Chains fold to one constant, with broadcasting.
// CHECK-LABEL: func.func @fold_chain
// CHECK-NEXT:    %{{.*}} = ov.constant dense<{{\[}}[0.000000e+00, 1.000000e+00], [2.000000e+00, 3.000000e+00]]> : tensor<2x2xf32>
// CHECK-NEXT:    func.return
func.func @fold_chain() -> tensor<2x2xf32> {
  %a = ov.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = ov.constant dense<[1.0, 1.0]> : tensor<2xf32>
  %s = ov.subtract %a, %b : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  %m = ov.constant dense<[[1.0, 1.0], [0.0, 0.0]]> : tensor<2x2xf32>
  %n = ov.multiply %s, %m : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = ov.subtract %n, %s : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %z = ov.subtract %s, %r : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %q = ov.subtract %z, %s : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %o = ov.add %q, %a : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %p = ov.subtract %o, %a : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %t = ov.subtract %p, %n : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %u = ov.add %t, %n : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %v = ov.subtract %u, %q : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %w = ov.subtract %s, %v : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  func.return %w : tensor<2x2xf32>
}

// -----

// Ops on graph inputs are not folded.
// CHECK-LABEL: func.func @no_fold
// CHECK:         ov.multiply
func.func @no_fold(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c = ov.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %m = ov.multiply %x, %c : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %m : tensor<3xf32>
}

// -----

// Convert of Convert folds only where the middle type holds every source value exactly.
// CHECK-LABEL: func.func @convert_chains
// CHECK-NEXT:    %[[A:.*]] = ov.convert %{{.*}} destination_type = f32 : (tensor<4xui8>) -> tensor<4xf32>
// CHECK-NEXT:    %[[B1:.*]] = ov.convert %{{.*}} destination_type = f16 : (tensor<4xf32>) -> tensor<4xf16>
// CHECK-NEXT:    %[[B2:.*]] = ov.convert %[[B1]] destination_type = f32 : (tensor<4xf16>) -> tensor<4xf32>
// CHECK-NEXT:    func.return %[[A]], %[[B2]], %{{.*}} : tensor<4xf32>, tensor<4xf32>, tensor<4xi8>
func.func @convert_chains(%u: tensor<4xui8>, %f: tensor<4xf32>, %i: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi8>) {
  %0 = ov.convert %u destination_type = i32 : (tensor<4xui8>) -> tensor<4xi32>
  %1 = ov.convert %0 destination_type = f32 : (tensor<4xi32>) -> tensor<4xf32>
  %2 = ov.convert %f destination_type = f16 : (tensor<4xf32>) -> tensor<4xf16>
  %3 = ov.convert %2 destination_type = f32 : (tensor<4xf16>) -> tensor<4xf32>
  %4 = ov.convert %i destination_type = f16 : (tensor<4xi8>) -> tensor<4xf16>
  %5 = ov.convert %4 destination_type = i8 : (tensor<4xf16>) -> tensor<4xi8>
  func.return %1, %3, %5 : tensor<4xf32>, tensor<4xf32>, tensor<4xi8>
}

// -----

// Division by zero is not folded (it is reported when the model runs); an output named after
// an op that folds away keeps its name.
// CHECK-LABEL: func.func @no_fold_div0
// CHECK-SAME:    -> (tensor<2xi32>, tensor<2xf32> {ov.name = "keep"})
// CHECK:         ov.divide
func.func @no_fold_div0(%f: tensor<2xf32>) -> (tensor<2xi32>, tensor<2xf32>) {
  %a = ov.constant dense<[1, 2]> : tensor<2xi32>
  %b = ov.constant dense<[0, 1]> : tensor<2xi32>
  %c = ov.divide %a, %b : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %k = ov.convert %f destination_type = f32 {ov.name = "keep"} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %c, %k : tensor<2xi32>, tensor<2xf32>
}

// -----

// A FakeQuantize of a converted u8/i8 tensor that gives back each of the 256 values, in every
// channel, is its input (the requantization LPT leaves around a Reshape or Transpose with one
// scale on both sides); the Convert and the limits go with it, and a graph output keeps the
// FakeQuantize's name. One channel that halves its values, or a float result, keeps the op.
// CHECK-LABEL: func.func @identity_fake_quantize
// CHECK-SAME:    -> (tensor<1x2x2xui8> {ov.name = "same_u8"}, tensor<4xi8> {ov.name = "same_i8"}, tensor<1x2x2xui8>, tensor<4xf32>)
// CHECK:         %[[C:[a-z0-9_]+]] = ov.convert %u destination_type = f32
// CHECK:         %[[H:.*]] = ov.fake_quantize %[[C]], {{.*}} {ov.name = "halved"}
// CHECK:         %[[F:.*]] = ov.convert %i destination_type = f32
// CHECK-NEXT:    %[[R:.*]] = ov.fake_quantize %[[F]], {{.*}} {ov.name = "float_result"}
// CHECK-NEXT:    func.return %u, %i, %[[H]], %[[R]]
func.func @identity_fake_quantize(%u: tensor<1x2x2xui8>, %i: tensor<4xi8>) -> (tensor<1x2x2xui8>, tensor<4xi8>, tensor<1x2x2xui8>, tensor<4xf32>) {
  %low = ov.constant dense<0.0> : tensor<1x2x1xf32>
  %high = ov.constant dense<255.0> : tensor<1x2x1xf32>
  %half = ov.constant dense<[[[255.0], [127.5]]]> : tensor<1x2x1xf32>
  %uf = ov.convert %u destination_type = f32 : (tensor<1x2x2xui8>) -> tensor<1x2x2xf32>
  %same_u8 = ov.fake_quantize %uf, %low, %high, %low, %high levels = 256 {ov.name = "same_u8"} : (tensor<1x2x2xf32>, tensor<1x2x1xf32>, tensor<1x2x1xf32>, tensor<1x2x1xf32>, tensor<1x2x1xf32>) -> tensor<1x2x2xui8>
  %halved = ov.fake_quantize %uf, %low, %half, %low, %high levels = 256 {ov.name = "halved"} : (tensor<1x2x2xf32>, tensor<1x2x1xf32>, tensor<1x2x1xf32>, tensor<1x2x1xf32>, tensor<1x2x1xf32>) -> tensor<1x2x2xui8>
  %il = ov.constant dense<-128.0> : tensor<f32>
  %ih = ov.constant dense<127.0> : tensor<f32>
  %if = ov.convert %i destination_type = f32 : (tensor<4xi8>) -> tensor<4xf32>
  %same_i8 = ov.fake_quantize %if, %il, %ih, %il, %ih levels = 256 {ov.name = "same_i8"} : (tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xi8>
  %float_result = ov.fake_quantize %if, %il, %ih, %il, %ih levels = 256 {ov.name = "float_result"} : (tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  func.return %same_u8, %same_i8, %halved, %float_result : tensor<1x2x2xui8>, tensor<4xi8>, tensor<1x2x2xui8>, tensor<4xf32>
}
