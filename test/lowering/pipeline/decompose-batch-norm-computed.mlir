// cpu-decompose: BatchNormInference of computed statistics (tf2onnx writes Keras'
// LayerNormalization as a BatchNormalization of the moments it computes) -> the float32
// operations of its reference in their order, `(x - mean) / sqrt(variance + eps) * gamma +
// beta`, each [C] operand viewed as [1, C, 1, 1]: element-wise kernels where the op had run on
// the reference fallback. The reference interpreter gives the same bits before and after the
// pass, and the CPU device those bits too.
// RUN: opt-tool -p cpu-decompose %s | filecheck %s
// RUN: opt-tool -p cpu-decompose %s -o %t.decomposed.mlir
// RUN: python3 -c "import numpy as np; r = np.random.default_rng(0); np.save('%t.x.npy', r.standard_normal((2, 3, 4, 5)).astype(np.float32)); np.save('%t.m.npy', r.standard_normal(3).astype(np.float32)); np.save('%t.v.npy', r.uniform(0.5, 2, 3).astype(np.float32))"
// RUN: lowpass-run %s -i x=%t.x.npy -i m=%t.m.npy -i v=%t.v.npy --device REFERENCE --full > %t.before
// RUN: lowpass-run %t.decomposed.mlir -i x=%t.x.npy -i m=%t.m.npy -i v=%t.v.npy --device REFERENCE --full > %t.after
// RUN: diff %t.before %t.after
// RUN: lowpass-run %s -i x=%t.x.npy -i m=%t.m.npy -i v=%t.v.npy --device CPU --full > %t.cpu
// RUN: diff %t.before %t.cpu
// RUN: lowpass-run %s -i x=%t.x.npy -i m=%t.m.npy -i v=%t.v.npy --device CPU -pcsort no_sort | filecheck %s --check-prefix=ROWS
// CHECK:      %[[SHAPE:.*]] = ov.constant dense<[1, -1, 1, 1]> : tensor<4xi64> {ov.name = "bn/channels"}
// CHECK:      %[[M:.*]] = ov.reshape %m, %[[SHAPE]] special_zero = false {ov.name = "bn/mean"}
// CHECK:      %[[V:.*]] = ov.reshape %v, %[[SHAPE]] special_zero = false {ov.name = "bn/variance"}
// CHECK:      %[[C:.*]] = ov.subtract %x, %[[M]] {ov.name = "bn/centred"}
// CHECK-NEXT: %[[S:.*]] = ov.add %[[V]], %{{.*}} {ov.name = "bn/variance_epsilon"}
// CHECK-NEXT: %[[D:.*]] = ov.sqrt %[[S]] {ov.name = "bn/deviation"}
// CHECK-NEXT: %[[N:.*]] = ov.divide %[[C]], %[[D]] {ov.name = "bn/normalized"}
// CHECK-NEXT: %[[G:.*]] = ov.multiply %[[N]], %{{.*}} {ov.name = "bn/scaled"}
// CHECK-NEXT: %{{.*}} = ov.add %[[G]], %{{.*}} {ov.name = "bn"}
// CHECK-NOT:  ov.batch_norm_inference
// ROWS-NOT: ref_FP32

func.func @main(%x: tensor<2x3x4x5xf32> {ov.name = "x"}, %m: tensor<3xf32> {ov.name = "m"}, %v: tensor<3xf32> {ov.name = "v"}) -> (tensor<2x3x4x5xf32> {ov.name = "y"}) {
  %g = ov.constant dense<[0.5, 1.5, -2.0]> : tensor<3xf32>
  %b = ov.constant dense<[0.25, -1.0, 3.0]> : tensor<3xf32>
  %y = ov.batch_norm_inference %x, %g, %b, %m, %v {ov.name = "bn", epsilon = 1.0e-3 : f64} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x5xf32>
  func.return %y : tensor<2x3x4x5xf32>
}
