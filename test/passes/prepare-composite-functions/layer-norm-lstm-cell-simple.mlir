// RUN: opt-tool %s --allow-unregistered-dialect --prepare-composite-functions='fuse-cifg=true' 2>&1 | filecheck %s

// Upstream's test case (@layernormalizedlstmcellsimple): as @lstmcellsimple, plus the layer
// norm coefficients cut out of the scale per gate (cell 0, input 1; forget and output are past
// the end of the 2-value scale: zero vectors).
func.func @layernormalizedlstmcellsimple(%arg0: tensor<1x?xf32>, %arg1: tensor<3x4xf32>, %arg2: tensor<2xf32>, %arg3: tensor<1x3xf32>, %arg4: tensor<2xf32>) -> tensor<1x?xf32> attributes  {tf._implements = "LayerNormalizedLstmCellSimple", tf._reference = "mlir"} {
    %0 = "tf.BatchMatMulV2"(%arg3, %arg1) {adj_x = false, adj_y = false} : (tensor<1x3xf32>, tensor<3x4xf32>) -> tensor<1x4xf32>
    %1 = arith.constant dense<[[2.3, 3.4, 4.5, 5.5]]> : tensor<1x4xf32>
    %2 = "tf.Add"(%0, %1) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %3 = tensor.cast %2 : tensor<1x4xf32> to tensor<1x?xf32>
    func.return %3 : tensor<1x?xf32>
}

// A usual layer-normalized cell: n_input = 3, n_cell = 4, n_output = 2; the scale has one
// block of 4 per gate (cell, input, forget, output), like the bias.
func.func @ln_cell(%arg0: tensor<1x3xf32>, %arg1: tensor<5x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<4x2xf32>, %arg4: tensor<16xf32>) -> tensor<1x2xf32> attributes  {tf._implements = "LayerNormalizedLstmCellSimple"} {
    %0 = "tf.LingvoCell"(%arg0, %arg1, %arg2, %arg3, %arg4) : (tensor<1x3xf32>, tensor<5x16xf32>, tensor<16xf32>, tensor<4x2xf32>, tensor<16xf32>) -> tensor<1x2xf32>
    func.return %0 : tensor<1x2xf32>
}

// CIFG (with fuse-cifg=true): the scale has 3 blocks (cell, forget, output) like Lingvo's
// ln_scale [3 * n_cell]: forget at 4 and output at 8. (TensorFlow Lite would read them at 8 and
// 12, past the end: zeros.)
func.func @ln_cifg(%arg0: tensor<1x3xf32>, %arg1: tensor<5x12xf32>, %arg2: tensor<12xf32>, %arg3: tensor<4x2xf32>, %arg4: tensor<12xf32>) -> tensor<1x2xf32> attributes  {tf._implements = "LayerNormalizedLstmCellSimple,CoupleInputForgetGates"} {
    %0 = "tf.LingvoCell"(%arg0, %arg1, %arg2, %arg3, %arg4) : (tensor<1x3xf32>, tensor<5x12xf32>, tensor<12xf32>, tensor<4x2xf32>, tensor<12xf32>) -> tensor<1x2xf32>
    func.return %0 : tensor<1x2xf32>
}

// CHECK-NOT: warning:

// CHECK-LABEL: func.func @layernormalizedlstmcellsimple(
// CHECK-SAME:  %arg0: tensor<1x?xf32>, %arg1: tensor<3x4xf32>, %arg2: tensor<2xf32>, %arg3: tensor<1x3xf32>, %arg4: tensor<2xf32>) -> tensor<1x?xf32> attributes {tf._implements = "LayerNormalizedLstmCellSimple", tf._reference = "mlir"} {
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
// CHECK-NEXT:  [[VAL_44:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_45:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_46:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg4, [[VAL_44]], [[VAL_45]]) : (tensor<2xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xf32>
// CHECK-NEXT:  [[VAL_47:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_48:%[0-9A-Za-z_]+]] = arith.constant dense<1> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_49:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg4, [[VAL_47]], [[VAL_48]]) : (tensor<2xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xf32>
// CHECK-NEXT:  [[VAL_50:%[0-9A-Za-z_]+]] = arith.constant dense<0.000000e+00> : tensor<1xf32>
// CHECK-NEXT:  [[VAL_51:%[0-9A-Za-z_]+]] = arith.constant dense<0.000000e+00> : tensor<1xf32>
// CHECK-NEXT:  [[VAL_52:%[0-9A-Za-z_]+]] = "tfl.lstm"(%arg0, [[VAL_11]], [[VAL_14]], [[VAL_8]], [[VAL_17]], [[VAL_23]], [[VAL_26]], [[VAL_20]], [[VAL_29]], [[VAL_5]], [[VAL_5]], [[VAL_5]], [[VAL_35]], [[VAL_36]], [[VAL_32]], [[VAL_37]], [[VAL_40]], [[VAL_41]], [[VAL_42]], [[VAL_43]], [[VAL_49]], [[VAL_50]], [[VAL_46]], [[VAL_51]]) <{fused_activation_function = "TANH", cell_clip = 1.000000e+01 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<1x?xf32>, tensor<1x0xf32>, tensor<1x0xf32>, tensor<1x0xf32>, tensor<1x0xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, none, none, none, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<3x1xf32>, tensor<3xf32>, tensor<1x3xf32>, tensor<1x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3xf32>
// CHECK-NEXT:  [[VAL_53:%[0-9A-Za-z_]+]] = tensor.cast [[VAL_52]] : tensor<1x3xf32> to tensor<1x?xf32>
// CHECK-NEXT:  func.return [[VAL_53]] : tensor<1x?xf32>
// CHECK-LABEL: func.func @ln_cell(
// CHECK-SAME:  %arg0: tensor<1x3xf32>, %arg1: tensor<5x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<4x2xf32>, %arg4: tensor<16xf32>) -> tensor<1x2xf32> attributes {tf._implements = "LayerNormalizedLstmCellSimple"} {
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
// CHECK-NEXT:  [[VAL_48:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_49:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_50:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg4, [[VAL_48]], [[VAL_49]]) : (tensor<16xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
// CHECK-NEXT:  [[VAL_51:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_52:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_53:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg4, [[VAL_51]], [[VAL_52]]) : (tensor<16xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
// CHECK-NEXT:  [[VAL_54:%[0-9A-Za-z_]+]] = arith.constant dense<8> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_55:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_56:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg4, [[VAL_54]], [[VAL_55]]) : (tensor<16xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
// CHECK-NEXT:  [[VAL_57:%[0-9A-Za-z_]+]] = arith.constant dense<12> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_58:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_59:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg4, [[VAL_57]], [[VAL_58]]) : (tensor<16xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
// CHECK-NEXT:  [[VAL_60:%[0-9A-Za-z_]+]] = "tfl.lstm"(%arg0, [[VAL_11]], [[VAL_14]], [[VAL_8]], [[VAL_17]], [[VAL_23]], [[VAL_26]], [[VAL_20]], [[VAL_29]], [[VAL_5]], [[VAL_5]], [[VAL_5]], [[VAL_35]], [[VAL_38]], [[VAL_32]], [[VAL_41]], [[VAL_44]], [[VAL_45]], [[VAL_46]], [[VAL_47]], [[VAL_53]], [[VAL_56]], [[VAL_50]], [[VAL_59]]) <{fused_activation_function = "TANH", cell_clip = 1.000000e+01 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<1x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>, tensor<2xf32>, tensor<1x2xf32>, tensor<1x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:  func.return [[VAL_60]] : tensor<1x2xf32>
// CHECK-LABEL: func.func @ln_cifg(
// CHECK-SAME:  %arg0: tensor<1x3xf32>, %arg1: tensor<5x12xf32>, %arg2: tensor<12xf32>, %arg3: tensor<4x2xf32>, %arg4: tensor<12xf32>) -> tensor<1x2xf32> attributes {tf._implements = "LayerNormalizedLstmCellSimple,CoupleInputForgetGates"} {
// CHECK-NEXT:  [[VAL_1:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_2:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg1, [[VAL_1]]) : (tensor<5x12xf32>, tensor<2xi32>) -> tensor<12x5xf32>
// CHECK-NEXT:  [[VAL_3:%[0-9A-Za-z_]+]] = arith.constant dense<[1, 0]> : tensor<2xi32>
// CHECK-NEXT:  [[VAL_4:%[0-9A-Za-z_]+]] = "tfl.transpose"(%arg3, [[VAL_3]]) : (tensor<4x2xf32>, tensor<2xi32>) -> tensor<2x4xf32>
// CHECK-NEXT:  [[VAL_5:%[0-9A-Za-z_]+]] = "tfl.no_value"() <{value}> : () -> none
// CHECK-NEXT:  [[VAL_6:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_7:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_8:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_6]], [[VAL_7]]) : (tensor<12x5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x3xf32>
// CHECK-NEXT:  [[VAL_9:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 0]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_10:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_11:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_9]], [[VAL_10]]) : (tensor<12x5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x3xf32>
// CHECK-NEXT:  [[VAL_12:%[0-9A-Za-z_]+]] = arith.constant dense<[8, 0]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_13:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_14:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_12]], [[VAL_13]]) : (tensor<12x5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x3xf32>
// CHECK-NEXT:  [[VAL_15:%[0-9A-Za-z_]+]] = arith.constant dense<[0, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_16:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 2]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_17:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_15]], [[VAL_16]]) : (tensor<12x5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x2xf32>
// CHECK-NEXT:  [[VAL_18:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_19:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 2]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_20:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_18]], [[VAL_19]]) : (tensor<12x5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x2xf32>
// CHECK-NEXT:  [[VAL_21:%[0-9A-Za-z_]+]] = arith.constant dense<[8, 3]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_22:%[0-9A-Za-z_]+]] = arith.constant dense<[4, 2]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_23:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_2]], [[VAL_21]], [[VAL_22]]) : (tensor<12x5xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x2xf32>
// CHECK-NEXT:  [[VAL_24:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_25:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_26:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg2, [[VAL_24]], [[VAL_25]]) : (tensor<12xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
// CHECK-NEXT:  [[VAL_27:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_28:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_29:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg2, [[VAL_27]], [[VAL_28]]) : (tensor<12xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
// CHECK-NEXT:  [[VAL_30:%[0-9A-Za-z_]+]] = arith.constant dense<8> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_31:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_32:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg2, [[VAL_30]], [[VAL_31]]) : (tensor<12xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
// CHECK-NEXT:  [[VAL_33:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_34:%[0-9A-Za-z_]+]] = arith.constant dense<[2, 4]> : tensor<2xi64>
// CHECK-NEXT:  [[VAL_35:%[0-9A-Za-z_]+]] = "tfl.slice"([[VAL_4]], [[VAL_33]], [[VAL_34]]) : (tensor<2x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x4xf32>
// CHECK-NEXT:  [[VAL_36:%[0-9A-Za-z_]+]] = arith.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT:  [[VAL_37:%[0-9A-Za-z_]+]] = arith.constant dense<0.000000e+00> : tensor<1x2xf32>
// CHECK-NEXT:  [[VAL_38:%[0-9A-Za-z_]+]] = arith.constant dense<0.000000e+00> : tensor<1x4xf32>
// CHECK-NEXT:  [[VAL_39:%[0-9A-Za-z_]+]] = arith.constant dense<0> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_40:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_41:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg4, [[VAL_39]], [[VAL_40]]) : (tensor<12xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
// CHECK-NEXT:  [[VAL_42:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_43:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_44:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg4, [[VAL_42]], [[VAL_43]]) : (tensor<12xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
// CHECK-NEXT:  [[VAL_45:%[0-9A-Za-z_]+]] = arith.constant dense<8> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_46:%[0-9A-Za-z_]+]] = arith.constant dense<4> : tensor<1xi64>
// CHECK-NEXT:  [[VAL_47:%[0-9A-Za-z_]+]] = "tfl.slice"(%arg4, [[VAL_45]], [[VAL_46]]) : (tensor<12xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
// CHECK-NEXT:  [[VAL_48:%[0-9A-Za-z_]+]] = "tfl.lstm"(%arg0, [[VAL_5]], [[VAL_11]], [[VAL_8]], [[VAL_14]], [[VAL_5]], [[VAL_20]], [[VAL_17]], [[VAL_23]], [[VAL_5]], [[VAL_5]], [[VAL_5]], [[VAL_5]], [[VAL_29]], [[VAL_26]], [[VAL_32]], [[VAL_35]], [[VAL_36]], [[VAL_37]], [[VAL_38]], [[VAL_5]], [[VAL_44]], [[VAL_41]], [[VAL_47]]) <{fused_activation_function = "TANH", cell_clip = 1.000000e+01 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<1x3xf32>, none, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, none, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, none, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>, tensor<2xf32>, tensor<1x2xf32>, tensor<1x4xf32>, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x2xf32>
// CHECK-NEXT:  func.return [[VAL_48]] : tensor<1x2xf32>
