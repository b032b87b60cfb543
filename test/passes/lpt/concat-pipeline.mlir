// The whole LPT pipeline (-p lpt) on FakeQuantize ops feeding a Concat: interval-aligned
// decomposition when the Concat reaches a per-tensor port (spec 4.10, 5.1.7), per-input
// dequantizations concatenated otherwise (5.7).
// RUN: opt-tool %s --split-input-file -p lpt | filecheck %s

// T8a (spec 4.10, 5.1.7): FQ1 [0, 2.55] and FQ2 [-1.28, 1.27] into a Concat feeding a per-tensor
// Convolution port: both decomposed on the common interval [-1.28, 2.55] (u8, levels 171).
func.func @t8a(%a: tensor<1x3x4x4xf32> {ov.name = "a"}, %b: tensor<1x3x4x4xf32> {ov.name = "b"}) -> (tensor<1x2x4x4xf32> {ov.name = "out"}) {
  %lo1 = ov.constant dense<0.0> : tensor<f32>
  %hi1 = ov.constant dense<2.55> : tensor<f32>
  %fq1 = ov.fake_quantize %a, %lo1, %hi1, %lo1, %hi1 levels = 256 {ov.name = "fq1"} : (tensor<1x3x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x4x4xf32>
  %lo2 = ov.constant dense<-1.28> : tensor<f32>
  %hi2 = ov.constant dense<1.27> : tensor<f32>
  %fq2 = ov.fake_quantize %b, %lo2, %hi2, %lo2, %hi2 levels = 256 {ov.name = "fq2"} : (tensor<1x3x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x4x4xf32>
  %cat = ov.concat %fq1, %fq2 axis = 1 {ov.name = "concat"} : (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x6x4x4xf32>
  %w = ov.constant dense<[[[[1.0]], [[-0.5]], [[0.25]], [[0.75]], [[-1.0]], [[0.5]]], [[[0.1]], [[0.2]], [[-0.3]], [[0.4]], [[-0.6]], [[1.2]]]]> : tensor<2x6x1x1xf32>
  %wl = ov.constant dense<-1.27> : tensor<f32>
  %wh = ov.constant dense<1.27> : tensor<f32>
  %fqw = ov.fake_quantize %w, %wl, %wh, %wl, %wh levels = 255 {ov.name = "fqw"} : (tensor<2x6x1x1xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2x6x1x1xf32>
  %conv = ov.convolution %cat, %fqw {ov.name = "conv", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x6x4x4xf32>, tensor<2x6x1x1xf32>) -> tensor<1x2x4x4xf32>
  func.return %conv : tensor<1x2x4x4xf32>
}
// CHECK-LABEL: func.func @t8a
// CHECK-DAG:  %[[L1:.*]] = ov.constant dense<8.500000e+01> : tensor<f32>
// CHECK-DAG:  %[[H1:.*]] = ov.constant dense<2.550000e+02> : tensor<f32>
// CHECK:      %[[Q1:.*]] = ov.fake_quantize %a, %lo1, %hi1, %[[L1]], %[[H1]] levels = 171 {ov.name = "fq1"} : {{.*}} -> tensor<1x3x4x4xui8>
// CHECK-DAG:  %[[L2:.*]] = ov.constant dense<0.000000e+00> : tensor<f32>
// CHECK-DAG:  %[[H2:.*]] = ov.constant dense<1.700000e+02> : tensor<f32>
// CHECK:      %[[Q2:.*]] = ov.fake_quantize %b, %lo2, %hi2, %[[L2]], %[[H2]] levels = 171 {ov.name = "fq2"} : {{.*}} -> tensor<1x3x4x4xui8>
// CHECK:      %[[CAT:.*]] = ov.concat %[[Q1]], %[[Q2]] axis = 1 {ov.name = "concat"} : (tensor<1x3x4x4xui8>, tensor<1x3x4x4xui8>) -> tensor<1x6x4x4xui8>
// CHECK-DAG:  %[[W:.*]] = ov.constant dense<{{\[\[\[\[}}100]], {{\[\[}}-50]], {{\[\[}}25]], {{\[\[}}75]], {{\[\[}}-100]], {{\[\[}}50]]], {{\[\[\[}}10]], {{.*}} : tensor<2x6x1x1xi8>
// CHECK-DAG:  %[[ZP:.*]] = ov.constant dense<85> : tensor<{{(1x6x1x1x)?}}ui8>
// CHECK:      %[[SUB:.*]] = ov.subtract %[[CAT]], %[[ZP]] : (tensor<1x6x4x4xui8>, tensor<{{(1x6x1x1x)?}}ui8>) -> tensor<1x6x4x4xf32>
// CHECK-NEXT: %[[CONV:.*]] = ov.convolution %[[SUB]], %[[W]] {{.*}} : (tensor<1x6x4x4xf32>, tensor<2x6x1x1xi8>) -> tensor<1x2x4x4xf32>
// CHECK-NEXT: %[[S:.*]] = ov.constant dense<0.00015019608> : tensor<{{(1x)?}}f32>
// CHECK-NEXT: %conv = ov.multiply %[[CONV]], %[[S]] {ov.name = "conv"}
// CHECK-NEXT: func.return %conv

// -----

// Two unsigned intervals [0, 2.55] and [0, 1] into a per-tensor Convolution: common scale 0.01,
// zero point 0 (no Subtract), FQ2 -> [0, 100] with levels 101.
func.func @unsigned_conv(%a: tensor<1x1x4x4xf32>, %b: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %lo = ov.constant dense<0.0> : tensor<f32>
  %hi1 = ov.constant dense<2.55> : tensor<f32>
  %fq1 = ov.fake_quantize %a, %lo, %hi1, %lo, %hi1 levels = 256 {ov.name = "fq1"} : (tensor<1x1x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x1x4x4xf32>
  %hi2 = ov.constant dense<1.0> : tensor<f32>
  %fq2 = ov.fake_quantize %b, %lo, %hi2, %lo, %hi2 levels = 256 {ov.name = "fq2"} : (tensor<1x1x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x1x4x4xf32>
  %cat = ov.concat %fq1, %fq2 axis = 1 {ov.name = "concat"} : (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32>
  %w = ov.constant dense<[[[[1.0]], [[-0.5]]]]> : tensor<1x2x1x1xf32>
  %wl = ov.constant dense<-1.27> : tensor<f32>
  %wh = ov.constant dense<1.27> : tensor<f32>
  %fqw = ov.fake_quantize %w, %wl, %wh, %wl, %wh levels = 255 {ov.name = "fqw"} : (tensor<1x2x1x1xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x2x1x1xf32>
  %conv = ov.convolution %cat, %fqw {ov.name = "conv", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x4x4xf32>
  func.return %conv : tensor<1x1x4x4xf32>
}
// CHECK-LABEL: func.func @unsigned_conv
// CHECK:      %[[Q1:.*]] = ov.fake_quantize %a, {{.*}} levels = 256 {ov.name = "fq1"} : {{.*}} -> tensor<1x1x4x4xui8>
// CHECK-DAG:  %[[L2:.*]] = ov.constant dense<0.000000e+00> : tensor<f32>
// CHECK-DAG:  %[[H2:.*]] = ov.constant dense<1.000000e+02> : tensor<f32>
// CHECK:      %[[Q2:.*]] = ov.fake_quantize %b, %lo, %hi2, %[[L2]], %[[H2]] levels = 101 {ov.name = "fq2"} : {{.*}} -> tensor<1x1x4x4xui8>
// CHECK:      %[[CAT:.*]] = ov.concat %[[Q1]], %[[Q2]] axis = 1 {{.*}} -> tensor<1x2x4x4xui8>
// CHECK-NOT:  ov.subtract
// CHECK:      %[[CONV:.*]] = ov.convolution %[[CAT]], %{{.*}} : (tensor<1x2x4x4xui8>, tensor<1x2x1x1xi8>) -> tensor<1x1x4x4xf32>
// CHECK-NEXT: %[[S:.*]] = ov.constant dense<1.000000e-04> : tensor<{{(1x)?}}f32>
// CHECK-NEXT: %conv = ov.multiply %[[CONV]], %[[S]]

// -----

// No per-tensor consumer (MaxPool -> result): plain decomposition; the first FakeQuantize fixes u8
// for the group, FQ2 [-1.28, 1.27] gets zero point 128; per-channel Subtract, scalar Multiply.
func.func @pool_zero_points(%a: tensor<1x2x4x4xf32>, %b: tensor<1x3x4x4xf32>) -> tensor<1x5x2x2xf32> {
  %lo1 = ov.constant dense<0.0> : tensor<f32>
  %hi1 = ov.constant dense<2.55> : tensor<f32>
  %fq1 = ov.fake_quantize %a, %lo1, %hi1, %lo1, %hi1 levels = 256 {ov.name = "fq1"} : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %lo2 = ov.constant dense<-1.28> : tensor<f32>
  %hi2 = ov.constant dense<1.27> : tensor<f32>
  %fq2 = ov.fake_quantize %b, %lo2, %hi2, %lo2, %hi2 levels = 256 {ov.name = "fq2"} : (tensor<1x3x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x4x4xf32>
  %cat = ov.concat %fq1, %fq2 axis = 1 {ov.name = "concat"} : (tensor<1x2x4x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x5x4x4xf32>
  %mp = ov.max_pool %cat {ov.name = "pool", strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>} : (tensor<1x5x4x4xf32>) -> tensor<1x5x2x2xf32>
  func.return %mp : tensor<1x5x2x2xf32>
}
// CHECK-LABEL: func.func @pool_zero_points
// CHECK:      ov.fake_quantize %a, {{.*}} levels = 256 {ov.name = "fq1"} : {{.*}} -> tensor<1x2x4x4xui8>
// CHECK:      ov.fake_quantize %b, {{.*}} levels = 256 {ov.name = "fq2"} : {{.*}} -> tensor<1x3x4x4xui8>
// CHECK:      %[[CAT:.*]] = ov.concat {{.*}} -> tensor<1x5x4x4xui8>
// CHECK-DAG:  %[[ZP:.*]] = ov.constant dense<{{\[\[\[\[}}0.000000e+00]], {{\[\[}}0.000000e+00]], {{\[\[}}1.280000e+02]], {{\[\[}}1.280000e+02]], {{\[\[}}1.280000e+02]]]]> : tensor<1x5x1x1xf32>
// CHECK-DAG:  %[[S:.*]] = ov.constant dense<1.000000e-02> : tensor<f32>
// CHECK-DAG:  %[[MP:.*]] = ov.max_pool %[[CAT]] {{.*}} -> tensor<1x5x2x2xui8>
// CHECK:      %[[SUB:.*]] = ov.subtract %{{.*}}, %[[ZP]]
// CHECK-NEXT: %mp = ov.multiply %[[SUB]], %[[S]] {ov.name = "pool"}

// -----

// No per-tensor consumer, different scales 0.01 and 0.02: per-channel Multiply [1, 3, 1, 1].
func.func @pool_scales(%a: tensor<1x1x4x4xf32>, %b: tensor<1x2x4x4xf32>) -> tensor<1x3x2x2xf32> {
  %lo = ov.constant dense<0.0> : tensor<f32>
  %hi1 = ov.constant dense<2.55> : tensor<f32>
  %fq1 = ov.fake_quantize %a, %lo, %hi1, %lo, %hi1 levels = 256 {ov.name = "fq1"} : (tensor<1x1x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x1x4x4xf32>
  %hi2 = ov.constant dense<5.1> : tensor<f32>
  %fq2 = ov.fake_quantize %b, %lo, %hi2, %lo, %hi2 levels = 256 {ov.name = "fq2"} : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %cat = ov.concat %fq1, %fq2 axis = 1 {ov.name = "concat"} : (tensor<1x1x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32>
  %mp = ov.max_pool %cat {ov.name = "pool", strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x2x2xf32>
  func.return %mp : tensor<1x3x2x2xf32>
}
// CHECK-LABEL: func.func @pool_scales
// CHECK:      %[[CAT:.*]] = ov.concat {{.*}} -> tensor<1x3x4x4xui8>
// CHECK-DAG:  %[[S:.*]] = ov.constant dense<{{\[\[\[\[}}1.000000e-02]], {{\[\[}}2.000000e-02]], {{\[\[}}2.000000e-02]]]]> : tensor<1x3x1x1xf32>
// CHECK-DAG:  ov.max_pool %[[CAT]] {{.*}} -> tensor<1x3x2x2xui8>
// CHECK-NOT:  ov.subtract
// CHECK:      %mp = ov.multiply %{{.*}}, %[[S]] {ov.name = "pool"}
