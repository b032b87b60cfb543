// RUN: opt-tool %s -p lpt | filecheck %s
// lpt on a model with a dynamic batch (issue 38): AddTransformation moves a constant Add into
// the dequantization (swapMultiplyAndAdd) and broadcasts `?` with the constant's shape; it
// failed with "negative dimensions are not allowed" (numpy's broadcast of the -1 dim). A
// per-channel Add fuses into the FakeQuantize's output limits instead, as with a static batch
// (OpenVINO compares partial shapes: `?` equals `?`).

// CHECK-LABEL: func.func @spatial
// CHECK:         ov.fake_quantize {{.*}} -> tensor<?x3x4x4xui8>
// CHECK:         %[[C:.*]] = ov.convert {{.*}} : (tensor<?x3x4x4xui8>) -> tensor<?x3x4x4xf32>
// CHECK:         %[[S:.*]] = ov.subtract %[[C]], {{.*}} : (tensor<?x3x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<?x3x4x4xf32>
// CHECK:         ov.multiply %[[S]], {{.*}} -> tensor<?x3x4x4xf32>
func.func @spatial(%x: tensor<?x3x4x4xf32>) -> tensor<?x3x4x4xf32> {
  %il = ov.constant dense<0.0> : tensor<f32>
  %ih = ov.constant dense<2.55> : tensor<f32>
  %q = ov.fake_quantize %x, %il, %ih, %il, %ih levels = 256 : (tensor<?x3x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?x3x4x4xf32>
  %b = ov.constant dense<[[[[0.5, 1.0, 1.5, 2.0], [0.5, 1.0, 1.5, 2.0], [0.5, 1.0, 1.5, 2.0], [0.5, 1.0, 1.5, 2.0]]]]> : tensor<1x1x4x4xf32>
  %y = ov.add %q, %b : (tensor<?x3x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<?x3x4x4xf32>
  %r = ov.relu %y : (tensor<?x3x4x4xf32>) -> tensor<?x3x4x4xf32>
  func.return %r : tensor<?x3x4x4xf32>
}

// CHECK-LABEL: func.func @per_channel
// CHECK:         %[[OL:.*]] = ov.constant dense<{{\[\[\[\[}}5.000000e-01]], {{\[\[}}1.000000e+00]], {{\[\[}}1.500000e+00]]]]> : tensor<1x3x1x1xf32>
// CHECK:         ov.fake_quantize %x, {{.*}}, %[[OL]], {{.*}} : (tensor<?x3x4x4xf32>, tensor<f32>, tensor<f32>, tensor<1x3x1x1xf32>, tensor<1x3x1x1xf32>) -> tensor<?x3x4x4xf32>
// CHECK-NOT:     ov.add
func.func @per_channel(%x: tensor<?x3x4x4xf32>) -> tensor<?x3x4x4xf32> {
  %il = ov.constant dense<0.0> : tensor<f32>
  %ih = ov.constant dense<2.55> : tensor<f32>
  %q = ov.fake_quantize %x, %il, %ih, %il, %ih levels = 256 : (tensor<?x3x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?x3x4x4xf32>
  %b = ov.constant dense<[[[[0.5]], [[1.0]], [[1.5]]]]> : tensor<1x3x1x1xf32>
  %y = ov.add %q, %b : (tensor<?x3x4x4xf32>, tensor<1x3x1x1xf32>) -> tensor<?x3x4x4xf32>
  %r = ov.relu %y : (tensor<?x3x4x4xf32>) -> tensor<?x3x4x4xf32>
  func.return %r : tensor<?x3x4x4xf32>
}
