// RUN: opt-tool %s -p test-lpt-fold-static-shape-of | filecheck %s --check-prefix=SHAPE
// RUN: opt-tool %s -p test-lpt-fold-reshaped-dequantization-constants | filecheck %s --check-prefix=FOLD
// RUN: opt-tool %s -p test-lpt-fold-reshaped-dequantization-constants,test-lpt-convert-quantize-dequantize | filecheck %s --check-prefix=FUSE
// RUN: opt-tool %s -p test-lpt-fold-static-shape-of,test-lpt-fold-reshaped-dequantization-constants,test-lpt-convert-quantize-dequantize -o %t.mlir
// RUN: python3 -c "import numpy as np; np.save('%t.x.npy', np.linspace(-2, 3, 48, dtype=np.float32).reshape(1, 3, 4, 4))"
// RUN: lowpass-run %s -i x=%t.x.npy --device REFERENCE --full > %t.before
// RUN: lowpass-run %t.mlir -i x=%t.x.npy --device REFERENCE --full > %t.after
// RUN: python3 -c "import sys; a, b = (open(p).read().split() for p in sys.argv[1:]); assert len(a) == len(b); bad = [(x, y) for x, y in zip(a, b) if x != y and abs(float(x.strip('[],')) - float(y.strip('[],'))) > 1e-5]; assert not bad, bad" %t.before %t.after
// LPT's prerequisites for OpenVINO's saved IR of an ONNX QDQ model (`ov.save_model`):
// FoldStaticShapeOf (the bias reshaped by the data's ShapeOf), FoldReshapedDequantizationConstants
// (zero points and scales behind Reshapes), ConvertQuantizeDequantize (FakeQuantize -> Convert
// u8 -> Convert f32 -> Subtract -> Multiply into one FakeQuantize). REFERENCE gives the same
// values before and after, within float32 rounding of the dequantized levels.

// SHAPE: %[[S:.*]] = ov.constant dense<[1, 3, 4, 4]> : tensor<4xi64>
// SHAPE-NOT: ov.shape_of

// FOLD:     %[[ZP:.*]] = ov.constant dense<{{\[\[\[\[}}7]], {{\[\[}}96]], {{\[\[}}200]]]]> : tensor<1x3x1x1xui8>
// FOLD:     ov.convert %[[ZP]] destination_type = f32
// FOLD-NOT: ov.reshape %zpf

// FUSE:     %[[Q:.*]] = ov.fake_quantize %x, %il, %ih, %{{.*}}, %{{.*}} levels = 256 {{.*}}-> tensor<1x3x4x4xf32>
// FUSE-NOT: ov.convert %{{.*}} destination_type = ui8
// FUSE:     ov.add %[[Q]]

func.func @main(%x: tensor<1x3x4x4xf32> {ov.name = "x"}) -> (tensor<1x3x4x4xf32> {ov.name = "y"}) {
  %il = ov.constant dense<-1.5> : tensor<f32>
  %ih = ov.constant dense<2.5> : tensor<f32>
  %ol = ov.constant dense<0.0> : tensor<f32>
  %oh = ov.constant dense<255.0> : tensor<f32>
  %q = ov.fake_quantize %x, %il, %ih, %ol, %oh levels = 256 : (tensor<1x3x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x4x4xf32>
  %u = ov.convert %q destination_type = ui8 : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xui8>
  %f = ov.convert %u destination_type = f32 : (tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32>
  %zp8 = ov.constant dense<[7, 96, 200]> : tensor<3xui8>
  %zpf = ov.convert %zp8 destination_type = f32 : (tensor<3xui8>) -> tensor<3xf32>
  %shape = ov.constant dense<[1, 3, 1, 1]> : tensor<4xi64>
  %zp = ov.reshape %zpf, %shape special_zero = true : (tensor<3xf32>, tensor<4xi64>) -> tensor<1x3x1x1xf32>
  %s = ov.subtract %f, %zp : (tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x4x4xf32>
  %scale = ov.constant dense<[[[[0.015625]], [[0.03]], [[0.5]]]]> : tensor<1x3x1x1xf32>
  %dq = ov.multiply %s, %scale : (tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x4x4xf32>
  %b = ov.constant dense<[0.5, -0.5, 1.0]> : tensor<3xf32>
  %xs = ov.shape_of %x : (tensor<1x3x4x4xf32>) -> tensor<4xi64>
  %ones = ov.constant dense<[1, 3, 1, 1]> : tensor<4xi64>
  %bs = ov.reshape %b, %ones special_zero = false : (tensor<3xf32>, tensor<4xi64>) -> tensor<1x3x1x1xf32>
  %y0 = ov.add %dq, %bs : (tensor<1x3x4x4xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x4x4xf32>
  %y = ov.reshape %y0, %xs special_zero = false : (tensor<1x3x4x4xf32>, tensor<4xi64>) -> tensor<1x3x4x4xf32>
  func.return %y : tensor<1x3x4x4xf32>
}
