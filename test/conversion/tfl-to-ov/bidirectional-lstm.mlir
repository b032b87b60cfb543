// RUN: opt-tool %s --split-input-file --convert-tfl-to-ov | filecheck %s
// RUN: opt-tool %s --split-input-file --convert-tfl-to-ov | opt-tool --split-input-file | filecheck %s

// tfl.bidirectional_sequence_lstm -> one ov.lstm_sequence, direction bidirectional: W, R, B
// stack the forward then the backward cell (each in f, i, c, o order), the states are
// concatenated on num_directions. merge_outputs: Y [B, 2, T, H] -> [B, T, 2, H] -> [B, T, 2H]
// (forward then backward on the last axis, as TFLite).
// CHECK-LABEL: func.func @main
// CHECK-NOT:     tfl.
// CHECK-DAG:     %[[W:.*]] = ov.constant dense<{{\[\[\[}}2.000000e+00], [1.000000e+00], [3.000000e+00], [4.000000e+00]], {{\[\[}}6.000000e+00], [5.000000e+00], [7.000000e+00], [8.000000e+00]]]> : tensor<2x4x1xf32> {ov.name = "bidirectional_lstm/W"}
// CHECK-DAG:     %[[R:.*]] = ov.constant dense<1.000000e+00> : tensor<2x4x1xf32> {ov.name = "bidirectional_lstm/R"}
// CHECK-DAG:     %[[B:.*]] = ov.constant dense<5.000000e-01> : tensor<2x4xf32> {ov.name = "bidirectional_lstm/B"}
// CHECK-DAG:     %[[HF:.*]] = ov.unsqueeze %fh, %{{.*}} {ov.name = "bidirectional_lstm/H0/fw"}
// CHECK-DAG:     %[[HB:.*]] = ov.unsqueeze %bh, %{{.*}} {ov.name = "bidirectional_lstm/H0/bw"}
// CHECK:         %[[H0:.*]] = ov.concat %[[HF]], %[[HB]] axis = 1 {ov.name = "bidirectional_lstm/H0"} : (tensor<3x1x1xf32>, tensor<3x1x1xf32>) -> tensor<3x2x1xf32>
// CHECK:         %[[C0:.*]] = ov.concat {{.*}} {ov.name = "bidirectional_lstm/C0"}
// CHECK:         %[[Y:.*]], %{{.*}}, %{{.*}} = ov.lstm_sequence %x, %[[H0]], %[[C0]], %{{.*}}, %[[W]], %[[R]], %[[B]] {ov.name = "bidirectional_lstm", hidden_size = 1 : i64, direction = #ov<direction bidirectional>} : (tensor<3x4x1xf32>, tensor<3x2x1xf32>, tensor<3x2x1xf32>, tensor<3xi64>, tensor<2x4x1xf32>, tensor<2x4x1xf32>, tensor<2x4xf32>) -> (tensor<3x2x4x1xf32>, tensor<3x2x1xf32>, tensor<3x2x1xf32>)
// CHECK:         %[[YT:.*]] = ov.transpose %[[Y]], %{{.*}} {ov.name = "bidirectional_lstm/Y/transpose"} : (tensor<3x2x4x1xf32>, tensor<4xi64>) -> tensor<3x4x2x1xf32>
// CHECK:         %[[M:.*]] = ov.reshape %[[YT]], %{{.*}} special_zero = true {ov.name = "bidirectional_lstm/Y"} : (tensor<3x4x2x1xf32>, tensor<3xi64>) -> tensor<3x4x2xf32>
// CHECK:         func.return %[[M]] : tensor<3x4x2xf32>
func.func @main(%x: tensor<3x4x1xf32>, %fh: tensor<3x1xf32>, %fc: tensor<3x1xf32>, %bh: tensor<3x1xf32>, %bc: tensor<3x1xf32>) -> tensor<3x4x2xf32> {
  %w1 = arith.constant dense<1.0> : tensor<1x1xf32>
  %w2 = arith.constant dense<2.0> : tensor<1x1xf32>
  %w3 = arith.constant dense<3.0> : tensor<1x1xf32>
  %w4 = arith.constant dense<4.0> : tensor<1x1xf32>
  %w5 = arith.constant dense<5.0> : tensor<1x1xf32>
  %w6 = arith.constant dense<6.0> : tensor<1x1xf32>
  %w7 = arith.constant dense<7.0> : tensor<1x1xf32>
  %w8 = arith.constant dense<8.0> : tensor<1x1xf32>
  %r = arith.constant dense<1.0> : tensor<1x1xf32>
  %b = arith.constant dense<0.5> : tensor<1xf32>
  %n = "tfl.no_value"() <{value}> : () -> none
  %y, %empty = "tfl.bidirectional_sequence_lstm"(%x, %w1, %w2, %w3, %w4, %r, %r, %r, %r, %n, %n, %n, %b, %b, %b, %b, %n, %n, %w5, %w6, %w7, %w8, %r, %r, %r, %r, %n, %n, %n, %b, %b, %b, %b, %n, %n, %fh, %fc, %bh, %bc, %n, %n, %n, %n, %n, %n, %n, %n, %n) <{cell_clip = 0.000000e+00 : f32, fused_activation_function = "TANH", merge_outputs = true, proj_clip = 0.000000e+00 : f32, time_major = false}> : (tensor<3x4x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, none, none, none, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, none, none, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, none, none, none, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, none, none, tensor<3x1xf32>, tensor<3x1xf32>, tensor<3x1xf32>, tensor<3x1xf32>, none, none, none, none, none, none, none, none, none) -> (tensor<3x4x2xf32>, tensor<3x4x0xf32>)
  func.return %y : tensor<3x4x2xf32>
}

// -----

// Separate outputs: Y is split on num_directions; both outputs [B, T, H].
// CHECK-LABEL: func.func @main
// CHECK:         %[[Y:.*]], %{{.*}}, %{{.*}} = ov.lstm_sequence {{.*}} direction = #ov<direction bidirectional>
// CHECK:         %[[FW:.*]], %[[BW:.*]] = ov.split %[[Y]], %{{.*}} num_splits = 2 : (tensor<3x2x4x1xf32>, tensor<i64>) -> (tensor<3x1x4x1xf32>, tensor<3x1x4x1xf32>)
// CHECK:         %[[F:.*]] = ov.squeeze %[[FW]], %{{.*}} {ov.name = "bidirectional_lstm/Y_fw"} : (tensor<3x1x4x1xf32>, tensor<1xi64>) -> tensor<3x4x1xf32>
// CHECK:         %[[B:.*]] = ov.squeeze %[[BW]], %{{.*}} {ov.name = "bidirectional_lstm/Y_bw"} : (tensor<3x1x4x1xf32>, tensor<1xi64>) -> tensor<3x4x1xf32>
// CHECK:         func.return %[[F]], %[[B]]
func.func @main(%x: tensor<3x4x1xf32>, %s: tensor<3x1xf32>, %w: tensor<1x1xf32>, %b: tensor<1xf32>) -> (tensor<3x4x1xf32>, tensor<3x4x1xf32>) {
  %n = "tfl.no_value"() <{value}> : () -> none
  %f, %k = "tfl.bidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %w, %w, %w, %w, %n, %n, %n, %b, %b, %b, %b, %n, %n, %w, %w, %w, %w, %w, %w, %w, %w, %n, %n, %n, %b, %b, %b, %b, %n, %n, %s, %s, %s, %s, %n, %n, %n, %n, %n, %n, %n, %n, %n) <{cell_clip = 0.000000e+00 : f32, fused_activation_function = "TANH", merge_outputs = false, proj_clip = 0.000000e+00 : f32, time_major = false}> : (tensor<3x4x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, none, none, none, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, none, none, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, none, none, none, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, none, none, tensor<3x1xf32>, tensor<3x1xf32>, tensor<3x1xf32>, tensor<3x1xf32>, none, none, none, none, none, none, none, none, none) -> (tensor<3x4x1xf32>, tensor<3x4x1xf32>)
  func.return %f, %k : tensor<3x4x1xf32>, tensor<3x4x1xf32>
}
