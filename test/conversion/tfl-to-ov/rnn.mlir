// RUN: opt-tool %s --convert-tfl-to-ov | filecheck %s
// RUN: opt-tool %s --convert-tfl-to-ov | opt-tool | filecheck %s

// tfl.unidirectional_sequence_rnn -> ov.rnn_sequence (h' = act(W.x + R.h + b)); RELU is
// OpenVINO's activation f.
// CHECK-LABEL: func.func @main
// CHECK-NOT:     tfl.
// CHECK-DAG:     %[[W:.*]] = ov.constant dense<{{\[\[\[}}1.000000e+00, 2.000000e+00]]]> : tensor<1x1x2xf32> {ov.name = "rnn/W"}
// CHECK-DAG:     %[[R:.*]] = ov.constant dense<3.000000e+00> : tensor<1x1x1xf32> {ov.name = "rnn/R"}
// CHECK-DAG:     %[[B:.*]] = ov.constant dense<4.000000e+00> : tensor<1x1xf32> {ov.name = "rnn/B"}
// CHECK:         %[[Y:.*]], %{{.*}} = ov.rnn_sequence %x, %{{.*}}, %{{.*}}, %[[W]], %[[R]], %[[B]] {ov.name = "rnn", hidden_size = 1 : i64, direction = #ov<direction forward>, activations = [#ov<activation relu>]} : (tensor<1x4x2xf32>, tensor<1x1x1xf32>, tensor<1xi64>, tensor<1x1x2xf32>, tensor<1x1x1xf32>, tensor<1x1xf32>) -> (tensor<1x1x4x1xf32>, tensor<1x1x1xf32>)
// CHECK:         ov.squeeze %[[Y]], %{{.*}} {ov.name = "rnn/Y"} : (tensor<1x1x4x1xf32>, tensor<1xi64>) -> tensor<1x4x1xf32>
func.func @main(%x: tensor<1x4x2xf32>, %h0: tensor<1x1xf32>) -> tensor<1x4x1xf32> {
  %w = arith.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %r = arith.constant dense<[[3.0]]> : tensor<1x1xf32>
  %b = arith.constant dense<[4.0]> : tensor<1xf32>
  %y = "tfl.unidirectional_sequence_rnn"(%x, %w, %r, %b, %h0) <{fused_activation_function = "RELU", time_major = false}> : (tensor<1x4x2xf32>, tensor<1x2xf32>, tensor<1x1xf32>, tensor<1xf32>, tensor<1x1xf32>) -> tensor<1x4x1xf32>
  func.return %y : tensor<1x4x1xf32>
}
