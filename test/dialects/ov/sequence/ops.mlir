// RUN: opt-tool %s | opt-tool | filecheck %s
// RUN: %roundtrip

// CHECK-LABEL: func.func @lstm_cell
func.func @lstm_cell(%x: tensor<2x3xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>, %w: tensor<16x3xf32>, %r: tensor<16x4xf32>, %b: tensor<16xf32>, %xd: tensor<?x3xf16>, %hd: tensor<?x4xf16>, %wd: tensor<16x3xf16>, %rd: tensor<16x4xf16>, %bd: tensor<16xf16>) -> tensor<2x4xf32> {
  // CHECK: %{{.*}}, %{{.*}} = ov.lstm_cell %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {ov.name = "cell", hidden_size = 4 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<16x3xf32>, tensor<16x4xf32>, tensor<16xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  %ho, %co = ov.lstm_cell %x, %h, %c, %w, %r, %b {hidden_size = 4 : i64, ov.name = "cell"} : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<16x3xf32>, tensor<16x4xf32>, tensor<16xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  // CHECK: ov.lstm_cell %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {hidden_size = 4 : i64, activations = [#ov<activation tanh>, #ov<activation relu>, #ov<activation sigmoid>], activations_alpha = [1.000000e+00 : f32, 2.000000e+00 : f32], activations_beta = [5.000000e-01 : f32], clip = 2.500000e+00 : f32} : (tensor<?x3xf16>, tensor<?x4xf16>, tensor<?x4xf16>, tensor<16x3xf16>, tensor<16x4xf16>, tensor<16xf16>) -> (tensor<?x4xf16>, tensor<?x4xf16>)
  %ho2, %co2 = ov.lstm_cell %xd, %hd, %hd, %wd, %rd, %bd {hidden_size = 4 : i64, activations = [#ov<activation tanh>, #ov<activation relu>, #ov<activation sigmoid>], activations_alpha = [1.0 : f32, 2.0 : f32], activations_beta = [0.5 : f32], clip = 2.5 : f32} : (tensor<?x3xf16>, tensor<?x4xf16>, tensor<?x4xf16>, tensor<16x3xf16>, tensor<16x4xf16>, tensor<16xf16>) -> (tensor<?x4xf16>, tensor<?x4xf16>)
  func.return %ho : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @lstm_sequence
func.func @lstm_sequence(%x: tensor<2x5x3xf32>, %h: tensor<2x1x4xf32>, %h2: tensor<2x2x4xf32>, %len: tensor<2xi32>, %w: tensor<1x16x3xf32>, %r: tensor<1x16x4xf32>, %b: tensor<1x16xf32>, %w2: tensor<2x16x3xf32>, %r2: tensor<2x16x4xf32>, %b2: tensor<2x16xf32>, %xd: tensor<?x?x3xf32>, %hd: tensor<?x2x4xf32>, %lend: tensor<?xi64>) -> tensor<2x1x5x4xf32> {
  // CHECK: %{{.*}}, %{{.*}}, %{{.*}} = ov.lstm_sequence %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {hidden_size = 4 : i64, direction = #ov<direction forward>} : (tensor<2x5x3xf32>, tensor<2x1x4xf32>, tensor<2x1x4xf32>, tensor<2xi32>, tensor<1x16x3xf32>, tensor<1x16x4xf32>, tensor<1x16xf32>) -> (tensor<2x1x5x4xf32>, tensor<2x1x4xf32>, tensor<2x1x4xf32>)
  %y, %ho, %co = ov.lstm_sequence %x, %h, %h, %len, %w, %r, %b {hidden_size = 4 : i64, direction = #ov<direction forward>} : (tensor<2x5x3xf32>, tensor<2x1x4xf32>, tensor<2x1x4xf32>, tensor<2xi32>, tensor<1x16x3xf32>, tensor<1x16x4xf32>, tensor<1x16xf32>) -> (tensor<2x1x5x4xf32>, tensor<2x1x4xf32>, tensor<2x1x4xf32>)
  // CHECK: ov.lstm_sequence %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {ov.name = "bi", hidden_size = 4 : i64, direction = #ov<direction bidirectional>, activations = [#ov<activation sigmoid>, #ov<activation relu>, #ov<activation tanh>], clip = 1.000000e+00 : f32} : (tensor<2x5x3xf32>, tensor<2x2x4xf32>, tensor<2x2x4xf32>, tensor<2xi32>, tensor<2x16x3xf32>, tensor<2x16x4xf32>, tensor<2x16xf32>) -> (tensor<2x2x5x4xf32>, tensor<2x2x4xf32>, tensor<2x2x4xf32>)
  %y2, %ho2, %co2 = ov.lstm_sequence %x, %h2, %h2, %len, %w2, %r2, %b2 {ov.name = "bi", hidden_size = 4 : i64, direction = #ov<direction bidirectional>, activations = [#ov<activation sigmoid>, #ov<activation relu>, #ov<activation tanh>], clip = 1.0 : f32} : (tensor<2x5x3xf32>, tensor<2x2x4xf32>, tensor<2x2x4xf32>, tensor<2xi32>, tensor<2x16x3xf32>, tensor<2x16x4xf32>, tensor<2x16xf32>) -> (tensor<2x2x5x4xf32>, tensor<2x2x4xf32>, tensor<2x2x4xf32>)
  // CHECK: ov.lstm_sequence %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {hidden_size = 4 : i64, direction = #ov<direction bidirectional>} : (tensor<?x?x3xf32>, tensor<?x2x4xf32>, tensor<?x2x4xf32>, tensor<?xi64>, tensor<2x16x3xf32>, tensor<2x16x4xf32>, tensor<2x16xf32>) -> (tensor<?x2x?x4xf32>, tensor<?x2x4xf32>, tensor<?x2x4xf32>)
  %y3, %ho3, %co3 = ov.lstm_sequence %xd, %hd, %hd, %lend, %w2, %r2, %b2 {hidden_size = 4 : i64, direction = #ov<direction bidirectional>} : (tensor<?x?x3xf32>, tensor<?x2x4xf32>, tensor<?x2x4xf32>, tensor<?xi64>, tensor<2x16x3xf32>, tensor<2x16x4xf32>, tensor<2x16xf32>) -> (tensor<?x2x?x4xf32>, tensor<?x2x4xf32>, tensor<?x2x4xf32>)
  func.return %y : tensor<2x1x5x4xf32>
}

// CHECK-LABEL: func.func @gru_cell
func.func @gru_cell(%x: tensor<2x3xf32>, %h: tensor<2x4xf32>, %w: tensor<12x3xf32>, %r: tensor<12x4xf32>, %b: tensor<12xf32>, %b4: tensor<16xf32>) -> tensor<2x4xf32> {
  // CHECK: %{{.*}} = ov.gru_cell %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {hidden_size = 4 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<12x3xf32>, tensor<12x4xf32>, tensor<12xf32>) -> tensor<2x4xf32>
  %0 = ov.gru_cell %x, %h, %w, %r, %b {hidden_size = 4 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<12x3xf32>, tensor<12x4xf32>, tensor<12xf32>) -> tensor<2x4xf32>
  // CHECK: ov.gru_cell %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {hidden_size = 4 : i64, linear_before_reset = true, activations = [#ov<activation relu>, #ov<activation tanh>], clip = 5.000000e-01 : f32} : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<12x3xf32>, tensor<12x4xf32>, tensor<16xf32>) -> tensor<2x4xf32>
  %1 = ov.gru_cell %x, %h, %w, %r, %b4 {hidden_size = 4 : i64, linear_before_reset = true, activations = [#ov<activation relu>, #ov<activation tanh>], clip = 0.5 : f32} : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<12x3xf32>, tensor<12x4xf32>, tensor<16xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @gru_sequence
func.func @gru_sequence(%x: tensor<2x5x3xf32>, %h: tensor<2x1x4xf32>, %len: tensor<2xi64>, %w: tensor<1x12x3xf32>, %r: tensor<1x12x4xf32>, %b: tensor<1x16xf32>) -> tensor<2x1x5x4xf32> {
  // CHECK: %{{.*}}, %{{.*}} = ov.gru_sequence %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {hidden_size = 4 : i64, direction = #ov<direction reverse>, linear_before_reset = true} : (tensor<2x5x3xf32>, tensor<2x1x4xf32>, tensor<2xi64>, tensor<1x12x3xf32>, tensor<1x12x4xf32>, tensor<1x16xf32>) -> (tensor<2x1x5x4xf32>, tensor<2x1x4xf32>)
  %y, %ho = ov.gru_sequence %x, %h, %len, %w, %r, %b {hidden_size = 4 : i64, direction = #ov<direction reverse>, linear_before_reset = true} : (tensor<2x5x3xf32>, tensor<2x1x4xf32>, tensor<2xi64>, tensor<1x12x3xf32>, tensor<1x12x4xf32>, tensor<1x16xf32>) -> (tensor<2x1x5x4xf32>, tensor<2x1x4xf32>)
  func.return %y : tensor<2x1x5x4xf32>
}

// CHECK-LABEL: func.func @rnn_cell
func.func @rnn_cell(%x: tensor<2x3xf32>, %h: tensor<2x4xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  // CHECK: %{{.*}} = ov.rnn_cell %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {hidden_size = 4 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %0 = ov.rnn_cell %x, %h, %w, %r, %b {hidden_size = 4 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  // CHECK: ov.rnn_cell %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {hidden_size = 4 : i64, activations = [#ov<activation relu>], clip = 3.000000e+00 : f32} : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %1 = ov.rnn_cell %x, %h, %w, %r, %b {hidden_size = 4 : i64, activations = [#ov<activation relu>], clip = 3.0 : f32} : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @rnn_sequence
func.func @rnn_sequence(%x: tensor<2x5x3xf32>, %h: tensor<2x2x4xf32>, %len: tensor<2xi32>, %w: tensor<2x4x3xf32>, %r: tensor<2x4x4xf32>, %b: tensor<2x4xf32>) -> tensor<2x2x5x4xf32> {
  // CHECK: %{{.*}}, %{{.*}} = ov.rnn_sequence %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {hidden_size = 4 : i64, direction = #ov<direction bidirectional>, activations = [#ov<activation sigmoid>]} : (tensor<2x5x3xf32>, tensor<2x2x4xf32>, tensor<2xi32>, tensor<2x4x3xf32>, tensor<2x4x4xf32>, tensor<2x4xf32>) -> (tensor<2x2x5x4xf32>, tensor<2x2x4xf32>)
  %y, %ho = ov.rnn_sequence %x, %h, %len, %w, %r, %b {hidden_size = 4 : i64, direction = #ov<direction bidirectional>, activations = [#ov<activation sigmoid>]} : (tensor<2x5x3xf32>, tensor<2x2x4xf32>, tensor<2xi32>, tensor<2x4x3xf32>, tensor<2x4x4xf32>, tensor<2x4xf32>) -> (tensor<2x2x5x4xf32>, tensor<2x2x4xf32>)
  func.return %y : tensor<2x2x5x4xf32>
}
