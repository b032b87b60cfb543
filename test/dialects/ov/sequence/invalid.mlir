// RUN: opt-tool %s --split-input-file --verify-diagnostics

func.func @unsupported_activation(%x: tensor<2x3xf32>, %h: tensor<2x4xf32>, %w: tensor<16x3xf32>, %r: tensor<16x4xf32>, %b: tensor<16xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{Expected `sigmoid`, `tanh`, or `relu`.}}
  %ho, %co = ov.lstm_cell %x, %h, %h, %w, %r, %b {hidden_size = 4 : i64, activations = [#ov<activation sigmoid>, #ov<activation tanh>, #ov<activation hardsigmoid>]} : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<16x3xf32>, tensor<16x4xf32>, tensor<16xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  func.return %ho : tensor<2x4xf32>
}

// -----

func.func @activation_count(%x: tensor<2x3xf32>, %h: tensor<2x4xf32>, %w: tensor<12x3xf32>, %r: tensor<12x4xf32>, %b: tensor<12xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'ov.gru_cell' op activations must have 2 values (f, g), got 3: [sigmoid, tanh, tanh]}}
  %0 = ov.gru_cell %x, %h, %w, %r, %b {hidden_size = 4 : i64, activations = [#ov<activation sigmoid>, #ov<activation tanh>, #ov<activation tanh>]} : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<12x3xf32>, tensor<12x4xf32>, tensor<12xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @negative_clip(%x: tensor<2x3xf32>, %h: tensor<2x4xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'ov.rnn_cell' op clip must be non-negative (0 = no clipping), got -1.0}}
  %0 = ov.rnn_cell %x, %h, %w, %r, %b {hidden_size = 4 : i64, clip = -1.0 : f32} : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @hidden_size(%x: tensor<2x3xf32>, %h: tensor<2x4xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'ov.rnn_cell' op hidden_size must be positive, got 0}}
  %0 = ov.rnn_cell %x, %h, %w, %r, %b {hidden_size = 0 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @direction(%x: tensor<2x5x3xf32>, %h: tensor<2x1x4xf32>, %len: tensor<2xi32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>, %b: tensor<1x4xf32>) -> tensor<2x1x5x4xf32> {
  // expected-error @+1 {{Expected `forward`, `reverse`, or `bidirectional`.}}
  %y, %ho = ov.rnn_sequence %x, %h, %len, %w, %r, %b {hidden_size = 4 : i64, direction = #ov<direction backward>} : (tensor<2x5x3xf32>, tensor<2x1x4xf32>, tensor<2xi32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, tensor<1x4xf32>) -> (tensor<2x1x5x4xf32>, tensor<2x1x4xf32>)
  func.return %y : tensor<2x1x5x4xf32>
}

// -----

func.func @num_directions(%x: tensor<2x5x3xf32>, %h: tensor<2x1x4xf32>, %len: tensor<2xi32>, %w: tensor<1x12x3xf32>, %r: tensor<1x12x4xf32>, %b: tensor<1x12xf32>) -> tensor<2x2x5x4xf32> {
  // expected-error @+1 {{'ov.gru_sequence' op H must have shape [batch_size, num_directions, hidden_size] = [2, 2, 4], got [2, 1, 4] (num_directions is 2 for direction 'bidirectional')}}
  %y, %ho = ov.gru_sequence %x, %h, %len, %w, %r, %b {hidden_size = 4 : i64, direction = #ov<direction bidirectional>} : (tensor<2x5x3xf32>, tensor<2x1x4xf32>, tensor<2xi32>, tensor<1x12x3xf32>, tensor<1x12x4xf32>, tensor<1x12xf32>) -> (tensor<2x2x5x4xf32>, tensor<2x2x4xf32>)
  func.return %y : tensor<2x2x5x4xf32>
}

// -----

func.func @integer_input(%x: tensor<2x3xi32>, %h: tensor<2x4xf32>, %w: tensor<16x3xf32>, %r: tensor<16x4xf32>, %b: tensor<16xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'ov.lstm_cell' op X must have element type f32 or f16, got i32}}
  %ho, %co = ov.lstm_cell %x, %h, %h, %w, %r, %b {hidden_size = 4 : i64} : (tensor<2x3xi32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<16x3xf32>, tensor<16x4xf32>, tensor<16xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  func.return %ho : tensor<2x4xf32>
}

// -----

func.func @mixed_types(%x: tensor<2x3xf32>, %h: tensor<2x4xf16>, %w: tensor<12x3xf32>, %r: tensor<12x4xf32>, %b: tensor<12xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'ov.gru_cell' op X and H must have the same element type, got f32 and f16}}
  %0 = ov.gru_cell %x, %h, %w, %r, %b {hidden_size = 4 : i64} : (tensor<2x3xf32>, tensor<2x4xf16>, tensor<12x3xf32>, tensor<12x4xf32>, tensor<12xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @float_lengths(%x: tensor<2x5x3xf32>, %h: tensor<2x1x4xf32>, %len: tensor<2xf32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>, %b: tensor<1x4xf32>) -> tensor<2x1x5x4xf32> {
  // expected-error @+1 {{'ov.rnn_sequence' op sequence_lengths must have an integer element type (i64, i32, i8, ui8), got f32}}
  %y, %ho = ov.rnn_sequence %x, %h, %len, %w, %r, %b {hidden_size = 4 : i64, direction = #ov<direction forward>} : (tensor<2x5x3xf32>, tensor<2x1x4xf32>, tensor<2xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, tensor<1x4xf32>) -> (tensor<2x1x5x4xf32>, tensor<2x1x4xf32>)
  func.return %y : tensor<2x1x5x4xf32>
}

// -----

func.func @lengths_shape(%x: tensor<2x5x3xf32>, %h: tensor<2x1x4xf32>, %len: tensor<3xi32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>, %b: tensor<1x4xf32>) -> tensor<2x1x5x4xf32> {
  // expected-error @+1 {{'ov.rnn_sequence' op sequence_lengths must have shape [batch_size] = [2], got [3]}}
  %y, %ho = ov.rnn_sequence %x, %h, %len, %w, %r, %b {hidden_size = 4 : i64, direction = #ov<direction forward>} : (tensor<2x5x3xf32>, tensor<2x1x4xf32>, tensor<3xi32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, tensor<1x4xf32>) -> (tensor<2x1x5x4xf32>, tensor<2x1x4xf32>)
  func.return %y : tensor<2x1x5x4xf32>
}

// -----

func.func @x_rank(%x: tensor<2x3xf32>, %h: tensor<2x1x4xf32>, %len: tensor<2xi32>, %w: tensor<1x16x3xf32>, %r: tensor<1x16x4xf32>, %b: tensor<1x16xf32>) -> tensor<2x1x5x4xf32> {
  // expected-error @+1 {{'ov.lstm_sequence' op X must have rank 3 ([batch_size, seq_length, input_size]), got rank 2}}
  %y, %ho, %co = ov.lstm_sequence %x, %h, %h, %len, %w, %r, %b {hidden_size = 4 : i64, direction = #ov<direction forward>} : (tensor<2x3xf32>, tensor<2x1x4xf32>, tensor<2x1x4xf32>, tensor<2xi32>, tensor<1x16x3xf32>, tensor<1x16x4xf32>, tensor<1x16xf32>) -> (tensor<2x1x5x4xf32>, tensor<2x1x4xf32>, tensor<2x1x4xf32>)
  func.return %y : tensor<2x1x5x4xf32>
}

// -----

func.func @w_gates(%x: tensor<2x3xf32>, %h: tensor<2x4xf32>, %w: tensor<12x3xf32>, %r: tensor<16x4xf32>, %b: tensor<16xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'ov.lstm_cell' op W must have shape [4 * hidden_size, input_size] = [16, 3], got [12, 3] (hidden_size = 4, gates f, i, c, o)}}
  %ho, %co = ov.lstm_cell %x, %h, %h, %w, %r, %b {hidden_size = 4 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<12x3xf32>, tensor<16x4xf32>, tensor<16xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>)
  func.return %ho : tensor<2x4xf32>
}

// -----

func.func @hidden_size_mismatch(%x: tensor<2x3xf32>, %h: tensor<2x4xf32>, %w: tensor<20x3xf32>, %r: tensor<20x5xf32>, %b: tensor<20xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{'ov.lstm_cell' op H must have shape [batch_size, hidden_size] = [2, 5], got [2, 4] (hidden_size = 5, gates f, i, c, o)}}
  %ho, %co = ov.lstm_cell %x, %h, %h, %w, %r, %b {hidden_size = 5 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<20x3xf32>, tensor<20x5xf32>, tensor<20xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>)
  func.return %ho : tensor<2x5xf32>
}

// -----

func.func @bias_linear_before_reset(%x: tensor<2x5x3xf32>, %h: tensor<2x1x4xf32>, %len: tensor<2xi32>, %w: tensor<1x12x3xf32>, %r: tensor<1x12x4xf32>, %b: tensor<1x12xf32>) -> tensor<2x1x5x4xf32> {
  // expected-error @+1 {{'ov.gru_sequence' op B must have shape [num_directions, 4 * hidden_size] = [1, 16], got [1, 12] (linear_before_reset = true)}}
  %y, %ho = ov.gru_sequence %x, %h, %len, %w, %r, %b {hidden_size = 4 : i64, direction = #ov<direction forward>, linear_before_reset = true} : (tensor<2x5x3xf32>, tensor<2x1x4xf32>, tensor<2xi32>, tensor<1x12x3xf32>, tensor<1x12x4xf32>, tensor<1x12xf32>) -> (tensor<2x1x5x4xf32>, tensor<2x1x4xf32>)
  func.return %y : tensor<2x1x5x4xf32>
}

// -----

func.func @batch_mismatch(%x: tensor<2x5x3xf32>, %h: tensor<2x1x4xf32>, %c: tensor<3x1x4xf32>, %len: tensor<2xi32>, %w: tensor<1x16x3xf32>, %r: tensor<1x16x4xf32>, %b: tensor<1x16xf32>) -> tensor<2x1x5x4xf32> {
  // expected-error @+1 {{'ov.lstm_sequence' op C must have shape [batch_size, num_directions, hidden_size] = [2, 1, 4], got [3, 1, 4]}}
  %y, %ho, %co = ov.lstm_sequence %x, %h, %c, %len, %w, %r, %b {hidden_size = 4 : i64, direction = #ov<direction forward>} : (tensor<2x5x3xf32>, tensor<2x1x4xf32>, tensor<3x1x4xf32>, tensor<2xi32>, tensor<1x16x3xf32>, tensor<1x16x4xf32>, tensor<1x16xf32>) -> (tensor<2x1x5x4xf32>, tensor<2x1x4xf32>, tensor<2x1x4xf32>)
  func.return %y : tensor<2x1x5x4xf32>
}

// -----

func.func @input_size(%x: tensor<2x3xf32>, %h: tensor<2x4xf32>, %w: tensor<4x2xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'ov.rnn_cell' op W must have shape [hidden_size, input_size] = [4, 3], got [4, 2]}}
  %0 = ov.rnn_cell %x, %h, %w, %r, %b {hidden_size = 4 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<4x2xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @result_type(%x: tensor<2x5x3xf32>, %h: tensor<2x1x4xf32>, %len: tensor<2xi32>, %w: tensor<1x4x3xf32>, %r: tensor<1x4x4xf32>, %b: tensor<1x4xf32>) -> tensor<2x1x4x4xf32> {
  // expected-error @+1 {{'ov.rnn_sequence' op inferred type(s) 'tensor<2x1x5x4xf32>, tensor<2x1x4xf32>' are incompatible with return type(s) of operation 'tensor<2x1x4x4xf32>, tensor<2x1x4xf32>'}}
  %y, %ho = ov.rnn_sequence %x, %h, %len, %w, %r, %b {hidden_size = 4 : i64, direction = #ov<direction forward>} : (tensor<2x5x3xf32>, tensor<2x1x4xf32>, tensor<2xi32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, tensor<1x4xf32>) -> (tensor<2x1x4x4xf32>, tensor<2x1x4xf32>)
  func.return %y : tensor<2x1x4x4xf32>
}
