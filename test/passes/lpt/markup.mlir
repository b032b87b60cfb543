// LPT markup (-p test-lpt-markup writes the attributes as lpt.*): precisions propagated backwards
// through precision-preserved ops, interval alignment merged at the Concat, quantization
// alignment set when the Concat reaches a per-tensor-restricted port (the spec's section 4.10).
// RUN: opt-tool %s --split-input-file -p test-lpt-markup | filecheck %s

// T8a: u8 and i8 intervals into a Concat feeding a per-tensor Convolution port.
func.func @concat_conv(%a: tensor<1x3x4x4xf32>, %b: tensor<1x3x4x4xf32>) -> tensor<1x2x4x4xf32> {
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
// CHECK-LABEL: func.func @concat_conv
// The Convolution restriction {0: [u8]} narrows the cell shared by both FakeQuantize outputs
// and the Concat; the weights FakeQuantize reads {1: [i8]}.
// CHECK:      %fq1 = ov.fake_quantize {{.*}} levels = 256 {ov.name = "fq1", lpt.intervals_alignment = {low = -1.2799999{{[0-9]*}} : f64, high = 2.5499999{{[0-9]*}} : f64, min_low = 0.000000e+00 : f64, min_high = 2.5499999{{[0-9]*}} : f64, min_levels = 256 : i64, levels = 256 : i64, preferable = [i8, ui8]}, lpt.precisions = {out0 = [ui8]}}
// CHECK:      %fq2 = ov.fake_quantize {{.*}} levels = 256 {ov.name = "fq2", lpt.intervals_alignment = {low = -1.2799999{{[0-9]*}} : f64, high = 2.5499999{{[0-9]*}} : f64, min_low = 0.000000e+00 : f64, min_high = 2.5499999{{[0-9]*}} : f64, min_levels = 256 : i64, levels = 256 : i64, preferable = [i8, ui8]}, lpt.precisions = {out0 = [ui8]}}
// CHECK:      %cat = ov.concat %fq1, %fq2 axis = 1 {ov.name = "concat", lpt.precision_preserved = true, lpt.intervals_alignment = {low = -1.2799999{{[0-9]*}} : f64, high = 2.5499999{{[0-9]*}} : f64, {{.*}}min_levels = 256 : i64{{.*}}}, lpt.quantization_alignment = true, lpt.precisions = {op = [ui8]}}
// CHECK:      %fqw = ov.fake_quantize {{.*}} levels = 255 {ov.name = "fqw", lpt.intervals_alignment = {low = -1.2699999{{[0-9]*}} : f64, high = 1.2699999{{[0-9]*}} : f64, {{.*}}preferable = [i8]}, lpt.precisions = {out0 = [i8]}}
// CHECK:      %conv = ov.convolution %cat, %fqw {ov.name = "conv", lpt.precisions = {in0 = [ui8], in1 = [i8]}, lpt.quantization_granularity = {in0 = "per_tensor"}

// -----

// No per-tensor consumer: the precisions stay [u8, i8], no quantization alignment.
func.func @concat_pool(%a: tensor<1x2x4x4xf32>, %b: tensor<1x3x4x4xf32>) -> tensor<1x5x2x2xf32> {
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
// CHECK-LABEL: func.func @concat_pool
// CHECK:      %fq1 = ov.fake_quantize {{.*}} lpt.precisions = {out0 = [ui8, i8]}}
// CHECK:      %fq2 = ov.fake_quantize {{.*}} lpt.precisions = {out0 = [ui8, i8]}}
// CHECK:      %cat = ov.concat {{.*}} lpt.precision_preserved = true, lpt.intervals_alignment = {low = -1.2799999{{[0-9]*}} : f64, high = 2.5499999{{[0-9]*}} : f64, {{.*}}}, lpt.quantization_alignment = false, lpt.precisions = {op = [ui8, i8]}}
// CHECK:      %mp = ov.max_pool %cat {ov.name = "pool", lpt.precision_preserved = true, lpt.intervals_alignment = {low = -1.2799999{{[0-9]*}} : f64, {{.*}}}, lpt.quantization_alignment = false, lpt.precisions = {op = [ui8, i8]}

// -----

// Concat -> MaxPool -> Convolution: the alignment reaches the Concat through the MaxPool;
// a narrower interval sets min_low/min_high and min_levels = calculateLevels(0, 255, 0, 2.55, 0, 1).
func.func @concat_pool_conv(%a: tensor<1x1x4x4xf32>, %b: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  %lo = ov.constant dense<0.0> : tensor<f32>
  %hi1 = ov.constant dense<2.55> : tensor<f32>
  %fq1 = ov.fake_quantize %a, %lo, %hi1, %lo, %hi1 levels = 256 {ov.name = "fq1"} : (tensor<1x1x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x1x4x4xf32>
  %hi2 = ov.constant dense<1.0> : tensor<f32>
  %fq2 = ov.fake_quantize %b, %lo, %hi2, %lo, %hi2 levels = 256 {ov.name = "fq2"} : (tensor<1x1x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x1x4x4xf32>
  %cat = ov.concat %fq1, %fq2 axis = 1 {ov.name = "concat"} : (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32>
  %mp = ov.max_pool %cat {ov.name = "pool", strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x2x2xf32>
  %w = ov.constant dense<[[[[1.0]], [[-0.5]]]]> : tensor<1x2x1x1xf32>
  %wl = ov.constant dense<-1.27> : tensor<f32>
  %wh = ov.constant dense<1.27> : tensor<f32>
  %fqw = ov.fake_quantize %w, %wl, %wh, %wl, %wh levels = 255 {ov.name = "fqw"} : (tensor<1x2x1x1xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x2x1x1xf32>
  %conv = ov.convolution %mp, %fqw {ov.name = "conv", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x2x2xf32>, tensor<1x2x1x1xf32>) -> tensor<1x1x2x2xf32>
  func.return %conv : tensor<1x1x2x2xf32>
}
// CHECK-LABEL: func.func @concat_pool_conv
// CHECK:      %fq1 = ov.fake_quantize {{.*}} {ov.name = "fq1", lpt.intervals_alignment = {low = 0.000000e+00 : f64, high = 2.5499999{{[0-9]*}} : f64, min_low = 0.000000e+00 : f64, min_high = 1.000000e+00 : f64, min_levels = 101 : i64, levels = 256 : i64, preferable = [ui8]}, lpt.precisions = {out0 = [ui8]}}
// CHECK:      %fq2 = ov.fake_quantize {{.*}} {ov.name = "fq2", lpt.intervals_alignment = {low = 0.000000e+00 : f64, high = 2.5499999{{[0-9]*}} : f64, min_low = 0.000000e+00 : f64, min_high = 1.000000e+00 : f64, min_levels = 101 : i64, levels = 256 : i64, preferable = [ui8]}, lpt.precisions = {out0 = [ui8]}}
// CHECK:      %cat = ov.concat {{.*}} lpt.precision_preserved = true, {{.*}}min_levels = 101 : i64{{.*}}, lpt.quantization_alignment = true, lpt.precisions = {op = [ui8]}}
// CHECK:      %mp = ov.max_pool %cat {ov.name = "pool", lpt.precision_preserved = true, {{.*}}min_levels = 101 : i64{{.*}}, lpt.quantization_alignment = true, lpt.precisions = {op = [ui8]}

// -----

// Different levels (256 and 255): the merged alignment has levels = min_levels = 0; an input that
// is not a FakeQuantize (%c) means no quantization alignment attribute on the second Concat.
func.func @levels_differ(%a: tensor<1x1x4x4xf32>, %b: tensor<1x1x4x4xf32>, %c: tensor<1x1x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %lo = ov.constant dense<0.0> : tensor<f32>
  %hi = ov.constant dense<2.55> : tensor<f32>
  %fq1 = ov.fake_quantize %a, %lo, %hi, %lo, %hi levels = 256 {ov.name = "fq1"} : (tensor<1x1x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x1x4x4xf32>
  %fq2 = ov.fake_quantize %b, %lo, %hi, %lo, %hi levels = 255 {ov.name = "fq2"} : (tensor<1x1x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x1x4x4xf32>
  %cat = ov.concat %fq1, %fq2 axis = 1 {ov.name = "concat"} : (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32>
  %fq3 = ov.fake_quantize %c, %lo, %hi, %lo, %hi levels = 256 {ov.name = "fq3"} : (tensor<1x1x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x1x4x4xf32>
  %cat2 = ov.concat %fq3, %c axis = 1 {ov.name = "concat2"} : (tensor<1x1x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x2x4x4xf32>
  func.return %cat, %cat2 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}
// CHECK-LABEL: func.func @levels_differ
// CHECK:      %fq1 = ov.fake_quantize {{.*}} {ov.name = "fq1", lpt.intervals_alignment = {{{.*}}min_levels = 0 : i64, levels = 0 : i64, preferable = [ui8]}
// CHECK:      %fq2 = ov.fake_quantize {{.*}} {ov.name = "fq2", lpt.intervals_alignment = {{{.*}}min_levels = 0 : i64, levels = 255 : i64, preferable = [ui8]}
// CHECK:      %cat = ov.concat {{.*}}lpt.quantization_alignment = false
// CHECK:      %cat2 = ov.concat %fq3, %c axis = 1 {ov.name = "concat2", lpt.precision_preserved = true, lpt.intervals_alignment = {{{.*}}min_levels = 256 : i64, levels = 256 : i64, preferable = [ui8]}, lpt.precisions = {op = [ui8, i8]}} :
