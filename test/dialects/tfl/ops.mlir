// RUN: opt-tool %s | opt-tool | filecheck %s
// RUN: %roundtrip

// CHECK-LABEL: func.func @no_value
func.func @no_value() {
  // CHECK: %none = "tfl.no_value"() <{value}> : () -> none
  %none = "tfl.no_value"() <{value}> : () -> none
  func.return
}

// CHECK-LABEL: func.func @lstm
func.func @lstm(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rp: tensor<4x2xf32>, %v: tensor<4xf32>, %p: tensor<2x4xf32>, %pb: tensor<2xf32>, %h: tensor<2x4xf32>, %h2: tensor<2x2xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  // CHECK: %none = "tfl.no_value"() <{value}> : () -> none
  %none = "tfl.no_value"() <{value}> : () -> none
  // CHECK: %0 = "tfl.lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<2x4xf32>
  %0 = "tfl.lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<2x4xf32>
  // defaults: TANH, no clipping, FULL
  // CHECK: %1 = "tfl.lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %v, %v, %v, %v, %v, %v, %v, %none, %none, %h, %c, %v, %v, %v, %v) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %1 = "tfl.lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %v, %v, %v, %v, %v, %v, %v, %none, %none, %h, %c, %v, %v, %v, %v) : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  // CIFG + peephole + projection + layer norm, clips, another activation
  // CHECK: %2 = "tfl.lstm"(%x, %none, %w, %w, %w, %none, %rp, %rp, %rp, %none, %v, %v, %none, %v, %v, %v, %p, %pb, %h2, %c, %none, %v, %v, %v) <{fused_activation_function = "RELU6", cell_clip = 1.000000e+01 : f32, proj_clip = 3.000000e+00 : f32, kernel_type = "FULL", asymmetric_quantize_inputs = false}> : (tensor<2x3xf32>, none, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, none, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, none, tensor<4xf32>, tensor<4xf32>, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>, tensor<2xf32>, tensor<2x2xf32>, tensor<2x4xf32>, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x2xf32>
  %2 = "tfl.lstm"(%x, %none, %w, %w, %w, %none, %rp, %rp, %rp, %none, %v, %v, %none, %v, %v, %v, %p, %pb, %h2, %c, %none, %v, %v, %v) <{fused_activation_function = "RELU6", cell_clip = 1.000000e+01 : f32, proj_clip = 3.000000e+00 : f32, kernel_type = "FULL", asymmetric_quantize_inputs = false}> : (tensor<2x3xf32>, none, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, none, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, none, tensor<4xf32>, tensor<4xf32>, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>, tensor<2xf32>, tensor<2x2xf32>, tensor<2x4xf32>, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x4xf32>
}

// CHECK-LABEL: func.func @unidirectional_sequence_lstm
func.func @unidirectional_sequence_lstm(%xt: tensor<5x2x3xf32>, %xb: tensor<2x5x3xf32>, %xd: tensor<?x?x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rd: tensor<4xf32>, %v: tensor<4xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>, %hd: tensor<?x4xf32>) -> tensor<5x2x4xf32> {
  // CHECK: %none = "tfl.no_value"() <{value}> : () -> none
  %none = "tfl.no_value"() <{value}> : () -> none
  // CHECK: %0 = "tfl.unidirectional_sequence_lstm"(%xt, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{fused_activation_function = "TANH", cell_clip = 1.000000e+01 : f32, proj_clip = 0.000000e+00 : f32, time_major = true}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<5x2x4xf32>
  %0 = "tfl.unidirectional_sequence_lstm"(%xt, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{fused_activation_function = "TANH", cell_clip = 1.000000e+01 : f32, proj_clip = 0.000000e+00 : f32, time_major = true}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<5x2x4xf32>
  // batch major, with the final states (lowpass extension)
  // CHECK: %1, %s1h, %s1c = "tfl.unidirectional_sequence_lstm"(%xb, %w, %w, %w, %w, %r, %r, %r, %r, %v, %v, %v, %v, %v, %v, %v, %none, %none, %h, %c, %v, %v, %v, %v) <{time_major = false, fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32}> : (tensor<2x5x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
  %1, %s1h, %s1c = "tfl.unidirectional_sequence_lstm"(%xb, %w, %w, %w, %w, %r, %r, %r, %r, %v, %v, %v, %v, %v, %v, %v, %none, %none, %h, %c, %v, %v, %v, %v) <{time_major = false}> : (tensor<2x5x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
  // IndyLSTM: diagonal recurrent weights
  // CHECK: %2 = "tfl.unidirectional_sequence_lstm"(%xt, %w, %w, %w, %w, %rd, %rd, %rd, %rd, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{fused_activation_function = "TANH", cell_clip = 1.000000e+01 : f32, proj_clip = 0.000000e+00 : f32, time_major = true, diagonal_recurrent_tensors = true}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<5x2x4xf32>
  %2 = "tfl.unidirectional_sequence_lstm"(%xt, %w, %w, %w, %w, %rd, %rd, %rd, %rd, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{fused_activation_function = "TANH", cell_clip = 1.000000e+01 : f32, proj_clip = 0.000000e+00 : f32, time_major = true, diagonal_recurrent_tensors = true}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<5x2x4xf32>
  // dynamic time and batch
  // CHECK: %3 = "tfl.unidirectional_sequence_lstm"(%xd, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %hd, %hd, %none, %none, %none, %none) <{time_major = true, asymmetric_quantize_inputs = true, fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32}> : (tensor<?x?x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<?x4xf32>, tensor<?x4xf32>, none, none, none, none) -> tensor<?x?x4xf32>
  %3 = "tfl.unidirectional_sequence_lstm"(%xd, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %hd, %hd, %none, %none, %none, %none) <{time_major = true, asymmetric_quantize_inputs = true}> : (tensor<?x?x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<?x4xf32>, tensor<?x4xf32>, none, none, none, none) -> tensor<?x?x4xf32>
  func.return %0 : tensor<5x2x4xf32>
}

// CHECK-LABEL: func.func @bidirectional_sequence_lstm
func.func @bidirectional_sequence_lstm(%x: tensor<5x2x3xf32>, %fw_w: tensor<4x3xf32>, %fw_r: tensor<4x4xf32>, %fw_v: tensor<4xf32>, %bw_w: tensor<4x3xf32>, %bw_r: tensor<4x4xf32>, %bw_rp: tensor<4x2xf32>, %bw_v: tensor<4xf32>, %bw_p: tensor<2x4xf32>, %bw_pb: tensor<2xf32>, %h: tensor<2x4xf32>, %c: tensor<2x4xf32>, %h2: tensor<2x2xf32>, %aux: tensor<5x2x6xf32>, %aw: tensor<4x6xf32>) -> tensor<5x2x4xf32> {
  // CHECK: %none = "tfl.no_value"() <{value}> : () -> none
  %none = "tfl.no_value"() <{value}> : () -> none
  // CHECK: %0, %1 = "tfl.bidirectional_sequence_lstm"(%x, %fw_w, %fw_w, %fw_w, %fw_w, %fw_r, %fw_r, %fw_r, %fw_r, %none, %none, %none, %fw_v, %fw_v, %fw_v, %fw_v, %none, %none, %bw_w, %bw_w, %bw_w, %bw_w, %bw_r, %bw_r, %bw_r, %bw_r, %none, %none, %none, %bw_v, %bw_v, %bw_v, %bw_v, %none, %none, %h, %c, %h, %c, %none, %none, %none, %none, %none, %none, %none, %none, %none) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, merge_outputs = false, time_major = true}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none, none, none, none, none, none) -> (tensor<5x2x4xf32>, tensor<5x2x4xf32>)
  %0, %1 = "tfl.bidirectional_sequence_lstm"(%x, %fw_w, %fw_w, %fw_w, %fw_w, %fw_r, %fw_r, %fw_r, %fw_r, %none, %none, %none, %fw_v, %fw_v, %fw_v, %fw_v, %none, %none, %bw_w, %bw_w, %bw_w, %bw_w, %bw_r, %bw_r, %bw_r, %bw_r, %none, %none, %none, %bw_v, %bw_v, %bw_v, %bw_v, %none, %none, %h, %c, %h, %c, %none, %none, %none, %none, %none, %none, %none, %none, %none) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, merge_outputs = false, time_major = true}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none, none, none, none, none, none) -> (tensor<5x2x4xf32>, tensor<5x2x4xf32>)
  // merged outputs, backward projection, aux input with weights, final states
  // CHECK: %2, %3, %fh, %fc, %bh, %bc = "tfl.bidirectional_sequence_lstm"(%x, %fw_w, %fw_w, %fw_w, %fw_w, %fw_r, %fw_r, %fw_r, %fw_r, %none, %none, %none, %fw_v, %fw_v, %fw_v, %fw_v, %none, %none, %bw_w, %bw_w, %bw_w, %bw_w, %bw_rp, %bw_rp, %bw_rp, %bw_rp, %bw_v, %bw_v, %bw_v, %bw_v, %bw_v, %bw_v, %bw_v, %bw_p, %bw_pb, %h, %c, %h2, %c, %aux, %aw, %aw, %aw, %aw, %aw, %aw, %aw, %aw) <{merge_outputs = true, time_major = true, fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>, tensor<2xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x2xf32>, tensor<2x4xf32>, tensor<5x2x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) -> (tensor<5x2x6xf32>, tensor<5x2x0xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x2xf32>, tensor<2x4xf32>)
  %2, %3, %fh, %fc, %bh, %bc = "tfl.bidirectional_sequence_lstm"(%x, %fw_w, %fw_w, %fw_w, %fw_w, %fw_r, %fw_r, %fw_r, %fw_r, %none, %none, %none, %fw_v, %fw_v, %fw_v, %fw_v, %none, %none, %bw_w, %bw_w, %bw_w, %bw_w, %bw_rp, %bw_rp, %bw_rp, %bw_rp, %bw_v, %bw_v, %bw_v, %bw_v, %bw_v, %bw_v, %bw_v, %bw_p, %bw_pb, %h, %c, %h2, %c, %aux, %aw, %aw, %aw, %aw, %aw, %aw, %aw, %aw) <{merge_outputs = true, time_major = true}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>, tensor<2xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x2xf32>, tensor<2x4xf32>, tensor<5x2x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>, tensor<4x6xf32>) -> (tensor<5x2x6xf32>, tensor<5x2x0xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x2xf32>, tensor<2x4xf32>)
  func.return %0 : tensor<5x2x4xf32>
}

// CHECK-LABEL: func.func @unidirectional_sequence_rnn
func.func @unidirectional_sequence_rnn(%x: tensor<2x5x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %h: tensor<2x4xf32>) -> tensor<2x5x4xf32> {
  // CHECK: %0 = "tfl.unidirectional_sequence_rnn"(%x, %w, %r, %b, %h) <{time_major = false, fused_activation_function = "TANH"}> : (tensor<2x5x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x5x4xf32>
  %0 = "tfl.unidirectional_sequence_rnn"(%x, %w, %r, %b, %h) <{time_major = false, fused_activation_function = "TANH"}> : (tensor<2x5x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x5x4xf32>
  // CHECK: %1 = "tfl.unidirectional_sequence_rnn"(%x, %w, %r, %b, %h) <{time_major = false, fused_activation_function = "RELU", asymmetric_quantize_inputs = false}> : (tensor<2x5x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x5x4xf32>
  %1 = "tfl.unidirectional_sequence_rnn"(%x, %w, %r, %b, %h) <{time_major = false, fused_activation_function = "RELU", asymmetric_quantize_inputs = false}> : (tensor<2x5x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<2x4xf32>) -> tensor<2x5x4xf32>
  func.return %0 : tensor<2x5x4xf32>
}

// CHECK-LABEL: func.func @unidirectional_sequence_gru
func.func @unidirectional_sequence_gru(%x: tensor<5x2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %h: tensor<2x4xf32>) -> tensor<5x2x4xf32> {
  // CHECK: %none = "tfl.no_value"() <{value}> : () -> none
  %none = "tfl.no_value"() <{value}> : () -> none
  // CHECK: %0 = "tfl.unidirectional_sequence_gru"(%x, %w, %w, %w, %r, %r, %r, %b, %b, %b, %b, %b, %b, %h) <{time_major = true, reset_after = true, fused_activation_function = "TANH"}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>) -> tensor<5x2x4xf32>
  %0 = "tfl.unidirectional_sequence_gru"(%x, %w, %w, %w, %r, %r, %r, %b, %b, %b, %b, %b, %b, %h) <{time_major = true, reset_after = true, fused_activation_function = "TANH"}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>) -> tensor<5x2x4xf32>
  // reset before, no recurrent biases, final state
  // CHECK: %1, %g1h = "tfl.unidirectional_sequence_gru"(%x, %w, %w, %w, %r, %r, %r, %b, %b, %b, %none, %none, %none, %h) <{time_major = true, reset_after = false, fused_activation_function = "TANH"}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, none, tensor<2x4xf32>) -> (tensor<5x2x4xf32>, tensor<2x4xf32>)
  %1, %g1h = "tfl.unidirectional_sequence_gru"(%x, %w, %w, %w, %r, %r, %r, %b, %b, %b, %none, %none, %none, %h) <{time_major = true, reset_after = false}> : (tensor<5x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, none, tensor<2x4xf32>) -> (tensor<5x2x4xf32>, tensor<2x4xf32>)
  func.return %0 : tensor<5x2x4xf32>
}

// CHECK-LABEL: func.func @embedding_lookup
func.func @embedding_lookup(%ids: tensor<3xi32>, %ids2: tensor<2x3xi32>, %table: tensor<10x4xf32>) -> tensor<3x4xf32> {
  // CHECK: %0 = "tfl.embedding_lookup"(%ids, %table) : (tensor<3xi32>, tensor<10x4xf32>) -> tensor<3x4xf32>
  %0 = "tfl.embedding_lookup"(%ids, %table) : (tensor<3xi32>, tensor<10x4xf32>) -> tensor<3x4xf32>
  // CHECK: %1 = "tfl.embedding_lookup"(%ids2, %table) : (tensor<2x3xi32>, tensor<10x4xf32>) -> tensor<2x3x4xf32>
  %1 = "tfl.embedding_lookup"(%ids2, %table) : (tensor<2x3xi32>, tensor<10x4xf32>) -> tensor<2x3x4xf32>
  func.return %0 : tensor<3x4xf32>
}

// CHECK-LABEL: func.func @movement
func.func @movement(%x: tensor<2x6x4xf32>, %perm: tensor<3xi32>, %y: tensor<2x3x4xf32>) -> tensor<4x2x6xf32> {
  %p = arith.constant dense<[2, 0, 1]> : tensor<3xi32>
  // CHECK: %0 = "tfl.transpose"(%x, %p) : (tensor<2x6x4xf32>, tensor<3xi32>) -> tensor<4x2x6xf32>
  %0 = "tfl.transpose"(%x, %p) : (tensor<2x6x4xf32>, tensor<3xi32>) -> tensor<4x2x6xf32>
  // CHECK: %1 = "tfl.transpose"(%x, %perm) : (tensor<2x6x4xf32>, tensor<3xi32>) -> tensor<?x?x?xf32>
  %1 = "tfl.transpose"(%x, %perm) : (tensor<2x6x4xf32>, tensor<3xi32>) -> tensor<?x?x?xf32>
  %begin = arith.constant dense<[0, 1, 0]> : tensor<3xi64>
  %size = arith.constant dense<[-1, 3, 2]> : tensor<3xi64>
  // CHECK: %2 = "tfl.slice"(%x, %begin, %size) : (tensor<2x6x4xf32>, tensor<3xi64>, tensor<3xi64>) -> tensor<2x3x2xf32>
  %2 = "tfl.slice"(%x, %begin, %size) : (tensor<2x6x4xf32>, tensor<3xi64>, tensor<3xi64>) -> tensor<2x3x2xf32>
  %sizes = arith.constant dense<[1, -1, 2]> : tensor<3xi32>
  %dim = arith.constant dense<1> : tensor<i32>
  // CHECK: %3, %4, %5 = "tfl.split_v"(%x, %sizes, %dim) <{num_splits = 3 : i32}> : (tensor<2x6x4xf32>, tensor<3xi32>, tensor<i32>) -> (tensor<2x1x4xf32>, tensor<2x3x4xf32>, tensor<2x2x4xf32>)
  %3:3 = "tfl.split_v"(%x, %sizes, %dim) <{num_splits = 3 : i32}> : (tensor<2x6x4xf32>, tensor<3xi32>, tensor<i32>) -> (tensor<2x1x4xf32>, tensor<2x3x4xf32>, tensor<2x2x4xf32>)
  %shape = arith.constant dense<[-1, 4]> : tensor<2xi32>
  // CHECK: %6 = "tfl.reshape"(%x, %shape) : (tensor<2x6x4xf32>, tensor<2xi32>) -> tensor<12x4xf32>
  %4 = "tfl.reshape"(%x, %shape) : (tensor<2x6x4xf32>, tensor<2xi32>) -> tensor<12x4xf32>
  %axis = arith.constant dense<[1, -1]> : tensor<2xi32>
  // CHECK: %7 = "tfl.reverse_v2"(%x, %axis) : (tensor<2x6x4xf32>, tensor<2xi32>) -> tensor<2x6x4xf32>
  %5 = "tfl.reverse_v2"(%x, %axis) : (tensor<2x6x4xf32>, tensor<2xi32>) -> tensor<2x6x4xf32>
  %sb = arith.constant dense<[0, -1, 0]> : tensor<3xi32>
  %se = arith.constant dense<[0, 0, 0]> : tensor<3xi32>
  %ss = arith.constant dense<[1, 1, 1]> : tensor<3xi32>
  // CHECK: %8 = "tfl.strided_slice"(%x, %sb, %se, %ss) <{begin_mask = 5 : i32, end_mask = 5 : i32, ellipsis_mask = 0 : i32, new_axis_mask = 0 : i32, shrink_axis_mask = 2 : i32, offset = false}> : (tensor<2x6x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x4xf32>
  %6 = "tfl.strided_slice"(%x, %sb, %se, %ss) <{begin_mask = 5 : i32, end_mask = 5 : i32, ellipsis_mask = 0 : i32, new_axis_mask = 0 : i32, shrink_axis_mask = 2 : i32, offset = false}> : (tensor<2x6x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x4xf32>
  %sb2 = arith.constant dense<[0, 0, 1]> : tensor<3xi32>
  %se2 = arith.constant dense<[0, 0, 2]> : tensor<3xi32>
  %ss2 = arith.constant dense<[1, 1, 2]> : tensor<3xi32>
  // CHECK: %9 = "tfl.strided_slice"(%x, %sb2, %se2, %ss2) <{ellipsis_mask = 1 : i32, new_axis_mask = 2 : i32, offset = true, begin_mask = 0 : i32, end_mask = 0 : i32, shrink_axis_mask = 0 : i32}> : (tensor<2x6x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x6x1x1xf32>
  %7 = "tfl.strided_slice"(%x, %sb2, %se2, %ss2) <{ellipsis_mask = 1 : i32, new_axis_mask = 2 : i32, offset = true}> : (tensor<2x6x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x6x1x1xf32>
  // CHECK: %10 = "tfl.concatenation"(%x, %y) <{axis = 1 : i32, fused_activation_function = "NONE"}> : (tensor<2x6x4xf32>, tensor<2x3x4xf32>) -> tensor<2x9x4xf32>
  %8 = "tfl.concatenation"(%x, %y) <{axis = 1 : i32, fused_activation_function = "NONE"}> : (tensor<2x6x4xf32>, tensor<2x3x4xf32>) -> tensor<2x9x4xf32>
  // CHECK: %11 = "tfl.concatenation"(%x, %y, %x) <{axis = -2 : i32, fused_activation_function = "RELU"}> : (tensor<2x6x4xf32>, tensor<2x3x4xf32>, tensor<2x6x4xf32>) -> tensor<2x15x4xf32>
  %9 = "tfl.concatenation"(%x, %y, %x) <{axis = -2 : i32, fused_activation_function = "RELU"}> : (tensor<2x6x4xf32>, tensor<2x3x4xf32>, tensor<2x6x4xf32>) -> tensor<2x15x4xf32>
  func.return %0 : tensor<4x2x6xf32>
}
