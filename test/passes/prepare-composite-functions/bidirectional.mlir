// RUN: opt-tool %s --allow-unregistered-dialect --prepare-composite-functions 2>&1 | filecheck %s
// RUN: opt-tool %s --allow-unregistered-dialect --prepare-composite-functions='fuse-bidirectional=false' 2>&1 | filecheck %s --check-prefix=OFF

// Keras Bidirectional(LSTM(4, return_sequences=True)) over a time-major input: the forward
// and the go_backwards function called on the same input %x, the backward outputs reversed back
// to input order and concatenated (Keras' Bidirectional layer). The two calls become one call
// of @forward_lstm_bidirectional, whose body is one tfl.bidirectional_sequence_lstm; its
// bw_output (input time order) is reversed back into Keras' processed order, its last output is
// bw_output at time index 0.
func.func @bidirectional(%x: tensor<?x2x3xf32>, %h0: tensor<2x4xf32>, %c0: tensor<2x4xf32>, %k: tensor<3x16xf32>, %r: tensor<4x16xf32>, %b: tensor<16xf32>, %bk: tensor<3x16xf32>, %br: tensor<4x16xf32>, %bb: tensor<16xf32>) -> tensor<?x2x8xf32> {
  %fw:5 = "tf.PartitionedCall"(%x, %h0, %c0, %k, %r, %b) {config = "", config_proto = "", executor_type = "", f = @forward_lstm} : (tensor<?x2x3xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<2x4xf32>, tensor<?x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>)
  %bw:5 = "tf.StatefulPartitionedCall"(%x, %h0, %c0, %bk, %br, %bb) {config = "", config_proto = "", executor_type = "", f = @backward_lstm} : (tensor<?x2x3xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<2x4xf32>, tensor<?x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>)
  %axis = "tf.Const"() {value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %rev = "tf.ReverseV2"(%bw#1, %axis) : (tensor<?x2x4xf32>, tensor<1xi32>) -> tensor<?x2x4xf32>
  %last = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %y = "tf.ConcatV2"(%fw#1, %rev, %last) : (tensor<?x2x4xf32>, tensor<?x2x4xf32>, tensor<i32>) -> tensor<?x2x8xf32>
  func.return %y : tensor<?x2x8xf32>
}

func.func private @forward_lstm(%arg0: tensor<?x2x3xf32>, %arg1: tensor<2x4xf32>, %arg2: tensor<2x4xf32>, %arg3: tensor<3x16xf32>, %arg4: tensor<4x16xf32>, %arg5: tensor<16xf32>) -> (tensor<2x4xf32>, tensor<?x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_forward_lstm", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = true} {
  %0:5 = "tf.StandardLstm"(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5) : (tensor<?x2x3xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<2x4xf32>, tensor<?x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>)
  func.return %0#0, %0#1, %0#2, %0#3, %0#4 : tensor<2x4xf32>, tensor<?x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>
}

func.func private @backward_lstm(%arg0: tensor<?x2x3xf32>, %arg1: tensor<2x4xf32>, %arg2: tensor<2x4xf32>, %arg3: tensor<3x16xf32>, %arg4: tensor<4x16xf32>, %arg5: tensor<16xf32>) -> (tensor<2x4xf32>, tensor<?x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_backward_lstm", tf.api_preferred_device = "CPU", tf.go_backwards = true, tf.time_major = true} {
  %0:5 = "tf.StandardLstm"(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5) : (tensor<?x2x3xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<2x4xf32>, tensor<?x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>)
  func.return %0#0, %0#1, %0#2, %0#3, %0#4 : tensor<2x4xf32>, tensor<?x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>
}

// Batch-major, through func.call, the backward call first, the final states and the last
// outputs used (return_state=True): results map one to one.
func.func @bidirectional_states(%x: tensor<2x5x3xf32>, %h0: tensor<2x4xf32>, %c0: tensor<2x4xf32>, %k: tensor<3x16xf32>, %r: tensor<4x16xf32>, %b: tensor<16xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
  %bw:5 = func.call @bw_batch_major(%x, %h0, %c0, %k, %r, %b) : (tensor<2x5x3xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<2x4xf32>, tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>)
  %fw:5 = func.call @fw_batch_major(%x, %h0, %c0, %k, %r, %b) : (tensor<2x5x3xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<2x4xf32>, tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>)
  func.return %fw#0, %fw#2, %fw#3, %bw#0, %bw#2, %bw#3 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
}

func.func private @fw_batch_major(%arg0: tensor<2x5x3xf32>, %arg1: tensor<2x4xf32>, %arg2: tensor<2x4xf32>, %arg3: tensor<3x16xf32>, %arg4: tensor<4x16xf32>, %arg5: tensor<16xf32>) -> (tensor<2x4xf32>, tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_fw_batch_major", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = false} {
  %0:5 = "tf.StandardLstm"(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5) : (tensor<2x5x3xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<2x4xf32>, tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>)
  func.return %0#0, %0#1, %0#2, %0#3, %0#4 : tensor<2x4xf32>, tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>
}

func.func private @bw_batch_major(%arg0: tensor<2x5x3xf32>, %arg1: tensor<2x4xf32>, %arg2: tensor<2x4xf32>, %arg3: tensor<3x16xf32>, %arg4: tensor<4x16xf32>, %arg5: tensor<16xf32>) -> (tensor<2x4xf32>, tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_bw_batch_major", tf.api_preferred_device = "CPU", tf.go_backwards = true, tf.time_major = false} {
  %0:5 = "tf.StandardLstm"(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5) : (tensor<2x5x3xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<2x4xf32>, tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>)
  func.return %0#0, %0#1, %0#2, %0#3, %0#4 : tensor<2x4xf32>, tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>
}

// With fuse-bidirectional=false the callers keep their two calls (the functions are still
// fused one by one), as TensorFlow Lite does.
// OFF-NOT: warning:
// OFF-LABEL: func.func @bidirectional(
// OFF:   "tf.PartitionedCall"({{.*}}f = @forward_lstm}
// OFF:   "tf.StatefulPartitionedCall"({{.*}}f = @backward_lstm}
// OFF-LABEL: func.func @bidirectional_states(
// OFF:   func.call @bw_batch_major(
// OFF:   func.call @fw_batch_major(
// OFF-NOT: bidirectional_sequence_lstm

// CHECK-NOT: warning:

// CHECK-LABEL: func.func @bidirectional(
// CHECK-SAME:  [[VAL_1:%[0-9A-Za-z_]+]]: tensor<?x2x3xf32>, [[VAL_2:%[0-9A-Za-z_]+]]: tensor<2x4xf32>, [[VAL_3:%[0-9A-Za-z_]+]]: tensor<2x4xf32>, [[VAL_4:%[0-9A-Za-z_]+]]: tensor<3x16xf32>, [[VAL_5:%[0-9A-Za-z_]+]]: tensor<4x16xf32>, [[VAL_6:%[0-9A-Za-z_]+]]: tensor<16xf32>, [[VAL_7:%[0-9A-Za-z_]+]]: tensor<3x16xf32>, [[VAL_8:%[0-9A-Za-z_]+]]: tensor<4x16xf32>, [[VAL_9:%[0-9A-Za-z_]+]]: tensor<16xf32>) -> tensor<?x2x8xf32> {
// CHECK-NEXT:  [[VAL_10:%[0-9A-Za-z_]+]], [[VAL_11:%[0-9A-Za-z_]+]], [[VAL_12:%[0-9A-Za-z_]+]], [[VAL_13:%[0-9A-Za-z_]+]], [[VAL_14:%[0-9A-Za-z_]+]], [[VAL_15:%[0-9A-Za-z_]+]], [[VAL_16:%[0-9A-Za-z_]+]], [[VAL_17:%[0-9A-Za-z_]+]], [[VAL_18:%[0-9A-Za-z_]+]], [[VAL_19:%[0-9A-Za-z_]+]] = func.call @forward_lstm_bidirectional([[VAL_1]], [[VAL_2]], [[VAL_3]], [[VAL_4]], [[VAL_5]], [[VAL_6]], [[VAL_2]], [[VAL_3]], [[VAL_7]], [[VAL_8]], [[VAL_9]]) : (tensor<?x2x3xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<2x4xf32>, tensor<?x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>, tensor<2x4xf32>, tensor<?x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>)
// CHECK-NEXT:  [[VAL_20:%[0-9A-Za-z_]+]] = "tf.Const"() {value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
// CHECK-NEXT:  [[VAL_21:%[0-9A-Za-z_]+]] = "tf.ReverseV2"([[VAL_16]], [[VAL_20]]) : (tensor<?x2x4xf32>, tensor<1xi32>) -> tensor<?x2x4xf32>
// CHECK-NEXT:  [[VAL_22:%[0-9A-Za-z_]+]] = "tf.Const"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
// CHECK-NEXT:  [[VAL_23:%[0-9A-Za-z_]+]] = "tf.ConcatV2"([[VAL_11]], [[VAL_21]], [[VAL_22]]) : (tensor<?x2x4xf32>, tensor<?x2x4xf32>, tensor<i32>) -> tensor<?x2x8xf32>
// CHECK-NEXT:  func.return [[VAL_23]] : tensor<?x2x8xf32>
// CHECK-LABEL: func.func private @forward_lstm(
// CHECK-SAME:  %arg0: tensor<?x2x3xf32>, %arg1: tensor<2x4xf32>, %arg2: tensor<2x4xf32>, %arg3: tensor<3x16xf32>, %arg4: tensor<4x16xf32>, %arg5: tensor<16xf32>) -> (tensor<2x4xf32>, tensor<?x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_forward_lstm", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = true} {
// CHECK-NEXT:  [[VAL_1:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_2:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg3, [[VAL_1]]) : (tensor<3x16xf32>, tensor<2xi32>) -> tensor<16x3xf32>
// CHECK-NEXT:  [[VAL_3:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_4:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg4, [[VAL_3]]) : (tensor<4x16xf32>, tensor<2xi32>) -> tensor<16x4xf32>
// CHECK-NEXT:  [[VAL_5:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_6:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_7:%[0-9A-Za-z_]+]], [[VAL_8:%[0-9A-Za-z_]+]], [[VAL_9:%[0-9A-Za-z_]+]], [[VAL_10:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_2]], [[VAL_5]], [[VAL_6]]) <{num_splits = 4 : i32}> : (tensor<16x3xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>)
// CHECK-NEXT:  [[VAL_11:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_12:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_13:%[0-9A-Za-z_]+]], [[VAL_14:%[0-9A-Za-z_]+]], [[VAL_15:%[0-9A-Za-z_]+]], [[VAL_16:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_4]], [[VAL_11]], [[VAL_12]]) <{num_splits = 4 : i32}> : (tensor<16x4xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>)
// CHECK-NEXT:  [[VAL_17:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_18:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_19:%[0-9A-Za-z_]+]], [[VAL_20:%[0-9A-Za-z_]+]], [[VAL_21:%[0-9A-Za-z_]+]], [[VAL_22:%[0-9A-Za-z_]+]] = "tfl.split_v"(%arg5, [[VAL_17]], [[VAL_18]]) <{num_splits = 4 : i32}> : (tensor<16xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:  [[VAL_23:%[0-9A-Za-z_]+]] = "tfl.no_value"() <{value}> : () -> none
// CHECK-NEXT:  [[VAL_24:%[0-9A-Za-z_]+]], [[VAL_25:%[0-9A-Za-z_]+]], [[VAL_26:%[0-9A-Za-z_]+]] = "tfl.unidirectional_sequence_lstm"(%arg0, [[VAL_7]], [[VAL_8]], [[VAL_9]], [[VAL_10]], [[VAL_13]], [[VAL_14]], [[VAL_15]], [[VAL_16]], [[VAL_23]], [[VAL_23]], [[VAL_23]], [[VAL_19]], [[VAL_20]], [[VAL_21]], [[VAL_22]], [[VAL_23]], [[VAL_23]], %arg1, %arg2, [[VAL_23]], [[VAL_23]], [[VAL_23]], [[VAL_23]]) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, time_major = true, diagonal_recurrent_tensors = false}> : (tensor<?x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> (tensor<?x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
// CHECK-NEXT:  [[VAL_27:%[0-9A-Za-z_]+]] = arith.constant dense<[-1, 0, 0]> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_28:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_29:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_30:%[0-9A-Za-z_]+]] = "tfl.strided_slice"([[VAL_24]], [[VAL_27]], [[VAL_28]], [[VAL_29]]) <{begin_mask = 6 : i32, end_mask = 6 : i32, ellipsis_mask = 0 : i32, new_axis_mask = 0 : i32, shrink_axis_mask = 1 : i32, offset = false}> : (tensor<?x2x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x4xf32>
// CHECK-NEXT:  [[VAL_31:%[0-9A-Za-z_]+]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:  func.return [[VAL_30]], [[VAL_24]], [[VAL_25]], [[VAL_26]], [[VAL_31]] : tensor<2x4xf32>, tensor<?x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>
// CHECK-LABEL: func.func private @backward_lstm(
// CHECK-SAME:  %arg0: tensor<?x2x3xf32>, %arg1: tensor<2x4xf32>, %arg2: tensor<2x4xf32>, %arg3: tensor<3x16xf32>, %arg4: tensor<4x16xf32>, %arg5: tensor<16xf32>) -> (tensor<2x4xf32>, tensor<?x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_backward_lstm", tf.api_preferred_device = "CPU", tf.go_backwards = true, tf.time_major = true} {
// CHECK-NEXT:  [[VAL_1:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_2:%[0-9A-Za-z_]+]] = "tfl.reverse_v2"(%arg0, [[VAL_1]]) : (tensor<?x2x3xf32>, tensor<1xi32>) -> tensor<?x2x3xf32>
// CHECK-NEXT:  [[VAL_3:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_4:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg3, [[VAL_3]]) : (tensor<3x16xf32>, tensor<2xi32>) -> tensor<16x3xf32>
// CHECK-NEXT:  [[VAL_5:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_6:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg4, [[VAL_5]]) : (tensor<4x16xf32>, tensor<2xi32>) -> tensor<16x4xf32>
// CHECK-NEXT:  [[VAL_7:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_8:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_9:%[0-9A-Za-z_]+]], [[VAL_10:%[0-9A-Za-z_]+]], [[VAL_11:%[0-9A-Za-z_]+]], [[VAL_12:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_4]], [[VAL_7]], [[VAL_8]]) <{num_splits = 4 : i32}> : (tensor<16x3xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>)
// CHECK-NEXT:  [[VAL_13:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_14:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_15:%[0-9A-Za-z_]+]], [[VAL_16:%[0-9A-Za-z_]+]], [[VAL_17:%[0-9A-Za-z_]+]], [[VAL_18:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_6]], [[VAL_13]], [[VAL_14]]) <{num_splits = 4 : i32}> : (tensor<16x4xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>)
// CHECK-NEXT:  [[VAL_19:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_20:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_21:%[0-9A-Za-z_]+]], [[VAL_22:%[0-9A-Za-z_]+]], [[VAL_23:%[0-9A-Za-z_]+]], [[VAL_24:%[0-9A-Za-z_]+]] = "tfl.split_v"(%arg5, [[VAL_19]], [[VAL_20]]) <{num_splits = 4 : i32}> : (tensor<16xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:  [[VAL_25:%[0-9A-Za-z_]+]] = "tfl.no_value"() <{value}> : () -> none
// CHECK-NEXT:  [[VAL_26:%[0-9A-Za-z_]+]], [[VAL_27:%[0-9A-Za-z_]+]], [[VAL_28:%[0-9A-Za-z_]+]] = "tfl.unidirectional_sequence_lstm"([[VAL_2]], [[VAL_9]], [[VAL_10]], [[VAL_11]], [[VAL_12]], [[VAL_15]], [[VAL_16]], [[VAL_17]], [[VAL_18]], [[VAL_25]], [[VAL_25]], [[VAL_25]], [[VAL_21]], [[VAL_22]], [[VAL_23]], [[VAL_24]], [[VAL_25]], [[VAL_25]], %arg1, %arg2, [[VAL_25]], [[VAL_25]], [[VAL_25]], [[VAL_25]]) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, time_major = true, diagonal_recurrent_tensors = false}> : (tensor<?x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> (tensor<?x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
// CHECK-NEXT:  [[VAL_29:%[0-9A-Za-z_]+]] = arith.constant dense<[-1, 0, 0]> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_30:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_31:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_32:%[0-9A-Za-z_]+]] = "tfl.strided_slice"([[VAL_26]], [[VAL_29]], [[VAL_30]], [[VAL_31]]) <{begin_mask = 6 : i32, end_mask = 6 : i32, ellipsis_mask = 0 : i32, new_axis_mask = 0 : i32, shrink_axis_mask = 1 : i32, offset = false}> : (tensor<?x2x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x4xf32>
// CHECK-NEXT:  [[VAL_33:%[0-9A-Za-z_]+]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:  func.return [[VAL_32]], [[VAL_26]], [[VAL_27]], [[VAL_28]], [[VAL_33]] : tensor<2x4xf32>, tensor<?x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>
// CHECK-LABEL: func.func @bidirectional_states(
// CHECK-SAME:  [[VAL_1:%[0-9A-Za-z_]+]]: tensor<2x5x3xf32>, [[VAL_2:%[0-9A-Za-z_]+]]: tensor<2x4xf32>, [[VAL_3:%[0-9A-Za-z_]+]]: tensor<2x4xf32>, [[VAL_4:%[0-9A-Za-z_]+]]: tensor<3x16xf32>, [[VAL_5:%[0-9A-Za-z_]+]]: tensor<4x16xf32>, [[VAL_6:%[0-9A-Za-z_]+]]: tensor<16xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>) {
// CHECK-NEXT:  [[VAL_7:%[0-9A-Za-z_]+]], [[VAL_8:%[0-9A-Za-z_]+]], [[VAL_9:%[0-9A-Za-z_]+]], [[VAL_10:%[0-9A-Za-z_]+]], [[VAL_11:%[0-9A-Za-z_]+]], [[VAL_12:%[0-9A-Za-z_]+]], [[VAL_13:%[0-9A-Za-z_]+]], [[VAL_14:%[0-9A-Za-z_]+]], [[VAL_15:%[0-9A-Za-z_]+]], [[VAL_16:%[0-9A-Za-z_]+]] = func.call @fw_batch_major_bidirectional([[VAL_1]], [[VAL_2]], [[VAL_3]], [[VAL_4]], [[VAL_5]], [[VAL_6]], [[VAL_2]], [[VAL_3]], [[VAL_4]], [[VAL_5]], [[VAL_6]]) : (tensor<2x5x3xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<2x4xf32>, tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>, tensor<2x4xf32>, tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>)
// CHECK-NEXT:  func.return [[VAL_7]], [[VAL_9]], [[VAL_10]], [[VAL_12]], [[VAL_14]], [[VAL_15]] : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>
// CHECK-LABEL: func.func private @fw_batch_major(
// CHECK-SAME:  %arg0: tensor<2x5x3xf32>, %arg1: tensor<2x4xf32>, %arg2: tensor<2x4xf32>, %arg3: tensor<3x16xf32>, %arg4: tensor<4x16xf32>, %arg5: tensor<16xf32>) -> (tensor<2x4xf32>, tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_fw_batch_major", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = false} {
// CHECK-NEXT:  [[VAL_1:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_2:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg3, [[VAL_1]]) : (tensor<3x16xf32>, tensor<2xi32>) -> tensor<16x3xf32>
// CHECK-NEXT:  [[VAL_3:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_4:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg4, [[VAL_3]]) : (tensor<4x16xf32>, tensor<2xi32>) -> tensor<16x4xf32>
// CHECK-NEXT:  [[VAL_5:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_6:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_7:%[0-9A-Za-z_]+]], [[VAL_8:%[0-9A-Za-z_]+]], [[VAL_9:%[0-9A-Za-z_]+]], [[VAL_10:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_2]], [[VAL_5]], [[VAL_6]]) <{num_splits = 4 : i32}> : (tensor<16x3xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>)
// CHECK-NEXT:  [[VAL_11:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_12:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_13:%[0-9A-Za-z_]+]], [[VAL_14:%[0-9A-Za-z_]+]], [[VAL_15:%[0-9A-Za-z_]+]], [[VAL_16:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_4]], [[VAL_11]], [[VAL_12]]) <{num_splits = 4 : i32}> : (tensor<16x4xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>)
// CHECK-NEXT:  [[VAL_17:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_18:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_19:%[0-9A-Za-z_]+]], [[VAL_20:%[0-9A-Za-z_]+]], [[VAL_21:%[0-9A-Za-z_]+]], [[VAL_22:%[0-9A-Za-z_]+]] = "tfl.split_v"(%arg5, [[VAL_17]], [[VAL_18]]) <{num_splits = 4 : i32}> : (tensor<16xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:  [[VAL_23:%[0-9A-Za-z_]+]] = "tfl.no_value"() <{value}> : () -> none
// CHECK-NEXT:  [[VAL_24:%[0-9A-Za-z_]+]], [[VAL_25:%[0-9A-Za-z_]+]], [[VAL_26:%[0-9A-Za-z_]+]] = "tfl.unidirectional_sequence_lstm"(%arg0, [[VAL_7]], [[VAL_8]], [[VAL_9]], [[VAL_10]], [[VAL_13]], [[VAL_14]], [[VAL_15]], [[VAL_16]], [[VAL_23]], [[VAL_23]], [[VAL_23]], [[VAL_19]], [[VAL_20]], [[VAL_21]], [[VAL_22]], [[VAL_23]], [[VAL_23]], %arg1, %arg2, [[VAL_23]], [[VAL_23]], [[VAL_23]], [[VAL_23]]) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, time_major = false, diagonal_recurrent_tensors = false}> : (tensor<2x5x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> (tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
// CHECK-NEXT:  [[VAL_27:%[0-9A-Za-z_]+]] = arith.constant dense<[0, -1, 0]> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_28:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_29:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_30:%[0-9A-Za-z_]+]] = "tfl.strided_slice"([[VAL_24]], [[VAL_27]], [[VAL_28]], [[VAL_29]]) <{begin_mask = 5 : i32, end_mask = 5 : i32, ellipsis_mask = 0 : i32, new_axis_mask = 0 : i32, shrink_axis_mask = 2 : i32, offset = false}> : (tensor<2x5x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x4xf32>
// CHECK-NEXT:  [[VAL_31:%[0-9A-Za-z_]+]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:  func.return [[VAL_30]], [[VAL_24]], [[VAL_25]], [[VAL_26]], [[VAL_31]] : tensor<2x4xf32>, tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>
// CHECK-LABEL: func.func private @bw_batch_major(
// CHECK-SAME:  %arg0: tensor<2x5x3xf32>, %arg1: tensor<2x4xf32>, %arg2: tensor<2x4xf32>, %arg3: tensor<3x16xf32>, %arg4: tensor<4x16xf32>, %arg5: tensor<16xf32>) -> (tensor<2x4xf32>, tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_bw_batch_major", tf.api_preferred_device = "CPU", tf.go_backwards = true, tf.time_major = false} {
// CHECK-NEXT:  [[VAL_1:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_2:%[0-9A-Za-z_]+]] = "tfl.reverse_v2"(%arg0, [[VAL_1]]) : (tensor<2x5x3xf32>, tensor<1xi32>) -> tensor<2x5x3xf32>
// CHECK-NEXT:  [[VAL_3:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_4:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg3, [[VAL_3]]) : (tensor<3x16xf32>, tensor<2xi32>) -> tensor<16x3xf32>
// CHECK-NEXT:  [[VAL_5:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_6:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg4, [[VAL_5]]) : (tensor<4x16xf32>, tensor<2xi32>) -> tensor<16x4xf32>
// CHECK-NEXT:  [[VAL_7:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_8:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_9:%[0-9A-Za-z_]+]], [[VAL_10:%[0-9A-Za-z_]+]], [[VAL_11:%[0-9A-Za-z_]+]], [[VAL_12:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_4]], [[VAL_7]], [[VAL_8]]) <{num_splits = 4 : i32}> : (tensor<16x3xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>)
// CHECK-NEXT:  [[VAL_13:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_14:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_15:%[0-9A-Za-z_]+]], [[VAL_16:%[0-9A-Za-z_]+]], [[VAL_17:%[0-9A-Za-z_]+]], [[VAL_18:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_6]], [[VAL_13]], [[VAL_14]]) <{num_splits = 4 : i32}> : (tensor<16x4xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>)
// CHECK-NEXT:  [[VAL_19:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_20:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_21:%[0-9A-Za-z_]+]], [[VAL_22:%[0-9A-Za-z_]+]], [[VAL_23:%[0-9A-Za-z_]+]], [[VAL_24:%[0-9A-Za-z_]+]] = "tfl.split_v"(%arg5, [[VAL_19]], [[VAL_20]]) <{num_splits = 4 : i32}> : (tensor<16xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:  [[VAL_25:%[0-9A-Za-z_]+]] = "tfl.no_value"() <{value}> : () -> none
// CHECK-NEXT:  [[VAL_26:%[0-9A-Za-z_]+]], [[VAL_27:%[0-9A-Za-z_]+]], [[VAL_28:%[0-9A-Za-z_]+]] = "tfl.unidirectional_sequence_lstm"([[VAL_2]], [[VAL_9]], [[VAL_10]], [[VAL_11]], [[VAL_12]], [[VAL_15]], [[VAL_16]], [[VAL_17]], [[VAL_18]], [[VAL_25]], [[VAL_25]], [[VAL_25]], [[VAL_21]], [[VAL_22]], [[VAL_23]], [[VAL_24]], [[VAL_25]], [[VAL_25]], %arg1, %arg2, [[VAL_25]], [[VAL_25]], [[VAL_25]], [[VAL_25]]) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, time_major = false, diagonal_recurrent_tensors = false}> : (tensor<2x5x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> (tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
// CHECK-NEXT:  [[VAL_29:%[0-9A-Za-z_]+]] = arith.constant dense<[0, -1, 0]> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_30:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_31:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_32:%[0-9A-Za-z_]+]] = "tfl.strided_slice"([[VAL_26]], [[VAL_29]], [[VAL_30]], [[VAL_31]]) <{begin_mask = 5 : i32, end_mask = 5 : i32, ellipsis_mask = 0 : i32, new_axis_mask = 0 : i32, shrink_axis_mask = 2 : i32, offset = false}> : (tensor<2x5x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x4xf32>
// CHECK-NEXT:  [[VAL_33:%[0-9A-Za-z_]+]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:  func.return [[VAL_32]], [[VAL_26]], [[VAL_27]], [[VAL_28]], [[VAL_33]] : tensor<2x4xf32>, tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>
// CHECK-LABEL: func.func private @forward_lstm_bidirectional(
// CHECK-SAME:  [[VAL_1:%[0-9A-Za-z_]+]]: tensor<?x2x3xf32>, [[VAL_2:%[0-9A-Za-z_]+]]: tensor<2x4xf32>, [[VAL_3:%[0-9A-Za-z_]+]]: tensor<2x4xf32>, [[VAL_4:%[0-9A-Za-z_]+]]: tensor<3x16xf32>, [[VAL_5:%[0-9A-Za-z_]+]]: tensor<4x16xf32>, [[VAL_6:%[0-9A-Za-z_]+]]: tensor<16xf32>, [[VAL_7:%[0-9A-Za-z_]+]]: tensor<2x4xf32>, [[VAL_8:%[0-9A-Za-z_]+]]: tensor<2x4xf32>, [[VAL_9:%[0-9A-Za-z_]+]]: tensor<3x16xf32>, [[VAL_10:%[0-9A-Za-z_]+]]: tensor<4x16xf32>, [[VAL_11:%[0-9A-Za-z_]+]]: tensor<16xf32>) -> (tensor<2x4xf32>, tensor<?x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>, tensor<2x4xf32>, tensor<?x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>) {
// CHECK-NEXT:  [[VAL_12:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_13:%[0-9A-Za-z_]+]] = "tfl.transpose"([[VAL_4]], [[VAL_12]]) : (tensor<3x16xf32>, tensor<2xi32>) -> tensor<16x3xf32>
// CHECK-NEXT:  [[VAL_14:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_15:%[0-9A-Za-z_]+]] = "tfl.transpose"([[VAL_5]], [[VAL_14]]) : (tensor<4x16xf32>, tensor<2xi32>) -> tensor<16x4xf32>
// CHECK-NEXT:  [[VAL_16:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_17:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_18:%[0-9A-Za-z_]+]], [[VAL_19:%[0-9A-Za-z_]+]], [[VAL_20:%[0-9A-Za-z_]+]], [[VAL_21:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_13]], [[VAL_16]], [[VAL_17]]) <{num_splits = 4 : i32}> : (tensor<16x3xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>)
// CHECK-NEXT:  [[VAL_22:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_23:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_24:%[0-9A-Za-z_]+]], [[VAL_25:%[0-9A-Za-z_]+]], [[VAL_26:%[0-9A-Za-z_]+]], [[VAL_27:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_15]], [[VAL_22]], [[VAL_23]]) <{num_splits = 4 : i32}> : (tensor<16x4xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>)
// CHECK-NEXT:  [[VAL_28:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_29:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_30:%[0-9A-Za-z_]+]], [[VAL_31:%[0-9A-Za-z_]+]], [[VAL_32:%[0-9A-Za-z_]+]], [[VAL_33:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_6]], [[VAL_28]], [[VAL_29]]) <{num_splits = 4 : i32}> : (tensor<16xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:  [[VAL_34:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_35:%[0-9A-Za-z_]+]] = "tfl.transpose"([[VAL_9]], [[VAL_34]]) : (tensor<3x16xf32>, tensor<2xi32>) -> tensor<16x3xf32>
// CHECK-NEXT:  [[VAL_36:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_37:%[0-9A-Za-z_]+]] = "tfl.transpose"([[VAL_10]], [[VAL_36]]) : (tensor<4x16xf32>, tensor<2xi32>) -> tensor<16x4xf32>
// CHECK-NEXT:  [[VAL_38:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_39:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_40:%[0-9A-Za-z_]+]], [[VAL_41:%[0-9A-Za-z_]+]], [[VAL_42:%[0-9A-Za-z_]+]], [[VAL_43:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_35]], [[VAL_38]], [[VAL_39]]) <{num_splits = 4 : i32}> : (tensor<16x3xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>)
// CHECK-NEXT:  [[VAL_44:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_45:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_46:%[0-9A-Za-z_]+]], [[VAL_47:%[0-9A-Za-z_]+]], [[VAL_48:%[0-9A-Za-z_]+]], [[VAL_49:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_37]], [[VAL_44]], [[VAL_45]]) <{num_splits = 4 : i32}> : (tensor<16x4xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>)
// CHECK-NEXT:  [[VAL_50:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_51:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_52:%[0-9A-Za-z_]+]], [[VAL_53:%[0-9A-Za-z_]+]], [[VAL_54:%[0-9A-Za-z_]+]], [[VAL_55:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_11]], [[VAL_50]], [[VAL_51]]) <{num_splits = 4 : i32}> : (tensor<16xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:  [[VAL_56:%[0-9A-Za-z_]+]] = "tfl.no_value"() <{value}> : () -> none
// CHECK-NEXT:  [[VAL_57:%[0-9A-Za-z_]+]], [[VAL_58:%[0-9A-Za-z_]+]], [[VAL_59:%[0-9A-Za-z_]+]], [[VAL_60:%[0-9A-Za-z_]+]], [[VAL_61:%[0-9A-Za-z_]+]], [[VAL_62:%[0-9A-Za-z_]+]] = "tfl.bidirectional_sequence_lstm"([[VAL_1]], [[VAL_18]], [[VAL_19]], [[VAL_20]], [[VAL_21]], [[VAL_24]], [[VAL_25]], [[VAL_26]], [[VAL_27]], [[VAL_56]], [[VAL_56]], [[VAL_56]], [[VAL_30]], [[VAL_31]], [[VAL_32]], [[VAL_33]], [[VAL_56]], [[VAL_56]], [[VAL_40]], [[VAL_41]], [[VAL_42]], [[VAL_43]], [[VAL_46]], [[VAL_47]], [[VAL_48]], [[VAL_49]], [[VAL_56]], [[VAL_56]], [[VAL_56]], [[VAL_52]], [[VAL_53]], [[VAL_54]], [[VAL_55]], [[VAL_56]], [[VAL_56]], [[VAL_2]], [[VAL_3]], [[VAL_7]], [[VAL_8]], [[VAL_56]], [[VAL_56]], [[VAL_56]], [[VAL_56]], [[VAL_56]], [[VAL_56]], [[VAL_56]], [[VAL_56]], [[VAL_56]]) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, merge_outputs = false, time_major = true}> : (tensor<?x2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none, none, none, none, none, none) -> (tensor<?x2x4xf32>, tensor<?x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
// CHECK-NEXT:  [[VAL_63:%[0-9A-Za-z_]+]] = arith.constant dense<[-1, 0, 0]> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_64:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_65:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_66:%[0-9A-Za-z_]+]] = "tfl.strided_slice"([[VAL_57]], [[VAL_63]], [[VAL_64]], [[VAL_65]]) <{begin_mask = 6 : i32, end_mask = 6 : i32, ellipsis_mask = 0 : i32, new_axis_mask = 0 : i32, shrink_axis_mask = 1 : i32, offset = false}> : (tensor<?x2x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x4xf32>
// CHECK-NEXT:  [[VAL_67:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_68:%[0-9A-Za-z_]+]] = "tfl.reverse_v2"([[VAL_58]], [[VAL_67]]) : (tensor<?x2x4xf32>, tensor<1xi32>) -> tensor<?x2x4xf32>
// CHECK-NEXT:  [[VAL_69:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_70:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_71:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_72:%[0-9A-Za-z_]+]] = "tfl.strided_slice"([[VAL_58]], [[VAL_69]], [[VAL_70]], [[VAL_71]]) <{begin_mask = 6 : i32, end_mask = 6 : i32, ellipsis_mask = 0 : i32, new_axis_mask = 0 : i32, shrink_axis_mask = 1 : i32, offset = false}> : (tensor<?x2x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x4xf32>
// CHECK-NEXT:  [[VAL_73:%[0-9A-Za-z_]+]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:  [[VAL_74:%[0-9A-Za-z_]+]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:  func.return [[VAL_66]], [[VAL_57]], [[VAL_59]], [[VAL_60]], [[VAL_73]], [[VAL_72]], [[VAL_68]], [[VAL_61]], [[VAL_62]], [[VAL_74]] : tensor<2x4xf32>, tensor<?x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>, tensor<2x4xf32>, tensor<?x2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>
// CHECK-LABEL: func.func private @fw_batch_major_bidirectional(
// CHECK-SAME:  [[VAL_1:%[0-9A-Za-z_]+]]: tensor<2x5x3xf32>, [[VAL_2:%[0-9A-Za-z_]+]]: tensor<2x4xf32>, [[VAL_3:%[0-9A-Za-z_]+]]: tensor<2x4xf32>, [[VAL_4:%[0-9A-Za-z_]+]]: tensor<3x16xf32>, [[VAL_5:%[0-9A-Za-z_]+]]: tensor<4x16xf32>, [[VAL_6:%[0-9A-Za-z_]+]]: tensor<16xf32>, [[VAL_7:%[0-9A-Za-z_]+]]: tensor<2x4xf32>, [[VAL_8:%[0-9A-Za-z_]+]]: tensor<2x4xf32>, [[VAL_9:%[0-9A-Za-z_]+]]: tensor<3x16xf32>, [[VAL_10:%[0-9A-Za-z_]+]]: tensor<4x16xf32>, [[VAL_11:%[0-9A-Za-z_]+]]: tensor<16xf32>) -> (tensor<2x4xf32>, tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>, tensor<2x4xf32>, tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>) {
// CHECK-NEXT:  [[VAL_12:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_13:%[0-9A-Za-z_]+]] = "tfl.transpose"([[VAL_4]], [[VAL_12]]) : (tensor<3x16xf32>, tensor<2xi32>) -> tensor<16x3xf32>
// CHECK-NEXT:  [[VAL_14:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_15:%[0-9A-Za-z_]+]] = "tfl.transpose"([[VAL_5]], [[VAL_14]]) : (tensor<4x16xf32>, tensor<2xi32>) -> tensor<16x4xf32>
// CHECK-NEXT:  [[VAL_16:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_17:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_18:%[0-9A-Za-z_]+]], [[VAL_19:%[0-9A-Za-z_]+]], [[VAL_20:%[0-9A-Za-z_]+]], [[VAL_21:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_13]], [[VAL_16]], [[VAL_17]]) <{num_splits = 4 : i32}> : (tensor<16x3xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>)
// CHECK-NEXT:  [[VAL_22:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_23:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_24:%[0-9A-Za-z_]+]], [[VAL_25:%[0-9A-Za-z_]+]], [[VAL_26:%[0-9A-Za-z_]+]], [[VAL_27:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_15]], [[VAL_22]], [[VAL_23]]) <{num_splits = 4 : i32}> : (tensor<16x4xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>)
// CHECK-NEXT:  [[VAL_28:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_29:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_30:%[0-9A-Za-z_]+]], [[VAL_31:%[0-9A-Za-z_]+]], [[VAL_32:%[0-9A-Za-z_]+]], [[VAL_33:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_6]], [[VAL_28]], [[VAL_29]]) <{num_splits = 4 : i32}> : (tensor<16xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:  [[VAL_34:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_35:%[0-9A-Za-z_]+]] = "tfl.transpose"([[VAL_9]], [[VAL_34]]) : (tensor<3x16xf32>, tensor<2xi32>) -> tensor<16x3xf32>
// CHECK-NEXT:  [[VAL_36:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_37:%[0-9A-Za-z_]+]] = "tfl.transpose"([[VAL_10]], [[VAL_36]]) : (tensor<4x16xf32>, tensor<2xi32>) -> tensor<16x4xf32>
// CHECK-NEXT:  [[VAL_38:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_39:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_40:%[0-9A-Za-z_]+]], [[VAL_41:%[0-9A-Za-z_]+]], [[VAL_42:%[0-9A-Za-z_]+]], [[VAL_43:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_35]], [[VAL_38]], [[VAL_39]]) <{num_splits = 4 : i32}> : (tensor<16x3xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>)
// CHECK-NEXT:  [[VAL_44:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_45:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_46:%[0-9A-Za-z_]+]], [[VAL_47:%[0-9A-Za-z_]+]], [[VAL_48:%[0-9A-Za-z_]+]], [[VAL_49:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_37]], [[VAL_44]], [[VAL_45]]) <{num_splits = 4 : i32}> : (tensor<16x4xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>)
// CHECK-NEXT:  [[VAL_50:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_51:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_52:%[0-9A-Za-z_]+]], [[VAL_53:%[0-9A-Za-z_]+]], [[VAL_54:%[0-9A-Za-z_]+]], [[VAL_55:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_11]], [[VAL_50]], [[VAL_51]]) <{num_splits = 4 : i32}> : (tensor<16xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-NEXT:  [[VAL_56:%[0-9A-Za-z_]+]] = "tfl.no_value"() <{value}> : () -> none
// CHECK-NEXT:  [[VAL_57:%[0-9A-Za-z_]+]], [[VAL_58:%[0-9A-Za-z_]+]], [[VAL_59:%[0-9A-Za-z_]+]], [[VAL_60:%[0-9A-Za-z_]+]], [[VAL_61:%[0-9A-Za-z_]+]], [[VAL_62:%[0-9A-Za-z_]+]] = "tfl.bidirectional_sequence_lstm"([[VAL_1]], [[VAL_18]], [[VAL_19]], [[VAL_20]], [[VAL_21]], [[VAL_24]], [[VAL_25]], [[VAL_26]], [[VAL_27]], [[VAL_56]], [[VAL_56]], [[VAL_56]], [[VAL_30]], [[VAL_31]], [[VAL_32]], [[VAL_33]], [[VAL_56]], [[VAL_56]], [[VAL_40]], [[VAL_41]], [[VAL_42]], [[VAL_43]], [[VAL_46]], [[VAL_47]], [[VAL_48]], [[VAL_49]], [[VAL_56]], [[VAL_56]], [[VAL_56]], [[VAL_52]], [[VAL_53]], [[VAL_54]], [[VAL_55]], [[VAL_56]], [[VAL_56]], [[VAL_2]], [[VAL_3]], [[VAL_7]], [[VAL_8]], [[VAL_56]], [[VAL_56]], [[VAL_56]], [[VAL_56]], [[VAL_56]], [[VAL_56]], [[VAL_56]], [[VAL_56]], [[VAL_56]]) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, merge_outputs = false, time_major = false}> : (tensor<2x5x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none, none, none, none, none, none) -> (tensor<2x5x4xf32>, tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
// CHECK-NEXT:  [[VAL_63:%[0-9A-Za-z_]+]] = arith.constant dense<[0, -1, 0]> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_64:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_65:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_66:%[0-9A-Za-z_]+]] = "tfl.strided_slice"([[VAL_57]], [[VAL_63]], [[VAL_64]], [[VAL_65]]) <{begin_mask = 5 : i32, end_mask = 5 : i32, ellipsis_mask = 0 : i32, new_axis_mask = 0 : i32, shrink_axis_mask = 2 : i32, offset = false}> : (tensor<2x5x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x4xf32>
// CHECK-NEXT:  [[VAL_67:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_68:%[0-9A-Za-z_]+]] = "tfl.reverse_v2"([[VAL_58]], [[VAL_67]]) : (tensor<2x5x4xf32>, tensor<1xi32>) -> tensor<2x5x4xf32>
// CHECK-NEXT:  [[VAL_69:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_70:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_71:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_72:%[0-9A-Za-z_]+]] = "tfl.strided_slice"([[VAL_58]], [[VAL_69]], [[VAL_70]], [[VAL_71]]) <{begin_mask = 5 : i32, end_mask = 5 : i32, ellipsis_mask = 0 : i32, new_axis_mask = 0 : i32, shrink_axis_mask = 2 : i32, offset = false}> : (tensor<2x5x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x4xf32>
// CHECK-NEXT:  [[VAL_73:%[0-9A-Za-z_]+]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:  [[VAL_74:%[0-9A-Za-z_]+]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:  func.return [[VAL_66]], [[VAL_57]], [[VAL_59]], [[VAL_60]], [[VAL_73]], [[VAL_72]], [[VAL_68]], [[VAL_61]], [[VAL_62]], [[VAL_74]] : tensor<2x4xf32>, tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>, tensor<2x4xf32>, tensor<2x5x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<f32>
