// RUN: opt-tool %s --allow-unregistered-dialect --prepare-composite-functions 2>&1 | filecheck %s

// Upstream's IndyLSTM test cases: the recurrent kernel is [units, 4], one diagonal per gate;
// after the transpose and the split its rows are reshaped to [units] vectors and the op gets
// diagonal_recurrent_tensors = true. Time-major / batch-major, forward / go_backwards.

func.func @inference_standard_indy_lstm_time_major(%arg0: tensor<8x8x8xf32>, %arg1: tensor<8x10xf32>, %arg2: tensor<8x10xf32>, %arg3: tensor<8x40xf32>, %arg4: tensor<10x4xf32>, %arg5: tensor<40xf32>) -> (tensor<8x10xf32>, tensor<8x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>) attributes {tf.api_implements = "indy_lstm_b4e9f0e7-ac55-42bc-8ef2-8496419a608c", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = true} {
  %0 = "tf.BatchMatMulV2"(%arg0, %arg3) {adj_x = false, adj_y = false} : (tensor<8x8x8xf32>, tensor<8x40xf32>) -> tensor<8x8x40xf32>
  %1 = "tf.Add"(%0, %arg5) : (tensor<8x8x40xf32>, tensor<40xf32>) -> tensor<8x8x40xf32>
  %2 = "tf.Const"() { value = dense<[1, 0]> : tensor<2xi32> } : () -> tensor<2xi32>
  %3 = "tf.Transpose"(%arg4, %2) : (tensor<10x4xf32>, tensor<2xi32>) -> tensor<4x10xf32>
  %4 = "tf.MatrixDiag"(%3) : (tensor<4x10xf32>) -> tensor<4x10x10xf32>
  %5 = "tf.Const"() { value = dense<0> : tensor<i64> } : () -> tensor<i64>
  %6 = "tf.ConcatV2"(%4, %5) : (tensor<4x10x10xf32>, tensor<i64>) -> tensor<40x10xf32>
  %7 = "tf.BatchMatMulV2"(%1, %6) {adj_x = false, adj_y = false} : (tensor<8x8x40xf32>, tensor<40x10xf32>) -> tensor<8x8x10xf32>
  %8 = "tf.Add"(%7, %arg1) : (tensor<8x8x10xf32>, tensor<8x10xf32>) -> tensor<8x8x10xf32>
  %9 = "tf.Add"(%7, %arg2) : (tensor<8x8x10xf32>, tensor<8x10xf32>) -> tensor<8x8x10xf32>
  %10 = "tf.Add"(%arg1, %arg2) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
  %11 = "tf.Const"() {_output_shapes = ["tfshape$"], device = "/device:CPU:0", dtype = f32, value = dense<1.000000e+00> : tensor<f32>} : () -> tensor<f32>
  func.return %10, %9, %10, %10, %11 : tensor<8x10xf32>, tensor<8x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>
}

func.func @inference_standard_indy_lstm_non_time_major(%arg0: tensor<8x8x8xf32>, %arg1: tensor<8x10xf32>, %arg2: tensor<8x10xf32>, %arg3: tensor<8x40xf32>, %arg4: tensor<10x4xf32>, %arg5: tensor<40xf32>) -> (tensor<8x10xf32>, tensor<8x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>) attributes {tf.api_implements = "indy_lstm_b4e9f0e7-ac55-42bc-8ef2-8496419a608c", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = false} {
  %0 = "tf.BatchMatMulV2"(%arg0, %arg3) {adj_x = false, adj_y = false} : (tensor<8x8x8xf32>, tensor<8x40xf32>) -> tensor<8x8x40xf32>
  %1 = "tf.Add"(%0, %arg5) : (tensor<8x8x40xf32>, tensor<40xf32>) -> tensor<8x8x40xf32>
  %2 = "tf.Const"() { value = dense<[1, 0]> : tensor<2xi32> } : () -> tensor<2xi32>
  %3 = "tf.Transpose"(%arg4, %2) : (tensor<10x4xf32>, tensor<2xi32>) -> tensor<4x10xf32>
  %4 = "tf.MatrixDiag"(%3) : (tensor<4x10xf32>) -> tensor<4x10x10xf32>
  %5 = "tf.Const"() { value = dense<0> : tensor<i64> } : () -> tensor<i64>
  %6 = "tf.ConcatV2"(%4, %5) : (tensor<4x10x10xf32>, tensor<i64>) -> tensor<40x10xf32>
  %7 = "tf.BatchMatMulV2"(%1, %6) {adj_x = false, adj_y = false} : (tensor<8x8x40xf32>, tensor<40x10xf32>) -> tensor<8x8x10xf32>
  %8 = "tf.Add"(%7, %arg1) : (tensor<8x8x10xf32>, tensor<8x10xf32>) -> tensor<8x8x10xf32>
  %9 = "tf.Add"(%7, %arg2) : (tensor<8x8x10xf32>, tensor<8x10xf32>) -> tensor<8x8x10xf32>
  %10 = "tf.Add"(%arg1, %arg2) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
  %11 = "tf.Const"() {_output_shapes = ["tfshape$"], device = "/device:CPU:0", dtype = f32, value = dense<1.000000e+00> : tensor<f32>} : () -> tensor<f32>
  func.return %10, %9, %10, %10, %11 : tensor<8x10xf32>, tensor<8x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>
}

func.func @inference_standard_indy_lstm_time_major_go_backwards(%arg0: tensor<8x8x8xf32>, %arg1: tensor<8x10xf32>, %arg2: tensor<8x10xf32>, %arg3: tensor<8x40xf32>, %arg4: tensor<10x4xf32>, %arg5: tensor<40xf32>) -> (tensor<8x10xf32>, tensor<8x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>) attributes {tf.api_implements = "indy_lstm_b4e9f0e7-ac55-42bc-8ef2-8496419a608c", tf.api_preferred_device = "CPU", tf.go_backwards = true, tf.time_major = true} {
  %0 = "tf.BatchMatMulV2"(%arg0, %arg3) {adj_x = false, adj_y = false} : (tensor<8x8x8xf32>, tensor<8x40xf32>) -> tensor<8x8x40xf32>
  %1 = "tf.Add"(%0, %arg5) : (tensor<8x8x40xf32>, tensor<40xf32>) -> tensor<8x8x40xf32>
  %2 = "tf.Const"() { value = dense<[1, 0]> : tensor<2xi32> } : () -> tensor<2xi32>
  %3 = "tf.Transpose"(%arg4, %2) : (tensor<10x4xf32>, tensor<2xi32>) -> tensor<4x10xf32>
  %4 = "tf.MatrixDiag"(%3) : (tensor<4x10xf32>) -> tensor<4x10x10xf32>
  %5 = "tf.Const"() { value = dense<0> : tensor<i64> } : () -> tensor<i64>
  %6 = "tf.ConcatV2"(%4, %5) : (tensor<4x10x10xf32>, tensor<i64>) -> tensor<40x10xf32>
  %7 = "tf.BatchMatMulV2"(%1, %6) {adj_x = false, adj_y = false} : (tensor<8x8x40xf32>, tensor<40x10xf32>) -> tensor<8x8x10xf32>
  %8 = "tf.Add"(%7, %arg1) : (tensor<8x8x10xf32>, tensor<8x10xf32>) -> tensor<8x8x10xf32>
  %9 = "tf.Add"(%7, %arg2) : (tensor<8x8x10xf32>, tensor<8x10xf32>) -> tensor<8x8x10xf32>
  %10 = "tf.Add"(%arg1, %arg2) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
  %11 = "tf.Const"() {_output_shapes = ["tfshape$"], device = "/device:CPU:0", dtype = f32, value = dense<1.000000e+00> : tensor<f32>} : () -> tensor<f32>
  func.return %10, %9, %10, %10, %11 : tensor<8x10xf32>, tensor<8x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>
}

func.func @inference_standard_indy_lstm_non_time_major_go_backwards(%arg0: tensor<8x8x8xf32>, %arg1: tensor<8x10xf32>, %arg2: tensor<8x10xf32>, %arg3: tensor<8x40xf32>, %arg4: tensor<10x4xf32>, %arg5: tensor<40xf32>) -> (tensor<8x10xf32>, tensor<8x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>) attributes {tf.api_implements = "indy_lstm_b4e9f0e7-ac55-42bc-8ef2-8496419a608c", tf.api_preferred_device = "CPU", tf.go_backwards = true, tf.time_major = false} {
  %0 = "tf.BatchMatMulV2"(%arg0, %arg3) {adj_x = false, adj_y = false} : (tensor<8x8x8xf32>, tensor<8x40xf32>) -> tensor<8x8x40xf32>
  %1 = "tf.Add"(%0, %arg5) : (tensor<8x8x40xf32>, tensor<40xf32>) -> tensor<8x8x40xf32>
  %2 = "tf.Const"() { value = dense<[1, 0]> : tensor<2xi32> } : () -> tensor<2xi32>
  %3 = "tf.Transpose"(%arg4, %2) : (tensor<10x4xf32>, tensor<2xi32>) -> tensor<4x10xf32>
  %4 = "tf.MatrixDiag"(%3) : (tensor<4x10xf32>) -> tensor<4x10x10xf32>
  %5 = "tf.Const"() { value = dense<0> : tensor<i64> } : () -> tensor<i64>
  %6 = "tf.ConcatV2"(%4, %5) : (tensor<4x10x10xf32>, tensor<i64>) -> tensor<40x10xf32>
  %7 = "tf.BatchMatMulV2"(%1, %6) {adj_x = false, adj_y = false} : (tensor<8x8x40xf32>, tensor<40x10xf32>) -> tensor<8x8x10xf32>
  %8 = "tf.Add"(%7, %arg1) : (tensor<8x8x10xf32>, tensor<8x10xf32>) -> tensor<8x8x10xf32>
  %9 = "tf.Add"(%7, %arg2) : (tensor<8x8x10xf32>, tensor<8x10xf32>) -> tensor<8x8x10xf32>
  %10 = "tf.Add"(%arg1, %arg2) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
  %11 = "tf.Const"() {_output_shapes = ["tfshape$"], device = "/device:CPU:0", dtype = f32, value = dense<1.000000e+00> : tensor<f32>} : () -> tensor<f32>
  func.return %10, %9, %10, %10, %11 : tensor<8x10xf32>, tensor<8x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>
}

// CHECK-NOT: warning:

// CHECK-LABEL: func.func @inference_standard_indy_lstm_time_major(
// CHECK-SAME:  %arg0: tensor<8x8x8xf32>, %arg1: tensor<8x10xf32>, %arg2: tensor<8x10xf32>, %arg3: tensor<8x40xf32>, %arg4: tensor<10x4xf32>, %arg5: tensor<40xf32>) -> (tensor<8x10xf32>, tensor<8x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>) attributes {tf.api_implements = "indy_lstm_b4e9f0e7-ac55-42bc-8ef2-8496419a608c", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = true} {
// CHECK-NEXT:  [[VAL_1:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_2:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg3, [[VAL_1]]) : (tensor<8x40xf32>, tensor<2xi32>) -> tensor<40x8xf32>
// CHECK-NEXT:  [[VAL_3:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_4:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg4, [[VAL_3]]) : (tensor<10x4xf32>, tensor<2xi32>) -> tensor<4x10xf32>
// CHECK-NEXT:  [[VAL_5:%[0-9A-Za-z_]+]] = arith.constant dense<10> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_6:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_7:%[0-9A-Za-z_]+]], [[VAL_8:%[0-9A-Za-z_]+]], [[VAL_9:%[0-9A-Za-z_]+]], [[VAL_10:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_2]], [[VAL_5]], [[VAL_6]]) <{num_splits = 4 : i32}> : (tensor<40x8xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<10x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>)
// CHECK-NEXT:  [[VAL_11:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_12:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_13:%[0-9A-Za-z_]+]], [[VAL_14:%[0-9A-Za-z_]+]], [[VAL_15:%[0-9A-Za-z_]+]], [[VAL_16:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_4]], [[VAL_11]], [[VAL_12]]) <{num_splits = 4 : i32}> : (tensor<4x10xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<1x10xf32>, tensor<1x10xf32>, tensor<1x10xf32>, tensor<1x10xf32>)
// CHECK-NEXT:  [[VAL_17:%[0-9A-Za-z_]+]] = arith.constant dense<-1> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_18:%[0-9A-Za-z_]+]] = "tfl.reshape"([[VAL_13]], [[VAL_17]]) : (tensor<1x10xf32>, tensor<1xi32>) -> tensor<10xf32>
// CHECK-NEXT:  [[VAL_19:%[0-9A-Za-z_]+]] = arith.constant dense<-1> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_20:%[0-9A-Za-z_]+]] = "tfl.reshape"([[VAL_14]], [[VAL_19]]) : (tensor<1x10xf32>, tensor<1xi32>) -> tensor<10xf32>
// CHECK-NEXT:  [[VAL_21:%[0-9A-Za-z_]+]] = arith.constant dense<-1> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_22:%[0-9A-Za-z_]+]] = "tfl.reshape"([[VAL_15]], [[VAL_21]]) : (tensor<1x10xf32>, tensor<1xi32>) -> tensor<10xf32>
// CHECK-NEXT:  [[VAL_23:%[0-9A-Za-z_]+]] = arith.constant dense<-1> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_24:%[0-9A-Za-z_]+]] = "tfl.reshape"([[VAL_16]], [[VAL_23]]) : (tensor<1x10xf32>, tensor<1xi32>) -> tensor<10xf32>
// CHECK-NEXT:  [[VAL_25:%[0-9A-Za-z_]+]] = arith.constant dense<10> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_26:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_27:%[0-9A-Za-z_]+]], [[VAL_28:%[0-9A-Za-z_]+]], [[VAL_29:%[0-9A-Za-z_]+]], [[VAL_30:%[0-9A-Za-z_]+]] = "tfl.split_v"(%arg5, [[VAL_25]], [[VAL_26]]) <{num_splits = 4 : i32}> : (tensor<40xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>)
// CHECK-NEXT:  [[VAL_31:%[0-9A-Za-z_]+]] = "tfl.no_value"() <{value}> : () -> none
// CHECK-NEXT:  [[VAL_32:%[0-9A-Za-z_]+]], [[VAL_33:%[0-9A-Za-z_]+]], [[VAL_34:%[0-9A-Za-z_]+]] = "tfl.unidirectional_sequence_lstm"(%arg0, [[VAL_7]], [[VAL_8]], [[VAL_9]], [[VAL_10]], [[VAL_18]], [[VAL_20]], [[VAL_22]], [[VAL_24]], [[VAL_31]], [[VAL_31]], [[VAL_31]], [[VAL_27]], [[VAL_28]], [[VAL_29]], [[VAL_30]], [[VAL_31]], [[VAL_31]], %arg1, %arg2, [[VAL_31]], [[VAL_31]], [[VAL_31]], [[VAL_31]]) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, time_major = true, diagonal_recurrent_tensors = true}> : (tensor<8x8x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, none, none, none, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, none, none, tensor<8x10xf32>, tensor<8x10xf32>, none, none, none, none) -> (tensor<8x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>)
// CHECK-NEXT:  [[VAL_35:%[0-9A-Za-z_]+]] = arith.constant dense<[-1, 0, 0]> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_36:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_37:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_38:%[0-9A-Za-z_]+]] = "tfl.strided_slice"([[VAL_32]], [[VAL_35]], [[VAL_36]], [[VAL_37]]) <{begin_mask = 6 : i32, end_mask = 6 : i32, ellipsis_mask = 0 : i32, new_axis_mask = 0 : i32, shrink_axis_mask = 1 : i32, offset = false}> : (tensor<8x8x10xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<8x10xf32>
// CHECK-NEXT:  [[VAL_39:%[0-9A-Za-z_]+]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:  func.return [[VAL_38]], [[VAL_32]], [[VAL_33]], [[VAL_34]], [[VAL_39]] : tensor<8x10xf32>, tensor<8x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>
// CHECK-LABEL: func.func @inference_standard_indy_lstm_non_time_major(
// CHECK-SAME:  %arg0: tensor<8x8x8xf32>, %arg1: tensor<8x10xf32>, %arg2: tensor<8x10xf32>, %arg3: tensor<8x40xf32>, %arg4: tensor<10x4xf32>, %arg5: tensor<40xf32>) -> (tensor<8x10xf32>, tensor<8x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>) attributes {tf.api_implements = "indy_lstm_b4e9f0e7-ac55-42bc-8ef2-8496419a608c", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = false} {
// CHECK-NEXT:  [[VAL_1:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_2:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg3, [[VAL_1]]) : (tensor<8x40xf32>, tensor<2xi32>) -> tensor<40x8xf32>
// CHECK-NEXT:  [[VAL_3:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_4:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg4, [[VAL_3]]) : (tensor<10x4xf32>, tensor<2xi32>) -> tensor<4x10xf32>
// CHECK-NEXT:  [[VAL_5:%[0-9A-Za-z_]+]] = arith.constant dense<10> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_6:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_7:%[0-9A-Za-z_]+]], [[VAL_8:%[0-9A-Za-z_]+]], [[VAL_9:%[0-9A-Za-z_]+]], [[VAL_10:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_2]], [[VAL_5]], [[VAL_6]]) <{num_splits = 4 : i32}> : (tensor<40x8xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<10x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>)
// CHECK-NEXT:  [[VAL_11:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_12:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_13:%[0-9A-Za-z_]+]], [[VAL_14:%[0-9A-Za-z_]+]], [[VAL_15:%[0-9A-Za-z_]+]], [[VAL_16:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_4]], [[VAL_11]], [[VAL_12]]) <{num_splits = 4 : i32}> : (tensor<4x10xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<1x10xf32>, tensor<1x10xf32>, tensor<1x10xf32>, tensor<1x10xf32>)
// CHECK-NEXT:  [[VAL_17:%[0-9A-Za-z_]+]] = arith.constant dense<-1> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_18:%[0-9A-Za-z_]+]] = "tfl.reshape"([[VAL_13]], [[VAL_17]]) : (tensor<1x10xf32>, tensor<1xi32>) -> tensor<10xf32>
// CHECK-NEXT:  [[VAL_19:%[0-9A-Za-z_]+]] = arith.constant dense<-1> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_20:%[0-9A-Za-z_]+]] = "tfl.reshape"([[VAL_14]], [[VAL_19]]) : (tensor<1x10xf32>, tensor<1xi32>) -> tensor<10xf32>
// CHECK-NEXT:  [[VAL_21:%[0-9A-Za-z_]+]] = arith.constant dense<-1> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_22:%[0-9A-Za-z_]+]] = "tfl.reshape"([[VAL_15]], [[VAL_21]]) : (tensor<1x10xf32>, tensor<1xi32>) -> tensor<10xf32>
// CHECK-NEXT:  [[VAL_23:%[0-9A-Za-z_]+]] = arith.constant dense<-1> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_24:%[0-9A-Za-z_]+]] = "tfl.reshape"([[VAL_16]], [[VAL_23]]) : (tensor<1x10xf32>, tensor<1xi32>) -> tensor<10xf32>
// CHECK-NEXT:  [[VAL_25:%[0-9A-Za-z_]+]] = arith.constant dense<10> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_26:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_27:%[0-9A-Za-z_]+]], [[VAL_28:%[0-9A-Za-z_]+]], [[VAL_29:%[0-9A-Za-z_]+]], [[VAL_30:%[0-9A-Za-z_]+]] = "tfl.split_v"(%arg5, [[VAL_25]], [[VAL_26]]) <{num_splits = 4 : i32}> : (tensor<40xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>)
// CHECK-NEXT:  [[VAL_31:%[0-9A-Za-z_]+]] = "tfl.no_value"() <{value}> : () -> none
// CHECK-NEXT:  [[VAL_32:%[0-9A-Za-z_]+]], [[VAL_33:%[0-9A-Za-z_]+]], [[VAL_34:%[0-9A-Za-z_]+]] = "tfl.unidirectional_sequence_lstm"(%arg0, [[VAL_7]], [[VAL_8]], [[VAL_9]], [[VAL_10]], [[VAL_18]], [[VAL_20]], [[VAL_22]], [[VAL_24]], [[VAL_31]], [[VAL_31]], [[VAL_31]], [[VAL_27]], [[VAL_28]], [[VAL_29]], [[VAL_30]], [[VAL_31]], [[VAL_31]], %arg1, %arg2, [[VAL_31]], [[VAL_31]], [[VAL_31]], [[VAL_31]]) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, time_major = false, diagonal_recurrent_tensors = true}> : (tensor<8x8x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, none, none, none, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, none, none, tensor<8x10xf32>, tensor<8x10xf32>, none, none, none, none) -> (tensor<8x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>)
// CHECK-NEXT:  [[VAL_35:%[0-9A-Za-z_]+]] = arith.constant dense<[0, -1, 0]> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_36:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_37:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_38:%[0-9A-Za-z_]+]] = "tfl.strided_slice"([[VAL_32]], [[VAL_35]], [[VAL_36]], [[VAL_37]]) <{begin_mask = 5 : i32, end_mask = 5 : i32, ellipsis_mask = 0 : i32, new_axis_mask = 0 : i32, shrink_axis_mask = 2 : i32, offset = false}> : (tensor<8x8x10xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<8x10xf32>
// CHECK-NEXT:  [[VAL_39:%[0-9A-Za-z_]+]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:  func.return [[VAL_38]], [[VAL_32]], [[VAL_33]], [[VAL_34]], [[VAL_39]] : tensor<8x10xf32>, tensor<8x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>
// CHECK-LABEL: func.func @inference_standard_indy_lstm_time_major_go_backwards(
// CHECK-SAME:  %arg0: tensor<8x8x8xf32>, %arg1: tensor<8x10xf32>, %arg2: tensor<8x10xf32>, %arg3: tensor<8x40xf32>, %arg4: tensor<10x4xf32>, %arg5: tensor<40xf32>) -> (tensor<8x10xf32>, tensor<8x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>) attributes {tf.api_implements = "indy_lstm_b4e9f0e7-ac55-42bc-8ef2-8496419a608c", tf.api_preferred_device = "CPU", tf.go_backwards = true, tf.time_major = true} {
// CHECK-NEXT:  [[VAL_1:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_2:%[0-9A-Za-z_]+]] = "tfl.reverse_v2"(%arg0, [[VAL_1]]) : (tensor<8x8x8xf32>, tensor<1xi32>) -> tensor<8x8x8xf32>
// CHECK-NEXT:  [[VAL_3:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_4:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg3, [[VAL_3]]) : (tensor<8x40xf32>, tensor<2xi32>) -> tensor<40x8xf32>
// CHECK-NEXT:  [[VAL_5:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_6:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg4, [[VAL_5]]) : (tensor<10x4xf32>, tensor<2xi32>) -> tensor<4x10xf32>
// CHECK-NEXT:  [[VAL_7:%[0-9A-Za-z_]+]] = arith.constant dense<10> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_8:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_9:%[0-9A-Za-z_]+]], [[VAL_10:%[0-9A-Za-z_]+]], [[VAL_11:%[0-9A-Za-z_]+]], [[VAL_12:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_4]], [[VAL_7]], [[VAL_8]]) <{num_splits = 4 : i32}> : (tensor<40x8xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<10x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>)
// CHECK-NEXT:  [[VAL_13:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_14:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_15:%[0-9A-Za-z_]+]], [[VAL_16:%[0-9A-Za-z_]+]], [[VAL_17:%[0-9A-Za-z_]+]], [[VAL_18:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_6]], [[VAL_13]], [[VAL_14]]) <{num_splits = 4 : i32}> : (tensor<4x10xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<1x10xf32>, tensor<1x10xf32>, tensor<1x10xf32>, tensor<1x10xf32>)
// CHECK-NEXT:  [[VAL_19:%[0-9A-Za-z_]+]] = arith.constant dense<-1> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_20:%[0-9A-Za-z_]+]] = "tfl.reshape"([[VAL_15]], [[VAL_19]]) : (tensor<1x10xf32>, tensor<1xi32>) -> tensor<10xf32>
// CHECK-NEXT:  [[VAL_21:%[0-9A-Za-z_]+]] = arith.constant dense<-1> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_22:%[0-9A-Za-z_]+]] = "tfl.reshape"([[VAL_16]], [[VAL_21]]) : (tensor<1x10xf32>, tensor<1xi32>) -> tensor<10xf32>
// CHECK-NEXT:  [[VAL_23:%[0-9A-Za-z_]+]] = arith.constant dense<-1> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_24:%[0-9A-Za-z_]+]] = "tfl.reshape"([[VAL_17]], [[VAL_23]]) : (tensor<1x10xf32>, tensor<1xi32>) -> tensor<10xf32>
// CHECK-NEXT:  [[VAL_25:%[0-9A-Za-z_]+]] = arith.constant dense<-1> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_26:%[0-9A-Za-z_]+]] = "tfl.reshape"([[VAL_18]], [[VAL_25]]) : (tensor<1x10xf32>, tensor<1xi32>) -> tensor<10xf32>
// CHECK-NEXT:  [[VAL_27:%[0-9A-Za-z_]+]] = arith.constant dense<10> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_28:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_29:%[0-9A-Za-z_]+]], [[VAL_30:%[0-9A-Za-z_]+]], [[VAL_31:%[0-9A-Za-z_]+]], [[VAL_32:%[0-9A-Za-z_]+]] = "tfl.split_v"(%arg5, [[VAL_27]], [[VAL_28]]) <{num_splits = 4 : i32}> : (tensor<40xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>)
// CHECK-NEXT:  [[VAL_33:%[0-9A-Za-z_]+]] = "tfl.no_value"() <{value}> : () -> none
// CHECK-NEXT:  [[VAL_34:%[0-9A-Za-z_]+]], [[VAL_35:%[0-9A-Za-z_]+]], [[VAL_36:%[0-9A-Za-z_]+]] = "tfl.unidirectional_sequence_lstm"([[VAL_2]], [[VAL_9]], [[VAL_10]], [[VAL_11]], [[VAL_12]], [[VAL_20]], [[VAL_22]], [[VAL_24]], [[VAL_26]], [[VAL_33]], [[VAL_33]], [[VAL_33]], [[VAL_29]], [[VAL_30]], [[VAL_31]], [[VAL_32]], [[VAL_33]], [[VAL_33]], %arg1, %arg2, [[VAL_33]], [[VAL_33]], [[VAL_33]], [[VAL_33]]) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, time_major = true, diagonal_recurrent_tensors = true}> : (tensor<8x8x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, none, none, none, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, none, none, tensor<8x10xf32>, tensor<8x10xf32>, none, none, none, none) -> (tensor<8x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>)
// CHECK-NEXT:  [[VAL_37:%[0-9A-Za-z_]+]] = arith.constant dense<[-1, 0, 0]> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_38:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_39:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_40:%[0-9A-Za-z_]+]] = "tfl.strided_slice"([[VAL_34]], [[VAL_37]], [[VAL_38]], [[VAL_39]]) <{begin_mask = 6 : i32, end_mask = 6 : i32, ellipsis_mask = 0 : i32, new_axis_mask = 0 : i32, shrink_axis_mask = 1 : i32, offset = false}> : (tensor<8x8x10xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<8x10xf32>
// CHECK-NEXT:  [[VAL_41:%[0-9A-Za-z_]+]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:  func.return [[VAL_40]], [[VAL_34]], [[VAL_35]], [[VAL_36]], [[VAL_41]] : tensor<8x10xf32>, tensor<8x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>
// CHECK-LABEL: func.func @inference_standard_indy_lstm_non_time_major_go_backwards(
// CHECK-SAME:  %arg0: tensor<8x8x8xf32>, %arg1: tensor<8x10xf32>, %arg2: tensor<8x10xf32>, %arg3: tensor<8x40xf32>, %arg4: tensor<10x4xf32>, %arg5: tensor<40xf32>) -> (tensor<8x10xf32>, tensor<8x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>) attributes {tf.api_implements = "indy_lstm_b4e9f0e7-ac55-42bc-8ef2-8496419a608c", tf.api_preferred_device = "CPU", tf.go_backwards = true, tf.time_major = false} {
// CHECK-NEXT:  [[VAL_1:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_2:%[0-9A-Za-z_]+]] = "tfl.reverse_v2"(%arg0, [[VAL_1]]) : (tensor<8x8x8xf32>, tensor<1xi32>) -> tensor<8x8x8xf32>
// CHECK-NEXT:  [[VAL_3:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_4:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg3, [[VAL_3]]) : (tensor<8x40xf32>, tensor<2xi32>) -> tensor<40x8xf32>
// CHECK-NEXT:  [[VAL_5:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_6:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg4, [[VAL_5]]) : (tensor<10x4xf32>, tensor<2xi32>) -> tensor<4x10xf32>
// CHECK-NEXT:  [[VAL_7:%[0-9A-Za-z_]+]] = arith.constant dense<10> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_8:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_9:%[0-9A-Za-z_]+]], [[VAL_10:%[0-9A-Za-z_]+]], [[VAL_11:%[0-9A-Za-z_]+]], [[VAL_12:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_4]], [[VAL_7]], [[VAL_8]]) <{num_splits = 4 : i32}> : (tensor<40x8xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<10x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>)
// CHECK-NEXT:  [[VAL_13:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_14:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_15:%[0-9A-Za-z_]+]], [[VAL_16:%[0-9A-Za-z_]+]], [[VAL_17:%[0-9A-Za-z_]+]], [[VAL_18:%[0-9A-Za-z_]+]] = "tfl.split_v"([[VAL_6]], [[VAL_13]], [[VAL_14]]) <{num_splits = 4 : i32}> : (tensor<4x10xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<1x10xf32>, tensor<1x10xf32>, tensor<1x10xf32>, tensor<1x10xf32>)
// CHECK-NEXT:  [[VAL_19:%[0-9A-Za-z_]+]] = arith.constant dense<-1> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_20:%[0-9A-Za-z_]+]] = "tfl.reshape"([[VAL_15]], [[VAL_19]]) : (tensor<1x10xf32>, tensor<1xi32>) -> tensor<10xf32>
// CHECK-NEXT:  [[VAL_21:%[0-9A-Za-z_]+]] = arith.constant dense<-1> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_22:%[0-9A-Za-z_]+]] = "tfl.reshape"([[VAL_16]], [[VAL_21]]) : (tensor<1x10xf32>, tensor<1xi32>) -> tensor<10xf32>
// CHECK-NEXT:  [[VAL_23:%[0-9A-Za-z_]+]] = arith.constant dense<-1> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_24:%[0-9A-Za-z_]+]] = "tfl.reshape"([[VAL_17]], [[VAL_23]]) : (tensor<1x10xf32>, tensor<1xi32>) -> tensor<10xf32>
// CHECK-NEXT:  [[VAL_25:%[0-9A-Za-z_]+]] = arith.constant dense<-1> : tensor<1xi32>
// CHECK-NEXT:  [[VAL_26:%[0-9A-Za-z_]+]] = "tfl.reshape"([[VAL_18]], [[VAL_25]]) : (tensor<1x10xf32>, tensor<1xi32>) -> tensor<10xf32>
// CHECK-NEXT:  [[VAL_27:%[0-9A-Za-z_]+]] = arith.constant dense<10> : tensor<4xi32>
// CHECK-NEXT:  [[VAL_28:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<i32>
// CHECK-NEXT:  [[VAL_29:%[0-9A-Za-z_]+]], [[VAL_30:%[0-9A-Za-z_]+]], [[VAL_31:%[0-9A-Za-z_]+]], [[VAL_32:%[0-9A-Za-z_]+]] = "tfl.split_v"(%arg5, [[VAL_27]], [[VAL_28]]) <{num_splits = 4 : i32}> : (tensor<40xf32>, tensor<4xi32>, tensor<i32>) -> (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>)
// CHECK-NEXT:  [[VAL_33:%[0-9A-Za-z_]+]] = "tfl.no_value"() <{value}> : () -> none
// CHECK-NEXT:  [[VAL_34:%[0-9A-Za-z_]+]], [[VAL_35:%[0-9A-Za-z_]+]], [[VAL_36:%[0-9A-Za-z_]+]] = "tfl.unidirectional_sequence_lstm"([[VAL_2]], [[VAL_9]], [[VAL_10]], [[VAL_11]], [[VAL_12]], [[VAL_20]], [[VAL_22]], [[VAL_24]], [[VAL_26]], [[VAL_33]], [[VAL_33]], [[VAL_33]], [[VAL_29]], [[VAL_30]], [[VAL_31]], [[VAL_32]], [[VAL_33]], [[VAL_33]], %arg1, %arg2, [[VAL_33]], [[VAL_33]], [[VAL_33]], [[VAL_33]]) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, time_major = false, diagonal_recurrent_tensors = true}> : (tensor<8x8x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>, tensor<10x8xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, none, none, none, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, none, none, tensor<8x10xf32>, tensor<8x10xf32>, none, none, none, none) -> (tensor<8x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>)
// CHECK-NEXT:  [[VAL_37:%[0-9A-Za-z_]+]] = arith.constant dense<[0, -1, 0]> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_38:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_39:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<3xi32>
// CHECK-NEXT:  [[VAL_40:%[0-9A-Za-z_]+]] = "tfl.strided_slice"([[VAL_34]], [[VAL_37]], [[VAL_38]], [[VAL_39]]) <{begin_mask = 5 : i32, end_mask = 5 : i32, ellipsis_mask = 0 : i32, new_axis_mask = 0 : i32, shrink_axis_mask = 2 : i32, offset = false}> : (tensor<8x8x10xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<8x10xf32>
// CHECK-NEXT:  [[VAL_41:%[0-9A-Za-z_]+]] = arith.constant dense<1.000000e+00> : tensor<f32>
// CHECK-NEXT:  func.return [[VAL_40]], [[VAL_34]], [[VAL_35]], [[VAL_36]], [[VAL_41]] : tensor<8x10xf32>, tensor<8x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>
