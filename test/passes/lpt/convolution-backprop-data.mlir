// RUN: opt-tool %s -p test-lpt-convolution-backprop-data | filecheck %s
// RUN: opt-tool %s -p 'test-lpt-convolution-backprop-data{cpu-callbacks=false}' | filecheck %s --check-prefix=NOCB
// ConvolutionBackpropDataTransformation (convolution_backprop_data.cpp): filters are
// C_in x C_out x K, so weight scales must lie along axis 1; the CPU plugin's callback
// (cpu-callbacks=true, the default) skips asymmetric quantization.

builtin.module {
  // weights FQ per output channel (axis 1): scales [0.01, 0.02, 0.01] -> output scales 0.02 x that
  // CHECK-LABEL: func.func @fq_weights
  // CHECK-NEXT:    %[[W:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}[10, -20], [30, 40]], {{\[}}[-25, 30], [35, -40]], {{\[}}[100, 50], [25, -100]]], {{\[}}{{\[}}[0, 75], [-25, 125]], {{\[}}[10, 10], [-5, 5]], {{\[}}[90, -90], [5, 15]]]]> : tensor<2x3x2x2xi8>
  // CHECK-NEXT:    %[[CV:.*]] = ov.convolution_backprop_data %x, %[[W]] {ov.name = "deconv_original", {{.*}}} : (tensor<1x2x2x2xui8>, tensor<2x3x2x2xi8>) -> tensor<1x3x3x3xf32>
  // CHECK-NEXT:    %[[S:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}2.000000e-04]], {{\[}}{{\[}}4.000000e-04]], {{\[}}{{\[}}2.000000e-04]]]]> : tensor<1x3x1x1xf32>
  // CHECK-NEXT:    %[[Y:.*]] = ov.multiply %[[CV]], %[[S]] {ov.name = "deconv"}
  // CHECK-NEXT:    func.return %[[Y]]
  func.func @fq_weights(%x: tensor<1x2x2x2xui8>) -> tensor<1x3x3x3xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x2x2x2xui8>) -> tensor<1x2x2x2xf32>
    %s = ov.constant dense<0.02> : tensor<f32>
    %a = ov.multiply %c, %s : (tensor<1x2x2x2xf32>, tensor<f32>) -> tensor<1x2x2x2xf32>
    %w = ov.constant dense<[[[[0.1, -0.2], [0.3, 0.4]], [[-0.5, 0.6], [0.7, -0.8]], [[1.0, 0.5], [0.25, -1.0]]], [[[0.0, 0.75], [-0.25, 1.25]], [[0.2, 0.2], [-0.1, 0.1]], [[0.9, -0.9], [0.05, 0.15]]]]> : tensor<2x3x2x2xf32>
    %wl = ov.constant dense<[[[[-1.28]], [[-2.56]], [[-1.28]]]]> : tensor<1x3x1x1xf32>
    %wh = ov.constant dense<[[[[1.27]], [[2.54]], [[1.27]]]]> : tensor<1x3x1x1xf32>
    %wfq = ov.fake_quantize %w, %wl, %wh, %wl, %wh levels = 256 : (tensor<2x3x2x2xf32>, tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>) -> tensor<2x3x2x2xf32>
    %y = ov.convolution_backprop_data %a, %wfq {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>, ov.name = "deconv"} : (tensor<1x2x2x2xf32>, tensor<2x3x2x2xf32>) -> tensor<1x3x3x3xf32>
    func.return %y : tensor<1x3x3x3xf32>
  }

  // i8 activations, weight scales [0.5, 0.25, 0.125] on axis 1 -> [0.05, 0.025, 0.0125]
  // CHECK-LABEL: func.func @dq_weights
  // CHECK-NEXT:    %[[W:.*]] = ov.constant dense<3> : tensor<2x3x2x2xi8>
  // CHECK-NEXT:    %[[CV:.*]] = ov.convolution_backprop_data %x, %[[W]] {{.*}} : (tensor<1x2x2x2xi8>, tensor<2x3x2x2xi8>) -> tensor<1x3x3x3xf32>
  // CHECK-NEXT:    %[[S:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}5.000000e-02]], {{\[}}{{\[}}2.500000e-02]], {{\[}}{{\[}}1.250000e-02]]]]> : tensor<1x3x1x1xf32>
  // CHECK-NEXT:    ov.multiply %[[CV]], %[[S]]
  func.func @dq_weights(%x: tensor<1x2x2x2xi8>) -> tensor<1x3x3x3xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xf32>
    %s = ov.constant dense<0.1> : tensor<f32>
    %a = ov.multiply %c, %s : (tensor<1x2x2x2xf32>, tensor<f32>) -> tensor<1x2x2x2xf32>
    %w = ov.constant dense<3> : tensor<2x3x2x2xi8>
    %wc = ov.convert %w destination_type = f32 : (tensor<2x3x2x2xi8>) -> tensor<2x3x2x2xf32>
    %ws = ov.constant dense<[[[[0.5]], [[0.25]], [[0.125]]]]> : tensor<1x3x1x1xf32>
    %b = ov.multiply %wc, %ws : (tensor<2x3x2x2xf32>, tensor<1x3x1x1xf32>) -> tensor<2x3x2x2xf32>
    %y = ov.convolution_backprop_data %a, %b {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x2x2xf32>, tensor<2x3x2x2xf32>) -> tensor<1x3x3x3xf32>
    func.return %y : tensor<1x3x3x3xf32>
  }

  // weight scales on axis 0 are per input channel: unchanged
  // CHECK-LABEL: func.func @per_input_channel_weights
  // CHECK:         ov.convolution_backprop_data %a, %b {{.*}} : (tensor<1x2x2x2xf32>, tensor<2x3x2x2xf32>)
  func.func @per_input_channel_weights(%x: tensor<1x2x2x2xi8>) -> tensor<1x3x3x3xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xf32>
    %s = ov.constant dense<0.1> : tensor<f32>
    %a = ov.multiply %c, %s : (tensor<1x2x2x2xf32>, tensor<f32>) -> tensor<1x2x2x2xf32>
    %w = ov.constant dense<3> : tensor<2x3x2x2xi8>
    %wc = ov.convert %w destination_type = f32 : (tensor<2x3x2x2xi8>) -> tensor<2x3x2x2xf32>
    %ws = ov.constant dense<[[[[0.5]]], [[[0.25]]]]> : tensor<2x1x1x1xf32>
    %b = ov.multiply %wc, %ws : (tensor<2x3x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<2x3x2x2xf32>
    %y = ov.convolution_backprop_data %a, %b {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x2x2xf32>, tensor<2x3x2x2xf32>) -> tensor<1x3x3x3xf32>
    func.return %y : tensor<1x3x3x3xf32>
  }

  // zero point 128: skipped by the CPU callback; without it, Subtract(u8 128) stays in front
  // CHECK-LABEL: func.func @zero_point
  // CHECK:         ov.convolution_backprop_data %a, %b {{.*}} : (tensor<1x2x2x2xf32>, tensor<2x3x2x2xf32>)
  // NOCB-LABEL:  func.func @zero_point
  // NOCB-NEXT:     %[[W:.*]] = ov.constant dense<3> : tensor<2x3x2x2xi8>
  // NOCB-NEXT:     %[[ZP:.*]] = ov.constant dense<128> : tensor<ui8>
  // NOCB-NEXT:     %[[SUB:.*]] = ov.subtract %x, %[[ZP]] : (tensor<1x2x2x2xui8>, tensor<ui8>) -> tensor<1x2x2x2xf32>
  // NOCB-NEXT:     %[[CV:.*]] = ov.convolution_backprop_data %[[SUB]], %[[W]]
  // NOCB-NEXT:     %[[S:.*]] = ov.constant dense<5.000000e-02> : tensor<f32>
  // NOCB-NEXT:     ov.multiply %[[CV]], %[[S]]
  func.func @zero_point(%x: tensor<1x2x2x2xui8>) -> tensor<1x3x3x3xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x2x2x2xui8>) -> tensor<1x2x2x2xf32>
    %zp = ov.constant dense<128.0> : tensor<f32>
    %sb = ov.subtract %c, %zp : (tensor<1x2x2x2xf32>, tensor<f32>) -> tensor<1x2x2x2xf32>
    %s = ov.constant dense<0.1> : tensor<f32>
    %a = ov.multiply %sb, %s : (tensor<1x2x2x2xf32>, tensor<f32>) -> tensor<1x2x2x2xf32>
    %w = ov.constant dense<3> : tensor<2x3x2x2xi8>
    %wc = ov.convert %w destination_type = f32 : (tensor<2x3x2x2xi8>) -> tensor<2x3x2x2xf32>
    %ws = ov.constant dense<0.5> : tensor<f32>
    %b = ov.multiply %wc, %ws : (tensor<2x3x2x2xf32>, tensor<f32>) -> tensor<2x3x2x2xf32>
    %y = ov.convolution_backprop_data %a, %b {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x2x2xf32>, tensor<2x3x2x2xf32>) -> tensor<1x3x3x3xf32>
    func.return %y : tensor<1x3x3x3xf32>
  }
}
