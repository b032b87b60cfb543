// opt-tool reads ONNX Attention (opset 23) and onnxruntime's com.microsoft Attention and
// SkipLayerNormalization from .onnx files (written by Inputs/make_onnx_models.py) as the ops
// of their formulas (frontends/onnx/attention.py, contrib.py): the scale's square root on Q
// and K, a causal bias of 0 / -inf from the positions; the com.microsoft one's QKV MatMul
// split into heads and its mask as 0 / -10000; the skip sum's MVN. Bad input is one line
// naming the node. On CPU no group falls back.
// REQUIRES: onnx
// RUN: python3 %S/Inputs/make_onnx_models.py %t
// RUN: opt-tool %t/attention.onnx | filecheck %s
// RUN: opt-tool %t/ms-attention.onnx | filecheck %s --check-prefix=MS
// RUN: opt-tool %t/skip-layer-norm.onnx | filecheck %s --check-prefix=SKIP
// RUN: lowpass-run %t/ms-attention.onnx --random-inputs 0 --device CPU -pcsort no_sort | filecheck %s --check-prefix=ROWS
// RUN: not opt-tool %t/attention-3d-no-heads.onnx 2>&1 | filecheck %s --check-prefix=BAD3D
// RUN: not opt-tool %t/fast-gelu-attribute.onnx 2>&1 | filecheck %s --check-prefix=BADATTR

// CHECK:      %[[R:.*]] = ov.constant dense<0.594603539> : tensor<f32> {ov.name = "attn/scale_sqrt"}
// CHECK-NEXT: %[[Q:.*]] = ov.multiply %Q, %[[R]]
// CHECK-NEXT: %[[K:.*]] = ov.multiply %K, %[[R]]
// CHECK-NEXT: %[[S:.*]] = ov.mat_mul %[[Q]], %[[K]] transpose_b = true
// CHECK:      %[[C:.*]] = ov.less_equal %{{.*}}, %{{.*}} : (tensor<4xi64>, tensor<4x1xi64>) -> tensor<4x4xi1>
// CHECK:      %[[B:.*]] = ov.select %[[C]], %{{.*}}, %{{.*}} : (tensor<4x4xi1>, tensor<f32>, tensor<f32>) -> tensor<4x4xf32>
// CHECK-NEXT: %[[A:.*]] = ov.add %[[S]], %[[B]]
// CHECK-NEXT: %[[P:.*]] = ov.softmax %[[A]] axis = -1
// CHECK-NEXT: %[[Y:.*]] = ov.mat_mul %[[P]], %V {ov.name = "y"}
// CHECK-NEXT: func.return %[[Y]]

// MS:         ov.mat_mul %x, %{{.*}} {ov.name = "self/MatMul"} : (tensor<2x5x8xf32>, tensor<8x24xf32>) -> tensor<2x5x24xf32>
// MS:         ov.variadic_split
// MS:         ov.mat_mul %{{.*}}, %{{.*}} transpose_b = true {{.*}} -> tensor<2x2x5x5xf32>
// MS:         ov.constant dense<5.000000e-01> : tensor<f32> {ov.name = "self/scale"}
// MS:         ov.greater %m, %{{.*}} : (tensor<2x5xi32>, tensor<i32>) -> tensor<2x5xi1>
// MS:         ov.constant dense<-1.000000e+04> : tensor<f32> {ov.name = "self/mask_filter"}
// MS:         ov.softmax
// MS:         ov.reshape %{{.*}}, %{{.*}} special_zero = true {ov.name = "y"} : (tensor<2x5x2x4xf32>, tensor<3xi64>) -> tensor<2x5x8xf32>

// SKIP:       %[[SUM:.*]] = ov.add %x, %s {ov.name = "ln/Add"}
// SKIP:       ov.mvn %[[SUM]], %{{.*}} {{{.*}}eps = 1.000000e-05 : f32, eps_mode = #ov<mvn_eps_mode inside_sqrt>}

// ROWS-NOT:   ref_

// BAD3D:      attention-3d-no-heads.onnx: error: node 'attn' (#0, Attention): 3-D Q, K, V need the attributes q_num_heads and kv_num_heads
// BADATTR:    fast-gelu-attribute.onnx: error: node 'gelu' (#0, FastGelu): attribute 'approximate' is not one of FastGelu's (none)
