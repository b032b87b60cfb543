// cpu-decompose: BatchNormInference on constant statistics becomes a per-channel Multiply and
// Add (a = gamma / sqrt(variance + epsilon), b = beta - mean * a, folded), which fuse into the
// convolution before them; HardSigmoid with constant alpha and beta becomes Multiply, Add,
// Minimum(1, t) and Maximum(0, .), the constants first (NaN -> 1 as HardSigmoid's std::min /
// std::max; a Clamp would give 0); with a computed alpha it stays (the reference fallback).
// RUN: opt-tool -p cpu-decompose %s | filecheck %s
// RUN: lowpass-run %s --random-inputs 0 --device CPU -pcsort no_sort | filecheck %s --check-prefix=ROWS
// CHECK:      %[[A:.*]] = ov.constant dense<{{\[\[\[\[}}1.000000e+00]], {{\[\[}}2.000000e+00]]]]> : tensor<1x2x1x1xf32> {ov.name = "bn/scale"}
// CHECK-NEXT: %[[B:.*]] = ov.constant dense<{{\[\[\[\[}}0.000000e+00]], {{\[\[}}5.000000e-01]]]]> : tensor<1x2x1x1xf32> {ov.name = "bn/shift"}
// CHECK-NEXT: %[[M:.*]] = ov.multiply %conv, %[[A]] {ov.name = "bn/multiply"}
// CHECK-NEXT: %[[BN:.*]] = ov.add %[[M]], %[[B]] {ov.name = "bn"}
// CHECK:      %[[HM:.*]] = ov.multiply %[[BN]], %{{.*}} {ov.name = "hs/multiply"}
// CHECK-NEXT: %[[HA:.*]] = ov.add %[[HM]], %{{.*}} {ov.name = "hs/add"}
// CHECK-NEXT: %[[ONE:.*]] = ov.constant dense<1.000000e+00> : tensor<f32> {ov.name = "hs/one"}
// CHECK-NEXT: %[[ZERO:.*]] = ov.constant dense<0.000000e+00> : tensor<f32> {ov.name = "hs/zero"}
// CHECK-NEXT: %[[LOW:.*]] = ov.minimum %[[ONE]], %[[HA]] {ov.name = "hs/minimum"}
// CHECK-NEXT: %[[HS:.*]] = ov.maximum %[[ZERO]], %[[LOW]] {ov.name = "hs"}
// CHECK:      ov.hard_sigmoid %[[HS]], %alpha, %beta {ov.name = "hs_computed"}
// ROWS:      conv {{ *}}Convolution {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// ROWS:      bn {{ *}}Add {{ *}}undef {{ *}}NOT_RUN
// ROWS:      hs_computed {{ *}}HardSigmoid {{ *}}ref_FP32 {{ *}}EXECUTED
builtin.module {
  func.func @main(%x: tensor<1x2x3x3xf32>, %alpha: tensor<f32>) -> tensor<1x2x3x3xf32> {
    %w = ov.constant dense<[[[[1.0]], [[0.5]]], [[[-1.0]], [[2.0]]]]> : tensor<2x2x1x1xf32>
    %conv = ov.convolution %x, %w {ov.name = "conv", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
    %g = ov.constant dense<[2.0, 1.0]> : tensor<2xf32>
    %b = ov.constant dense<[1.0, 0.5]> : tensor<2xf32>
    %m = ov.constant dense<[1.0, 0.0]> : tensor<2xf32>
    %v = ov.constant dense<[4.0, 0.25]> : tensor<2xf32>
    %bn = ov.batch_norm_inference %conv, %g, %b, %m, %v {ov.name = "bn", epsilon = 0.0 : f64} : (tensor<1x2x3x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x3x3xf32>
    %ha = ov.constant dense<0.2> : tensor<f32>
    %beta = ov.constant dense<0.5> : tensor<f32>
    %hs = ov.hard_sigmoid %bn, %ha, %beta {ov.name = "hs"} : (tensor<1x2x3x3xf32>, tensor<f32>, tensor<f32>) -> tensor<1x2x3x3xf32>
    %hc = ov.hard_sigmoid %hs, %alpha, %beta {ov.name = "hs_computed"} : (tensor<1x2x3x3xf32>, tensor<f32>, tensor<f32>) -> tensor<1x2x3x3xf32>
    func.return %hc : tensor<1x2x3x3xf32>
  }
}
