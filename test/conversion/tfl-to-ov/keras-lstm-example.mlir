// The README's chain on examples/keras_lstm.mlir (a Keras LSTM(32) over 8 steps, as TensorFlow
// writes it for TensorFlow Lite's converter: @serving_default calls Keras' standard_lstm through
// TensorFlow's signature wrapper and the model function): prepare-composite-functions fuses
// standard_lstm into tfl.unidirectional_sequence_lstm, tfl-to-ov inlines the calls into
// @serving_default as ov.lstm_sequence with folded weights and drops the callees and the dead
// while body/cond functions, reshape makes it one step, low-latency2 turns it into an
// ov.lstm_cell with its states in variables.
// RUN: opt-tool --allow-unregistered-dialect --prepare-composite-functions --convert-tfl-to-ov %S/../../../examples/keras_lstm.mlir | filecheck %s --check-prefix=SEQ
// RUN: opt-tool --allow-unregistered-dialect --prepare-composite-functions --convert-tfl-to-ov --ov-reshape='inputs="x:1x1x16"' --low-latency2 %S/../../../examples/keras_lstm.mlir -o %t.mlir
// RUN: filecheck %s < %t.mlir
// The result runs, one step per request, its state kept between requests.
// RUN: lowpass-run --device REFERENCE %t.mlir --random-inputs 0 --iterations 8 | filecheck %s --check-prefix=STEPS

// SEQ:       builtin.module
// SEQ-NEXT:  func.func @serving_default(%arg0: tensor<1x8x16xf32> {ov.name = "x", tf_saved_model.index_path = ["x"]}) -> (tensor<1x32xf32> {ov.name = "h", tf_saved_model.index_path = ["h"]})
// SEQ-NOT:   "tf.
// SEQ-DAG:   ov.constant {{.*}} : tensor<1x128x16xf32> {ov.name = "signature_wrapper/_wrapped_model/standard_lstm/W"}
// SEQ-DAG:   ov.constant {{.*}} : tensor<1x128x32xf32> {ov.name = "signature_wrapper/_wrapped_model/standard_lstm/R"}
// SEQ-DAG:   ov.constant {{.*}} : tensor<1x128xf32> {ov.name = "signature_wrapper/_wrapped_model/standard_lstm/B"}
// SEQ:       ov.lstm_sequence %arg0, {{.*}} {ov.name = "signature_wrapper/_wrapped_model/standard_lstm", hidden_size = 32 : i64, direction = #ov<direction forward>} : {{.*}} -> (tensor<1x1x8x32xf32>, tensor<1x1x32xf32>, tensor<1x1x32xf32>)
// SEQ:       ov.strided_slice {{.*}} {ov.name = "signature_wrapper/_wrapped_model/standard_lstm/strided_slice"
// SEQ:       func.return
// SEQ-NEXT:  }
// SEQ-NEXT:  }

// CHECK:       builtin.module
// CHECK-NEXT:  ov.variable @"signature_wrapper/_wrapped_model/standard_lstm/variable_0" : tensor<1x1x32xf32>
// CHECK-NEXT:  ov.variable @"signature_wrapper/_wrapped_model/standard_lstm/variable_1" : tensor<1x1x32xf32>
// CHECK-NEXT:  func.func @serving_default(%arg0: tensor<1x1x16xf32> {ov.name = "x", tf_saved_model.index_path = ["x"]}) -> (tensor<1x32xf32> {ov.name = "h", tf_saved_model.index_path = ["h"]})
// CHECK-NOT:     sequence_lengths
// CHECK:         ov.read_value @"signature_wrapper/_wrapped_model/standard_lstm/variable_0"
// CHECK:         ov.read_value @"signature_wrapper/_wrapped_model/standard_lstm/variable_1"
// CHECK:         ov.lstm_cell {{.*}} {ov.name = "signature_wrapper/_wrapped_model/standard_lstm/cell", hidden_size = 32 : i64} : (tensor<1x16xf32>, tensor<1x32xf32>, tensor<1x32xf32>, tensor<128x16xf32>, tensor<128x32xf32>, tensor<128xf32>) -> (tensor<1x32xf32>, tensor<1x32xf32>)
// CHECK:         ov.assign @"signature_wrapper/_wrapped_model/standard_lstm/variable_0"
// CHECK-NEXT:    ov.assign @"signature_wrapper/_wrapped_model/standard_lstm/variable_1"
// CHECK:         func.return {{.*}} : tensor<1x32xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  }

// STEPS: h: f32[1, 32]
