// RUN: opt-tool %s --split-input-file --low-latency2 | filecheck %s
// DUP: opt-tool: error: {{.*}}variable 'rnn/variable_0' already exists
// DUP-NOT: Traceback
// RUN: not opt-tool %S/Inputs/low-latency2-duplicate.mlir --low-latency2 2>&1 | filecheck %s --check-prefix=DUP

// Upstream LLT2Sequence, seq_len 1: state named <name>/variable_k; the sequence becomes a
// cell between Squeeze/Unsqueeze ops named <name>:0, :1, :2; the sequence lengths, used only
// by the sequence, go with it (an ov::Model holds only what reaches a Result or an Assign).
// CHECK-LABEL: func.func @lstm_seq1
// CHECK-NOT:     tensor<1xi64>
// CHECK:         %[[H:.*]] = ov.read_value @"seq/variable_0"
// CHECK:         %[[C:.*]] = ov.read_value @"seq/variable_1"
// CHECK-NOT:     ov.lstm_sequence
// CHECK:         %[[HO:.*]], %[[CO:.*]] = ov.lstm_cell {{.*}}ov.name = "seq/cell"
// CHECK-DAG:     %[[Y:.*]] = ov.unsqueeze %[[HO]], %{{.*}} {ov.name = "seq:0"} {{.*}} -> tensor<1x1x1x4xf32>
// CHECK-DAG:     %[[H1:.*]] = ov.unsqueeze %[[HO]], %{{.*}} {ov.name = "seq:1"} {{.*}} -> tensor<1x1x4xf32>
// CHECK-DAG:     %[[C1:.*]] = ov.unsqueeze %[[CO]], %{{.*}} {ov.name = "seq:2"} {{.*}} -> tensor<1x1x4xf32>
// CHECK:         ov.assign @"seq/variable_0", %[[H1]]
// CHECK-NEXT:    ov.assign @"seq/variable_1", %[[C1]]
// CHECK-NOT:     tensor<1xi64>
// CHECK:         func.return %[[Y]]
func.func @lstm_seq1(%x: tensor<1x1x3xf32>, %h: tensor<1x1x4xf32>, %c: tensor<1x1x4xf32>, %w: tensor<1x16x3xf32>, %r: tensor<1x16x4xf32>, %b: tensor<1x16xf32>) -> tensor<1x1x1x4xf32> {
  %len = ov.constant dense<[1]> : tensor<1xi64>
  %y, %ho, %co = ov.lstm_sequence %x, %h, %c, %len, %w, %r, %b {ov.name = "seq", hidden_size = 4 : i64, direction = #ov<direction forward>} : (tensor<1x1x3xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1xi64>, tensor<1x16x3xf32>, tensor<1x16x4xf32>, tensor<1x16xf32>) -> (tensor<1x1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>)
  func.return %y : tensor<1x1x1x4xf32>
}

// -----

// seq_len 10: the sequence is kept and gets its state.
// CHECK-LABEL: func.func @gru_seq10
// CHECK:         %[[H:.*]] = ov.read_value @"gru/variable_0"
// CHECK:         %{{.*}}, %[[HO:.*]] = ov.gru_sequence %x, %[[H]]
// CHECK:         ov.assign @"gru/variable_0", %[[HO]]
func.func @gru_seq10(%x: tensor<1x10x3xf32>, %h: tensor<1x1x4xf32>, %w: tensor<1x12x3xf32>, %r: tensor<1x12x4xf32>, %b: tensor<1x12xf32>) -> tensor<1x1x10x4xf32> {
  %len = ov.constant dense<[10]> : tensor<1xi64>
  %y, %ho = ov.gru_sequence %x, %h, %len, %w, %r, %b {ov.name = "gru", hidden_size = 4 : i64, direction = #ov<direction forward>} : (tensor<1x10x3xf32>, tensor<1x1x4xf32>, tensor<1xi64>, tensor<1x12x3xf32>, tensor<1x12x4xf32>, tensor<1x12xf32>) -> (tensor<1x1x10x4xf32>, tensor<1x1x4xf32>)
  func.return %y : tensor<1x1x10x4xf32>
}

// -----

// RNN, seq_len 1, unnamed: the op gets its display name, which the state name uses.
// CHECK-LABEL: func.func @rnn_seq1
// CHECK:         ov.read_value @"RNNSequence_1/variable_0"
// CHECK:         ov.rnn_cell
// CHECK:         ov.assign @"RNNSequence_1/variable_0"
func.func @rnn_seq1(%x: tensor<1x1x3xf32>, %h: tensor<1x1x4xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>, %b: tensor<1x4xf32>) -> tensor<1x1x4xf32> {
  %len = ov.constant dense<[1]> : tensor<1xi64>
  %y, %ho = ov.rnn_sequence %x, %h, %len, %w, %r, %b {hidden_size = 4 : i64, direction = #ov<direction reverse>} : (tensor<1x1x3xf32>, tensor<1x1x4xf32>, tensor<1xi64>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, tensor<1x4xf32>) -> (tensor<1x1x1x4xf32>, tensor<1x1x4xf32>)
  func.return %ho : tensor<1x1x4xf32>
}

// -----

// Bug §8.7 fixed: a bidirectional sequence of length 1 stays a sequence (OpenVINO squeezes
// W/R/B with two directions and breaks); a sequence whose lengths are not known to be 1 too.
// CHECK-LABEL: func.func @kept
// CHECK:         ov.lstm_sequence {{.*}}direction = #ov<direction bidirectional>
// CHECK:         ov.lstm_sequence {{.*}}direction = #ov<direction forward>
// CHECK-NOT:     ov.lstm_cell
func.func @kept(%x: tensor<1x1x3xf32>, %h: tensor<1x2x4xf32>, %w: tensor<2x16x3xf32>, %r: tensor<2x16x4xf32>, %b: tensor<2x16xf32>, %len: tensor<1xi64>, %h1: tensor<1x1x4xf32>, %w1: tensor<1x16x3xf32>, %r1: tensor<1x16x4xf32>, %b1: tensor<1x16xf32>) -> (tensor<1x2x1x4xf32>, tensor<1x1x1x4xf32>) {
  %one = ov.constant dense<[1]> : tensor<1xi64>
  %y, %ho, %co = ov.lstm_sequence %x, %h, %h, %one, %w, %r, %b {ov.name = "bi", hidden_size = 4 : i64, direction = #ov<direction bidirectional>} : (tensor<1x1x3xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>, tensor<1xi64>, tensor<2x16x3xf32>, tensor<2x16x4xf32>, tensor<2x16xf32>) -> (tensor<1x2x1x4xf32>, tensor<1x2x4xf32>, tensor<1x2x4xf32>)
  %y1, %ho1, %co1 = ov.lstm_sequence %x, %h1, %h1, %len, %w1, %r1, %b1 {ov.name = "dyn", hidden_size = 4 : i64, direction = #ov<direction forward>} : (tensor<1x1x3xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1xi64>, tensor<1x16x3xf32>, tensor<1x16x4xf32>, tensor<1x16xf32>) -> (tensor<1x1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>)
  func.return %y, %y1 : tensor<1x2x1x4xf32>, tensor<1x1x1x4xf32>
}
