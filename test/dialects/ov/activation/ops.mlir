// RUN: opt-tool %s | opt-tool | filecheck %s
// RUN: %roundtrip

// CHECK-LABEL: func.func @activations
func.func @activations(%x: tensor<1x3x4x4xf32>, %slope: tensor<3xf32>) -> tensor<1x3x4x4xf32> {
  // CHECK: ov.relu %{{.*}} {ov.name = "relu"} : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %0 = ov.relu %x {ov.name = "relu"} : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  // CHECK: ov.sigmoid %{{.*}} : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %1 = ov.sigmoid %0 : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  // CHECK: ov.tanh %{{.*}} : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %2 = ov.tanh %1 : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  // CHECK: ov.clamp %{{.*}} min = 0.000000e+00 max = 6.000000e+00 : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %3 = ov.clamp %2 min = 0.0 max = 6.0 : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  // CHECK: ov.prelu %{{.*}}, %{{.*}} : (tensor<1x3x4x4xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  %4 = ov.prelu %3, %slope : (tensor<1x3x4x4xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  // CHECK: ov.softmax %{{.*}} axis = -1 : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %5 = ov.softmax %4 axis = -1 : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  // the default axis (1) is not printed
  // CHECK: ov.softmax %{{.*}} : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %6 = ov.softmax %5 axis = 1 : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  func.return %6 : tensor<1x3x4x4xf32>
}

// CHECK-LABEL: func.func @integer_and_dynamic
func.func @integer_and_dynamic(%x: tensor<?x8xi32>, %y: tensor<?x?x5xf16>, %s: tensor<5xf16>) -> (tensor<?x8xi32>, tensor<?x?x5xf16>) {
  // CHECK: ov.clamp %{{.*}} min = -1.500000e+00 max = 2.500000e+00 : (tensor<?x8xi32>) -> tensor<?x8xi32>
  %0 = ov.clamp %x min = -1.5 max = 2.5 : (tensor<?x8xi32>) -> tensor<?x8xi32>
  // CHECK: ov.relu %{{.*}} : (tensor<?x8xi32>) -> tensor<?x8xi32>
  %1 = ov.relu %0 : (tensor<?x8xi32>) -> tensor<?x8xi32>
  // CHECK: ov.tanh %{{.*}} : (tensor<?x8xi32>) -> tensor<?x8xi32>
  %2 = ov.tanh %1 : (tensor<?x8xi32>) -> tensor<?x8xi32>
  // CHECK: ov.prelu %{{.*}}, %{{.*}} : (tensor<?x?x5xf16>, tensor<5xf16>) -> tensor<?x?x5xf16>
  %3 = ov.prelu %y, %s : (tensor<?x?x5xf16>, tensor<5xf16>) -> tensor<?x?x5xf16>
  // a scalar slope (as openvino.save_model writes PReLU's)
  // CHECK: ov.prelu %{{.*}}, %{{.*}} : (tensor<?x?x5xf16>, tensor<f16>) -> tensor<?x?x5xf16>
  %s0 = ov.constant dense<2.5e-01> : tensor<f16>
  %4 = ov.prelu %3, %s0 : (tensor<?x?x5xf16>, tensor<f16>) -> tensor<?x?x5xf16>
  func.return %2, %4 : tensor<?x8xi32>, tensor<?x?x5xf16>
}

// CHECK-LABEL: func.func @smooth_activations
func.func @smooth_activations(%x: tensor<2x8xf32>, %h: tensor<2x8xf16>, %beta: tensor<f32>) -> (tensor<2x8xf32>, tensor<2x8xf16>) {
  // the default approximation_mode (erf) is not printed
  // CHECK: ov.gelu %{{.*}} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %0 = ov.gelu %x approximation_mode = erf : (tensor<2x8xf32>) -> tensor<2x8xf32>
  // CHECK: ov.gelu %{{.*}} approximation_mode = tanh : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %1 = ov.gelu %0 approximation_mode = tanh : (tensor<2x8xf32>) -> tensor<2x8xf32>
  // CHECK: ov.hswish %{{.*}} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %2 = ov.hswish %1 : (tensor<2x8xf32>) -> tensor<2x8xf32>
  // CHECK: ov.hsigmoid %{{.*}} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %3 = ov.hsigmoid %2 : (tensor<2x8xf32>) -> tensor<2x8xf32>
  // CHECK: ov.softplus %{{.*}} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %4 = ov.softplus %3 : (tensor<2x8xf32>) -> tensor<2x8xf32>
  // CHECK: ov.mish %{{.*}} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %5 = ov.mish %4 : (tensor<2x8xf32>) -> tensor<2x8xf32>
  // CHECK: ov.swish %{{.*}}, %{{.*}} : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %6 = ov.swish %5, %beta : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  // CHECK: ov.swish %{{.*}} : (tensor<2x8xf16>) -> tensor<2x8xf16>
  %7 = ov.swish %h : (tensor<2x8xf16>) -> tensor<2x8xf16>
  // CHECK: ov.gelu %{{.*}} : (tensor<2x8xf16>) -> tensor<2x8xf16>
  %8 = ov.gelu %7 : (tensor<2x8xf16>) -> tensor<2x8xf16>
  func.return %6, %8 : tensor<2x8xf32>, tensor<2x8xf16>
}

// CHECK-LABEL: func.func @hard_sigmoid
func.func @hard_sigmoid(%x: tensor<2x?xf16>, %a: tensor<1xf16>) -> tensor<2x?xf16> {
  %b = ov.constant dense<5.000000e-01> : tensor<f16>
  // CHECK: ov.hard_sigmoid %{{.*}}, %{{.*}}, %{{.*}} {ov.name = "hs"} : (tensor<2x?xf16>, tensor<1xf16>, tensor<f16>) -> tensor<2x?xf16>
  %0 = ov.hard_sigmoid %x, %a, %b {ov.name = "hs"} : (tensor<2x?xf16>, tensor<1xf16>, tensor<f16>) -> tensor<2x?xf16>
  func.return %0 : tensor<2x?xf16>
}

// An option in the attribute dictionary sets the op's property (MLIR's inherent attributes),
// rather than riding along as a discardable attribute that the op would ignore.
// CHECK-LABEL: func.func @property_in_attribute_dictionary
func.func @property_in_attribute_dictionary(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // CHECK: ov.gelu %{{.*}} approximation_mode = tanh : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %0 = ov.gelu %x {approximation_mode = #ov<gelu_approximation_mode tanh>} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  // CHECK: ov.softmax %{{.*}} axis = 0 {ov.name = "s"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %1 = ov.softmax %0 {axis = 0 : i64, ov.name = "s"} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  // (the same value both ways is one property)
  // CHECK: ov.softmax %{{.*}} axis = 0 : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %2 = ov.softmax %1 axis = 0 {axis = 0 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  func.return %2 : tensor<2x8xf32>
}

// CHECK-LABEL: func.func @elu_selu
func.func @elu_selu(%x: tensor<2x?xf32>, %a: tensor<1xf32>, %l: tensor<f32>) -> (tensor<2x?xf32>, tensor<2x?xf32>) {
  // CHECK: ov.elu %{{.*}} alpha = 1.500000e+00 {ov.name = "elu"} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %0 = ov.elu %x alpha = 1.5 {ov.name = "elu"} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: ov.selu %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x?xf32>, tensor<1xf32>, tensor<f32>) -> tensor<2x?xf32>
  %1 = ov.selu %x, %a, %l : (tensor<2x?xf32>, tensor<1xf32>, tensor<f32>) -> tensor<2x?xf32>
  func.return %0, %1 : tensor<2x?xf32>, tensor<2x?xf32>
}
