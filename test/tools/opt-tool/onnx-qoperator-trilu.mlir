// opt-tool reads onnxruntime's QOperator ops and Trilu from .onnx files (the models are
// written by Inputs/make_onnx_models.py): a QLinearConv whose input codes a QuantizeLinear
// made is one FakeQuantize of the float input (as a QDQ pair), its per-channel weights stay
// i8 and `--lpt` runs the convolution on them (reading the u8 codes less their zero point
// 128, an exact f32 Subtract, as for a QDQ model's input); a QLinearSigmoid dequantizes the conv's codes
// the same way. Bad input is one line naming the node.
// REQUIRES: onnx
// RUN: python3 %S/Inputs/make_onnx_models.py %t
// RUN: opt-tool %t/qoperator.onnx | filecheck %s
// RUN: opt-tool --lpt %t/qoperator.onnx | filecheck %s --check-prefix=LPT
// RUN: opt-tool %t/trilu.onnx | filecheck %s --check-prefix=TRILU
// RUN: not opt-tool %t/per-channel-x.onnx 2>&1 | filecheck %s --check-prefix=BAD
// RUN: not opt-tool %t/trilu-1d.onnx 2>&1 | filecheck %s --check-prefix=BAD1D

// CHECK:      %[[XQ:.*]] = ov.fake_quantize %x, {{.*}} levels = 256 {ov.name = "conv/FakeQuantize"} : ({{.*}}) -> tensor<1x3x4x4xf32>
// CHECK:      %[[W:.*]] = ov.constant {{.*}} : tensor<2x3x3x1xi8>
// CHECK-NEXT: %[[WF:.*]] = ov.convert %[[W]] destination_type = f32
// CHECK:      %[[WS:.*]] = ov.multiply %[[WF]], %{{.*}} {ov.name = "conv/Multiply"} : (tensor<2x3x3x1xf32>, tensor<2x1x1x1xf32>)
// CHECK-NEXT: %[[C:.*]] = ov.convolution %[[XQ]], %[[WS]] {ov.name = "conv/WithoutBiases"
// CHECK:      %[[B:.*]] = ov.add %[[C]], %{{.*}} {ov.name = "conv/Add"}
// CHECK:      %[[H:.*]] = ov.fake_quantize %[[B]], {{.*}} {ov.name = "sig/FakeQuantize"} : ({{.*}}) -> tensor<1x2x4x4xf32>
// CHECK-NEXT: %[[S:.*]] = ov.sigmoid %[[H]]
// CHECK:      %[[Y:.*]] = ov.fake_quantize %[[S]], {{.*}} {ov.name = "y"}
// CHECK-NEXT: func.return %[[Y]]
// CHECK-NOT:  xui8

// LPT:        %[[Q:.*]] = ov.fake_quantize %x, {{.*}} -> tensor<1x3x4x4xui8>
// LPT:        %[[SH:.*]] = ov.subtract %[[Q]], %{{.*}} : (tensor<1x3x4x4xui8>, tensor<1x3x1x1xui8>) -> tensor<1x3x4x4xf32>
// LPT:        ov.convolution %[[SH]], {{.*}} : (tensor<1x3x4x4xf32>, tensor<2x3x3x1xi8>) -> tensor<1x2x4x4xf32>

// TRILU:      ov.shape_of %x
// TRILU:      ov.range
// TRILU:      %[[D:.*]] = ov.subtract %{{.*}}, %{{.*}} {ov.name = "tril/Subtract"} : (tensor<?xi64>, tensor<?x1xi64>) -> tensor<?x?xi64>
// TRILU:      %[[M:.*]] = ov.less_equal %[[D]], %{{.*}} {ov.name = "tril/LessEqual"}
// TRILU:      ov.select %[[M]], %x, %{{.*}} {ov.name = "y"} : (tensor<?x?xi1>, tensor<2x?x?xf32>, tensor<f32>) -> tensor<2x?x?xf32>

// BAD:        per-channel-x.onnx: error: node 'conv' (#0, QLinearConv): x_scale has 2 values, expected one (per-tensor quantization)
// BAD1D:      trilu-1d.onnx: error: node 'tril' (#0, Trilu): input 0 has rank 1, expected 2 or more
