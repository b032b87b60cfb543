// RUN: opt-tool %s --allow-unregistered-dialect --prepare-composite-functions 2>&1 | filecheck %s

// Keras LSTM functions whose callers use the final states (return_state=True): TensorFlow Lite
// refuses them silently (its fused op has no state results, it returns zero tf.Const for
// results 2 and 3). Here the op's extra results output_state and cell_state are results 2 and
// 3, and result 4 is Keras' runtime constant 1.0.

// Upstream's @inference_cannot_fuse with a fixed batch: the caller adds new_h (result 2).
func.func @inference_can_fuse_now(%arg0: tensor<?x8x8xf32>, %arg1: tensor<8x10xf32>, %arg2: tensor<8x10xf32>, %arg3: tensor<8x40xf32>, %arg4: tensor<10x40xf32>, %arg5: tensor<40xf32>) -> tensor<8x10xf32> {
  %0 = "tf.Const"() {_output_shapes = ["tfshape$"], device = "", dtype = f32, value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %1:5 = "tf.PartitionedCall"(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5) {config = "", config_proto = "", executor_type = "", f = @inference_standard_lstm_time_major_states} : (tensor<?x8x8xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<8x40xf32>, tensor<10x40xf32>, tensor<40xf32>) -> (tensor<8x10xf32>, tensor<?x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>)
  %2 = "tf.Add"(%0, %1#2) : (tensor<f32>, tensor<8x10xf32>) -> tensor<8x10xf32>
  func.return %2 : tensor<8x10xf32>
}

func.func private @inference_standard_lstm_time_major_states(%arg0: tensor<?x8x8xf32>, %arg1: tensor<8x10xf32>, %arg2: tensor<8x10xf32>, %arg3: tensor<8x40xf32>, %arg4: tensor<10x40xf32>, %arg5: tensor<40xf32>) -> (tensor<8x10xf32>, tensor<?x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_b4e9f0e7-ac55-42bc-8ef2-8496419a608c", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = true} {
  %0 = "tf.BatchMatMulV2"(%arg0, %arg3) {adj_x = false, adj_y = false} : (tensor<?x8x8xf32>, tensor<8x40xf32>) -> tensor<?x8x40xf32>
  %1 = "tf.Add"(%0, %arg5) : (tensor<?x8x40xf32>, tensor<40xf32>) -> tensor<?x8x40xf32>
  %2 = "tf.BatchMatMulV2"(%1, %arg4) {adj_x = false, adj_y = true} : (tensor<?x8x40xf32>, tensor<10x40xf32>) -> tensor<?x8x10xf32>
  %4 = "tf.Add"(%2, %arg2) : (tensor<?x8x10xf32>, tensor<8x10xf32>) -> tensor<?x8x10xf32>
  %5 = "tf.Add"(%arg1, %arg2) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
  %6 = "tf.Const"() {value = dense<1.000000e+00> : tensor<f32>} : () -> tensor<f32>
  func.return %5, %4, %5, %5, %6 : tensor<8x10xf32>, tensor<?x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>
}

// A stateful streaming caller: every result used (the sequence, both states to feed the next
// chunk, the runtime), batch-major and go_backwards.
func.func @streaming(%x: tensor<1x4x3xf32>, %h: tensor<1x2xf32>, %c: tensor<1x2xf32>, %k: tensor<3x8xf32>, %r: tensor<2x8xf32>, %b: tensor<8xf32>) -> (tensor<1x4x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<f32>) {
  %0:5 = func.call @lstm_states(%x, %h, %c, %k, %r, %b) : (tensor<1x4x3xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<3x8xf32>, tensor<2x8xf32>, tensor<8xf32>) -> (tensor<1x2xf32>, tensor<1x4x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<f32>)
  func.return %0#1, %0#2, %0#3, %0#4 : tensor<1x4x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<f32>
}

func.func private @lstm_states(%arg0: tensor<1x4x3xf32>, %arg1: tensor<1x2xf32>, %arg2: tensor<1x2xf32>, %arg3: tensor<3x8xf32>, %arg4: tensor<2x8xf32>, %arg5: tensor<8xf32>) -> (tensor<1x2xf32>, tensor<1x4x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_5e0b", tf.go_backwards = true, tf.time_major = false}

// CHECK-NOT: warning:

// CHECK-LABEL: func.func @inference_can_fuse_now(
// CHECK-SAME:  %arg0: tensor<?x8x8xf32>, %arg1: tensor<8x10xf32>, %arg2: tensor<8x10xf32>, %arg3: tensor<8x40xf32>, %arg4: tensor<10x40xf32>, %arg5: tensor<40xf32>) -> tensor<8x10xf32> {
// CHECK-NEXT:  [[VAL_1:%[0-9A-Za-z_]+]] = "tf.Const"() {_output_shapes = ["tfshape$"], device = "", dtype = f32, value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:  [[VAL_2:%[0-9A-Za-z_]+]], [[VAL_3:%[0-9A-Za-z_]+]], [[VAL_4:%[0-9A-Za-z_]+]], [[VAL_5:%[0-9A-Za-z_]+]], [[VAL_6:%[0-9A-Za-z_]+]] = "tf.PartitionedCall"(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5) {config = "", config_proto = "", executor_type = "", f = @inference_standard_lstm_time_major_states} : (tensor<?x8x8xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<8x40xf32>, tensor<10x40xf32>, tensor<40xf32>) -> (tensor<8x10xf32>, tensor<?x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>)
// CHECK-NEXT:  [[VAL_7:%[0-9A-Za-z_]+]] = "tf.Add"([[VAL_1]], [[VAL_4]]) : (tensor<f32>, tensor<8x10xf32>) -> tensor<8x10xf32>
// CHECK-NEXT:  func.return [[VAL_7]] : tensor<8x10xf32>
// CHECK-LABEL: func.func private @inference_standard_lstm_time_major_states(
// CHECK-SAME:  %arg0: tensor<?x8x8xf32>, %arg1: tensor<8x10xf32>, %arg2: tensor<8x10xf32>, %arg3: tensor<8x40xf32>, %arg4: tensor<10x40xf32>, %arg5: tensor<40xf32>) -> (tensor<8x10xf32>, tensor<?x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_b4e9f0e7-ac55-42bc-8ef2-8496419a608c", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = true} {
// CHECK-NEXT:  [[VAL_1:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_2:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg3, [[VAL_1]]) : (tensor<8x40xf32>, tensor<2xi32>) -> tensor<40x8xf32>
// CHECK-NEXT:  [[VAL_3:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_4:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg4, [[VAL_3]]) : (tensor<10x40xf32>, tensor<2xi32>) -> tensor<40x10xf32>
// CHECK-NEXT:  [[VAL_5:%[0-9A-Za-z_]+]] = arith.constant dense<10> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_6:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_7:%[0-9A-Za-z_]+]], [[VAL_8:%[0-9A-Za-z_]+]], [[VAL_9:%[0-9A-Za-z_]+]], [[VAL_10:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_2]], [[VAL_5]], [[VAL_6]]) <{num_splits = 4 : i32}> : (tensor<40x8xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<10x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>)
// CHECK-NEXT:  [[VAL_11:%[0-9A-Za-z_]+]] = arith.constant dense<10> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_12:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_13:%[0-9A-Za-z_]+]], [[VAL_14:%[0-9A-Za-z_]+]], [[VAL_15:%[0-9A-Za-z_]+]], [[VAL_16:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_4]], [[VAL_11]], [[VAL_12]]) <{num_splits = 4 : i32}> : (tensor<40x10xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<10x10xf32>, tensor<10x10xf32>, tensor<10x10xf32>, tensor<10x10xf32>)
// CHECK-NEXT:  [[VAL_17:%[0-9A-Za-z_]+]] = arith.constant dense<10> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_18:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_19:%[0-9A-Za-z_]+]], [[VAL_20:%[0-9A-Za-z_]+]], [[VAL_21:%[0-9A-Za-z_]+]], [[VAL_22:%[0-9A-Za-z_]+]] = "tfl.split_v"(%arg5, [[VAL_17]], [[VAL_18]]) <{num_splits = 4 : i32}> : (tensor<40xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>)
// CHECK-NEXT:  [[VAL_23:%[0-9A-Za-z_]+]] = "tfl.no_value"() <{value}> : () -> none
// CHECK-NEXT:  [[VAL_24:%[0-9A-Za-z_]+]], [[VAL_25:%[0-9A-Za-z_]+]], [[VAL_26:%[0-9A-Za-z_]+]] = "tfl.unidirectional_sequence_lstm"(%arg0, [[VAL_7]], [[VAL_8]], [[VAL_9]], [[VAL_10]], [[VAL_13]], [[VAL_14]], [[VAL_15]], [[VAL_16]], [[VAL_23]], [[VAL_23]], [[VAL_23]], [[VAL_19]], [[VAL_20]], [[VAL_21]], [[VAL_22]], [[VAL_23]], [[VAL_23]], %arg1, %arg2, [[VAL_23]], [[VAL_23]], [[VAL_23]], [[VAL_23]]) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, time_major = true, diagonal_recurrent_tensors = false}> : (tensor<?x8x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>, tensor<10x10xf32>, tensor<10x10xf32>, tensor<10x10xf32>, tensor<10x10xf32>, none, none, none, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, none, none, tensor<8x10xf32>, tensor<8x10xf32>, none, none, none, none) -> (tensor<?x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>)
// CHECK-NEXT:  [[VAL_27:%[0-9A-Za-z_]+]] = arith.constant dense<[-1, 0, 0]> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_28:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_29:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_30:%[0-9A-Za-z_]+]] = "tfl.strided_slice"([[VAL_24]], [[VAL_27]], [[VAL_28]], [[VAL_29]]) <{begin_mask = 6 : i32, end_mask = 6 : i32, ellipsis_mask = 0 : i32, new_axis_mask = 0 : i32, shrink_axis_mask = 1 : i32, offset = false}> : (tensor<?x8x10xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<8x10xf32>
// CHECK-NEXT:  [[VAL_31:%[0-9A-Za-z_]+]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:  func.return [[VAL_30]], [[VAL_24]], [[VAL_25]], [[VAL_26]], [[VAL_31]] : tensor<8x10xf32>, tensor<?x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>
// CHECK-LABEL: func.func @streaming(
// CHECK-SAME:  [[VAL_1:%[0-9A-Za-z_]+]]: tensor<1x4x3xf32>, [[VAL_2:%[0-9A-Za-z_]+]]: tensor<1x2xf32>, [[VAL_3:%[0-9A-Za-z_]+]]: tensor<1x2xf32>, [[VAL_4:%[0-9A-Za-z_]+]]: tensor<3x8xf32>, [[VAL_5:%[0-9A-Za-z_]+]]: tensor<2x8xf32>, [[VAL_6:%[0-9A-Za-z_]+]]: tensor<8xf32>) -> (tensor<1x4x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<f32>) {
// CHECK-NEXT:  [[VAL_7:%[0-9A-Za-z_]+]], [[VAL_8:%[0-9A-Za-z_]+]], [[VAL_9:%[0-9A-Za-z_]+]], [[VAL_10:%[0-9A-Za-z_]+]], [[VAL_11:%[0-9A-Za-z_]+]] = func.call @lstm_states([[VAL_1]], [[VAL_2]], [[VAL_3]], [[VAL_4]], [[VAL_5]], [[VAL_6]]) : (tensor<1x4x3xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<3x8xf32>, tensor<2x8xf32>, tensor<8xf32>) -> (tensor<1x2xf32>, tensor<1x4x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<f32>)
// CHECK-NEXT:  func.return [[VAL_8]], [[VAL_9]], [[VAL_10]], [[VAL_11]] : tensor<1x4x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<f32>
// CHECK-LABEL: func.func private @lstm_states(
// CHECK-SAME:  %arg0: tensor<1x4x3xf32>, %arg1: tensor<1x2xf32>, %arg2: tensor<1x2xf32>, %arg3: tensor<3x8xf32>, %arg4: tensor<2x8xf32>, %arg5: tensor<8xf32>) -> (tensor<1x2xf32>, tensor<1x4x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_5e0b", tf.go_backwards = true, tf.time_major = false} {
// CHECK-NEXT:  [[VAL_1:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_2:%[0-9A-Za-z_]+]] = "tfl.reverse_v2"(%arg0, [[VAL_1]]) : (tensor<1x4x3xf32>, tensor<1xi32>) -> tensor<1x4x3xf32>
// CHECK-NEXT:  [[VAL_3:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_4:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg3, [[VAL_3]]) : (tensor<3x8xf32>, tensor<2xi32>) -> tensor<8x3xf32>
// CHECK-NEXT:  [[VAL_5:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_6:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg4, [[VAL_5]]) : (tensor<2x8xf32>, tensor<2xi32>) -> tensor<8x2xf32>
// CHECK-NEXT:  [[VAL_7:%[0-9A-Za-z_]+]] = arith.constant dense<2> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_8:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_9:%[0-9A-Za-z_]+]], [[VAL_10:%[0-9A-Za-z_]+]], [[VAL_11:%[0-9A-Za-z_]+]], [[VAL_12:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_4]], [[VAL_7]], [[VAL_8]]) <{num_splits = 4 : i32}> : (tensor<8x3xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK-NEXT:  [[VAL_13:%[0-9A-Za-z_]+]] = arith.constant dense<2> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_14:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_15:%[0-9A-Za-z_]+]], [[VAL_16:%[0-9A-Za-z_]+]], [[VAL_17:%[0-9A-Za-z_]+]], [[VAL_18:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_6]], [[VAL_13]], [[VAL_14]]) <{num_splits = 4 : i32}> : (tensor<8x2xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
// CHECK-NEXT:  [[VAL_19:%[0-9A-Za-z_]+]] = arith.constant dense<2> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_20:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_21:%[0-9A-Za-z_]+]], [[VAL_22:%[0-9A-Za-z_]+]], [[VAL_23:%[0-9A-Za-z_]+]], [[VAL_24:%[0-9A-Za-z_]+]] = "tfl.split_v"(%arg5, [[VAL_19]], [[VAL_20]]) <{num_splits = 4 : i32}> : (tensor<8xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
// CHECK-NEXT:  [[VAL_25:%[0-9A-Za-z_]+]] = "tfl.no_value"() <{value}> : () -> none
// CHECK-NEXT:  [[VAL_26:%[0-9A-Za-z_]+]], [[VAL_27:%[0-9A-Za-z_]+]], [[VAL_28:%[0-9A-Za-z_]+]] = "tfl.unidirectional_sequence_lstm"([[VAL_2]], [[VAL_9]], [[VAL_10]], [[VAL_11]], [[VAL_12]], [[VAL_15]], [[VAL_16]], [[VAL_17]], [[VAL_18]], [[VAL_25]], [[VAL_25]], [[VAL_25]], [[VAL_21]], [[VAL_22]], [[VAL_23]], [[VAL_24]], [[VAL_25]], [[VAL_25]], %arg1, %arg2, [[VAL_25]], [[VAL_25]], [[VAL_25]], [[VAL_25]]) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, time_major = false, diagonal_recurrent_tensors = false}> : (tensor<1x4x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, none, none, none, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, none, none, tensor<1x2xf32>, tensor<1x2xf32>, none, none, none, none) -> (tensor<1x4x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>)
// CHECK-NEXT:  [[VAL_29:%[0-9A-Za-z_]+]] = arith.constant dense<[0, -1, 0]> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_30:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_31:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_32:%[0-9A-Za-z_]+]] = "tfl.strided_slice"([[VAL_26]], [[VAL_29]], [[VAL_30]], [[VAL_31]]) <{begin_mask = 5 : i32, end_mask = 5 : i32, ellipsis_mask = 0 : i32, new_axis_mask = 0 : i32, shrink_axis_mask = 2 : i32, offset = false}> : (tensor<1x4x2xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<1x2xf32>
// CHECK-NEXT:  [[VAL_33:%[0-9A-Za-z_]+]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:  func.return [[VAL_32]], [[VAL_26]], [[VAL_27]], [[VAL_28]], [[VAL_33]] : tensor<1x2xf32>, tensor<1x4x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<f32>
