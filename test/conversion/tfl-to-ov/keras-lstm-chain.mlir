// A Keras LSTM(2) over 3 steps as prepare-composite-functions leaves it (its function body
// rewritten into tfl ops, spec 3.3; written by hand in that shape): tfl-to-ov inlines it into
// @main, folds the weights into OpenVINO's layout (bias i, f, c, o -> f, i, c, o) and drops the
// callee; reshape to one step and low-latency2 then make it stateful: an ov.lstm_cell whose H
// and C live in the variables standard_lstm/variable_0 and /variable_1 (the sequence lengths,
// used only by the sequence op, go with it).
// RUN: opt-tool %s --allow-unregistered-dialect --convert-tfl-to-ov | filecheck %s --check-prefix=CONV
// RUN: opt-tool %s --allow-unregistered-dialect --convert-tfl-to-ov --ov-reshape='inputs="x:1x1x2"' --low-latency2 | filecheck %s
// RUN: opt-tool %s --allow-unregistered-dialect -p 'convert-tfl-to-ov,ov-reshape{inputs="x:1x1x2"},low-latency2' | filecheck %s

// CONV-LABEL: func.func @main
// CONV-SAME:    (%x: tensor<1x3x2xf32> {ov.name = "x"}) -> (tensor<1x2xf32> {ov.name = "h"})
// CONV-NOT:     tf
// CONV-DAG:     ov.constant dense<5.000000e-01> : tensor<1x8x2xf32> {ov.name = "standard_lstm/W"}
// CONV-DAG:     ov.constant dense<2.500000e-01> : tensor<1x8x2xf32> {ov.name = "standard_lstm/R"}
// CONV-DAG:     ov.constant dense<{{\[\[}}2.000000e+00, 3.000000e+00, 0.000000e+00, 1.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00]]> : tensor<1x8xf32> {ov.name = "standard_lstm/B"}
// CONV-DAG:     ov.constant dense<0.000000e+00> : tensor<1x1x2xf32> {ov.name = "standard_lstm/H0"}
// CONV:         %[[Y:.*]], %{{.*}}, %{{.*}} = ov.lstm_sequence %x, {{.*}} {ov.name = "standard_lstm", hidden_size = 2 : i64, direction = #ov<direction forward>} : {{.*}} -> (tensor<1x1x3x2xf32>, tensor<1x1x2xf32>, tensor<1x1x2xf32>)
// CONV:         %[[S:.*]] = ov.squeeze %[[Y]], %{{.*}} {ov.name = "standard_lstm/Y"}
// CONV:         %[[LAST:.*]] = ov.strided_slice %[[S]], {{.*}} {ov.name = "standard_lstm/strided_slice"{{.*}}} : (tensor<1x3x2xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<1x2xf32>
// CONV:         func.return %[[LAST]] : tensor<1x2xf32>
// CONV-NEXT:  }
// CONV-NEXT:  }

// CHECK:       ov.variable @"standard_lstm/variable_0" : tensor<1x1x2xf32>
// CHECK-NEXT:  ov.variable @"standard_lstm/variable_1" : tensor<1x1x2xf32>
// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%x: tensor<1x1x2xf32> {ov.name = "x"}) -> (tensor<1x2xf32> {ov.name = "h"})
// CHECK-NOT:     sequence_lengths
// CHECK:         %[[H:.*]] = ov.read_value @"standard_lstm/variable_0"
// CHECK:         %[[C:.*]] = ov.read_value @"standard_lstm/variable_1"
// CHECK-NOT:     ov.lstm_sequence
// CHECK-NOT:     sequence_lengths
// CHECK:         %[[HO:.*]], %[[CO:.*]] = ov.lstm_cell {{.*}} {ov.name = "standard_lstm/cell", hidden_size = 2 : i64}
// CHECK:         ov.assign @"standard_lstm/variable_0"
// CHECK-NEXT:    ov.assign @"standard_lstm/variable_1"
// CHECK:         func.return %{{.*}} : tensor<1x2xf32>
// CHECK-NEXT:  }
// CHECK-NEXT:  }

func.func @main(%x: tensor<1x3x2xf32> {ov.name = "x"}) -> (tensor<1x2xf32> {ov.name = "h"}) {
  %kernel = "tf.Const"() {value = dense<5.000000e-01> : tensor<2x8xf32>} : () -> tensor<2x8xf32>
  %recurrent_kernel = "tf.Const"() {value = dense<2.500000e-01> : tensor<2x8xf32>} : () -> tensor<2x8xf32>
  %bias = "tf.Const"() {value = dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<8xf32>} : () -> tensor<8xf32>
  %zeros = "tf.Const"() {value = dense<0.0> : tensor<1x2xf32>} : () -> tensor<1x2xf32>
  %lstm:5 = "tf.PartitionedCall"(%x, %zeros, %zeros, %kernel, %recurrent_kernel, %bias) {config = "", f = @__inference_standard_lstm_417} : (tensor<1x3x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<2x8xf32>, tensor<2x8xf32>, tensor<8xf32>) -> (tensor<1x2xf32>, tensor<1x3x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<f32>)
  func.return %lstm#0 : tensor<1x2xf32>
}
func.func private @__inference_standard_lstm_417(%inputs: tensor<1x3x2xf32>, %init_h: tensor<1x2xf32>, %init_c: tensor<1x2xf32>, %kernel: tensor<2x8xf32>, %recurrent_kernel: tensor<2x8xf32>, %bias: tensor<8xf32>) -> (tensor<1x2xf32>, tensor<1x3x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_0f8fad5b-d9cb-469f-a165-70867728950e", tf.go_backwards = false, tf.time_major = false} {
  %perm = arith.constant dense<[1, 0]> : tensor<2xi32>
  %kt = "tfl.transpose"(%kernel, %perm) : (tensor<2x8xf32>, tensor<2xi32>) -> tensor<8x2xf32>
  %rt = "tfl.transpose"(%recurrent_kernel, %perm) : (tensor<2x8xf32>, tensor<2xi32>) -> tensor<8x2xf32>
  %sizes = arith.constant dense<2> : tensor<4xi32>
  %axis = arith.constant dense<0> : tensor<i32>
  %w:4 = "tfl.split_v"(%kt, %sizes, %axis) <{num_splits = 4 : i32}> : (tensor<8x2xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
  %r:4 = "tfl.split_v"(%rt, %sizes, %axis) <{num_splits = 4 : i32}> : (tensor<8x2xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
  %b:4 = "tfl.split_v"(%bias, %sizes, %axis) <{num_splits = 4 : i32}> : (tensor<8xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
  %none = "tfl.no_value"() <{value}> : () -> none
  %y = "tfl.unidirectional_sequence_lstm"(%inputs, %w#0, %w#1, %w#2, %w#3, %r#0, %r#1, %r#2, %r#3, %none, %none, %none, %b#0, %b#1, %b#2, %b#3, %none, %none, %init_h, %init_c, %none, %none, %none, %none) <{cell_clip = 0.000000e+00 : f32, fused_activation_function = "TANH", proj_clip = 0.000000e+00 : f32, time_major = false}> : (tensor<1x3x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, none, none, none, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, none, none, tensor<1x2xf32>, tensor<1x2xf32>, none, none, none, none) -> tensor<1x3x2xf32>
  %begin = arith.constant dense<[0, -1, 0]> : tensor<3xi32>
  %end = arith.constant dense<0> : tensor<3xi32>
  %strides = arith.constant dense<1> : tensor<3xi32>
  %last = "tfl.strided_slice"(%y, %begin, %end, %strides) <{begin_mask = 5 : i32, ellipsis_mask = 0 : i32, end_mask = 5 : i32, new_axis_mask = 0 : i32, offset = false, shrink_axis_mask = 2 : i32}> : (tensor<1x3x2xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<1x2xf32>
  %z = "tf.Const"() {value = dense<0.000000e+00> : tensor<1xf32>} : () -> tensor<1x2xf32>
  %s = "tf.Const"() {value = dense<0.000000e+00> : tensor<1xf32>} : () -> tensor<f32>
  func.return %last, %y, %z, %z, %s : tensor<1x2xf32>, tensor<1x3x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<f32>
}
