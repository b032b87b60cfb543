// The whole LPT pipeline on examples/qconvnet.mlir (data -> FQ -> conv1 -> relu -> FQ -> max_pool
// -> conv2 -> relu -> FQ -> avg_pool -> reshape -> FQ -> fc -> softmax): every activation FQ
// becomes a u8 quantize (output limits [0, 255]), convolutions and the MatMul run u8 x i8 -> f32
// with the dequantization Multiply (activation scale * per-channel weight scale) after them; the
// CPU callback keeps the bias Adds after that Multiply (spec 4.9, 7).
// RUN: opt-tool --lpt %S/../../../examples/qconvnet.mlir | filecheck %s
// RUN: opt-tool --lpt %S/../../../examples/qconvnet.mlir | filecheck %s --check-prefix=NONE

// CHECK-LABEL: func.func @main
// CHECK-DAG:   %[[L0:.*]] = ov.constant dense<0.000000e+00> : tensor<f32>{{$}}
// CHECK-DAG:   %[[H0:.*]] = ov.constant dense<2.550000e+02> : tensor<f32>{{$}}
// CHECK:       %[[Q0:.*]] = ov.fake_quantize %data, %{{.*}}, %{{.*}}, %[[L0]], %[[H0]] levels = 256 {ov.name = "data/fq"} : {{.*}} -> tensor<1x3x32x32xui8>
// CHECK:       %[[W1:.*]] = ov.constant dense<"0x{{[0-9A-F]+}}"> : tensor<8x3x3x3xi8>
// CHECK:       %[[C1:.*]] = ov.convolution %[[Q0]], %[[W1]] {ov.name = "conv1", {{.*}}} : (tensor<1x3x32x32xui8>, tensor<8x3x3x3xi8>) -> tensor<1x8x32x32xf32>
// CHECK-NEXT:  %[[S1:.*]] = ov.constant dense<{{\[\[\[\[.*\]\]\]\]}}> : tensor<1x8x1x1xf32>
// CHECK-NEXT:  %[[M1:.*]] = ov.multiply %[[C1]], %[[S1]] : (tensor<1x8x32x32xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x32x32xf32>
// CHECK-NEXT:  %[[B1:.*]] = ov.add %[[M1]], %{{.*}} {ov.name = "conv1/add_bias"}
// CHECK-NEXT:  %[[R1:.*]] = ov.relu %[[B1]] {ov.name = "conv1/relu"} : (tensor<1x8x32x32xf32>) -> tensor<1x8x32x32xf32>
// CHECK:       %[[Q1:.*]] = ov.fake_quantize %[[R1]], %{{.*}} levels = 256 {ov.name = "conv1/relu/fq"} : {{.*}} -> tensor<1x8x32x32xui8>
// CHECK-NEXT:  %[[P1:.*]] = ov.max_pool %[[Q1]] {ov.name = "pool1", {{.*}}} : (tensor<1x8x32x32xui8>) -> tensor<1x8x16x16xui8>
// CHECK:       %[[C2:.*]] = ov.convolution %[[P1]], %{{.*}} {ov.name = "conv2", {{.*}}} : (tensor<1x8x16x16xui8>, tensor<16x8x3x3xi8>) -> tensor<1x16x16x16xf32>
// CHECK-NEXT:  %[[S2:.*]] = ov.constant dense<{{.*}}> : tensor<1x16x1x1xf32>
// CHECK-NEXT:  %[[M2:.*]] = ov.multiply %[[C2]], %[[S2]] : (tensor<1x16x16x16xf32>, tensor<1x16x1x1xf32>) -> tensor<1x16x16x16xf32>
// CHECK-NEXT:  ov.add %[[M2]], %{{.*}} {ov.name = "conv2/add_bias"}
// CHECK:       %[[Q2:.*]] = ov.fake_quantize %{{.*}} levels = 256 {ov.name = "conv2/relu/fq"} : {{.*}} -> tensor<1x16x16x16xui8>
// The AvgPool only feeds a FakeQuantize (through the Reshape): not precision preserved (spec
// 4.5), it reads u8 and outputs f32, followed by the Multiply 8/255 without a Convert.
// CHECK-DAG:   %[[S3:.*]] = ov.constant dense<0.0313725509> : tensor<f32>
// CHECK-DAG:   %[[P2:.*]] = ov.avg_pool %[[Q2]] {ov.name = "pool2", {{.*}}} : (tensor<1x16x16x16xui8>) -> tensor<1x16x8x8xf32>
// CHECK:       %[[M3:.*]] = ov.multiply %[[P2]], %[[S3]] : (tensor<1x16x8x8xf32>, tensor<f32>) -> tensor<1x16x8x8xf32>
// CHECK:       %[[F:.*]] = ov.reshape %[[M3]], %{{.*}} {ov.name = "flatten"}
// CHECK:       %[[Q3:.*]] = ov.fake_quantize %[[F]], %{{.*}} levels = 256 {ov.name = "flatten/fq"} : {{.*}} -> tensor<1x1024xui8>
// CHECK:       %[[FC:.*]] = ov.mat_mul %[[Q3]], %{{.*}} {ov.name = "fc"} : (tensor<1x1024xui8>, tensor<1024x10xi8>) -> tensor<1x10xf32>
// CHECK-NEXT:  %[[S4:.*]] = ov.constant dense<{{.*}}> : tensor<1x10xf32>
// CHECK-NEXT:  %[[M4:.*]] = ov.multiply %[[FC]], %[[S4]] : (tensor<1x10xf32>, tensor<1x10xf32>) -> tensor<1x10xf32>
// CHECK-NEXT:  %[[B4:.*]] = ov.add %[[M4]], %{{.*}} {ov.name = "fc/add_bias"}
// CHECK-NEXT:  %[[SM:.*]] = ov.softmax %[[B4]] {ov.name = "prob"}
// CHECK-NEXT:  func.return %[[SM]] : tensor<1x10xf32>

// No dequantization Convert, no float FakeQuantize, no f32 weights are left.
// NONE-NOT:    ov.convert
// NONE-NOT:    ov.fake_quantize {{.*}} -> tensor<{{[0-9x]+}}xf32>
// NONE-NOT:    : tensor<{{8x3x3x3|16x8x3x3|1024x10}}xf32>
// NONE-NOT:    ov.subtract
