// RUN: opt-tool %s | opt-tool | filecheck %s
// RUN: %roundtrip

// Type-relaxed ops (OvOp.TYPE_RELAXED, docs/dialect/index.md): ui8/i8 operands are read as
// their float origin type, and the result may declare f32, f16, ui8, i8 or i32.

// CHECK-LABEL: func.func @convolutions
func.func @convolutions(%x: tensor<1x3x4x4xui8>, %w: tensor<2x3x1x1xi8>, %g: tensor<3x1x1x3x3xi8>, %t: tensor<3x2x3x3xi8>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xi32>, tensor<1x3x2x2xf16>, tensor<1x2x9x9xf32>) {
  // CHECK: ov.convolution %{{.*}}, %{{.*}} {ov.name = "conv", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x4x4xui8>, tensor<2x3x1x1xi8>) -> tensor<1x2x4x4xf32>
  %0 = ov.convolution %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>, ov.name = "conv"} : (tensor<1x3x4x4xui8>, tensor<2x3x1x1xi8>) -> tensor<1x2x4x4xf32>
  // CHECK: ov.convolution %{{.*}}, %{{.*}} {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x4x4xui8>, tensor<2x3x1x1xi8>) -> tensor<1x2x4x4xi32>
  %1 = ov.convolution %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x4x4xui8>, tensor<2x3x1x1xi8>) -> tensor<1x2x4x4xi32>
  // CHECK: ov.group_convolution %{{.*}}, %{{.*}} {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x4x4xui8>, tensor<3x1x1x3x3xi8>) -> tensor<1x3x2x2xf16>
  %2 = ov.group_convolution %x, %g {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x4x4xui8>, tensor<3x1x1x3x3xi8>) -> tensor<1x3x2x2xf16>
  // CHECK: ov.convolution_backprop_data %{{.*}}, %{{.*}} {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x4x4xui8>, tensor<3x2x3x3xi8>) -> tensor<1x2x9x9xf32>
  %3 = ov.convolution_backprop_data %x, %t {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x4x4xui8>, tensor<3x2x3x3xi8>) -> tensor<1x2x9x9xf32>
  func.return %0, %1, %2, %3 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xi32>, tensor<1x3x2x2xf16>, tensor<1x2x9x9xf32>
}

// CHECK-LABEL: func.func @mat_mul
func.func @mat_mul(%a: tensor<2x3x4xui8>, %b: tensor<4x5xi8>, %f: tensor<4x5xf32>) -> (tensor<2x3x5xf32>, tensor<2x3x5xf32>) {
  // CHECK: ov.mat_mul %{{.*}}, %{{.*}} : (tensor<2x3x4xui8>, tensor<4x5xi8>) -> tensor<2x3x5xf32>
  %0 = ov.mat_mul %a, %b : (tensor<2x3x4xui8>, tensor<4x5xi8>) -> tensor<2x3x5xf32>
  // CHECK: ov.mat_mul %{{.*}}, %{{.*}} : (tensor<2x3x4xui8>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  %1 = ov.mat_mul %a, %f : (tensor<2x3x4xui8>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  func.return %0, %1 : tensor<2x3x5xf32>, tensor<2x3x5xf32>
}

// The dequantization `Subtract -> Multiply` that LPT moves through the graph.
// CHECK-LABEL: func.func @dequantization
func.func @dequantization(%q: tensor<1x3x4x4xui8>, %zp: tensor<1x3x1x1xui8>, %i: tensor<1x3x4x4xi8>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) {
  %scale = ov.constant dense<0.5> : tensor<1x3x1x1xf32>
  // CHECK: ov.subtract %{{.*}}, %{{.*}} : (tensor<1x3x4x4xui8>, tensor<1x3x1x1xui8>) -> tensor<1x3x4x4xf32>
  %0 = ov.subtract %q, %zp : (tensor<1x3x4x4xui8>, tensor<1x3x1x1xui8>) -> tensor<1x3x4x4xf32>
  // CHECK: ov.multiply %{{.*}}, %{{.*}} : (tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x4x4xf32>
  %1 = ov.multiply %0, %scale : (tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x4x4xf32>
  // CHECK: ov.multiply %{{.*}}, %{{.*}} : (tensor<1x3x4x4xi8>, tensor<1x3x1x1xf32>) -> tensor<1x3x4x4xf32>
  %2 = ov.multiply %i, %scale : (tensor<1x3x4x4xi8>, tensor<1x3x1x1xf32>) -> tensor<1x3x4x4xf32>
  // CHECK: ov.add %{{.*}}, %{{.*}} : (tensor<1x3x4x4xui8>, tensor<1x3x4x4xi8>) -> tensor<1x3x4x4xf32>
  %3 = ov.add %q, %i : (tensor<1x3x4x4xui8>, tensor<1x3x4x4xi8>) -> tensor<1x3x4x4xf32>
  %4 = ov.add %2, %3 : (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  func.return %1, %4 : tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>
}

// avg_pool is relaxed; max_pool is not (it keeps the low-precision type: ui8 -> ui8).
// CHECK-LABEL: func.func @pooling
func.func @pooling(%x: tensor<1x3x4x4xui8>) -> (tensor<1x3x2x2xf32>, tensor<1x3x2x2xui8>) {
  // CHECK: ov.avg_pool %{{.*}} {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>, exclude_pad = true} : (tensor<1x3x4x4xui8>) -> tensor<1x3x2x2xf32>
  %0 = ov.avg_pool %x {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>, exclude_pad = true} : (tensor<1x3x4x4xui8>) -> tensor<1x3x2x2xf32>
  // CHECK: ov.max_pool %{{.*}} {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>} : (tensor<1x3x4x4xui8>) -> tensor<1x3x2x2xui8>
  %1 = ov.max_pool %x {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>} : (tensor<1x3x4x4xui8>) -> tensor<1x3x2x2xui8>
  func.return %0, %1 : tensor<1x3x2x2xf32>, tensor<1x3x2x2xui8>
}

// CHECK-LABEL: func.func @other_relaxed
func.func @other_relaxed(%x: tensor<1x4x2x2xui8>, %s: tensor<4xf32>) -> (tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>, tensor<1x1x4x4xui8>, tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>, tensor<1x4x1x1xf32>, tensor<1x4xi32>) {
  %axes = ov.constant dense<[2, 3]> : tensor<2xi64>
  // CHECK: ov.clamp %{{.*}} min = 0.000000e+00 max = 6.000000e+00 : (tensor<1x4x2x2xui8>) -> tensor<1x4x2x2xf32>
  %0 = ov.clamp %x min = 0.0 max = 6.0 : (tensor<1x4x2x2xui8>) -> tensor<1x4x2x2xf32>
  // CHECK: ov.prelu %{{.*}}, %{{.*}} : (tensor<1x4x2x2xui8>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  %1 = ov.prelu %x, %s : (tensor<1x4x2x2xui8>, tensor<4xf32>) -> tensor<1x4x2x2xf32>
  // CHECK: ov.depth_to_space %{{.*}} mode = blocks_first block_size = 2 : (tensor<1x4x2x2xui8>) -> tensor<1x1x4x4xui8>
  %2 = ov.depth_to_space %x mode = blocks_first block_size = 2 : (tensor<1x4x2x2xui8>) -> tensor<1x1x4x4xui8>
  // CHECK: ov.mvn %{{.*}}, %{{.*}} {eps = 1.000000e-09 : f32, eps_mode = #ov<mvn_eps_mode inside_sqrt>} : (tensor<1x4x2x2xui8>, tensor<2xi64>) -> tensor<1x4x2x2xf32>
  %3 = ov.mvn %x, %axes {eps = 1.000000e-09 : f32, eps_mode = #ov<mvn_eps_mode inside_sqrt>} : (tensor<1x4x2x2xui8>, tensor<2xi64>) -> tensor<1x4x2x2xf32>
  // CHECK: ov.normalize_l2 %{{.*}}, %{{.*}} {{.*}}: (tensor<1x4x2x2xui8>, tensor<2xi64>) -> tensor<1x4x2x2xf32>
  %4 = ov.normalize_l2 %x, %axes {eps = 1.000000e-06 : f32, eps_mode = #ov<eps_mode add>} : (tensor<1x4x2x2xui8>, tensor<2xi64>) -> tensor<1x4x2x2xf32>
  // CHECK: ov.reduce_mean %{{.*}}, %{{.*}} keep_dims = true : (tensor<1x4x2x2xui8>, tensor<2xi64>) -> tensor<1x4x1x1xf32>
  %5 = ov.reduce_mean %x, %axes keep_dims = true : (tensor<1x4x2x2xui8>, tensor<2xi64>) -> tensor<1x4x1x1xf32>
  // CHECK: ov.reduce_sum %{{.*}}, %{{.*}} : (tensor<1x4x2x2xui8>, tensor<2xi64>) -> tensor<1x4xi32>
  %6 = ov.reduce_sum %x, %axes : (tensor<1x4x2x2xui8>, tensor<2xi64>) -> tensor<1x4xi32>
  func.return %0, %1, %2, %3, %4, %5, %6 : tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>, tensor<1x1x4x4xui8>, tensor<1x4x2x2xf32>, tensor<1x4x2x2xf32>, tensor<1x4x1x1xf32>, tensor<1x4xi32>
}

// CHECK-LABEL: func.func @interpolate
func.func @interpolate(%x: tensor<1x3x4x4xui8>) -> tensor<1x3x8x8xf32> {
  %sizes = ov.constant dense<[8, 8]> : tensor<2xi64>
  %axes = ov.constant dense<[2, 3]> : tensor<2xi64>
  // CHECK: ov.interpolate %{{.*}}, %{{.*}}, %{{.*}} {mode = #ov<interpolate_mode linear_onnx>, shape_calculation_mode = #ov<shape_calculation_mode sizes>} : (tensor<1x3x4x4xui8>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x3x8x8xf32>
  %0 = ov.interpolate %x, %sizes, %axes {mode = #ov<interpolate_mode linear_onnx>, shape_calculation_mode = #ov<shape_calculation_mode sizes>} : (tensor<1x3x4x4xui8>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x3x8x8xf32>
  func.return %0 : tensor<1x3x8x8xf32>
}
