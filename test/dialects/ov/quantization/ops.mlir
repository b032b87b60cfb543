// RUN: opt-tool %s | opt-tool | filecheck %s
// RUN: %roundtrip

// Scalar limits, the default auto_broadcast (numpy) left out when printed.
// CHECK-LABEL: func.func @fake_quantize_scalar
func.func @fake_quantize_scalar(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32> {
  %il = ov.constant dense<-1.0> : tensor<f32>
  %ih = ov.constant dense<1.0> : tensor<f32>
  %ol = ov.constant dense<-1.0> : tensor<f32>
  %oh = ov.constant dense<1.0> : tensor<f32>
  // CHECK: ov.fake_quantize %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} levels = 256 {ov.name = "fq"} : (tensor<1x3x8x8xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x8x8xf32>
  %0 = ov.fake_quantize %x, %il, %ih, %ol, %oh levels = 256 {ov.name = "fq"} : (tensor<1x3x8x8xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x8x8xf32>
  // CHECK: ov.fake_quantize %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} levels = 2 : (tensor<1x3x8x8xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x8x8xf32>
  %1 = ov.fake_quantize %0, %il, %ih, %ol, %oh levels = 2 auto_broadcast = numpy : (tensor<1x3x8x8xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x8x8xf32>
  func.return %1 : tensor<1x3x8x8xf32>
}

// Per-channel input limits ([1, C, 1, 1]), reversed output limits, f16.
// CHECK-LABEL: func.func @fake_quantize_per_channel
func.func @fake_quantize_per_channel(%x: tensor<2x3x?x5xf16>, %il: tensor<1x3x1x1xf16>, %ih: tensor<1x3x1x1xf16>) -> tensor<2x3x?x5xf16> {
  %ol = ov.constant dense<[[[[1.0]], [[2.0]], [[3.0]]]]> : tensor<1x3x1x1xf16>
  %oh = ov.constant dense<-1.0> : tensor<1xf16>
  // CHECK: ov.fake_quantize %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} levels = 16 : (tensor<2x3x?x5xf16>, tensor<1x3x1x1xf16>, tensor<1x3x1x1xf16>, tensor<1x3x1x1xf16>, tensor<1xf16>) -> tensor<2x3x?x5xf16>
  %0 = ov.fake_quantize %x, %il, %ih, %ol, %oh levels = 16 : (tensor<2x3x?x5xf16>, tensor<1x3x1x1xf16>, tensor<1x3x1x1xf16>, tensor<1x3x1x1xf16>, tensor<1xf16>) -> tensor<2x3x?x5xf16>
  func.return %0 : tensor<2x3x?x5xf16>
}

// auto_broadcast = none: every limit has the shape of x.
// CHECK-LABEL: func.func @fake_quantize_no_broadcast
func.func @fake_quantize_no_broadcast(%x: tensor<4x2xf32>, %il: tensor<4x2xf32>, %ih: tensor<4x2xf32>, %ol: tensor<4x2xf32>, %oh: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // CHECK: ov.fake_quantize %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} levels = 255 auto_broadcast = none : (tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %0 = ov.fake_quantize %x, %il, %ih, %ol, %oh levels = 255 auto_broadcast = none : (tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  func.return %0 : tensor<4x2xf32>
}

// Type relaxed results (LPT's "quantize" half): ui8 with output limits [0, 255], i8 with
// [-128, 127], i32; computed in f32.
// CHECK-LABEL: func.func @fake_quantize_low_precision
func.func @fake_quantize_low_precision(%x: tensor<1x3x4x4xf32>, %il: tensor<1x3x1x1xf32>, %ih: tensor<1x3x1x1xf32>) -> (tensor<1x3x4x4xui8>, tensor<1x3x4x4xi8>, tensor<1x3x4x4xi32>) {
  %u_lo = ov.constant dense<0.0> : tensor<f32>
  %u_hi = ov.constant dense<255.0> : tensor<f32>
  %s_lo = ov.constant dense<-128.0> : tensor<f32>
  %s_hi = ov.constant dense<127.0> : tensor<f32>
  // CHECK: ov.fake_quantize %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} levels = 256 {ov.name = "quantize_u8"} : (tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>, tensor<f32>, tensor<f32>) -> tensor<1x3x4x4xui8>
  %0 = ov.fake_quantize %x, %il, %ih, %u_lo, %u_hi levels = 256 {ov.name = "quantize_u8"} : (tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>, tensor<f32>, tensor<f32>) -> tensor<1x3x4x4xui8>
  // CHECK: ov.fake_quantize %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} levels = 256 : (tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>, tensor<f32>, tensor<f32>) -> tensor<1x3x4x4xi8>
  %1 = ov.fake_quantize %x, %il, %ih, %s_lo, %s_hi levels = 256 : (tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>, tensor<f32>, tensor<f32>) -> tensor<1x3x4x4xi8>
  // CHECK: ov.fake_quantize %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} levels = 255 : (tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>, tensor<f32>, tensor<f32>) -> tensor<1x3x4x4xi32>
  %2 = ov.fake_quantize %x, %il, %ih, %s_lo, %s_hi levels = 255 : (tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>, tensor<f32>, tensor<f32>) -> tensor<1x3x4x4xi32>
  func.return %0, %1, %2 : tensor<1x3x4x4xui8>, tensor<1x3x4x4xi8>, tensor<1x3x4x4xi32>
}
