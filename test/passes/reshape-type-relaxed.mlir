// ov-reshape re-infers the shapes of type-relaxed ops (what LPT leaves) and keeps their
// element types, as OpenVINO's TypeRelaxed does: a FakeQuantize's u8 result, a MatMul reading
// u8 and i8. A Concat of the FakeQuantize and a u8 input then still verifies.
// RUN: opt-tool %s --ov-reshape='inputs="X:2x4","Y:2x4"' | filecheck %s
// The CPU device reshapes a dynamic model per request the same way: CPU == REFERENCE.
// RUN: python -c "import numpy as np; np.save('%t.x.npy', (np.arange(12, dtype=np.float32) %% 7 * 0.45 - 0.3).reshape(3, 4))"
// RUN: python -c "import numpy as np; np.save('%t.y.npy', (np.arange(12) * 23 %% 256).astype(np.uint8).reshape(3, 4))"
// RUN: lowpass-run %s -i X=%t.x.npy -i Y=%t.y.npy --device CPU --full > %t.cpu
// RUN: lowpass-run --device REFERENCE %s -i X=%t.x.npy -i Y=%t.y.npy --full > %t.ref
// RUN: diff %t.cpu %t.ref

// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%x: tensor<2x4xf32> {ov.name = "X"}, %y: tensor<2x4xui8> {ov.name = "Y"})
// CHECK:         ov.fake_quantize {{.*}} -> tensor<2x4xui8>
// CHECK:         ov.concat {{.*}} : (tensor<2x4xui8>, tensor<2x4xui8>) -> tensor<2x8xui8>
// CHECK:         ov.mat_mul {{.*}} : (tensor<2x8xui8>, tensor<8x3xi8>) -> tensor<2x3xf32>
func.func @main(%x: tensor<?x4xf32> {ov.name = "X"}, %y: tensor<?x4xui8> {ov.name = "Y"})
    -> (tensor<?x3xf32> {ov.name = "Z"}) {
  %lo = ov.constant dense<0.0> : tensor<f32>
  %hi = ov.constant dense<2.55> : tensor<f32>
  %ol = ov.constant dense<0.0> : tensor<f32>
  %oh = ov.constant dense<255.0> : tensor<f32>
  %q = ov.fake_quantize %x, %lo, %hi, %ol, %oh levels = 256 {ov.name = "quantize"}
      : (tensor<?x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?x4xui8>
  %c = ov.concat %q, %y axis = 1 : (tensor<?x4xui8>, tensor<?x4xui8>) -> tensor<?x8xui8>
  %w = ov.constant dense<[[1, -2, 3], [-4, 5, -6], [7, -8, 9], [-10, 11, -12],
                          [13, -14, 15], [-16, 17, -18], [19, -20, 21], [-22, 23, -127]]>
      : tensor<8x3xi8>
  %z = ov.mat_mul %c, %w : (tensor<?x8xui8>, tensor<8x3xi8>) -> tensor<?x3xf32>
  func.return %z : tensor<?x3xf32>
}
