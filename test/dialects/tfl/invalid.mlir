// RUN: opt-tool %s --split-input-file --verify-diagnostics

func.func @mandatory(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rp: tensor<4x2xf32>, %v: tensor<4xf32>, %p: tensor<2x4xf32>, %pb: tensor<2xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.lstm' op input_to_forget_weights is mandatory, got none}}
  %0 = "tfl.lstm"(%x, %w, %none, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<2x3xf32>, tensor<4x3xf32>, none, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @cifg_partial(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rp: tensor<4x2xf32>, %v: tensor<4xf32>, %p: tensor<2x4xf32>, %pb: tensor<2xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.lstm' op input_to_input_weights, recurrent_to_input_weights, input_gate_bias must be all present (no CIFG) or all none (CIFG), got input_to_input_weights, input_gate_bias present and recurrent_to_input_weights none}}
  %0 = "tfl.lstm"(%x, %w, %w, %w, %w, %none, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, none, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @cifg_peephole(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rp: tensor<4x2xf32>, %v: tensor<4xf32>, %p: tensor<2x4xf32>, %pb: tensor<2xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.lstm' op cell_to_input_weights must be none with CIFG (input_to_input_weights is none)}}
  %0 = "tfl.lstm"(%x, %none, %w, %w, %w, %none, %r, %r, %r, %v, %none, %none, %none, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<2x3xf32>, none, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, none, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @peephole_partial(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rp: tensor<4x2xf32>, %v: tensor<4xf32>, %p: tensor<2x4xf32>, %pb: tensor<2xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.lstm' op peephole weights cell_to_input_weights, cell_to_forget_weights, cell_to_output_weights must be all present or all none, got cell_to_input_weights, cell_to_output_weights none}}
  %0 = "tfl.lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %v, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, tensor<4xf32>, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @projection_bias_alone(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rp: tensor<4x2xf32>, %v: tensor<4xf32>, %p: tensor<2x4xf32>, %pb: tensor<2xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.lstm' op projection_bias needs projection_weights, which is none}}
  %0 = "tfl.lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %pb, %h, %c, %none, %none, %none, %none) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, tensor<2xf32>, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @layer_norm_partial(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rp: tensor<4x2xf32>, %v: tensor<4xf32>, %p: tensor<2x4xf32>, %pb: tensor<2xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.lstm' op layer norm coefficients input_layer_norm_coefficients, forget_layer_norm_coefficients, cell_layer_norm_coefficients, output_layer_norm_coefficients must be all present or all none, got input_layer_norm_coefficients, cell_layer_norm_coefficients, output_layer_norm_coefficients none}}
  %0 = "tfl.lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %v, %none, %none) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, tensor<4xf32>, none, none) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @cifg_layer_norm(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rp: tensor<4x2xf32>, %v: tensor<4xf32>, %p: tensor<2x4xf32>, %pb: tensor<2xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.lstm' op input_layer_norm_coefficients must be none with CIFG (input_to_input_weights is none)}}
  %0 = "tfl.lstm"(%x, %none, %w, %w, %w, %none, %r, %r, %r, %none, %none, %none, %none, %v, %v, %v, %none, %none, %h, %c, %v, %v, %v, %v) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<2x3xf32>, none, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, none, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @weight_rank(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rp: tensor<4x2xf32>, %v: tensor<4xf32>, %p: tensor<2x4xf32>, %pb: tensor<2xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.lstm' op input_to_cell_weights must have rank 2, got rank 1 ([4])}}
  %0 = "tfl.lstm"(%x, %w, %w, %v, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @n_cell(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rp: tensor<4x2xf32>, %v: tensor<4xf32>, %p: tensor<2x4xf32>, %pb: tensor<2xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.lstm' op forget_gate_bias must have shape [n_cell] = [4], got [2]}}
  %0 = "tfl.lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %pb, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<2xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @n_input(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rp: tensor<4x2xf32>, %v: tensor<4xf32>, %p: tensor<2x4xf32>, %pb: tensor<2xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>, %x5: tensor<2x5xf32>) -> tensor<2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.lstm' op input must have n_input = 3 (the columns of input_to_output_weights) on its last axis, got 5}}
  %0 = "tfl.lstm"(%x5, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<2x5xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @cell_state(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rp: tensor<4x2xf32>, %v: tensor<4xf32>, %p: tensor<2x4xf32>, %pb: tensor<2xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>, %pb2: tensor<2x2xf32>) -> tensor<2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.lstm' op input_cell_state must have shape [n_batch, n_cell] = [2, 4], got [2, 2]}}
  %0 = "tfl.lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %pb2, %none, %none, %none, %none) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x2xf32>, none, none, none, none) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @element_type(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rp: tensor<4x2xf32>, %v: tensor<4xf32>, %p: tensor<2x4xf32>, %pb: tensor<2xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>, %xh: tensor<2x3xf16>) -> tensor<2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.lstm' op input must have element type f32 (the float kernel), got f16}}
  %0 = "tfl.lstm"(%xh, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<2x3xf16>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @result_shape(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rp: tensor<4x2xf32>, %v: tensor<4xf32>, %p: tensor<2x4xf32>, %pb: tensor<2xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>) -> tensor<3x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.lstm' op output must have shape [n_batch, n_output] = [2, 4], got [3, 4]}}
  %0 = "tfl.lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<3x4xf32>
  func.return %0 : tensor<3x4xf32>
}

// -----

func.func @activation(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rp: tensor<4x2xf32>, %v: tensor<4xf32>, %p: tensor<2x4xf32>, %pb: tensor<2xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.lstm' op Expected one of "NONE", "RELU", "RELU6", "RELU_N1_TO_1", "SIGN_BIT", "TANH", but got "SIGMOID"}}
  %0 = "tfl.lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{fused_activation_function = "SIGMOID", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @cell_clip(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rp: tensor<4x2xf32>, %v: tensor<4xf32>, %p: tensor<2x4xf32>, %pb: tensor<2xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.lstm' op cell_clip must be >= 0 (0 = no clipping), got -1.0}}
  %0 = "tfl.lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{fused_activation_function = "TANH", cell_clip = -1.0 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @kernel_type(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rp: tensor<4x2xf32>, %v: tensor<4xf32>, %p: tensor<2x4xf32>, %pb: tensor<2xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.lstm' op kernel_type must be FULL (the only kernel of tfl.lstm here), got 'BASIC'}}
  %0 = "tfl.lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "BASIC"}> : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @kernel_type_unknown(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rp: tensor<4x2xf32>, %v: tensor<4xf32>, %p: tensor<2x4xf32>, %pb: tensor<2xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.lstm' op Expected one of "BASIC", "FULL", but got "LAYER_NORM"}}
  %0 = "tfl.lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "LAYER_NORM"}> : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @no_projection_sizes(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rp: tensor<4x2xf32>, %v: tensor<4xf32>, %p: tensor<2x4xf32>, %pb: tensor<2xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>, %p2: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.lstm' op without projection_weights the output size must equal the cell size, got n_output = 2 (recurrent_to_output_weights) and n_cell = 4}}
  %0 = "tfl.lstm"(%x, %w, %w, %w, %w, %rp, %rp, %rp, %rp, %none, %none, %none, %v, %v, %v, %v, %none, %none, %p2, %c, %none, %none, %none, %none) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x2xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

func.func @projection_shape(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rp: tensor<4x2xf32>, %v: tensor<4xf32>, %p: tensor<2x4xf32>, %pb: tensor<2xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>, %p2: tensor<2x2xf32>, %pt: tensor<4x2xf32>) -> tensor<2x2xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.lstm' op projection_weights must have shape [n_output, n_cell] = [2, 4], got [4, 2]}}
  %0 = "tfl.lstm"(%x, %w, %w, %w, %w, %rp, %rp, %rp, %rp, %none, %none, %none, %v, %v, %v, %v, %pt, %none, %p2, %c, %none, %none, %none, %none) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x2xf32>, none, tensor<2x2xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

func.func @sequence_results(%x: tensor<5x2x3xf32>, %x2: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rd: tensor<4xf32>, %v: tensor<4xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>) -> tensor<5x2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.unidirectional_sequence_lstm' op expected 1 result (output) or 3 (output, output_state, cell_state), got 2}}
  %0, %1 = "tfl.unidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{time_major = true}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> (tensor<5x2x4xf32>, tensor<2x4xf32>)
  func.return %0 : tensor<5x2x4xf32>
}

// -----

func.func @sequence_input_rank(%x: tensor<5x2x3xf32>, %x2: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rd: tensor<4xf32>, %v: tensor<4xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>) -> tensor<5x2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.unidirectional_sequence_lstm' op input must have rank 3, got rank 2 ([2, 3])}}
  %0 = "tfl.unidirectional_sequence_lstm"(%x2, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{time_major = true}> : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<5x2x4xf32>
  func.return %0 : tensor<5x2x4xf32>
}

// -----

func.func @sequence_batch_major_output(%x: tensor<5x2x3xf32>, %x2: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rd: tensor<4xf32>, %v: tensor<4xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>) -> tensor<5x2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.unidirectional_sequence_lstm' op input_activation_state must have shape [n_batch, n_output] = [5, 4], got [2, 4]}}
  %0 = "tfl.unidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{time_major = false}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<5x2x4xf32>
  func.return %0 : tensor<5x2x4xf32>
}

// -----

func.func @sequence_final_cell_state(%x: tensor<5x2x3xf32>, %x2: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rd: tensor<4xf32>, %v: tensor<4xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>) -> tensor<5x2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.unidirectional_sequence_lstm' op cell_state (result #2) must have shape [batch, n_cell] = [2, 4], got [2, 5]}}
  %0, %1, %2 = "tfl.unidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{time_major = true}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> (tensor<5x2x4xf32>, tensor<2x4xf32>, tensor<2x5xf32>)
  func.return %0 : tensor<5x2x4xf32>
}

// -----

func.func @sequence_diagonal_rank(%x: tensor<5x2x3xf32>, %x2: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rd: tensor<4xf32>, %v: tensor<4xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>) -> tensor<5x2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.unidirectional_sequence_lstm' op recurrent_to_input_weights must have rank 1, got rank 2 ([4, 4])}}
  %0 = "tfl.unidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{time_major = true, diagonal_recurrent_tensors = true}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<5x2x4xf32>
  func.return %0 : tensor<5x2x4xf32>
}

// -----

func.func @sequence_not_diagonal(%x: tensor<5x2x3xf32>, %x2: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rd: tensor<4xf32>, %v: tensor<4xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>) -> tensor<5x2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.unidirectional_sequence_lstm' op recurrent_to_input_weights must have rank 2, got rank 1 ([4])}}
  %0 = "tfl.unidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %rd, %rd, %rd, %rd, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{time_major = true}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<5x2x4xf32>
  func.return %0 : tensor<5x2x4xf32>
}

// -----

func.func @sequence_time_major_missing(%x: tensor<5x2x3xf32>, %x2: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rd: tensor<4xf32>, %v: tensor<4xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>) -> tensor<5x2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.unidirectional_sequence_lstm' op property 'time_major' expected in operation 'tfl.unidirectional_sequence_lstm'}}
  %0 = "tfl.unidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<5x2x4xf32>
  func.return %0 : tensor<5x2x4xf32>
}

// -----

func.func @bidi_results(%x: tensor<5x2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %v: tensor<4xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>, %aux: tensor<5x2x6xf32>, %aw: tensor<4x6xf32>) -> tensor<5x2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.bidirectional_sequence_lstm' op expected 2 results (fw_output, bw_output) or 6 (and the final fw/bw activation and cell states), got 3}}
  %0, %1, %2 = "tfl.bidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %h, %c, %none, %none, %none, %none, %none, %none, %none, %none, %none) <{time_major = true}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none, none, none, none, none, none) -> (tensor<5x2x4xf32>, tensor<5x2x4xf32>, tensor<2x4xf32>)
  func.return %0 : tensor<5x2x4xf32>
}

// -----

func.func @bidi_merge_outputs(%x: tensor<5x2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %v: tensor<4xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>, %aux: tensor<5x2x6xf32>, %aw: tensor<4x6xf32>) -> tensor<5x2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.bidirectional_sequence_lstm' op fw_output must have shape [time, batch, fw n_output + bw n_output] (merge_outputs) = [5, 2, 8], got [5, 2, 4]}}
  %0, %1 = "tfl.bidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %h, %c, %none, %none, %none, %none, %none, %none, %none, %none, %none) <{time_major = true, merge_outputs = true}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none, none, none, none, none, none) -> (tensor<5x2x4xf32>, tensor<5x2x4xf32>)
  func.return %0 : tensor<5x2x4xf32>
}

// -----

func.func @bidi_fw_output(%x: tensor<5x2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %v: tensor<4xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>, %aux: tensor<5x2x6xf32>, %aw: tensor<4x6xf32>) -> tensor<5x2x5xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.bidirectional_sequence_lstm' op fw_output must have shape [time, batch, fw n_output] = [5, 2, 4], got [5, 2, 5]}}
  %0, %1 = "tfl.bidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %h, %c, %none, %none, %none, %none, %none, %none, %none, %none, %none) <{time_major = true}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none, none, none, none, none, none) -> (tensor<5x2x5xf32>, tensor<5x2x4xf32>)
  func.return %0 : tensor<5x2x5xf32>
}

// -----

func.func @bidi_aux_weights_without_aux_input(%x: tensor<5x2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %v: tensor<4xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>, %aux: tensor<5x2x6xf32>, %aw: tensor<4x6xf32>) -> tensor<5x2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.bidirectional_sequence_lstm' op the aux input weights need aux_input, which is none}}
  %0, %1 = "tfl.bidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %h, %c, %none, %aw, %aw, %aw, %aw, %aw, %aw, %aw, %aw) <{time_major = true}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, none, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) -> (tensor<5x2x4xf32>, tensor<5x2x4xf32>)
  func.return %0 : tensor<5x2x4xf32>
}

// -----

func.func @bidi_aux_weights_one_side(%x: tensor<5x2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %v: tensor<4xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>, %aux: tensor<5x2x6xf32>, %aw: tensor<4x6xf32>) -> tensor<5x2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.bidirectional_sequence_lstm' op fw_aux_input_to_forget_weights and bw_aux_input_to_forget_weights must be both present or both none}}
  %0, %1 = "tfl.bidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %h, %c, %aux, %aw, %aw, %aw, %aw, %none, %none, %none, %none) <{time_major = true}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<5x2x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, none, none, none, none) -> (tensor<5x2x4xf32>, tensor<5x2x4xf32>)
  func.return %0 : tensor<5x2x4xf32>
}

// -----

func.func @bidi_bw_state(%x: tensor<5x2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %v: tensor<4xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>, %aux: tensor<5x2x6xf32>, %aw: tensor<4x6xf32>) -> tensor<5x2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.bidirectional_sequence_lstm' op bw_input_activation_state must have rank 2, got rank 3 ([5, 2, 3])}}
  %0, %1 = "tfl.bidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %x, %c, %none, %none, %none, %none, %none, %none, %none, %none, %none) <{time_major = true}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, tensor<5x2x3xf32>, tensor<2x4xf32>, none, none, none, none, none, none, none, none, none) -> (tensor<5x2x4xf32>, tensor<5x2x4xf32>)
  func.return %0 : tensor<5x2x4xf32>
}

// -----

func.func @bidi_bw_mandatory(%x: tensor<5x2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %v: tensor<4xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>, %aux: tensor<5x2x6xf32>, %aw: tensor<4x6xf32>) -> tensor<5x2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.bidirectional_sequence_lstm' op bw_input_to_forget_weights is mandatory, got none}}
  %0, %1 = "tfl.bidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %w, %none, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %h, %c, %none, %none, %none, %none, %none, %none, %none, %none, %none) <{time_major = true}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<4x3xf32>, none, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none, none, none, none, none, none) -> (tensor<5x2x4xf32>, tensor<5x2x4xf32>)
  func.return %0 : tensor<5x2x4xf32>
}

// -----

func.func @rnn_hidden_state(%x: tensor<2x5x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %h: tensor<2x4xf32>, %h3: tensor<3x4xf32>) -> tensor<2x5x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.unidirectional_sequence_rnn' op hidden_state must have shape [batch, n_units] = [2, 4], got [3, 4]}}
  %0 = "tfl.unidirectional_sequence_rnn"(%x, %w, %r, %b, %h3) <{time_major = false}> : (tensor<2x5x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<3x4xf32>) -> tensor<2x5x4xf32>
  func.return %0 : tensor<2x5x4xf32>
}

// -----

func.func @rnn_output(%x: tensor<2x5x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %h: tensor<2x4xf32>, %h3: tensor<3x4xf32>) -> tensor<2x5x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.unidirectional_sequence_rnn' op hidden_state must have shape [batch, n_units] = [5, 4], got [2, 4]}}
  %0 = "tfl.unidirectional_sequence_rnn"(%x, %w, %r, %b, %h) <{time_major = true}> : (tensor<2x5x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x5x4xf32>
  func.return %0 : tensor<2x5x4xf32>
}

// -----

func.func @rnn_bias_none(%x: tensor<2x5x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %h: tensor<2x4xf32>, %h3: tensor<3x4xf32>) -> tensor<2x5x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.unidirectional_sequence_rnn' op input_gate_bias is mandatory, got none}}
  %0 = "tfl.unidirectional_sequence_rnn"(%x, %w, %r, %none, %h) <{time_major = false}> : (tensor<2x5x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, none, tensor<2x4xf32>) -> tensor<2x5x4xf32>
  func.return %0 : tensor<2x5x4xf32>
}

// -----

func.func @rnn_recurrent_shape(%x: tensor<2x5x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %h: tensor<2x4xf32>, %h3: tensor<3x4xf32>) -> tensor<2x5x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.unidirectional_sequence_rnn' op recurrent_to_input_weights must have shape [n_units, n_units] = [4, 4], got [4, 3]}}
  %0 = "tfl.unidirectional_sequence_rnn"(%x, %w, %w, %b, %h) <{time_major = false}> : (tensor<2x5x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x5x4xf32>
  func.return %0 : tensor<2x5x4xf32>
}

// -----

func.func @gru_results(%x: tensor<5x2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %b5: tensor<5xf32>, %h: tensor<2x4xf32>) -> tensor<5x2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.unidirectional_sequence_gru' op Expected 1 or 2 results, but got 3}}
  %0, %1, %2 = "tfl.unidirectional_sequence_gru"(%x, %w, %w, %w, %r, %r, %r, %b, %b, %b, %b, %b, %b, %h) <{time_major = true}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>) -> (tensor<5x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
  func.return %0 : tensor<5x2x4xf32>
}

// -----

func.func @gru_input_bias_none(%x: tensor<5x2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %b5: tensor<5xf32>, %h: tensor<2x4xf32>) -> tensor<5x2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.unidirectional_sequence_gru' op candidate_input_bias is mandatory, got none}}
  %0 = "tfl.unidirectional_sequence_gru"(%x, %w, %w, %w, %r, %r, %r, %b, %b, %none, %b, %b, %b, %h) <{time_major = true}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>) -> tensor<5x2x4xf32>
  func.return %0 : tensor<5x2x4xf32>
}

// -----

func.func @gru_recurrent_bias_shape(%x: tensor<5x2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %b5: tensor<5xf32>, %h: tensor<2x4xf32>) -> tensor<5x2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.unidirectional_sequence_gru' op reset_recurrent_bias must have shape [n_units] = [4], got [5]}}
  %0 = "tfl.unidirectional_sequence_gru"(%x, %w, %w, %w, %r, %r, %r, %b, %b, %b, %b, %b5, %b, %h) <{time_major = true}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<5xf32>, tensor<4xf32>, tensor<2x4xf32>) -> tensor<5x2x4xf32>
  func.return %0 : tensor<5x2x4xf32>
}

// -----

func.func @gru_final_state(%x: tensor<5x2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %b5: tensor<5xf32>, %h: tensor<2x4xf32>) -> tensor<5x2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.unidirectional_sequence_gru' op final_state (result #1) must have shape [batch, n_units] = [2, 4], got [5, 4]}}
  %0, %1 = "tfl.unidirectional_sequence_gru"(%x, %w, %w, %w, %r, %r, %r, %b, %b, %b, %b, %b, %b, %h) <{time_major = true}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>) -> (tensor<5x2x4xf32>, tensor<5x4xf32>)
  func.return %0 : tensor<5x2x4xf32>
}

// -----

func.func @gru_activation(%x: tensor<5x2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %b5: tensor<5xf32>, %h: tensor<2x4xf32>) -> tensor<5x2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.unidirectional_sequence_gru' op Expected one of "NONE", "RELU", "RELU6", "RELU_N1_TO_1", "SIGN_BIT", "TANH", but got "GELU"}}
  %0 = "tfl.unidirectional_sequence_gru"(%x, %w, %w, %w, %r, %r, %r, %b, %b, %b, %b, %b, %b, %h) <{time_major = true, fused_activation_function = "GELU"}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>) -> tensor<5x2x4xf32>
  func.return %0 : tensor<5x2x4xf32>
}

// -----

func.func @sequence_output(%x: tensor<5x2x3xf32>, %x2: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rd: tensor<4xf32>, %v: tensor<4xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x5x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.unidirectional_sequence_lstm' op output must have shape [time, batch, n_output] = [5, 2, 4], got [2, 5, 4]}}
  %0 = "tfl.unidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{time_major = true}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<2x5x4xf32>
  func.return %0 : tensor<2x5x4xf32>
}

// -----

func.func @rnn_output_shape(%x: tensor<2x5x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %h: tensor<2x4xf32>, %h3: tensor<3x4xf32>) -> tensor<5x2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.unidirectional_sequence_rnn' op output must have shape [batch, time, n_units] = [2, 5, 4], got [5, 2, 4]}}
  %0 = "tfl.unidirectional_sequence_rnn"(%x, %w, %r, %b, %h) <{time_major = false}> : (tensor<2x5x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<2x4xf32>) -> tensor<5x2x4xf32>
  func.return %0 : tensor<5x2x4xf32>
}

// -----

func.func @bidi_aux_input_bw_n_input(%x: tensor<5x2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %v: tensor<4xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>, %aux: tensor<5x2x6xf32>, %aw: tensor<4x6xf32>) -> tensor<5x2x4xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.bidirectional_sequence_lstm' op aux_input must have n_input = 3 (the columns of bw_input_to_output_weights) on its last axis, got 6}}
  %0, %1 = "tfl.bidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %h, %c, %aux, %none, %none, %none, %none, %none, %none, %none, %none) <{time_major = true}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<5x2x6xf32>, none, none, none, none, none, none, none, none) -> (tensor<5x2x4xf32>, tensor<5x2x4xf32>)
  func.return %0 : tensor<5x2x4xf32>
}

// -----

func.func @bidi_merge_outputs_bw(%x: tensor<5x2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %v: tensor<4xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>, %aux: tensor<5x2x6xf32>, %aw: tensor<4x6xf32>) -> tensor<5x2x8xf32> {
  %none = "tfl.no_value"() <{value}> : () -> none
  // expected-error @+1 {{'tfl.bidirectional_sequence_lstm' op bw_output must have shape [time, batch, 0] (merge_outputs: empty) = [5, 2, 0], got [5, 2, 4]}}
  %0, %1 = "tfl.bidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %h, %c, %none, %none, %none, %none, %none, %none, %none, %none, %none) <{time_major = true, merge_outputs = true}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none, none, none, none, none, none) -> (tensor<5x2x8xf32>, tensor<5x2x4xf32>)
  func.return %0 : tensor<5x2x8xf32>
}

// -----

func.func @embedding_lookup_ids(%ids: tensor<3xf32>, %t: tensor<10x4xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'tfl.embedding_lookup' op lookup must have element type i32, got f32}}
  %0 = "tfl.embedding_lookup"(%ids, %t) : (tensor<3xf32>, tensor<10x4xf32>) -> tensor<3x4xf32>
  func.return %0 : tensor<3x4xf32>
}

// -----

func.func @embedding_lookup_shape(%ids: tensor<3xi32>, %t: tensor<10x4xf32>) -> tensor<3x10xf32> {
  // expected-error @+1 {{'tfl.embedding_lookup' op result must have shape lookup.shape + value.shape[1:] = [3, 4], got [3, 10]}}
  %0 = "tfl.embedding_lookup"(%ids, %t) : (tensor<3xi32>, tensor<10x4xf32>) -> tensor<3x10xf32>
  func.return %0 : tensor<3x10xf32>
}

// -----

func.func @transpose_perm(%x: tensor<2x6x4xf32>) -> tensor<4x2x2xf32> {
  %p = arith.constant dense<[2, 0, 0]> : tensor<3xi32>
  // expected-error @+1 {{'tfl.transpose' op perm must be a permutation of [0, 3), got [2, 0, 0]}}
  %0 = "tfl.transpose"(%x, %p) : (tensor<2x6x4xf32>, tensor<3xi32>) -> tensor<4x2x2xf32>
  func.return %0 : tensor<4x2x2xf32>
}

// -----

func.func @transpose_shape(%x: tensor<2x6x4xf32>) -> tensor<2x6x4xf32> {
  %p = arith.constant dense<[2, 0, 1]> : tensor<3xi32>
  // expected-error @+1 {{'tfl.transpose' op result must have shape input.shape permuted by perm = [4, 2, 6], got [2, 6, 4]}}
  %0 = "tfl.transpose"(%x, %p) : (tensor<2x6x4xf32>, tensor<3xi32>) -> tensor<2x6x4xf32>
  func.return %0 : tensor<2x6x4xf32>
}

// -----

func.func @transpose_perm_length(%x: tensor<2x6x4xf32>, %p: tensor<2xi32>) -> tensor<4x2x6xf32> {
  // expected-error @+1 {{'tfl.transpose' op perm must have one value per dimension of input (3), got 2}}
  %0 = "tfl.transpose"(%x, %p) : (tensor<2x6x4xf32>, tensor<2xi32>) -> tensor<4x2x6xf32>
  func.return %0 : tensor<4x2x6xf32>
}

// -----

func.func @slice_range(%x: tensor<2x6x4xf32>) -> tensor<1x3x4xf32> {
  %b = arith.constant dense<[0, 4, 0]> : tensor<3xi32>
  %s = arith.constant dense<[1, 3, -1]> : tensor<3xi32>
  // expected-error @+1 {{'tfl.slice' op begin [0, 4, 0] and size [1, 3, -1] are out of range for input of shape [2, 6, 4] (axis 1)}}
  %0 = "tfl.slice"(%x, %b, %s) : (tensor<2x6x4xf32>, tensor<3xi32>, tensor<3xi32>) -> tensor<1x3x4xf32>
  func.return %0 : tensor<1x3x4xf32>
}

// -----

func.func @slice_shape(%x: tensor<2x6x4xf32>) -> tensor<1x3x3xf32> {
  %b = arith.constant dense<[0, 1, 0]> : tensor<3xi32>
  %s = arith.constant dense<[1, 3, -1]> : tensor<3xi32>
  // expected-error @+1 {{'tfl.slice' op result must have shape size (-1: to the end) = [1, 3, 4], got [1, 3, 3]}}
  %0 = "tfl.slice"(%x, %b, %s) : (tensor<2x6x4xf32>, tensor<3xi32>, tensor<3xi32>) -> tensor<1x3x3xf32>
  func.return %0 : tensor<1x3x3xf32>
}

// -----

func.func @slice_index_type(%x: tensor<2x6x4xf32>, %b: tensor<3xf32>) -> tensor<1x3x3xf32> {
  // expected-error @+1 {{'tfl.slice' op begin must have element type i32 or i64, got f32}}
  %0 = "tfl.slice"(%x, %b, %b) : (tensor<2x6x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x3xf32>
  func.return %0 : tensor<1x3x3xf32>
}

// -----

func.func @split_v_num_splits(%x: tensor<2x6x4xf32>) -> tensor<2x2x4xf32> {
  %s = arith.constant dense<[2, 4]> : tensor<2xi32>
  %d = arith.constant dense<1> : tensor<i32>
  // expected-error @+1 {{'tfl.split_v' op num_splits is 3, so the op must have 3 results, got 2}}
  %0, %1 = "tfl.split_v"(%x, %s, %d) <{num_splits = 3 : i32}> : (tensor<2x6x4xf32>, tensor<2xi32>, tensor<i32>) -> (tensor<2x2x4xf32>, tensor<2x4x4xf32>)
  func.return %0 : tensor<2x2x4xf32>
}

// -----

func.func @split_v_sum(%x: tensor<2x6x4xf32>) -> tensor<2x2x4xf32> {
  %s = arith.constant dense<[2, 3]> : tensor<2xi32>
  %d = arith.constant dense<1> : tensor<i32>
  // expected-error @+1 {{'tfl.split_v' op size_splits [2, 3] must add up to the dimension 6}}
  %0, %1 = "tfl.split_v"(%x, %s, %d) <{num_splits = 2 : i32}> : (tensor<2x6x4xf32>, tensor<2xi32>, tensor<i32>) -> (tensor<2x2x4xf32>, tensor<2x3x4xf32>)
  func.return %0 : tensor<2x2x4xf32>
}

// -----

func.func @split_v_two_unknown(%x: tensor<2x6x4xf32>) -> tensor<2x3x4xf32> {
  %s = arith.constant dense<[-1, -1]> : tensor<2xi32>
  %d = arith.constant dense<1> : tensor<i32>
  // expected-error @+1 {{'tfl.split_v' op size_splits may hold at most one -1, got [-1, -1]}}
  %0, %1 = "tfl.split_v"(%x, %s, %d) <{num_splits = 2 : i32}> : (tensor<2x6x4xf32>, tensor<2xi32>, tensor<i32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>)
  func.return %0 : tensor<2x3x4xf32>
}

// -----

func.func @split_v_dim(%x: tensor<2x6x4xf32>) -> tensor<2x2x4xf32> {
  %s = arith.constant dense<[2, 4]> : tensor<2xi32>
  %d = arith.constant dense<3> : tensor<i32>
  // expected-error @+1 {{'tfl.split_v' op split_dim 3 is out of range for value of rank 3, expected [-3, 2]}}
  %0, %1 = "tfl.split_v"(%x, %s, %d) <{num_splits = 2 : i32}> : (tensor<2x6x4xf32>, tensor<2xi32>, tensor<i32>) -> (tensor<2x2x4xf32>, tensor<2x4x4xf32>)
  func.return %0 : tensor<2x2x4xf32>
}

// -----

func.func @split_v_result(%x: tensor<2x6x4xf32>) -> tensor<2x2x4xf32> {
  %s = arith.constant dense<[2, -1]> : tensor<2xi32>
  %d = arith.constant dense<-2> : tensor<i32>
  // expected-error @+1 {{'tfl.split_v' op result must have shape value.shape with size_splits[1] on axis 1 = [2, 4, 4], got [2, 2, 4]}}
  %0, %1 = "tfl.split_v"(%x, %s, %d) <{num_splits = 2 : i32}> : (tensor<2x6x4xf32>, tensor<2xi32>, tensor<i32>) -> (tensor<2x2x4xf32>, tensor<2x2x4xf32>)
  func.return %0 : tensor<2x2x4xf32>
}

// -----

func.func @reshape_count(%x: tensor<2x6x4xf32>) -> tensor<5x4xf32> {
  %s = arith.constant dense<[5, 4]> : tensor<2xi32>
  // expected-error @+1 {{'tfl.reshape' op the result must have as many elements as input (48), got [5, 4]}}
  %0 = "tfl.reshape"(%x, %s) : (tensor<2x6x4xf32>, tensor<2xi32>) -> tensor<5x4xf32>
  func.return %0 : tensor<5x4xf32>
}

// -----

func.func @reshape_two_unknown(%x: tensor<2x6x4xf32>) -> tensor<12x4xf32> {
  %s = arith.constant dense<[-1, -1]> : tensor<2xi32>
  // expected-error @+1 {{'tfl.reshape' op shape may hold at most one -1, got [-1, -1]}}
  %0 = "tfl.reshape"(%x, %s) : (tensor<2x6x4xf32>, tensor<2xi32>) -> tensor<12x4xf32>
  func.return %0 : tensor<12x4xf32>
}

// -----

func.func @reshape_shape(%x: tensor<2x6x4xf32>) -> tensor<8x6xf32> {
  %s = arith.constant dense<[-1, 8]> : tensor<2xi32>
  // expected-error @+1 {{'tfl.reshape' op result must have shape shape (-1 inferred) = [6, 8], got [8, 6]}}
  %0 = "tfl.reshape"(%x, %s) : (tensor<2x6x4xf32>, tensor<2xi32>) -> tensor<8x6xf32>
  func.return %0 : tensor<8x6xf32>
}

// -----

func.func @reverse_v2_axis(%x: tensor<2x6x4xf32>) -> tensor<2x6x4xf32> {
  %a = arith.constant dense<[3]> : tensor<1xi32>
  // expected-error @+1 {{'tfl.reverse_v2' op axis 3 is out of range for input of rank 3, expected [-3, 2]}}
  %0 = "tfl.reverse_v2"(%x, %a) : (tensor<2x6x4xf32>, tensor<1xi32>) -> tensor<2x6x4xf32>
  func.return %0 : tensor<2x6x4xf32>
}

// -----

func.func @reverse_v2_shape(%x: tensor<2x6x4xf32>, %a: tensor<1xi32>) -> tensor<6x2x4xf32> {
  // expected-error @+1 {{'tfl.reverse_v2' op result must have shape input.shape = [2, 6, 4], got [6, 2, 4]}}
  %0 = "tfl.reverse_v2"(%x, %a) : (tensor<2x6x4xf32>, tensor<1xi32>) -> tensor<6x2x4xf32>
  func.return %0 : tensor<6x2x4xf32>
}

// -----

func.func @strided_slice_ellipsis(%x: tensor<2x6x4xf32>) -> tensor<2x4x4xf32> {
  %b = arith.constant dense<[0, 1, 0]> : tensor<3xi32>
  %e = arith.constant dense<[2, 5, 4]> : tensor<3xi32>
  %s = arith.constant dense<1> : tensor<3xi32>
  // expected-error @+1 {{'tfl.strided_slice' op at most one bit of ellipsis_mask may be set, got 3}}
  %0 = "tfl.strided_slice"(%x, %b, %e, %s) <{ellipsis_mask = 3 : i32}> : (tensor<2x6x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x4x4xf32>
  func.return %0 : tensor<2x4x4xf32>
}

// -----

func.func @strided_slice_stride(%x: tensor<2x6x4xf32>) -> tensor<2x4x4xf32> {
  %b = arith.constant dense<[0, 1, 0]> : tensor<3xi32>
  %e = arith.constant dense<[2, 5, 4]> : tensor<3xi32>
  %s = arith.constant dense<[1, 0, 1]> : tensor<3xi32>
  // expected-error @+1 {{'tfl.strided_slice' op strides must not be 0, got [1, 0, 1]}}
  %0 = "tfl.strided_slice"(%x, %b, %e, %s) : (tensor<2x6x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x4x4xf32>
  func.return %0 : tensor<2x4x4xf32>
}

// -----

func.func @strided_slice_shape(%x: tensor<2x6x4xf32>) -> tensor<2x4x4xf32> {
  %b = arith.constant dense<[0, 1, 0]> : tensor<3xi32>
  %e = arith.constant dense<[2, 5, 4]> : tensor<3xi32>
  %s = arith.constant dense<[1, 2, 1]> : tensor<3xi32>
  // expected-error @+1 {{'tfl.strided_slice' op result must have shape the strided slice of input = [2, 2, 4], got [2, 4, 4]}}
  %0 = "tfl.strided_slice"(%x, %b, %e, %s) : (tensor<2x6x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x4x4xf32>
  func.return %0 : tensor<2x4x4xf32>
}

// -----

func.func @strided_slice_lengths(%x: tensor<2x6x4xf32>, %s: tensor<2xi32>) -> tensor<2x4x4xf32> {
  %b = arith.constant dense<[0, 1, 0]> : tensor<3xi32>
  %e = arith.constant dense<[2, 5, 4]> : tensor<3xi32>
  // expected-error @+1 {{'tfl.strided_slice' op begin, end and strides must have the same length, got [3, 3, 2]}}
  %0 = "tfl.strided_slice"(%x, %b, %e, %s) : (tensor<2x6x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<2xi32>) -> tensor<2x4x4xf32>
  func.return %0 : tensor<2x4x4xf32>
}

// -----

func.func @strided_slice_shrink_range(%x: tensor<2x6x4xf32>) -> tensor<2x4xf32> {
  %b = arith.constant dense<[0, 7, 0]> : tensor<3xi32>
  %e = arith.constant dense<0> : tensor<3xi32>
  %s = arith.constant dense<1> : tensor<3xi32>
  // expected-error @+1 {{'tfl.strided_slice' op shrink_axis_mask selects an index out of range: index 7 is out of bounds for axis 1 with size 6}}
  %0 = "tfl.strided_slice"(%x, %b, %e, %s) <{begin_mask = 5 : i32, end_mask = 5 : i32, shrink_axis_mask = 2 : i32}> : (tensor<2x6x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @concatenation_axis(%x: tensor<2x6x4xf32>) -> tensor<2x6x8xf32> {
  // expected-error @+1 {{'tfl.concatenation' op axis 3 is out of range for rank 3, expected [-3, 2]}}
  %0 = "tfl.concatenation"(%x, %x) <{axis = 3 : i32}> : (tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> tensor<2x6x8xf32>
  func.return %0 : tensor<2x6x8xf32>
}

// -----

func.func @concatenation_dims(%x: tensor<2x6x4xf32>, %y: tensor<2x5x3xf32>) -> tensor<2x11x4xf32> {
  // expected-error @+1 {{'tfl.concatenation' op values must have equal dimensions except on axis 1, got [2, 6, 4], [2, 5, 3]}}
  %0 = "tfl.concatenation"(%x, %y) <{axis = 1 : i32}> : (tensor<2x6x4xf32>, tensor<2x5x3xf32>) -> tensor<2x11x4xf32>
  func.return %0 : tensor<2x11x4xf32>
}

// -----

func.func @concatenation_shape(%x: tensor<2x6x4xf32>) -> tensor<2x6x4xf32> {
  // expected-error @+1 {{'tfl.concatenation' op result must have shape the values' shapes concatenated on axis = [2, 12, 4], got [2, 6, 4]}}
  %0 = "tfl.concatenation"(%x, %x) <{axis = 1 : i32}> : (tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  func.return %0 : tensor<2x6x4xf32>
}

// -----

func.func @concatenation_activation(%x: tensor<2x6x4xf32>) -> tensor<2x12x4xf32> {
  // expected-error @+1 {{'tfl.concatenation' op Expected one of "NONE", "RELU", "RELU6", "RELU_N1_TO_1", "SIGN_BIT", "TANH", but got "relu"}}
  %0 = "tfl.concatenation"(%x, %x) <{axis = 1 : i32, fused_activation_function = "relu"}> : (tensor<2x6x4xf32>, tensor<2x6x4xf32>) -> tensor<2x12x4xf32>
  func.return %0 : tensor<2x12x4xf32>
}

// -----

func.func @concatenation_element_type(%x: tensor<2x6x4xf32>, %y: tensor<2x6x4xi32>) -> tensor<2x12x4xf32> {
  // expected-error @+1 {{'tfl.concatenation' op values #1 must have the element type of values #0 (f32), got i32}}
  %0 = "tfl.concatenation"(%x, %y) <{axis = 1 : i32}> : (tensor<2x6x4xf32>, tensor<2x6x4xi32>) -> tensor<2x12x4xf32>
  func.return %0 : tensor<2x12x4xf32>
}

// -----

func.func @no_value_type() -> tensor<f32> {
  // expected-error @+1 {{'tfl.no_value' op result 'result' at position 0 does not verify:}}
  %0 = "tfl.no_value"() <{value}> : () -> tensor<f32>
  func.return %0 : tensor<f32>
}
