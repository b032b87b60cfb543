// RUN: opt-tool %s -p test-lpt-fake-quantize-decomposition | filecheck %s
// RUN: opt-tool %s -p 'test-lpt-fake-quantize-decomposition{update-precisions=false}' | filecheck %s --check-prefix=NOUPD
// FakeQuantizeDecompositionTransformation (fake_quantize_decomposition.cpp): an activation FQ
// becomes FQ(output limits [0, 255] u8 or [-128, 127] i8) -> Convert(f32) -> [Subtract(shift)]
// -> Multiply(scale), scale = (oh - ol) / (levels - 1), shift = -ol / scale; the last DQ op takes
// the FQ's name and the quantize FQ gets "_original". A constant-path (weights) FQ is left alone.

builtin.module {
  // [0, 2.55] / 256 -> u8, scale 0.01, no shift
  // CHECK-LABEL: func.func @unsigned
  // CHECK:         %h = ov.constant
  // CHECK-NEXT:    %[[OL:.*]] = ov.constant dense<0.000000e+00> : tensor<f32>
  // CHECK-NEXT:    %[[OH:.*]] = ov.constant dense<2.550000e+02> : tensor<f32>
  // CHECK:         %[[Q:.*]] = ov.fake_quantize %x, %l, %h, %[[OL]], %[[OH]] levels = 256 {ov.name = "fq_original"} : {{.*}} -> tensor<1x4xui8>
  // CHECK-NEXT:    %[[C:.*]] = ov.convert %[[Q]] destination_type = f32 : (tensor<1x4xui8>) -> tensor<1x4xf32>
  // CHECK-NEXT:    %[[S:.*]] = ov.constant dense<1.000000e-02> : tensor<f32>
  // CHECK-NEXT:    %[[Y:.*]] = ov.multiply %[[C]], %[[S]] {ov.name = "fq"}
  // CHECK-NEXT:    func.return %[[Y]]
  // NOUPD-LABEL: func.func @unsigned
  // NOUPD:         %[[Q:.*]] = ov.fake_quantize {{.*}} levels = 256 {ov.name = "fq_original"} : {{.*}} -> tensor<1x4xf32>
  // NOUPD-NOT:     ov.convert
  // NOUPD:         ov.multiply %[[Q]], %{{.*}} {ov.name = "fq"}
  func.func @unsigned(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
    %l = ov.constant dense<0.0> : tensor<f32>
    %h = ov.constant dense<2.55> : tensor<f32>
    %y = ov.fake_quantize %x, %l, %h, %l, %h levels = 256 {ov.name = "fq"} : (tensor<1x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x4xf32>
    func.return %y : tensor<1x4xf32>
  }
  // [-1.28, 1.27] / 256 -> i8 [-128, 127], scale 0.01
  // CHECK-LABEL: func.func @signed
  // CHECK-DAG:     %[[OL:.*]] = ov.constant dense<-1.280000e+02> : tensor<f32>
  // CHECK-DAG:     %[[OH:.*]] = ov.constant dense<1.270000e+02> : tensor<f32>
  // CHECK:         %[[Q:.*]] = ov.fake_quantize %x, %l, %h, %[[OL]], %[[OH]] levels = 256 : {{.*}} -> tensor<1x4xi8>
  // CHECK-NEXT:    %[[C:.*]] = ov.convert %[[Q]] destination_type = f32
  // CHECK-NEXT:    %[[S:.*]] = ov.constant dense<1.000000e-02> : tensor<f32>
  // CHECK-NEXT:    ov.multiply %[[C]], %[[S]]

  func.func @signed(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
    %l = ov.constant dense<-1.28> : tensor<f32>
    %h = ov.constant dense<1.27> : tensor<f32>
    %y = ov.fake_quantize %x, %l, %h, %l, %h levels = 256 : (tensor<1x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x4xf32>
    func.return %y : tensor<1x4xf32>
  }
  // [-0.5, 2.0] / 256 -> u8 with zero point: scale 2.5 / 255 = 0.0098039, shift 0.5 / scale = 51
  // CHECK-LABEL: func.func @asymmetric
  // CHECK:         %[[Q:.*]] = ov.fake_quantize {{.*}} levels = 256 : {{.*}} -> tensor<1x4xui8>
  // CHECK-NEXT:    %[[C:.*]] = ov.convert %[[Q]] destination_type = f32
  // CHECK-NEXT:    %[[ZP:.*]] = ov.constant dense<5.100000e+01> : tensor<f32>
  // CHECK-NEXT:    %[[SUB:.*]] = ov.subtract %[[C]], %[[ZP]]
  // CHECK-NEXT:    %[[S:.*]] = ov.constant dense<0.00980392192> : tensor<f32>
  // CHECK-NEXT:    ov.multiply %[[SUB]], %[[S]]
  func.func @asymmetric(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
    %l = ov.constant dense<-0.5> : tensor<f32>
    %h = ov.constant dense<2.0> : tensor<f32>
    %y = ov.fake_quantize %x, %l, %h, %l, %h levels = 256 : (tensor<1x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x4xf32>
    func.return %y : tensor<1x4xf32>
  }
  // narrow range: [-1.27, 1.27] / 255 -> i8 [-127, 127], scale 0.01
  // CHECK-LABEL: func.func @levels255
  // CHECK-DAG:     %[[OL:.*]] = ov.constant dense<-1.270000e+02> : tensor<f32>
  // CHECK-DAG:     %[[OH:.*]] = ov.constant dense<1.270000e+02> : tensor<f32>
  // CHECK:         ov.fake_quantize %x, %l, %h, %[[OL]], %[[OH]] levels = 255 : {{.*}} -> tensor<1x4xi8>
  // CHECK:         ov.constant dense<1.000000e-02> : tensor<f32>
  func.func @levels255(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
    %l = ov.constant dense<-1.27> : tensor<f32>
    %h = ov.constant dense<1.27> : tensor<f32>
    %y = ov.fake_quantize %x, %l, %h, %l, %h levels = 255 : (tensor<1x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x4xf32>
    func.return %y : tensor<1x4xf32>
  }
  // per-channel high [2.55, 5.1]: one u8 interval, per-channel scales [0.01, 0.02]
  // CHECK-LABEL: func.func @per_channel
  // CHECK:         ov.fake_quantize {{.*}} : (tensor<1x2x2x2xf32>, tensor<f32>, tensor<1x2x1x1xf32>, tensor<f32>, tensor<f32>) -> tensor<1x2x2x2xui8>
  // CHECK:         %[[S:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}1.000000e-02]], {{\[}}{{\[}}2.000000e-02]]]]> : tensor<1x2x1x1xf32>
  // CHECK-NEXT:    ov.multiply %{{.*}}, %[[S]] : (tensor<1x2x2x2xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x2x2xf32>
  func.func @per_channel(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
    %l = ov.constant dense<0.0> : tensor<f32>
    %h = ov.constant dense<[[[[2.55]], [[5.1]]]]> : tensor<1x2x1x1xf32>
    %y = ov.fake_quantize %x, %l, %h, %l, %h levels = 256 : (tensor<1x2x2x2xf32>, tensor<f32>, tensor<1x2x1x1xf32>, tensor<f32>, tensor<1x2x1x1xf32>) -> tensor<1x2x2x2xf32>
    func.return %y : tensor<1x2x2x2xf32>
  }
  // 16-bit levels (65536, 65535) need u16/i16, which the default {u8, i8} precisions do not
  // offer (getDataPrecisionByOutputPort): the FakeQuantize stays as it is, in f32, instead of
  // keeping 256 of its 65536 values
  // CHECK-LABEL: func.func @levels65536
  // CHECK-NEXT:    ov.constant
  // CHECK-NEXT:    ov.constant
  // CHECK-NEXT:    %[[Y:.*]] = ov.fake_quantize %x, %l, %h, %l, %h levels = 65536 : {{.*}} -> tensor<1x4xf32>
  // CHECK-NEXT:    func.return %[[Y]]
  // CHECK-LABEL: func.func @levels65535
  // CHECK-NEXT:    ov.constant
  // CHECK-NEXT:    ov.constant
  // CHECK-NEXT:    %[[Y:.*]] = ov.fake_quantize %x, %l, %h, %l, %h levels = 65535 : {{.*}} -> tensor<1x4xf32>
  // CHECK-NEXT:    func.return %[[Y]]
  func.func @levels65536(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
    %l = ov.constant dense<0.0> : tensor<f32>
    %h = ov.constant dense<2.0> : tensor<f32>
    %y = ov.fake_quantize %x, %l, %h, %l, %h levels = 65536 : (tensor<1x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x4xf32>
    func.return %y : tensor<1x4xf32>
  }
  func.func @levels65535(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
    %l = ov.constant dense<-1.0> : tensor<f32>
    %h = ov.constant dense<1.0> : tensor<f32>
    %y = ov.fake_quantize %x, %l, %h, %l, %h levels = 65535 : (tensor<1x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x4xf32>
    func.return %y : tensor<1x4xf32>
  }
  // constant path: not decomposed (weights are folded by the weightable transformations)
  // CHECK-LABEL: func.func @weights
  // CHECK-NEXT:    ov.constant
  // CHECK-NEXT:    ov.constant
  // CHECK-NEXT:    ov.constant
  // CHECK-NEXT:    ov.fake_quantize {{.*}} -> tensor<2x2xf32>
  // CHECK-NEXT:    func.return
  func.func @weights() -> tensor<2x2xf32> {
    %w = ov.constant dense<[[0.1, -0.2], [0.3, 0.5]]> : tensor<2x2xf32>
    %l = ov.constant dense<-1.28> : tensor<f32>
    %h = ov.constant dense<1.27> : tensor<f32>
    %y = ov.fake_quantize %w, %l, %h, %l, %h levels = 256 : (tensor<2x2xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2x2xf32>
    func.return %y : tensor<2x2xf32>
  }
}
