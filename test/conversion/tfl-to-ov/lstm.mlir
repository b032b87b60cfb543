// RUN: opt-tool %s --split-input-file --convert-tfl-to-ov | filecheck %s
// The converted graphs still verify and round-trip.
// RUN: opt-tool %s --split-input-file --convert-tfl-to-ov | opt-tool --split-input-file | filecheck %s

// tfl.unidirectional_sequence_lstm (batch major) -> ov.lstm_sequence, forward. The gates are
// reordered from TFLite's i, f, c, o to OpenVINO's f, i, c, o and the constant weights folded
// into one W, R and B with the num_directions axis; the states get that axis too;
// sequence_lengths is [B] filled with T, computed from the input's shape.
// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%x: tensor<2x3x2xf32>, %h0: tensor<2x1xf32>, %c0: tensor<2x1xf32>) -> tensor<2x3x1xf32>
// CHECK-NOT:     tfl.
// CHECK-DAG:     %[[W:.*]] = ov.constant dense<{{\[\[\[}}3.000000e+00, 4.000000e+00], [1.000000e+00, 2.000000e+00], [5.000000e+00, 6.000000e+00], [7.000000e+00, 8.000000e+00]]]> : tensor<1x4x2xf32> {ov.name = "lstm/W"}
// CHECK-DAG:     %[[R:.*]] = ov.constant dense<{{\[\[\[}}2.000000e+01], [1.000000e+01], [3.000000e+01], [4.000000e+01]]]> : tensor<1x4x1xf32> {ov.name = "lstm/R"}
// CHECK-DAG:     %[[B:.*]] = ov.constant dense<{{\[\[}}2.000000e-01, 1.000000e-01, 3.000000e-01, 4.000000e-01]]> : tensor<1x4xf32> {ov.name = "lstm/B"}
// CHECK-DAG:     %[[H0:.*]] = ov.unsqueeze %h0, %{{.*}} {ov.name = "lstm/H0"} : (tensor<2x1xf32>, tensor<1xi64>) -> tensor<2x1x1xf32>
// CHECK-DAG:     %[[C0:.*]] = ov.unsqueeze %c0, %{{.*}} {ov.name = "lstm/C0"} : (tensor<2x1xf32>, tensor<1xi64>) -> tensor<2x1x1xf32>
// CHECK:         %[[SHAPE:.*]] = ov.shape_of %x {ov.name = "lstm/sequence_lengths/shape"} : (tensor<2x3x2xf32>) -> tensor<3xi64>
// CHECK:         %[[T:.*]] = ov.gather %[[SHAPE]], %{{.*}}, %{{.*}} : (tensor<3xi64>, tensor<i64>, tensor<i64>) -> tensor<i64>
// CHECK:         %[[BATCH:.*]] = ov.gather %[[SHAPE]], %{{.*}}, %{{.*}} : (tensor<3xi64>, tensor<1xi64>, tensor<i64>) -> tensor<1xi64>
// CHECK:         %[[LEN:.*]] = ov.broadcast %[[T]], %[[BATCH]] {ov.name = "lstm/sequence_lengths"} : (tensor<i64>, tensor<1xi64>) -> tensor<2xi64>
// CHECK:         %[[Y:.*]], %{{.*}}, %{{.*}} = ov.lstm_sequence %x, %[[H0]], %[[C0]], %[[LEN]], %[[W]], %[[R]], %[[B]] {ov.name = "lstm", hidden_size = 1 : i64, direction = #ov<direction forward>} : (tensor<2x3x2xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>, tensor<2xi64>, tensor<1x4x2xf32>, tensor<1x4x1xf32>, tensor<1x4xf32>) -> (tensor<2x1x3x1xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>)
// CHECK:         %[[OUT:.*]] = ov.squeeze %[[Y]], %{{.*}} {ov.name = "lstm/Y"} : (tensor<2x1x3x1xf32>, tensor<1xi64>) -> tensor<2x3x1xf32>
// CHECK:         func.return %[[OUT]] : tensor<2x3x1xf32>
func.func @main(%x: tensor<2x3x2xf32>, %h0: tensor<2x1xf32>, %c0: tensor<2x1xf32>) -> tensor<2x3x1xf32> {
  %wi = arith.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  %wf = arith.constant dense<[[3.0, 4.0]]> : tensor<1x2xf32>
  %wc = arith.constant dense<[[5.0, 6.0]]> : tensor<1x2xf32>
  %wo = arith.constant dense<[[7.0, 8.0]]> : tensor<1x2xf32>
  %ri = arith.constant dense<[[10.0]]> : tensor<1x1xf32>
  %rf = arith.constant dense<[[20.0]]> : tensor<1x1xf32>
  %rc = arith.constant dense<[[30.0]]> : tensor<1x1xf32>
  %ro = arith.constant dense<[[40.0]]> : tensor<1x1xf32>
  %bi = arith.constant dense<[0.1]> : tensor<1xf32>
  %bf = arith.constant dense<[0.2]> : tensor<1xf32>
  %bc = arith.constant dense<[0.3]> : tensor<1xf32>
  %bo = arith.constant dense<[0.4]> : tensor<1xf32>
  %none = "tfl.no_value"() <{value}> : () -> none
  %y = "tfl.unidirectional_sequence_lstm"(%x, %wi, %wf, %wc, %wo, %ri, %rf, %rc, %ro, %none, %none, %none, %bi, %bf, %bc, %bo, %none, %none, %h0, %c0, %none, %none, %none, %none) <{cell_clip = 0.000000e+00 : f32, fused_activation_function = "TANH", proj_clip = 0.000000e+00 : f32, time_major = false}> : (tensor<2x3x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, none, none, none, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, none, none, tensor<2x1xf32>, tensor<2x1xf32>, none, none, none, none) -> tensor<2x3x1xf32>
  func.return %y : tensor<2x3x1xf32>
}

// -----

// time_major: the input is transposed to [B, T, I] and the output back to [T, B, H]; the
// final-state results (the lowpass extension) are Ho and Co without num_directions. RELU is
// OpenVINO's g and h activations. An explicit ov.name names the sequence and its parts; the
// graph outputs keep the names they had (after the replaced op: docs/names.md).
// CHECK-LABEL: func.func @main
// CHECK-SAME:    -> (tensor<5x2x4xf32> {ov.name = "enc.0"}, tensor<2x4xf32> {ov.name = "enc.1"}, tensor<2x4xf32> {ov.name = "enc.2"})
// CHECK:         %[[X:.*]] = ov.transpose %x, %{{.*}} {ov.name = "enc/X"} : (tensor<5x2x3xf32>, tensor<3xi64>) -> tensor<2x5x3xf32>
// CHECK:         ov.shape_of %[[X]]
// CHECK:         %[[Y:.*]], %[[HO:.*]], %[[CO:.*]] = ov.lstm_sequence %[[X]], {{.*}} {ov.name = "enc", hidden_size = 4 : i64, direction = #ov<direction forward>, activations = [#ov<activation sigmoid>, #ov<activation relu>, #ov<activation relu>]}
// CHECK:         %[[SQ:.*]] = ov.squeeze %[[Y]], %{{.*}} {ov.name = "enc/Y/squeeze"} : (tensor<2x1x5x4xf32>, tensor<1xi64>) -> tensor<2x5x4xf32>
// CHECK:         %[[OUT:.*]] = ov.transpose %[[SQ]], %{{.*}} {ov.name = "enc/Y"} : (tensor<2x5x4xf32>, tensor<3xi64>) -> tensor<5x2x4xf32>
// CHECK:         %[[H:.*]] = ov.squeeze %[[HO]], %{{.*}} {ov.name = "enc/H"} : (tensor<2x1x4xf32>, tensor<1xi64>) -> tensor<2x4xf32>
// CHECK:         %[[C:.*]] = ov.squeeze %[[CO]], %{{.*}} {ov.name = "enc/C"} : (tensor<2x1x4xf32>, tensor<1xi64>) -> tensor<2x4xf32>
// CHECK:         func.return %[[OUT]], %[[H]], %[[C]]
func.func @main(%x: tensor<5x2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %h0: tensor<2x4xf32>, %c0: tensor<2x4xf32>) -> (tensor<5x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %none = "tfl.no_value"() <{value}> : () -> none
  %y, %h, %c = "tfl.unidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %b, %b, %b, %b, %none, %none, %h0, %c0, %none, %none, %none, %none) <{cell_clip = 0.000000e+00 : f32, fused_activation_function = "RELU", proj_clip = 0.000000e+00 : f32, time_major = true}> {ov.name = "enc"} : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> (tensor<5x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
  func.return %y, %h, %c : tensor<5x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}
