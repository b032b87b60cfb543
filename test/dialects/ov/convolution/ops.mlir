// RUN: opt-tool %s | opt-tool | filecheck %s
// RUN: %roundtrip

// CHECK-LABEL: func.func @convolution
func.func @convolution(%x: tensor<1x4x6x6xf32>, %w: tensor<3x4x3x3xf32>, %x1: tensor<2x3x9xf16>, %w1: tensor<5x3x2xf16>, %x3: tensor<?x2x4x?x5xf32>, %w3: tensor<4x2x2x2x2xf32>) -> tensor<1x3x3x3xf32> {
  // CHECK: ov.convolution %{{.*}}, %{{.*}} {ov.name = "conv", strides = array<i64: 2, 2>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x6xf32>, tensor<3x4x3x3xf32>) -> tensor<1x3x3x3xf32>
  %0 = ov.convolution %x, %w {strides = array<i64: 2, 2>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>, ov.name = "conv"} : (tensor<1x4x6x6xf32>, tensor<3x4x3x3xf32>) -> tensor<1x3x3x3xf32>
  // CHECK: ov.convolution %{{.*}}, %{{.*}} {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>, auto_pad = #ov<auto_pad same_upper>} : (tensor<1x4x6x6xf32>, tensor<3x4x3x3xf32>) -> tensor<1x3x6x6xf32>
  %1 = ov.convolution %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>, auto_pad = #ov<auto_pad same_upper>} : (tensor<1x4x6x6xf32>, tensor<3x4x3x3xf32>) -> tensor<1x3x6x6xf32>
  // CHECK: ov.convolution %{{.*}}, %{{.*}} {strides = array<i64: 2>, pads_begin = array<i64: 0>, pads_end = array<i64: 0>, dilations = array<i64: 3>, auto_pad = #ov<auto_pad valid>} : (tensor<2x3x9xf16>, tensor<5x3x2xf16>) -> tensor<2x5x3xf16>
  %2 = ov.convolution %x1, %w1 {strides = array<i64: 2>, pads_begin = array<i64: 0>, pads_end = array<i64: 0>, dilations = array<i64: 3>, auto_pad = #ov<auto_pad valid>} : (tensor<2x3x9xf16>, tensor<5x3x2xf16>) -> tensor<2x5x3xf16>
  // CHECK: ov.convolution %{{.*}}, %{{.*}} {strides = array<i64: 1, 2, 1>, pads_begin = array<i64: 0, 1, 0>, pads_end = array<i64: 1, 0, 0>, dilations = array<i64: 1, 1, 2>, auto_pad = #ov<auto_pad same_lower>} : (tensor<?x2x4x?x5xf32>, tensor<4x2x2x2x2xf32>) -> tensor<?x4x4x?x5xf32>
  %3 = ov.convolution %x3, %w3 {strides = array<i64: 1, 2, 1>, pads_begin = array<i64: 0, 1, 0>, pads_end = array<i64: 1, 0, 0>, dilations = array<i64: 1, 1, 2>, auto_pad = #ov<auto_pad same_lower>} : (tensor<?x2x4x?x5xf32>, tensor<4x2x2x2x2xf32>) -> tensor<?x4x4x?x5xf32>
  func.return %0 : tensor<1x3x3x3xf32>
}

// CHECK-LABEL: func.func @group_convolution
func.func @group_convolution(%x: tensor<1x4x6x6xf32>, %g: tensor<2x3x2x3x3xf32>, %dw: tensor<4x1x1x3x3xf32>) -> tensor<1x6x4x4xf32> {
  // CHECK: ov.group_convolution %{{.*}}, %{{.*}} {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x6xf32>, tensor<2x3x2x3x3xf32>) -> tensor<1x6x4x4xf32>
  %0 = ov.group_convolution %x, %g {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x6xf32>, tensor<2x3x2x3x3xf32>) -> tensor<1x6x4x4xf32>
  // CHECK: ov.group_convolution %{{.*}}, %{{.*}} {ov.name = "depthwise", strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>, auto_pad = #ov<auto_pad same_lower>} : (tensor<1x4x6x6xf32>, tensor<4x1x1x3x3xf32>) -> tensor<1x4x3x3xf32>
  %1 = ov.group_convolution %x, %dw {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>, auto_pad = #ov<auto_pad same_lower>, ov.name = "depthwise"} : (tensor<1x4x6x6xf32>, tensor<4x1x1x3x3xf32>) -> tensor<1x4x3x3xf32>
  func.return %0 : tensor<1x6x4x4xf32>
}

// CHECK-LABEL: func.func @convolution_backprop_data
func.func @convolution_backprop_data(%x: tensor<1x3x3x3xf32>, %w: tensor<3x2x3x3xf32>, %s: tensor<2xi64>) -> tensor<1x2x6x6xf32> {
  // CHECK: ov.convolution_backprop_data %{{.*}}, %{{.*}} {strides = array<i64: 2, 2>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>, output_padding = array<i64: 1, 1>} : (tensor<1x3x3x3xf32>, tensor<3x2x3x3xf32>) -> tensor<1x2x6x6xf32>
  %0 = ov.convolution_backprop_data %x, %w {strides = array<i64: 2, 2>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>, output_padding = array<i64: 1, 1>} : (tensor<1x3x3x3xf32>, tensor<3x2x3x3xf32>) -> tensor<1x2x6x6xf32>
  // CHECK: ov.convolution_backprop_data %{{.*}}, %{{.*}}, %{{.*}} {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>, auto_pad = #ov<auto_pad same_upper>} : (tensor<1x3x3x3xf32>, tensor<3x2x3x3xf32>, tensor<2xi64>) -> tensor<1x2x?x?xf32>
  %1 = ov.convolution_backprop_data %x, %w, %s {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>, auto_pad = #ov<auto_pad same_upper>} : (tensor<1x3x3x3xf32>, tensor<3x2x3x3xf32>, tensor<2xi64>) -> tensor<1x2x?x?xf32>
  // CHECK: %[[SHAPE:.*]] = ov.constant dense<[5, 6]> : tensor<2xi64>
  %shape = ov.constant dense<[5, 6]> : tensor<2xi64>
  // CHECK: ov.convolution_backprop_data %{{.*}}, %{{.*}}, %[[SHAPE]] {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>, auto_pad = #ov<auto_pad same_lower>, output_padding = array<i64: 0, 1>} : (tensor<1x3x3x3xf32>, tensor<3x2x3x3xf32>, tensor<2xi64>) -> tensor<1x2x5x6xf32>
  %2 = ov.convolution_backprop_data %x, %w, %shape {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>, auto_pad = #ov<auto_pad same_lower>, output_padding = array<i64: 0, 1>} : (tensor<1x3x3x3xf32>, tensor<3x2x3x3xf32>, tensor<2xi64>) -> tensor<1x2x5x6xf32>
  // CHECK: ov.convolution_backprop_data %{{.*}}, %{{.*}} {strides = array<i64: 1, 1>, pads_begin = array<i64: 2, 2>, pads_end = array<i64: 2, 2>, dilations = array<i64: 2, 1>, auto_pad = #ov<auto_pad valid>} : (tensor<1x3x3x3xf32>, tensor<3x2x3x3xf32>) -> tensor<1x2x7x5xf32>
  %3 = ov.convolution_backprop_data %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 2, 2>, pads_end = array<i64: 2, 2>, dilations = array<i64: 2, 1>, auto_pad = #ov<auto_pad valid>} : (tensor<1x3x3x3xf32>, tensor<3x2x3x3xf32>) -> tensor<1x2x7x5xf32>
  func.return %0 : tensor<1x2x6x6xf32>
}

// CHECK-LABEL: func.func @convolution_i32
func.func @convolution_i32(%x: tensor<1x4x6x6xi32>, %w: tensor<3x4x3x3xi32>, %g: tensor<2x1x2x3x3xi32>) -> (tensor<1x3x4x4xi32>, tensor<1x2x4x4xi32>) {
  // i32, as OpenVINO's ONNX frontend makes ConvInteger
  // CHECK: ov.convolution %{{.*}}, %{{.*}} {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x6xi32>, tensor<3x4x3x3xi32>) -> tensor<1x3x4x4xi32>
  %0 = ov.convolution %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x6xi32>, tensor<3x4x3x3xi32>) -> tensor<1x3x4x4xi32>
  // CHECK: ov.group_convolution %{{.*}}, %{{.*}} {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x6xi32>, tensor<2x1x2x3x3xi32>) -> tensor<1x2x4x4xi32>
  %1 = ov.group_convolution %x, %g {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x6xi32>, tensor<2x1x2x3x3xi32>) -> tensor<1x2x4x4xi32>
  func.return %0, %1 : tensor<1x3x4x4xi32>, tensor<1x2x4x4xi32>
}
