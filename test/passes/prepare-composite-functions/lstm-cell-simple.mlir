// RUN: opt-tool %s --allow-unregistered-dialect --prepare-composite-functions 2>&1 | filecheck %s
// RUN: opt-tool %s --allow-unregistered-dialect --prepare-composite-functions='fuse-cifg=true' 2>&1 | filecheck %s --check-prefix=CIFG

// Upstream's test case (prepare-composite-functions-tf.mlir, @lstmcellsimple): weight 3x4 and
// projection 1x3 give n_cell = 1, n_output = 3, n_input = 3 - 3 = 0 (the input weights are
// 1x0 slices); the bias has 2 values for 4 gates of 1, so the forget and output gate biases
// are zero vectors (TensorFlow Lite's slice-overflow rule). Extra arguments are ignored.
func.func @lstmcellsimple(%arg0: tensor<1x?xf32>, %arg1: tensor<3x4xf32>, %arg2: tensor<2xf32>, %arg3: tensor<1x3xf32>, %arg4: tensor<?xf32>) -> tensor<1x?xf32> attributes  {tf._implements = "LSTMCellSimple", tf._reference = "mlir"} {
    %0 = "tf.BatchMatMulV2"(%arg3, %arg1) {adj_x = false, adj_y = false} : (tensor<1x3xf32>, tensor<3x4xf32>) -> tensor<1x4xf32>
    %1 = arith.constant dense<[[2.3, 3.4, 4.5, 5.5]]> : tensor<1x4xf32>
    %2 = "tf.Add"(%0, %1) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %3 = tensor.cast %2 : tensor<1x4xf32> to tensor<1x?xf32>
    func.return %3 : tensor<1x?xf32>
}

// A usual cell: n_input = 3, n_cell = 4, n_output = 2 (weight [3 + 2, 4 * 4], projection
// [4, 2]). Gate blocks in the weight columns and the bias: cell, input, forget, output; the
// fused op takes them in TFLite's order input, forget, cell, output. States: zero [1, 2] and
// [1, 4]; cell_clip = 10 (Lingvo's cell_value_cap).
func.func @cell(%arg0: tensor<1x3xf32>, %arg1: tensor<5x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<4x2xf32>) -> tensor<1x2xf32> attributes  {tf._implements = "LSTMCellSimple"} {
    %0 = "tf.LingvoCell"(%arg0, %arg1, %arg2, %arg3) : (tensor<1x3xf32>, tensor<5x16xf32>, tensor<16xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
    func.return %0 : tensor<1x2xf32>
}

// A projection that is not a matrix: no projection (n_output = n_cell, upstream's rule; its
// transpose of the vector would fail), projection and projection bias absent.
func.func @no_projection(%arg0: tensor<1x3xf32>, %arg1: tensor<7x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<4xf32>) -> tensor<1x4xf32> attributes  {tf._implements = "LSTMCellSimple"} {
    %0 = "tf.LingvoCell"(%arg0, %arg1, %arg2, %arg3) : (tensor<1x3xf32>, tensor<7x16xf32>, tensor<16xf32>, tensor<4xf32>) -> tensor<1x4xf32>
    func.return %0 : tensor<1x4xf32>
}

// A declaration is fused too (only the signature is read).
func.func private @declaration(%arg0: tensor<1x2xf32>, %arg1: tensor<3x4xf32>, %arg2: tensor<4xf32>, %arg3: tensor<1x1xf32>) -> tensor<1x1xf32> attributes  {tf._implements = "LSTMCellSimple"}

// CIFG (coupled input and forget gates): three gate blocks cell, forget, output; the input
// gate operands are absent. TensorFlow Lite never dispatches this string (it compares with
// "LSTMCellSimple" exactly): without fuse-cifg it is left alone with a warning.
func.func @cifg(%arg0: tensor<1x3xf32>, %arg1: tensor<5x12xf32>, %arg2: tensor<12xf32>, %arg3: tensor<4x2xf32>) -> tensor<1x2xf32> attributes  {tf._implements = "LSTMCellSimple,CoupleInputForgetGates"} {
    %0 = "tf.LingvoCell"(%arg0, %arg1, %arg2, %arg3) : (tensor<1x3xf32>, tensor<5x12xf32>, tensor<12xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
    func.return %0 : tensor<1x2xf32>
}

// Warnings come first (stderr): only the CIFG cell's, and only without fuse-cifg.
// CHECK: lstm-cell-simple.mlir:38:1: warning: 'LSTMCellSimple,CoupleInputForgetGates' is not fused: TensorFlow Lite compares tf._implements with 'LSTMCellSimple' exactly; pass fuse-cifg=true to fuse this coupled input-forget gate (CIFG) cell
// CHECK-NOT: warning:
// CIFG-NOT: warning:

// CHECK-LABEL: func.func @lstmcellsimple(
// CHECK-SAME:  %arg0: tensor<1x?xf32>, %arg1: tensor<3x4xf32>, %arg2: tensor<2xf32>, %arg3: tensor<1x3xf32>, %arg4: tensor<?xf32>) -> tensor<1x?xf32> attributes {tf._implements = "LSTMCellSimple", tf._reference = "mlir"} {
// CHECK-NEXT:  [[VAL_1:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_2:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg1, [[VAL_1]]) : (tensor<3x4xf32>, tensor<2xi32>) -> tensor<4x3xf32>
// CHECK-NEXT:  [[VAL_3:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_4:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg3, [[VAL_3]]) : (tensor<1x3xf32>, tensor<2xi32>) -> tensor<3x1xf32>
// CHECK-NEXT:  [[VAL_5:%[0-9A-Za-z_]+]] = "tfl.no_value"() <{value}> : () -> none
// CHECK-NEXT:  [[VAL_6:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_7:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_8:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_6]], [[VAL_7]]) : (tensor<4x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x0xf32>
// CHECK-NEXT:  [[VAL_9:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_10:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_11:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_9]], [[VAL_10]]) : (tensor<4x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x0xf32>
// CHECK-NEXT:  [[VAL_12:%[0-9A-Za-z_]+]] = arith.constant dense<[2, 0]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_13:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_14:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_12]], [[VAL_13]]) : (tensor<4x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x0xf32>
// CHECK-NEXT:  [[VAL_15:%[0-9A-Za-z_]+]] = arith.constant dense<[3, 0]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_16:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_17:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_15]], [[VAL_16]]) : (tensor<4x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x0xf32>
// CHECK-NEXT:  [[VAL_18:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_19:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_20:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_18]], [[VAL_19]]) : (tensor<4x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x3xf32>
// CHECK-NEXT:  [[VAL_21:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_22:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_23:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_21]], [[VAL_22]]) : (tensor<4x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x3xf32>
// CHECK-NEXT:  [[VAL_24:%[0-9A-Za-z_]+]] = arith.constant dense<[2, 0]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_25:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_26:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_24]], [[VAL_25]]) : (tensor<4x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x3xf32>
// CHECK-NEXT:  [[VAL_27:%[0-9A-Za-z_]+]] = arith.constant dense<[3, 0]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_28:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_29:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_27]], [[VAL_28]]) : (tensor<4x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x3xf32>
// CHECK-NEXT:  [[VAL_30:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_31:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_32:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg2, [[VAL_30]], [[VAL_31]]) : (tensor<2xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xf32>
// CHECK-NEXT:  [[VAL_33:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_34:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_35:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg2, [[VAL_33]], [[VAL_34]]) : (tensor<2xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xf32>
// CHECK-NEXT:  [[VAL_36:%[0-9A-Za-z_]+]] = arith.constant dense<0.000000e+00> : tensor<1xf32>
// CHECK-NEXT:  [[VAL_37:%[0-9A-Za-z_]+]] = arith.constant dense<0.000000e+00> : tensor<1xf32>
// CHECK-NEXT:  [[VAL_38:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_39:%[0-9A-Za-z_]+]] = arith.constant dense<[3, 1]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_40:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_4]], [[VAL_38]], [[VAL_39]]) : (tensor<3x1xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<3x1xf32>
// CHECK-NEXT:  [[VAL_41:%[0-9A-Za-z_]+]] = arith.constant dense<0.000000e+00> : tensor<3xf32>
// CHECK-NEXT:  [[VAL_42:%[0-9A-Za-z_]+]] = arith.constant dense<0.000000e+00> : tensor<1x3xf32>
// CHECK-NEXT:  [[VAL_43:%[0-9A-Za-z_]+]] = arith.constant dense<0.000000e+00> : tensor<1x1xf32>
// CHECK-NEXT:  [[VAL_44:%[0-9A-Za-z_]+]] = "tfl.lstm"(%arg0, [[VAL_11]], [[VAL_14]], [[VAL_8]], [[VAL_17]], [[VAL_23]], [[VAL_26]], [[VAL_20]], [[VAL_29]], [[VAL_5]], [[VAL_5]], [[VAL_5]], [[VAL_35]], [[VAL_36]], [[VAL_32]], [[VAL_37]], [[VAL_40]], [[VAL_41]], [[VAL_42]], [[VAL_43]], [[VAL_5]], [[VAL_5]], [[VAL_5]], [[VAL_5]]) <{fused_activation_function = "TANH", cell_clip = 1.000000e+01 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<1x?xf32>, tensor<1x0xf32>, tensor<1x0xf32>, tensor<1x0xf32>, tensor<1x0xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, none, none, none, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<3x1xf32>, tensor<3xf32>, tensor<1x3xf32>, tensor<1x1xf32>, none, none, none, none) -> tensor<1x3xf32>
// CHECK-NEXT:  [[VAL_45:%[0-9A-Za-z_]+]] = tensor.cast [[VAL_44]] : tensor<1x3xf32> to tensor<1x?xf32>
// CHECK-NEXT:  func.return [[VAL_45]] : tensor<1x?xf32>
// CHECK-LABEL: func.func @cell(
// CHECK-SAME:  %arg0: tensor<1x3xf32>, %arg1: tensor<5x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<4x2xf32>) -> tensor<1x2xf32> attributes {tf._implements = "LSTMCellSimple"} {
// CHECK-NEXT:  [[VAL_1:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_2:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg1, [[VAL_1]]) : (tensor<5x16xf32>, tensor<2xi32>) -> tensor<16x5xf32>
// CHECK-NEXT:  [[VAL_3:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_4:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg3, [[VAL_3]]) : (tensor<4x2xf32>, tensor<2xi32>) -> tensor<2x4xf32>
// CHECK-NEXT:  [[VAL_5:%[0-9A-Za-z_]+]] = "tfl.no_value"() <{value}> : () -> none
// CHECK-NEXT:  [[VAL_6:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_7:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_8:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_6]], [[VAL_7]]) : (tensor<16x5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x3xf32>
// CHECK-NEXT:  [[VAL_9:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 0]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_10:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_11:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_9]], [[VAL_10]]) : (tensor<16x5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x3xf32>
// CHECK-NEXT:  [[VAL_12:%[0-9A-Za-z_]+]] = arith.constant dense<[8, 0]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_13:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_14:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_12]], [[VAL_13]]) : (tensor<16x5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x3xf32>
// CHECK-NEXT:  [[VAL_15:%[0-9A-Za-z_]+]] = arith.constant dense<[12, 0]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_16:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_17:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_15]], [[VAL_16]]) : (tensor<16x5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x3xf32>
// CHECK-NEXT:  [[VAL_18:%[0-9A-Za-z_]+]] = arith.constant dense<[0, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_19:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 2]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_20:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_18]], [[VAL_19]]) : (tensor<16x5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x2xf32>
// CHECK-NEXT:  [[VAL_21:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_22:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 2]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_23:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_21]], [[VAL_22]]) : (tensor<16x5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x2xf32>
// CHECK-NEXT:  [[VAL_24:%[0-9A-Za-z_]+]] = arith.constant dense<[8, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_25:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 2]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_26:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_24]], [[VAL_25]]) : (tensor<16x5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x2xf32>
// CHECK-NEXT:  [[VAL_27:%[0-9A-Za-z_]+]] = arith.constant dense<[12, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_28:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 2]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_29:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_27]], [[VAL_28]]) : (tensor<16x5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x2xf32>
// CHECK-NEXT:  [[VAL_30:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_31:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_32:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg2, [[VAL_30]], [[VAL_31]]) : (tensor<16xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
// CHECK-NEXT:  [[VAL_33:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_34:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_35:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg2, [[VAL_33]], [[VAL_34]]) : (tensor<16xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
// CHECK-NEXT:  [[VAL_36:%[0-9A-Za-z_]+]] = arith.constant dense<8> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_37:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_38:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg2, [[VAL_36]], [[VAL_37]]) : (tensor<16xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
// CHECK-NEXT:  [[VAL_39:%[0-9A-Za-z_]+]] = arith.constant dense<12> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_40:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_41:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg2, [[VAL_39]], [[VAL_40]]) : (tensor<16xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
// CHECK-NEXT:  [[VAL_42:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_43:%[0-9A-Za-z_]+]] = arith.constant dense<[2, 4]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_44:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_4]], [[VAL_42]], [[VAL_43]]) : (tensor<2x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x4xf32>
// CHECK-NEXT:  [[VAL_45:%[0-9A-Za-z_]+]] = arith.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT:  [[VAL_46:%[0-9A-Za-z_]+]] = arith.constant dense<0.000000e+00> : tensor<1x2xf32>
// CHECK-NEXT:  [[VAL_47:%[0-9A-Za-z_]+]] = arith.constant dense<0.000000e+00> : tensor<1x4xf32>
// CHECK-NEXT:  [[VAL_48:%[0-9A-Za-z_]+]] = "tfl.lstm"(%arg0, [[VAL_11]], [[VAL_14]], [[VAL_8]], [[VAL_17]], [[VAL_23]], [[VAL_26]], [[VAL_20]], [[VAL_29]], [[VAL_5]], [[VAL_5]], [[VAL_5]], [[VAL_35]], [[VAL_38]], [[VAL_32]], [[VAL_41]], [[VAL_44]], [[VAL_45]], [[VAL_46]], [[VAL_47]], [[VAL_5]], [[VAL_5]], [[VAL_5]], [[VAL_5]]) <{fused_activation_function = "TANH", cell_clip = 1.000000e+01 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<1x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>, tensor<2xf32>, tensor<1x2xf32>, tensor<1x4xf32>, none, none, none, none) -> tensor<1x2xf32>
// CHECK-NEXT:  func.return [[VAL_48]] : tensor<1x2xf32>
// CHECK-LABEL: func.func @no_projection(
// CHECK-SAME:  %arg0: tensor<1x3xf32>, %arg1: tensor<7x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<4xf32>) -> tensor<1x4xf32> attributes {tf._implements = "LSTMCellSimple"} {
// CHECK-NEXT:  [[VAL_1:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_2:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg1, [[VAL_1]]) : (tensor<7x16xf32>, tensor<2xi32>) -> tensor<16x7xf32>
// CHECK-NEXT:  [[VAL_3:%[0-9A-Za-z_]+]] = "tfl.no_value"() <{value}> : () -> none
// CHECK-NEXT:  [[VAL_4:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_5:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_6:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_4]], [[VAL_5]]) : (tensor<16x7xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x3xf32>
// CHECK-NEXT:  [[VAL_7:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 0]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_8:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_9:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_7]], [[VAL_8]]) : (tensor<16x7xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x3xf32>
// CHECK-NEXT:  [[VAL_10:%[0-9A-Za-z_]+]] = arith.constant dense<[8, 0]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_11:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_12:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_10]], [[VAL_11]]) : (tensor<16x7xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x3xf32>
// CHECK-NEXT:  [[VAL_13:%[0-9A-Za-z_]+]] = arith.constant dense<[12, 0]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_14:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_15:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_13]], [[VAL_14]]) : (tensor<16x7xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x3xf32>
// CHECK-NEXT:  [[VAL_16:%[0-9A-Za-z_]+]] = arith.constant dense<[0, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_17:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_18:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_16]], [[VAL_17]]) : (tensor<16x7xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x4xf32>
// CHECK-NEXT:  [[VAL_19:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_20:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_21:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_19]], [[VAL_20]]) : (tensor<16x7xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x4xf32>
// CHECK-NEXT:  [[VAL_22:%[0-9A-Za-z_]+]] = arith.constant dense<[8, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_23:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_24:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_22]], [[VAL_23]]) : (tensor<16x7xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x4xf32>
// CHECK-NEXT:  [[VAL_25:%[0-9A-Za-z_]+]] = arith.constant dense<[12, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_26:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_27:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_25]], [[VAL_26]]) : (tensor<16x7xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x4xf32>
// CHECK-NEXT:  [[VAL_28:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_29:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_30:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg2, [[VAL_28]], [[VAL_29]]) : (tensor<16xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
// CHECK-NEXT:  [[VAL_31:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_32:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_33:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg2, [[VAL_31]], [[VAL_32]]) : (tensor<16xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
// CHECK-NEXT:  [[VAL_34:%[0-9A-Za-z_]+]] = arith.constant dense<8> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_35:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_36:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg2, [[VAL_34]], [[VAL_35]]) : (tensor<16xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
// CHECK-NEXT:  [[VAL_37:%[0-9A-Za-z_]+]] = arith.constant dense<12> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_38:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_39:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg2, [[VAL_37]], [[VAL_38]]) : (tensor<16xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
// CHECK-NEXT:  [[VAL_40:%[0-9A-Za-z_]+]] = arith.constant dense<0.000000e+00> : tensor<1x4xf32>
// CHECK-NEXT:  [[VAL_41:%[0-9A-Za-z_]+]] = arith.constant dense<0.000000e+00> : tensor<1x4xf32>
// CHECK-NEXT:  [[VAL_42:%[0-9A-Za-z_]+]] = "tfl.lstm"(%arg0, [[VAL_9]], [[VAL_12]], [[VAL_6]], [[VAL_15]], [[VAL_21]], [[VAL_24]], [[VAL_18]], [[VAL_27]], [[VAL_3]], [[VAL_3]], [[VAL_3]], [[VAL_33]], [[VAL_36]], [[VAL_30]], [[VAL_39]], [[VAL_3]], [[VAL_3]], [[VAL_40]], [[VAL_41]], [[VAL_3]], [[VAL_3]], [[VAL_3]], [[VAL_3]]) <{fused_activation_function = "TANH", cell_clip = 1.000000e+01 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<1x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<1x4xf32>, tensor<1x4xf32>, none, none, none, none) -> tensor<1x4xf32>
// CHECK-NEXT:  func.return [[VAL_42]] : tensor<1x4xf32>
// CHECK-LABEL: func.func private @declaration(
// CHECK-SAME:  %arg0: tensor<1x2xf32>, %arg1: tensor<3x4xf32>, %arg2: tensor<4xf32>, %arg3: tensor<1x1xf32>) -> tensor<1x1xf32> attributes {tf._implements = "LSTMCellSimple"} {
// CHECK-NEXT:  [[VAL_1:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_2:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg1, [[VAL_1]]) : (tensor<3x4xf32>, tensor<2xi32>) -> tensor<4x3xf32>
// CHECK-NEXT:  [[VAL_3:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_4:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg3, [[VAL_3]]) : (tensor<1x1xf32>, tensor<2xi32>) -> tensor<1x1xf32>
// CHECK-NEXT:  [[VAL_5:%[0-9A-Za-z_]+]] = "tfl.no_value"() <{value}> : () -> none
// CHECK-NEXT:  [[VAL_6:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_7:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 2]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_8:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_6]], [[VAL_7]]) : (tensor<4x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x2xf32>
// CHECK-NEXT:  [[VAL_9:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_10:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 2]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_11:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_9]], [[VAL_10]]) : (tensor<4x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x2xf32>
// CHECK-NEXT:  [[VAL_12:%[0-9A-Za-z_]+]] = arith.constant dense<[2, 0]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_13:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 2]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_14:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_12]], [[VAL_13]]) : (tensor<4x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x2xf32>
// CHECK-NEXT:  [[VAL_15:%[0-9A-Za-z_]+]] = arith.constant dense<[3, 0]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_16:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 2]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_17:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_15]], [[VAL_16]]) : (tensor<4x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x2xf32>
// CHECK-NEXT:  [[VAL_18:%[0-9A-Za-z_]+]] = arith.constant dense<[0, 2]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_19:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_20:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_18]], [[VAL_19]]) : (tensor<4x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1xf32>
// CHECK-NEXT:  [[VAL_21:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 2]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_22:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_23:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_21]], [[VAL_22]]) : (tensor<4x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1xf32>
// CHECK-NEXT:  [[VAL_24:%[0-9A-Za-z_]+]] = arith.constant dense<2> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_25:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_26:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_24]], [[VAL_25]]) : (tensor<4x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1xf32>
// CHECK-NEXT:  [[VAL_27:%[0-9A-Za-z_]+]] = arith.constant dense<[3, 2]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_28:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_29:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_27]], [[VAL_28]]) : (tensor<4x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1xf32>
// CHECK-NEXT:  [[VAL_30:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_31:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_32:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg2, [[VAL_30]], [[VAL_31]]) : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xf32>
// CHECK-NEXT:  [[VAL_33:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_34:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_35:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg2, [[VAL_33]], [[VAL_34]]) : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xf32>
// CHECK-NEXT:  [[VAL_36:%[0-9A-Za-z_]+]] = arith.constant dense<2> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_37:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_38:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg2, [[VAL_36]], [[VAL_37]]) : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xf32>
// CHECK-NEXT:  [[VAL_39:%[0-9A-Za-z_]+]] = arith.constant dense<3> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_40:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_41:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg2, [[VAL_39]], [[VAL_40]]) : (tensor<4xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xf32>
// CHECK-NEXT:  [[VAL_42:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_43:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_44:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_4]], [[VAL_42]], [[VAL_43]]) : (tensor<1x1xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x1xf32>
// CHECK-NEXT:  [[VAL_45:%[0-9A-Za-z_]+]] = arith.constant dense<0.000000e+00> : tensor<1xf32>
// CHECK-NEXT:  [[VAL_46:%[0-9A-Za-z_]+]] = arith.constant dense<0.000000e+00> : tensor<1x1xf32>
// CHECK-NEXT:  [[VAL_47:%[0-9A-Za-z_]+]] = arith.constant dense<0.000000e+00> : tensor<1x1xf32>
// CHECK-NEXT:  [[VAL_48:%[0-9A-Za-z_]+]] = "tfl.lstm"(%arg0, [[VAL_11]], [[VAL_14]], [[VAL_8]], [[VAL_17]], [[VAL_23]], [[VAL_26]], [[VAL_20]], [[VAL_29]], [[VAL_5]], [[VAL_5]], [[VAL_5]], [[VAL_35]], [[VAL_38]], [[VAL_32]], [[VAL_41]], [[VAL_44]], [[VAL_45]], [[VAL_46]], [[VAL_47]], [[VAL_5]], [[VAL_5]], [[VAL_5]], [[VAL_5]]) <{fused_activation_function = "TANH", cell_clip = 1.000000e+01 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, none, none, none, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1x1xf32>, tensor<1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, none, none, none, none) -> tensor<1x1xf32>
// CHECK-NEXT:  func.return [[VAL_48]] : tensor<1x1xf32>
// CHECK-LABEL: func.func @cifg(
// CHECK-SAME:  %arg0: tensor<1x3xf32>, %arg1: tensor<5x12xf32>, %arg2: tensor<12xf32>, %arg3: tensor<4x2xf32>) -> tensor<1x2xf32> attributes {tf._implements = "LSTMCellSimple,CoupleInputForgetGates"} {
// CHECK-NEXT:  [[VAL_1:%[0-9A-Za-z_]+]] = "tf.LingvoCell"(%arg0, %arg1, %arg2, %arg3) : (tensor<1x3xf32>, tensor<5x12xf32>, tensor<12xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:  func.return [[VAL_1]] : tensor<1x2xf32>

// With fuse-cifg=true: 3 gate blocks (cell 0, forget 4, output 8); input gate operands absent.
// CIFG-LABEL: func.func @cifg(
// CIFG-SAME:  %arg0: tensor<1x3xf32>, %arg1: tensor<5x12xf32>, %arg2: tensor<12xf32>, %arg3: tensor<4x2xf32>) -> tensor<1x2xf32> attributes {tf._implements = "LSTMCellSimple,CoupleInputForgetGates"} {
// CIFG-NEXT:  [[VAL_1:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CIFG-NEXT:  [[VAL_2:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg1, [[VAL_1]]) : (tensor<5x12xf32>, tensor<2xi32>) -> tensor<12x5xf32>
// CIFG-NEXT:  [[VAL_3:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CIFG-NEXT:  [[VAL_4:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg3, [[VAL_3]]) : (tensor<4x2xf32>, tensor<2xi32>) -> tensor<2x4xf32>
// CIFG-NEXT:  [[VAL_5:%[0-9A-Za-z_]+]] = "tfl.no_value"() <{value}> : () -> none
// CIFG-NEXT:  [[VAL_6:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<2xi64>
// CIFG-NEXT:  [[VAL_7:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 3]> : tensor<2xi64>
// CIFG-NEXT:  [[VAL_8:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_6]], [[VAL_7]]) : (tensor<12x5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x3xf32>
// CIFG-NEXT:  [[VAL_9:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 0]> : tensor<2xi64>
// CIFG-NEXT:  [[VAL_10:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 3]> : tensor<2xi64>
// CIFG-NEXT:  [[VAL_11:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_9]], [[VAL_10]]) : (tensor<12x5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x3xf32>
// CIFG-NEXT:  [[VAL_12:%[0-9A-Za-z_]+]] = arith.constant dense<[8, 0]> : tensor<2xi64>
// CIFG-NEXT:  [[VAL_13:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 3]> : tensor<2xi64>
// CIFG-NEXT:  [[VAL_14:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_12]], [[VAL_13]]) : (tensor<12x5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x3xf32>
// CIFG-NEXT:  [[VAL_15:%[0-9A-Za-z_]+]] = arith.constant dense<[0, 3]> : tensor<2xi64>
// CIFG-NEXT:  [[VAL_16:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 2]> : tensor<2xi64>
// CIFG-NEXT:  [[VAL_17:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_15]], [[VAL_16]]) : (tensor<12x5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x2xf32>
// CIFG-NEXT:  [[VAL_18:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 3]> : tensor<2xi64>
// CIFG-NEXT:  [[VAL_19:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 2]> : tensor<2xi64>
// CIFG-NEXT:  [[VAL_20:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_18]], [[VAL_19]]) : (tensor<12x5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x2xf32>
// CIFG-NEXT:  [[VAL_21:%[0-9A-Za-z_]+]] = arith.constant dense<[8, 3]> : tensor<2xi64>
// CIFG-NEXT:  [[VAL_22:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 2]> : tensor<2xi64>
// CIFG-NEXT:  [[VAL_23:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_21]], [[VAL_22]]) : (tensor<12x5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x2xf32>
// CIFG-NEXT:  [[VAL_24:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<1xi64>
// CIFG-NEXT:  [[VAL_25:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CIFG-NEXT:  [[VAL_26:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg2, [[VAL_24]], [[VAL_25]]) : (tensor<12xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
// CIFG-NEXT:  [[VAL_27:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CIFG-NEXT:  [[VAL_28:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CIFG-NEXT:  [[VAL_29:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg2, [[VAL_27]], [[VAL_28]]) : (tensor<12xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
// CIFG-NEXT:  [[VAL_30:%[0-9A-Za-z_]+]] = arith.constant dense<8> : tensor<1xi64>
// CIFG-NEXT:  [[VAL_31:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CIFG-NEXT:  [[VAL_32:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg2, [[VAL_30]], [[VAL_31]]) : (tensor<12xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
// CIFG-NEXT:  [[VAL_33:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<2xi64>
// CIFG-NEXT:  [[VAL_34:%[0-9A-Za-z_]+]] = arith.constant dense<[2, 4]> : tensor<2xi64>
// CIFG-NEXT:  [[VAL_35:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_4]], [[VAL_33]], [[VAL_34]]) : (tensor<2x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x4xf32>
// CIFG-NEXT:  [[VAL_36:%[0-9A-Za-z_]+]] = arith.constant dense<0.000000e+00> : tensor<2xf32>
// CIFG-NEXT:  [[VAL_37:%[0-9A-Za-z_]+]] = arith.constant dense<0.000000e+00> : tensor<1x2xf32>
// CIFG-NEXT:  [[VAL_38:%[0-9A-Za-z_]+]] = arith.constant dense<0.000000e+00> : tensor<1x4xf32>
// CIFG-NEXT:  [[VAL_39:%[0-9A-Za-z_]+]] = "tfl.lstm"(%arg0, [[VAL_5]], [[VAL_11]], [[VAL_8]], [[VAL_14]], [[VAL_5]], [[VAL_20]], [[VAL_17]], [[VAL_23]], [[VAL_5]], [[VAL_5]], [[VAL_5]], [[VAL_5]], [[VAL_29]], [[VAL_26]], [[VAL_32]], [[VAL_35]], [[VAL_36]], [[VAL_37]], [[VAL_38]], [[VAL_5]], [[VAL_5]], [[VAL_5]], [[VAL_5]]) <{fused_activation_function = "TANH", cell_clip = 1.000000e+01 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<1x3xf32>, none, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, none, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, none, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>, tensor<2xf32>, tensor<1x2xf32>, tensor<1x4xf32>, none, none, none, none) -> tensor<1x2xf32>
// CIFG-NEXT:  func.return [[VAL_39]] : tensor<1x2xf32>
