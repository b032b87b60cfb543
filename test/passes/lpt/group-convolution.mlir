// RUN: opt-tool %s -p test-lpt-group-convolution | filecheck %s
// GroupConvolutionTransformation (group_convolution.cpp): like Convolution, but activation
// scales may differ between groups (equal within each group); the Reshape that makes
// G x C_out/G x C_in/G x K weights from a (G * C_out/G) x C_in/G x K FakeQuantize folds into
// the i8 constant. Weight constants must be per output channel: behind the Reshape that is
// axis 0 only.

builtin.module {
  // group scales [0.01, 0.02] x weight scale 0.01 ([-1.28, 1.27] / 256) = [1e-4, 2e-4]
  // CHECK-LABEL: func.func @per_group_scales
  // CHECK-NEXT:    %[[W:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}[50]], {{\[}}[-25]]]], {{\[}}{{\[}}{{\[}}[100]], {{\[}}[30]]]]]> : tensor<2x1x2x1x1xi8>
  // CHECK-NEXT:    %[[CV:.*]] = ov.group_convolution %x, %[[W]] {ov.name = "gconv_original", {{.*}}} : (tensor<1x4x3x3xui8>, tensor<2x1x2x1x1xi8>) -> tensor<1x2x3x3xf32>
  // CHECK-NEXT:    %[[S:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}1.000000e-04]], {{\[}}{{\[}}2.000000e-04]]]]> : tensor<1x2x1x1xf32>
  // CHECK-NEXT:    %[[Y:.*]] = ov.multiply %[[CV]], %[[S]] {ov.name = "gconv"}
  // CHECK-NEXT:    func.return %[[Y]]
  func.func @per_group_scales(%x: tensor<1x4x3x3xui8>) -> tensor<1x2x3x3xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x3x3xui8>) -> tensor<1x4x3x3xf32>
    %s = ov.constant dense<[[[[0.01]], [[0.01]], [[0.02]], [[0.02]]]]> : tensor<1x4x1x1xf32>
    %a = ov.multiply %c, %s : (tensor<1x4x3x3xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x3x3xf32>
    %w = ov.constant dense<[[[[0.5]], [[-0.25]]], [[[1.0]], [[0.3]]]]> : tensor<2x2x1x1xf32>
    %wl = ov.constant dense<-1.28> : tensor<f32>
    %wh = ov.constant dense<1.27> : tensor<f32>
    %wfq = ov.fake_quantize %w, %wl, %wh, %wl, %wh levels = 256 : (tensor<2x2x1x1xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2x2x1x1xf32>
    %shape = ov.constant dense<[2, 1, 2, 1, 1]> : tensor<5xi64>
    %wr = ov.reshape %wfq, %shape special_zero = false : (tensor<2x2x1x1xf32>, tensor<5xi64>) -> tensor<2x1x2x1x1xf32>
    %y = ov.group_convolution %a, %wr {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>, ov.name = "gconv"} : (tensor<1x4x3x3xf32>, tensor<2x1x2x1x1xf32>) -> tensor<1x2x3x3xf32>
    func.return %y : tensor<1x2x3x3xf32>
  }

  // depthwise: per-channel zero points stay as Subtract(u8), scales [0.1, 0.2] x [0.5, 0.25] = 0.05
  // CHECK-LABEL: func.func @depthwise
  // CHECK-NEXT:    %[[W:.*]] = ov.constant {{.*}} : tensor<2x1x1x1x1xi8>
  // CHECK-NEXT:    %[[ZP:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}[10]], {{\[}}[20]]]]> : tensor<1x2x1x1xui8>
  // CHECK-NEXT:    %[[SUB:.*]] = ov.subtract %x, %[[ZP]] : (tensor<1x2x3x3xui8>, tensor<1x2x1x1xui8>) -> tensor<1x2x3x3xf32>
  // CHECK-NEXT:    %[[CV:.*]] = ov.group_convolution %[[SUB]], %[[W]]
  // CHECK-NEXT:    %[[S:.*]] = ov.constant dense<5.000000e-02> : tensor<f32>
  // CHECK-NEXT:    ov.multiply %[[CV]], %[[S]]
  func.func @depthwise(%x: tensor<1x2x3x3xui8>) -> tensor<1x2x3x3xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x2x3x3xui8>) -> tensor<1x2x3x3xf32>
    %zp = ov.constant dense<[[[[10.0]], [[20.0]]]]> : tensor<1x2x1x1xf32>
    %sb = ov.subtract %c, %zp : (tensor<1x2x3x3xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x3x3xf32>
    %s = ov.constant dense<[[[[0.1]], [[0.2]]]]> : tensor<1x2x1x1xf32>
    %a = ov.multiply %sb, %s : (tensor<1x2x3x3xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x3x3xf32>
    %w = ov.constant dense<[[[[[3]]]], [[[[-4]]]]]> : tensor<2x1x1x1x1xi8>
    %wc = ov.convert %w destination_type = f32 : (tensor<2x1x1x1x1xi8>) -> tensor<2x1x1x1x1xf32>
    %ws = ov.constant dense<[[[[[0.5]]]], [[[[0.25]]]]]> : tensor<2x1x1x1x1xf32>
    %b = ov.multiply %wc, %ws : (tensor<2x1x1x1x1xf32>, tensor<2x1x1x1x1xf32>) -> tensor<2x1x1x1x1xf32>
    %y = ov.group_convolution %a, %b {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x3x3xf32>, tensor<2x1x1x1x1xf32>) -> tensor<1x2x3x3xf32>
    func.return %y : tensor<1x2x3x3xf32>
  }

  // scales differ inside a group: unchanged
  // CHECK-LABEL: func.func @scales_within_group
  // CHECK:         ov.group_convolution %a, %b {{.*}} : (tensor<1x4x3x3xf32>, tensor<2x1x2x1x1xf32>)
  func.func @scales_within_group(%x: tensor<1x4x3x3xui8>) -> tensor<1x2x3x3xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x3x3xui8>) -> tensor<1x4x3x3xf32>
    %s = ov.constant dense<[[[[0.01]], [[0.02]], [[0.03]], [[0.04]]]]> : tensor<1x4x1x1xf32>
    %a = ov.multiply %c, %s : (tensor<1x4x3x3xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x3x3xf32>
    %w = ov.constant dense<[[[[[3]], [[-4]]]], [[[[5]], [[6]]]]]> : tensor<2x1x2x1x1xi8>
    %wc = ov.convert %w destination_type = f32 : (tensor<2x1x2x1x1xi8>) -> tensor<2x1x2x1x1xf32>
    %ws = ov.constant dense<0.5> : tensor<f32>
    %b = ov.multiply %wc, %ws : (tensor<2x1x2x1x1xf32>, tensor<f32>) -> tensor<2x1x2x1x1xf32>
    %y = ov.group_convolution %a, %b {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x3x3xf32>, tensor<2x1x2x1x1xf32>) -> tensor<1x2x3x3xf32>
    func.return %y : tensor<1x2x3x3xf32>
  }

  // weight scales along axis 1 of the pre-Reshape weights are per input channel: unchanged
  // CHECK-LABEL: func.func @per_input_channel_weights
  // CHECK:         ov.group_convolution %a, %wr {{.*}} : (tensor<1x4x3x3xf32>, tensor<2x1x2x1x1xf32>)
  func.func @per_input_channel_weights(%x: tensor<1x4x3x3xui8>) -> tensor<1x2x3x3xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x3x3xui8>) -> tensor<1x4x3x3xf32>
    %s = ov.constant dense<0.01> : tensor<f32>
    %a = ov.multiply %c, %s : (tensor<1x4x3x3xf32>, tensor<f32>) -> tensor<1x4x3x3xf32>
    %w = ov.constant dense<[[[[3]], [[-4]]], [[[5]], [[6]]]]> : tensor<2x2x1x1xi8>
    %wc = ov.convert %w destination_type = f32 : (tensor<2x2x1x1xi8>) -> tensor<2x2x1x1xf32>
    %ws = ov.constant dense<[[[[0.5]], [[0.25]]]]> : tensor<1x2x1x1xf32>
    %b = ov.multiply %wc, %ws : (tensor<2x2x1x1xf32>, tensor<1x2x1x1xf32>) -> tensor<2x2x1x1xf32>
    %shape = ov.constant dense<[2, 1, 2, 1, 1]> : tensor<5xi64>
    %wr = ov.reshape %b, %shape special_zero = false : (tensor<2x2x1x1xf32>, tensor<5xi64>) -> tensor<2x1x2x1x1xf32>
    %y = ov.group_convolution %a, %wr {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x3x3xf32>, tensor<2x1x2x1x1xf32>) -> tensor<1x2x3x3xf32>
    func.return %y : tensor<1x2x3x3xf32>
  }
}
