// cpu-decompose: ScaledDotProductAttention (what OpenVINO's ovc makes of a transformer's
// attention) -> MatMul(Q, K, transpose_b), Multiply by 1/sqrt(E), Add of the bias (a constant
// -inf above the diagonal where causal; Select(mask, 0, -inf) of a boolean mask), Softmax
// along the last axis, MatMul by V: ops with kernels. On CPU no group falls back
// (test_attention.py compares with REFERENCE, test_ov_ir_attention.py with OpenVINO).
// RUN: opt-tool -p cpu-decompose %s | filecheck %s
// RUN: lowpass-run %s --random-inputs 0 --device CPU -pcsort no_sort | filecheck %s --check-prefix=ROWS
// CHECK:      %[[S:.*]] = ov.mat_mul %q, %k transpose_b = true {ov.name = "a/scores"}
// CHECK-NEXT: %[[F:.*]] = ov.constant dense<0.353553385> : tensor<f32> {ov.name = "a/scale"}
// CHECK-NEXT: %[[X:.*]] = ov.multiply %[[S]], %[[F]] {ov.name = "a/scaled"}
// CHECK-NEXT: %[[C:.*]] = ov.constant dense<{{\[\[}}0.000000e+00, 0xff800000, 0xff800000, 0xff800000], [0.000000e+00, 0.000000e+00, 0xff800000, 0xff800000], [0.000000e+00, 0.000000e+00, 0.000000e+00, 0xff800000]]> : tensor<3x4xf32> {ov.name = "a/causal_mask"}
// CHECK-NEXT: %[[B:.*]] = ov.add %[[X]], %[[C]] {ov.name = "a/biased"}
// CHECK-NEXT: %[[P:.*]] = ov.softmax %[[B]] axis = -1 {ov.name = "a/softmax"}
// CHECK-NEXT: %[[A:.*]] = ov.mat_mul %[[P]], %v {ov.name = "a"}
// CHECK:      %[[Z:.*]] = ov.constant dense<0.000000e+00> : tensor<f32> {ov.name = "b/zero"}
// CHECK-NEXT: %[[I:.*]] = ov.constant dense<0xff800000> : tensor<f32> {ov.name = "b/minus_inf"}
// CHECK-NEXT: %[[M:.*]] = ov.select %m, %[[Z]], %[[I]] {ov.name = "b/bias"} : (tensor<3x4xi1>, tensor<f32>, tensor<f32>) -> tensor<3x4xf32>
// CHECK-NEXT: %[[BB:.*]] = ov.add %{{.*}}, %[[M]] {ov.name = "b/biased"}
// CHECK:      %[[BO:.*]] = ov.mat_mul %{{.*}}, %v {ov.name = "b"}
// CHECK-NEXT: func.return %[[A]], %[[BO]]
// ROWS-NOT:   ref_
builtin.module {
  func.func @main(%q: tensor<1x2x3x8xf32> {ov.name = "q"}, %k: tensor<1x2x4x8xf32> {ov.name = "k"}, %v: tensor<1x2x4x4xf32> {ov.name = "v"}, %m: tensor<3x4xi1> {ov.name = "m"}) -> (tensor<1x2x3x4xf32> {ov.name = "a"}, tensor<1x2x3x4xf32> {ov.name = "b"}) {
    %a = ov.scaled_dot_product_attention %q, %k, %v causal = true {ov.name = "a"} : (tensor<1x2x3x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x3x4xf32>
    %b = ov.scaled_dot_product_attention %q, %k, %v, %m {ov.name = "b"} : (tensor<1x2x3x8xf32>, tensor<1x2x4x8xf32>, tensor<1x2x4x4xf32>, tensor<3x4xi1>) -> tensor<1x2x3x4xf32>
    func.return %a, %b : tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>
  }
}
