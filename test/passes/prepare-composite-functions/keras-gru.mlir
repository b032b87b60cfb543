// RUN: opt-tool %s --allow-unregistered-dialect --prepare-composite-functions 2>&1 | filecheck %s

// Keras GRU composite functions (lowpass; TensorFlow Lite has no GRU fusion): Keras'
// standard_gru(inputs, init_h, kernel, recurrent_kernel, bias) -> (last_output, outputs,
// new_h, runtime), tf.api_implements = "gru_<uuid>". Kernel [n_input, 3 * units] and recurrent
// kernel [units, 3 * units] are transposed and split into the z, r, h gates; the
// [2, 3 * units] bias (input row, recurrent row) is flattened and split into six [units] blocks.
// Keras' GRU runs this function only with reset_after = true.

func.func @gru_time_major(%arg0: tensor<5x8x6xf32>, %arg1: tensor<8x10xf32>, %arg2: tensor<6x30xf32>, %arg3: tensor<10x30xf32>, %arg4: tensor<2x30xf32>) -> (tensor<8x10xf32>, tensor<5x8x10xf32>, tensor<8x10xf32>, tensor<f32>) attributes {tf.api_implements = "gru_4d9a3a39-7bd6-4e8e-b5ba-d3c5c9b2a1f0", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = true} {
  %0 = "tf.BatchMatMulV2"(%arg0, %arg2) {adj_x = false, adj_y = false} : (tensor<5x8x6xf32>, tensor<6x30xf32>) -> tensor<5x8x30xf32>
  %1 = "tf.Unpack"(%arg4) {axis = 0 : i64} : (tensor<2x30xf32>) -> tensor<30xf32>
  %2 = "tf.While"(%0, %arg1, %arg3, %1) {body = @gru_body, cond = @gru_cond} : (tensor<5x8x30xf32>, tensor<8x10xf32>, tensor<10x30xf32>, tensor<30xf32>) -> tensor<5x8x10xf32>
  %3 = "tf.Const"() {value = dense<1.000000e+00> : tensor<f32>} : () -> tensor<f32>
  func.return %arg1, %2, %arg1, %3 : tensor<8x10xf32>, tensor<5x8x10xf32>, tensor<8x10xf32>, tensor<f32>
}

// Batch-major, go_backwards (input reversed along axis 1), dynamic time.
func.func @gru_batch_major_go_backwards(%arg0: tensor<8x?x6xf32>, %arg1: tensor<8x10xf32>, %arg2: tensor<6x30xf32>, %arg3: tensor<10x30xf32>, %arg4: tensor<2x30xf32>) -> (tensor<8x10xf32>, tensor<8x?x10xf32>, tensor<8x10xf32>, tensor<f32>) attributes {tf.api_implements = "gru_4d9a3a39-7bd6-4e8e-b5ba-d3c5c9b2a1f0", tf.go_backwards = true, tf.time_major = false} {
  %0:4 = "tf.GruBody"(%arg0, %arg1, %arg2, %arg3, %arg4) : (tensor<8x?x6xf32>, tensor<8x10xf32>, tensor<6x30xf32>, tensor<10x30xf32>, tensor<2x30xf32>) -> (tensor<8x10xf32>, tensor<8x?x10xf32>, tensor<8x10xf32>, tensor<f32>)
  func.return %0#0, %0#1, %0#2, %0#3 : tensor<8x10xf32>, tensor<8x?x10xf32>, tensor<8x10xf32>, tensor<f32>
}

// CHECK-NOT: warning:

// CHECK-LABEL: func.func @gru_time_major(
// CHECK-SAME:  %arg0: tensor<5x8x6xf32>, %arg1: tensor<8x10xf32>, %arg2: tensor<6x30xf32>, %arg3: tensor<10x30xf32>, %arg4: tensor<2x30xf32>) -> (tensor<8x10xf32>, tensor<5x8x10xf32>, tensor<8x10xf32>, tensor<f32>) attributes {tf.api_implements = "gru_4d9a3a39-7bd6-4e8e-b5ba-d3c5c9b2a1f0", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = true} {
// CHECK-NEXT:  [[VAL_1:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_2:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg2, [[VAL_1]]) : (tensor<6x30xf32>, tensor<2xi32>) -> tensor<30x6xf32>
// CHECK-NEXT:  [[VAL_3:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_4:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg3, [[VAL_3]]) : (tensor<10x30xf32>, tensor<2xi32>) -> tensor<30x10xf32>
// CHECK-NEXT:  [[VAL_5:%[0-9A-Za-z_]+]] = arith.constant dense<10> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_6:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_7:%[0-9A-Za-z_]+]], [[VAL_8:%[0-9A-Za-z_]+]], [[VAL_9:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_2]], [[VAL_5]], [[VAL_6]]) <{num_splits = 3 : i32}> : (tensor<30x6xf32>, tensor<3xi32>, tensor<i32>) -> (tensor<10x6xf32>, tensor<10x6xf32>, tensor<10x6xf32>)
// CHECK-NEXT:  [[VAL_10:%[0-9A-Za-z_]+]] = arith.constant dense<10> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_11:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_12:%[0-9A-Za-z_]+]], [[VAL_13:%[0-9A-Za-z_]+]], [[VAL_14:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_4]], [[VAL_10]], [[VAL_11]]) <{num_splits = 3 : i32}> : (tensor<30x10xf32>, tensor<3xi32>, tensor<i32>) -> (tensor<10x10xf32>, tensor<10x10xf32>, tensor<10x10xf32>)
// CHECK-NEXT:  [[VAL_15:%[0-9A-Za-z_]+]] = arith.constant dense<60> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_16:%[0-9A-Za-z_]+]] = "tfl.reshape"(%arg4, [[VAL_15]]) : (tensor<2x30xf32>, tensor<1xi32>) -> tensor<60xf32>
// CHECK-NEXT:  [[VAL_17:%[0-9A-Za-z_]+]] = arith.constant dense<10> : tensor<6xi32>
// CHECK-NEXT:  [[VAL_18:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_19:%[0-9A-Za-z_]+]], [[VAL_20:%[0-9A-Za-z_]+]], [[VAL_21:%[0-9A-Za-z_]+]], [[VAL_22:%[0-9A-Za-z_]+]], [[VAL_23:%[0-9A-Za-z_]+]], [[VAL_24:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_16]], [[VAL_17]], [[VAL_18]]) <{num_splits = 6 : i32}> : (tensor<60xf32>, tensor<6xi32>, tensor<i32>) -> (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>)
// CHECK-NEXT:  [[VAL_25:%[0-9A-Za-z_]+]], [[VAL_26:%[0-9A-Za-z_]+]] = "tfl.unidirectional_sequence_gru"(%arg0, [[VAL_7]], [[VAL_8]], [[VAL_9]], [[VAL_12]], [[VAL_13]], [[VAL_14]], [[VAL_19]], [[VAL_20]], [[VAL_21]], [[VAL_22]], [[VAL_23]], [[VAL_24]], %arg1) <{time_major = true, reset_after = true, fused_activation_function = "TANH"}> : (tensor<5x8x6xf32>, tensor<10x6xf32>, tensor<10x6xf32>, tensor<10x6xf32>, tensor<10x10xf32>, tensor<10x10xf32>, tensor<10x10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<8x10xf32>) -> (tensor<5x8x10xf32>, tensor<8x10xf32>)
// CHECK-NEXT:  [[VAL_27:%[0-9A-Za-z_]+]] = arith.constant dense<[-1, 0, 0]> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_28:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_29:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_30:%[0-9A-Za-z_]+]] = "tfl.strided_slice"([[VAL_25]], [[VAL_27]], [[VAL_28]], [[VAL_29]]) <{begin_mask = 6 : i32, end_mask = 6 : i32, ellipsis_mask = 0 : i32, new_axis_mask = 0 : i32, shrink_axis_mask = 1 : i32, offset = false}> : (tensor<5x8x10xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<8x10xf32>
// CHECK-NEXT:  [[VAL_31:%[0-9A-Za-z_]+]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:  func.return [[VAL_30]], [[VAL_25]], [[VAL_26]], [[VAL_31]] : tensor<8x10xf32>, tensor<5x8x10xf32>, tensor<8x10xf32>, tensor<f32>
// CHECK-LABEL: func.func @gru_batch_major_go_backwards(
// CHECK-SAME:  %arg0: tensor<8x?x6xf32>, %arg1: tensor<8x10xf32>, %arg2: tensor<6x30xf32>, %arg3: tensor<10x30xf32>, %arg4: tensor<2x30xf32>) -> (tensor<8x10xf32>, tensor<8x?x10xf32>, tensor<8x10xf32>, tensor<f32>) attributes {tf.api_implements = "gru_4d9a3a39-7bd6-4e8e-b5ba-d3c5c9b2a1f0", tf.go_backwards = true, tf.time_major = false} {
// CHECK-NEXT:  [[VAL_1:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_2:%[0-9A-Za-z_]+]] = "tfl.reverse_v2"(%arg0, [[VAL_1]]) : (tensor<8x?x6xf32>, tensor<1xi32>) -> tensor<8x?x6xf32>
// CHECK-NEXT:  [[VAL_3:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_4:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg2, [[VAL_3]]) : (tensor<6x30xf32>, tensor<2xi32>) -> tensor<30x6xf32>
// CHECK-NEXT:  [[VAL_5:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_6:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg3, [[VAL_5]]) : (tensor<10x30xf32>, tensor<2xi32>) -> tensor<30x10xf32>
// CHECK-NEXT:  [[VAL_7:%[0-9A-Za-z_]+]] = arith.constant dense<10> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_8:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_9:%[0-9A-Za-z_]+]], [[VAL_10:%[0-9A-Za-z_]+]], [[VAL_11:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_4]], [[VAL_7]], [[VAL_8]]) <{num_splits = 3 : i32}> : (tensor<30x6xf32>, tensor<3xi32>, tensor<i32>) -> (tensor<10x6xf32>, tensor<10x6xf32>, tensor<10x6xf32>)
// CHECK-NEXT:  [[VAL_12:%[0-9A-Za-z_]+]] = arith.constant dense<10> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_13:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_14:%[0-9A-Za-z_]+]], [[VAL_15:%[0-9A-Za-z_]+]], [[VAL_16:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_6]], [[VAL_12]], [[VAL_13]]) <{num_splits = 3 : i32}> : (tensor<30x10xf32>, tensor<3xi32>, tensor<i32>) -> (tensor<10x10xf32>, tensor<10x10xf32>, tensor<10x10xf32>)
// CHECK-NEXT:  [[VAL_17:%[0-9A-Za-z_]+]] = arith.constant dense<60> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_18:%[0-9A-Za-z_]+]] = "tfl.reshape"(%arg4, [[VAL_17]]) : (tensor<2x30xf32>, tensor<1xi32>) -> tensor<60xf32>
// CHECK-NEXT:  [[VAL_19:%[0-9A-Za-z_]+]] = arith.constant dense<10> : tensor<6xi32>
// CHECK-NEXT:  [[VAL_20:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_21:%[0-9A-Za-z_]+]], [[VAL_22:%[0-9A-Za-z_]+]], [[VAL_23:%[0-9A-Za-z_]+]], [[VAL_24:%[0-9A-Za-z_]+]], [[VAL_25:%[0-9A-Za-z_]+]], [[VAL_26:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_18]], [[VAL_19]], [[VAL_20]]) <{num_splits = 6 : i32}> : (tensor<60xf32>, tensor<6xi32>, tensor<i32>) -> (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>)
// CHECK-NEXT:  [[VAL_27:%[0-9A-Za-z_]+]], [[VAL_28:%[0-9A-Za-z_]+]] = "tfl.unidirectional_sequence_gru"([[VAL_2]], [[VAL_9]], [[VAL_10]], [[VAL_11]], [[VAL_14]], [[VAL_15]], [[VAL_16]], [[VAL_21]], [[VAL_22]], [[VAL_23]], [[VAL_24]], [[VAL_25]], [[VAL_26]], %arg1) <{time_major = false, reset_after = true, fused_activation_function = "TANH"}> : (tensor<8x?x6xf32>, tensor<10x6xf32>, tensor<10x6xf32>, tensor<10x6xf32>, tensor<10x10xf32>, tensor<10x10xf32>, tensor<10x10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<8x10xf32>) -> (tensor<8x?x10xf32>, tensor<8x10xf32>)
// CHECK-NEXT:  [[VAL_29:%[0-9A-Za-z_]+]] = arith.constant dense<[0, -1, 0]> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_30:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_31:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_32:%[0-9A-Za-z_]+]] = "tfl.strided_slice"([[VAL_27]], [[VAL_29]], [[VAL_30]], [[VAL_31]]) <{begin_mask = 5 : i32, end_mask = 5 : i32, ellipsis_mask = 0 : i32, new_axis_mask = 0 : i32, shrink_axis_mask = 2 : i32, offset = false}> : (tensor<8x?x10xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<8x10xf32>
// CHECK-NEXT:  [[VAL_33:%[0-9A-Za-z_]+]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:  func.return [[VAL_32]], [[VAL_27]], [[VAL_28]], [[VAL_33]] : tensor<8x10xf32>, tensor<8x?x10xf32>, tensor<8x10xf32>, tensor<f32>
