// RUN: opt-tool %s --split-input-file --convert-tfl-to-ov | filecheck %s
// RUN: opt-tool %s --split-input-file --convert-tfl-to-ov | opt-tool --split-input-file | filecheck %s

// tfl.unidirectional_sequence_gru with reset_after (Keras v2's GRU) -> ov.gru_sequence with
// linear_before_reset: gates z, r, h in both; B = [bz_in + bz_rec, br_in + br_rec, bh_in,
// bh_rec] (OpenVINO's [Bz; Br; Wbh; Rbh]). The final state (lowpass extension) is Ho.
// CHECK-LABEL: func.func @main
// CHECK-NOT:     tfl.
// CHECK-DAG:     %[[W:.*]] = ov.constant dense<{{\[\[\[}}1.000000e+00], [2.000000e+00], [3.000000e+00]]]> : tensor<1x3x1xf32> {ov.name = "gru/W"}
// CHECK-DAG:     %[[R:.*]] = ov.constant dense<{{\[\[\[}}4.000000e+00], [5.000000e+00], [6.000000e+00]]]> : tensor<1x3x1xf32> {ov.name = "gru/R"}
// CHECK-DAG:     %[[B:.*]] = ov.constant dense<{{\[\[}}7.500000e-01, 3.000000e+00, 4.000000e+00, 8.000000e+00]]> : tensor<1x4xf32> {ov.name = "gru/B"}
// CHECK-DAG:     %[[H0:.*]] = ov.unsqueeze %h0, %{{.*}} {ov.name = "gru/H0"}
// CHECK:         %[[LEN:.*]] = ov.broadcast {{.*}} {ov.name = "gru/sequence_lengths"}
// CHECK:         %[[Y:.*]], %[[HO:.*]] = ov.gru_sequence %x, %[[H0]], %[[LEN]], %[[W]], %[[R]], %[[B]] {ov.name = "gru", hidden_size = 1 : i64, direction = #ov<direction forward>, linear_before_reset = true} : (tensor<2x3x1xf32>, tensor<2x1x1xf32>, tensor<2xi64>, tensor<1x3x1xf32>, tensor<1x3x1xf32>, tensor<1x4xf32>) -> (tensor<2x1x3x1xf32>, tensor<2x1x1xf32>)
// CHECK:         %[[OUT:.*]] = ov.squeeze %[[Y]], %{{.*}} {ov.name = "gru/Y"}
// CHECK:         %[[H:.*]] = ov.squeeze %[[HO]], %{{.*}} {ov.name = "gru/H"} : (tensor<2x1x1xf32>, tensor<1xi64>) -> tensor<2x1xf32>
// CHECK:         func.return %[[OUT]], %[[H]]
func.func @main(%x: tensor<2x3x1xf32>, %h0: tensor<2x1xf32>) -> (tensor<2x3x1xf32>, tensor<2x1xf32>) {
  %wz = arith.constant dense<[[1.0]]> : tensor<1x1xf32>
  %wr = arith.constant dense<[[2.0]]> : tensor<1x1xf32>
  %wh = arith.constant dense<[[3.0]]> : tensor<1x1xf32>
  %rz = arith.constant dense<[[4.0]]> : tensor<1x1xf32>
  %rr = arith.constant dense<[[5.0]]> : tensor<1x1xf32>
  %rh = arith.constant dense<[[6.0]]> : tensor<1x1xf32>
  %bz = arith.constant dense<[0.5]> : tensor<1xf32>
  %br = arith.constant dense<[1.0]> : tensor<1xf32>
  %bh = arith.constant dense<[4.0]> : tensor<1xf32>
  %rbz = arith.constant dense<[0.25]> : tensor<1xf32>
  %rbr = arith.constant dense<[2.0]> : tensor<1xf32>
  %rbh = arith.constant dense<[8.0]> : tensor<1xf32>
  %y, %h = "tfl.unidirectional_sequence_gru"(%x, %wz, %wr, %wh, %rz, %rr, %rh, %bz, %br, %bh, %rbz, %rbr, %rbh, %h0) <{fused_activation_function = "TANH", reset_after = true, time_major = false}> : (tensor<2x3x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<2x1xf32>) -> (tensor<2x3x1xf32>, tensor<2x1xf32>)
  func.return %y, %h : tensor<2x3x1xf32>, tensor<2x1xf32>
}

// -----

// reset_after = false (Keras v1's GRU): B = [bz_in + bz_rec, br_in + br_rec, bh_in + bh_rec];
// absent recurrent biases (tfl.no_value) are zeros; time major input and output.
// CHECK-LABEL: func.func @main
// CHECK-DAG:     %[[B:.*]] = ov.constant dense<{{\[\[}}5.000000e-01, 1.000000e+00, 4.000000e+00]]> : tensor<1x3xf32> {ov.name = "gru/B"}
// CHECK-DAG:     %[[X:.*]] = ov.transpose %x, %{{.*}} {ov.name = "gru/X"} : (tensor<3x2x1xf32>, tensor<3xi64>) -> tensor<2x3x1xf32>
// CHECK:         ov.gru_sequence %[[X]], {{.*}}, %[[B]] {ov.name = "gru", hidden_size = 1 : i64, direction = #ov<direction forward>}
// CHECK:         ov.transpose {{.*}} {ov.name = "gru/Y"} : (tensor<2x3x1xf32>, tensor<3xi64>) -> tensor<3x2x1xf32>
func.func @main(%x: tensor<3x2x1xf32>, %h0: tensor<2x1xf32>) -> tensor<3x2x1xf32> {
  %w = arith.constant dense<[[1.0]]> : tensor<1x1xf32>
  %bz = arith.constant dense<[0.5]> : tensor<1xf32>
  %br = arith.constant dense<[1.0]> : tensor<1xf32>
  %bh = arith.constant dense<[4.0]> : tensor<1xf32>
  %none = "tfl.no_value"() <{value}> : () -> none
  %y = "tfl.unidirectional_sequence_gru"(%x, %w, %w, %w, %w, %w, %w, %bz, %br, %bh, %none, %none, %none, %h0) <{fused_activation_function = "TANH", reset_after = false, time_major = true}> : (tensor<3x2x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, none, none, none, tensor<2x1xf32>) -> tensor<3x2x1xf32>
  func.return %y : tensor<3x2x1xf32>
}
