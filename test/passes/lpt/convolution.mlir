// RUN: opt-tool %s -p test-lpt-convolution | filecheck %s
// RUN: opt-tool %s -p 'test-lpt-convolution{asymmetric-activations=false asymmetric-weights=false}' | filecheck %s --check-prefix=SYM
// ConvolutionTransformation (convolution.cpp, weightable_layer_transformation.cpp): the
// Convolution reads the u8 activations and i8 weights; the activation scale (per-tensor only)
// times the per-output-channel weight scale becomes one Multiply after it; zero points stay
// in front as Subtracts on the low-precision values (u8/i8 constants, f32 result). The
// asymmetric-quantization callbacks reject zero points on activations or weights.

builtin.module {
  // weights FQ per output channel: [-1.28, 1.27] -> scale 0.01, [-2.56, 2.54] -> scale 0.02;
  // quantized with round half to even (0.25 / 0.02 = 12.5 -> 12, 0.75 / 0.02 = 37.5 -> 38);
  // output scales 0.02 * [0.01, 0.02] = [2e-4, 4e-4]
  // CHECK-LABEL: func.func @fq_weights
  // CHECK-NEXT:    %[[W:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}[10, -20], [30, 40]], {{\[}}[-50, 60], [70, -80]]], {{\[}}{{\[}}[50, 25], [12, -50]], {{\[}}[0, 38], [-12, 62]]]]> : tensor<2x2x2x2xi8>
  // CHECK-NEXT:    %[[CV:.*]] = ov.convolution %x, %[[W]] {ov.name = "conv_original", {{.*}}} : (tensor<1x2x3x3xui8>, tensor<2x2x2x2xi8>) -> tensor<1x2x2x2xf32>
  // CHECK-NEXT:    %[[S:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}2.000000e-04]], {{\[}}{{\[}}4.000000e-04]]]]> : tensor<1x2x1x1xf32>
  // CHECK-NEXT:    %[[Y:.*]] = ov.multiply %[[CV]], %[[S]] {ov.name = "conv"} : (tensor<1x2x2x2xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x2x2xf32>
  // CHECK-NEXT:    func.return %[[Y]]
  // SYM-LABEL:   func.func @fq_weights
  // SYM:           ov.convolution %x, %{{.*}} : (tensor<1x2x3x3xui8>, tensor<2x2x2x2xi8>)
  func.func @fq_weights(%x: tensor<1x2x3x3xui8>) -> tensor<1x2x2x2xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x2x3x3xui8>) -> tensor<1x2x3x3xf32>
    %s = ov.constant dense<0.02> : tensor<f32>
    %a = ov.multiply %c, %s : (tensor<1x2x3x3xf32>, tensor<f32>) -> tensor<1x2x3x3xf32>
    %w = ov.constant dense<[[[[0.1, -0.2], [0.3, 0.4]], [[-0.5, 0.6], [0.7, -0.8]]], [[[1.0, 0.5], [0.25, -1.0]], [[0.0, 0.75], [-0.25, 1.25]]]]> : tensor<2x2x2x2xf32>
    %wl = ov.constant dense<[[[[-1.28]]], [[[-2.56]]]]> : tensor<2x1x1x1xf32>
    %wh = ov.constant dense<[[[[1.27]]], [[[2.54]]]]> : tensor<2x1x1x1xf32>
    %wfq = ov.fake_quantize %w, %wl, %wh, %wl, %wh levels = 256 : (tensor<2x2x2x2xf32>, tensor<2x1x1x1xf32>, tensor<2x1x1x1xf32>, tensor<2x1x1x1xf32>, tensor<2x1x1x1xf32>) -> tensor<2x2x2x2xf32>
    %y = ov.convolution %a, %wfq {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>, ov.name = "conv"} : (tensor<1x2x3x3xf32>, tensor<2x2x2x2xf32>) -> tensor<1x2x2x2xf32>
    func.return %y : tensor<1x2x2x2xf32>
  }

  // activation zero point 128 stays before the Convolution as Subtract(u8 128), broadcast to
  // [1, C_in, 1, 1] as upstream's convolution.cpp does for the CPU plugin;
  // weights DQ scales [0.5, 0.25] -> output scales [0.01, 0.005]
  // CHECK-LABEL: func.func @zero_point
  // CHECK-NEXT:    %[[W:.*]] = ov.constant {{.*}} : tensor<2x2x2x2xi8>
  // CHECK-NEXT:    %[[ZP:.*]] = ov.constant dense<128> : tensor<1x2x1x1xui8>
  // CHECK-NEXT:    %[[SUB:.*]] = ov.subtract %x, %[[ZP]] : (tensor<1x2x3x3xui8>, tensor<1x2x1x1xui8>) -> tensor<1x2x3x3xf32>
  // CHECK-NEXT:    %[[CV:.*]] = ov.convolution %[[SUB]], %[[W]] {{.*}} : (tensor<1x2x3x3xf32>, tensor<2x2x2x2xi8>) -> tensor<1x2x2x2xf32>
  // CHECK-NEXT:    %[[S:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}1.000000e-02]], {{\[}}{{\[}}5.000000e-03]]]]> : tensor<1x2x1x1xf32>
  // CHECK-NEXT:    ov.multiply %[[CV]], %[[S]]
  // SYM-LABEL:   func.func @zero_point
  // SYM:           ov.convolution %a, %b {{.*}} : (tensor<1x2x3x3xf32>, tensor<2x2x2x2xf32>)
  func.func @zero_point(%x: tensor<1x2x3x3xui8>) -> tensor<1x2x2x2xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x2x3x3xui8>) -> tensor<1x2x3x3xf32>
    %zp = ov.constant dense<128.0> : tensor<f32>
    %sb = ov.subtract %c, %zp : (tensor<1x2x3x3xf32>, tensor<f32>) -> tensor<1x2x3x3xf32>
    %s = ov.constant dense<0.02> : tensor<f32>
    %a = ov.multiply %sb, %s : (tensor<1x2x3x3xf32>, tensor<f32>) -> tensor<1x2x3x3xf32>
    %w = ov.constant dense<[[[[1, -2], [3, 4]], [[-5, 6], [7, -8]]], [[[10, 5], [2, -10]], [[0, 7], [-2, 12]]]]> : tensor<2x2x2x2xi8>
    %wc = ov.convert %w destination_type = f32 : (tensor<2x2x2x2xi8>) -> tensor<2x2x2x2xf32>
    %ws = ov.constant dense<[[[[0.5]]], [[[0.25]]]]> : tensor<2x1x1x1xf32>
    %b = ov.multiply %wc, %ws : (tensor<2x2x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<2x2x2x2xf32>
    %y = ov.convolution %a, %b {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x3x3xf32>, tensor<2x2x2x2xf32>) -> tensor<1x2x2x2xf32>
    func.return %y : tensor<1x2x2x2xf32>
  }

  // per-input-channel activation scales cannot move past the reduction: unchanged
  // CHECK-LABEL: func.func @per_channel_activations
  // CHECK:         ov.convolution %a, %b {{.*}} : (tensor<1x2x3x3xf32>, tensor<2x2x2x2xf32>)
  func.func @per_channel_activations(%x: tensor<1x2x3x3xui8>) -> tensor<1x2x2x2xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x2x3x3xui8>) -> tensor<1x2x3x3xf32>
    %s = ov.constant dense<[[[[0.02]], [[0.03]]]]> : tensor<1x2x1x1xf32>
    %a = ov.multiply %c, %s : (tensor<1x2x3x3xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x3x3xf32>
    %w = ov.constant dense<[[[[1, -2], [3, 4]], [[-5, 6], [7, -8]]], [[[10, 5], [2, -10]], [[0, 7], [-2, 12]]]]> : tensor<2x2x2x2xi8>
    %wc = ov.convert %w destination_type = f32 : (tensor<2x2x2x2xi8>) -> tensor<2x2x2x2xf32>
    %ws = ov.constant dense<0.5> : tensor<f32>
    %b = ov.multiply %wc, %ws : (tensor<2x2x2x2xf32>, tensor<f32>) -> tensor<2x2x2x2xf32>
    %y = ov.convolution %a, %b {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x3x3xf32>, tensor<2x2x2x2xf32>) -> tensor<1x2x2x2xf32>
    func.return %y : tensor<1x2x2x2xf32>
  }

  // weights zero points [2, -3] stay as Subtract(i8) on the weights, per output channel
  // CHECK-LABEL: func.func @weights_zero_point
  // CHECK-NEXT:    %[[W:.*]] = ov.constant {{.*}} : tensor<2x2x2x2xi8>
  // CHECK-NEXT:    %[[WZ:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}[2]]], {{\[}}{{\[}}[-3]]]]> : tensor<2x1x1x1xi8>
  // CHECK-NEXT:    %[[WS:.*]] = ov.subtract %[[W]], %[[WZ]] : (tensor<2x2x2x2xi8>, tensor<2x1x1x1xi8>) -> tensor<2x2x2x2xf32>
  // CHECK-NEXT:    %[[CV:.*]] = ov.convolution %x, %[[WS]]
  // CHECK-NEXT:    %[[S:.*]] = ov.constant dense<1.000000e-02> : tensor<f32>
  // CHECK-NEXT:    ov.multiply %[[CV]], %[[S]]
  // SYM-LABEL:   func.func @weights_zero_point
  // SYM:           ov.convolution %a, %b {{.*}} : (tensor<1x2x3x3xf32>, tensor<2x2x2x2xf32>)
  func.func @weights_zero_point(%x: tensor<1x2x3x3xui8>) -> tensor<1x2x2x2xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x2x3x3xui8>) -> tensor<1x2x3x3xf32>
    %s = ov.constant dense<0.02> : tensor<f32>
    %a = ov.multiply %c, %s : (tensor<1x2x3x3xf32>, tensor<f32>) -> tensor<1x2x3x3xf32>
    %w = ov.constant dense<[[[[1, -2], [3, 4]], [[-5, 6], [7, -8]]], [[[10, 5], [2, -10]], [[0, 7], [-2, 12]]]]> : tensor<2x2x2x2xi8>
    %wc = ov.convert %w destination_type = f32 : (tensor<2x2x2x2xi8>) -> tensor<2x2x2x2xf32>
    %wz = ov.constant dense<[[[[2.0]]], [[[-3.0]]]]> : tensor<2x1x1x1xf32>
    %wsb = ov.subtract %wc, %wz : (tensor<2x2x2x2xf32>, tensor<2x1x1x1xf32>) -> tensor<2x2x2x2xf32>
    %ws = ov.constant dense<0.5> : tensor<f32>
    %b = ov.multiply %wsb, %ws : (tensor<2x2x2x2xf32>, tensor<f32>) -> tensor<2x2x2x2xf32>
    %y = ov.convolution %a, %b {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x3x3xf32>, tensor<2x2x2x2xf32>) -> tensor<1x2x2x2xf32>
    func.return %y : tensor<1x2x2x2xf32>
  }
}
