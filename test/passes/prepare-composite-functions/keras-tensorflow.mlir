// Keras layers as TensorFlow 2.21 / tf-keras 2.21 write them (Inputs/keras/, written by
// examples/make_keras_examples.py; Keras' predictions in the .npz files beside them, checked in
// test/python/passes/test_keras_models.py).
//
// LSTM(4), return_sequences=False: Keras declares `outputs` [batch, 1, units]; it is the last
// step, a strided slice that keeps the time axis (end_mask 7, no shrink), not an error.
// RUN: opt-tool --allow-unregistered-dialect --prepare-composite-functions %S/Inputs/keras/lstm.mlir | filecheck %s --check-prefix=LSTM
// LSTM:      func.func private @__inference_standard_lstm_{{[0-9]+}}({{.*}}) -> (tensor<2x4xf32>, tensor<2x1x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>)
// LSTM-NOT:  "tf.While"
// LSTM:      %[[SEQ:.*]], %{{.*}}, %{{.*}} = "tfl.unidirectional_sequence_lstm"
// LSTM-SAME: -> (tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
// LSTM:      %[[LAST:.*]] = "tfl.strided_slice"(%[[SEQ]], {{.*}}) <{begin_mask = 5 : i32, end_mask = 5 : i32, {{.*}}shrink_axis_mask = 2 : i32{{.*}} -> tensor<2x4xf32>
// LSTM:      %[[OUT:.*]] = "tfl.strided_slice"(%[[SEQ]], {{.*}}) <{begin_mask = 5 : i32, end_mask = 7 : i32, {{.*}}shrink_axis_mask = 0 : i32{{.*}} -> tensor<2x1x4xf32>
// LSTM:      func.return %[[LAST]], %[[OUT]], {{.*}} : tensor<2x4xf32>, tensor<2x1x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>
//
// GRU(4), return_sequences=False: the same for tfl.unidirectional_sequence_gru.
// RUN: opt-tool --allow-unregistered-dialect --prepare-composite-functions %S/Inputs/keras/gru.mlir | filecheck %s --check-prefix=GRU
// GRU:       func.func private @__inference_standard_gru_{{[0-9]+}}({{.*}}) -> (tensor<2x4xf32>, tensor<2x1x4xf32>, tensor<2x4xf32>, tensor<f32>)
// GRU:       "tfl.unidirectional_sequence_gru"
// GRU:       "tfl.strided_slice"{{.*}}end_mask = 7 : i32{{.*}} -> tensor<2x1x4xf32>
//
// Bidirectional(LSTM(4, return_sequences=True)): TensorFlow writes the backward call and its
// tf.ReverseV2 before the forward call; the two calls become one, where the backward one was.
// RUN: opt-tool --allow-unregistered-dialect --prepare-composite-functions %S/Inputs/keras/bilstm_seq.mlir 2>&1 | filecheck %s --check-prefix=BI
// BI-NOT:    warning
// BI:        func.func private @__inference__wrapped_model_
// BI-NOT:    "tf.PartitionedCall"
// BI:        %[[FW:[0-9]+]], %[[FW1:[0-9]+]], %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %[[BW1:[0-9]+]], %{{.*}} = func.call @__inference_standard_lstm_{{[0-9]+}}_bidirectional(%arg0,
// BI-NEXT:   %[[REV:[0-9]+]] = "tf.ReverseV2"(%[[BW1]],
// BI-NEXT:   "tf.ConcatV2"(%[[FW1]], %[[REV]],
// BI:        "tfl.bidirectional_sequence_lstm"
//
// Bidirectional(LSTM(4)) (return_sequences=False) fuses too.
// RUN: opt-tool --allow-unregistered-dialect --prepare-composite-functions %S/Inputs/keras/bilstm.mlir 2>&1 | filecheck %s --check-prefix=BILAST
// BILAST-NOT: warning
// BILAST:     func.call @__inference_standard_lstm_{{[0-9]+}}_bidirectional(%arg0,
// BILAST:     "tfl.bidirectional_sequence_lstm"
