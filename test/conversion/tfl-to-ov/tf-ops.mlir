// RUN: opt-tool %s --allow-unregistered-dialect --split-input-file --convert-tfl-to-ov | filecheck %s
// RUN: opt-tool %s --allow-unregistered-dialect --split-input-file --convert-tfl-to-ov | opt-tool --split-input-file | filecheck %s

// The ordinary TensorFlow ops around Keras' RNNs (passes/conversion/tfl_to_ov/tf_ops.py), as TensorFlow's importer
// writes them. A Dense head on a sequence (Keras' Tensordot): Reshape (-1 inferred,
// special_zero = false), MatMul (transposes kept), Reshape back, BiasAdd NHWC (an ov.add along
// the last axis), Softmax (last axis). Each op is named after its kind.
// CHECK-LABEL: func.func @main
// CHECK:         %[[S:.*]] = ov.constant dense<[-1, 3]> : tensor<2xi32>
// CHECK:         %[[B:.*]] = ov.constant dense<[2, 5, 6]> : tensor<3xi32>
// CHECK:         %[[R:.*]] = ov.reshape %y, %[[S]] special_zero = false {ov.name = "Reshape"} : (tensor<2x5x3xf32>, tensor<2xi32>) -> tensor<10x3xf32>
// CHECK:         %[[M:.*]] = ov.mat_mul %[[R]], %w transpose_b = true {ov.name = "MatMul"} : (tensor<10x3xf32>, tensor<6x3xf32>) -> tensor<10x6xf32>
// CHECK:         %[[R2:.*]] = ov.reshape %[[M]], %[[B]] special_zero = false {ov.name = "Reshape_1"} : (tensor<10x6xf32>, tensor<3xi32>) -> tensor<2x5x6xf32>
// CHECK:         %[[A:.*]] = ov.add %[[R2]], %b {ov.name = "BiasAdd"} : (tensor<2x5x6xf32>, tensor<6xf32>) -> tensor<2x5x6xf32>
// CHECK:         %[[SM:.*]] = ov.softmax %[[A]] axis = -1 {ov.name = "Softmax"} : (tensor<2x5x6xf32>) -> tensor<2x5x6xf32>
// CHECK:         func.return %[[SM]]
func.func @main(%y: tensor<2x5x3xf32>, %w: tensor<6x3xf32>, %b: tensor<6xf32>) -> tensor<2x5x6xf32> {
  %shape = "tf.Const"() <{value = dense<[-1, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
  %back = "tf.Const"() <{value = dense<[2, 5, 6]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
  %0 = "tf.Reshape"(%y, %shape) {device = ""} : (tensor<2x5x3xf32>, tensor<2xi32>) -> tensor<10x3xf32>
  %1 = "tf.MatMul"(%0, %w) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = true}> {device = ""} : (tensor<10x3xf32>, tensor<6x3xf32>) -> tensor<10x6xf32>
  %2 = "tf.Reshape"(%1, %back) {device = ""} : (tensor<10x6xf32>, tensor<3xi32>) -> tensor<2x5x6xf32>
  %3 = "tf.BiasAdd"(%2, %b) <{data_format = "NHWC"}> {device = ""} : (tensor<2x5x6xf32>, tensor<6xf32>) -> tensor<2x5x6xf32>
  %4 = "tf.Softmax"(%3) {device = ""} : (tensor<2x5x6xf32>) -> tensor<2x5x6xf32>
  %5 = "tf.Identity"(%4) {device = ""} : (tensor<2x5x6xf32>) -> tensor<2x5x6xf32>
  func.return %5 : tensor<2x5x6xf32>
}

// -----

// Bidirectional's merge modes: sum (AddV2), mul (Mul), ave (AddV2 then Mul by 0.5); RealDiv,
// Sub; BiasAdd NCHW adds the bias along axis 1 (reshaped to [C, 1, 1]); BatchMatMulV2's
// adj_x/adj_y are the transposes.
// CHECK-LABEL: func.func @main
// CHECK:         %[[SUM:.*]] = ov.add %fw, %bw {ov.name = "AddV2"} : (tensor<2x5x3xf32>, tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
// CHECK:         %[[AVE:.*]] = ov.multiply %[[SUM]], %half {ov.name = "Mul"} : (tensor<2x5x3xf32>, tensor<f32>) -> tensor<2x5x3xf32>
// CHECK:         %[[D:.*]] = ov.divide %[[AVE]], %fw {ov.name = "RealDiv"} : (tensor<2x5x3xf32>, tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
// CHECK:         %[[SUB:.*]] = ov.subtract %[[D]], %bw {ov.name = "Sub"}
// CHECK:         %[[SHAPE:.*]] = ov.constant dense<[-1, 1, 1]> : tensor<3xi64>
// CHECK:         %[[COL:.*]] = ov.reshape %c, %[[SHAPE]] special_zero = false {ov.name = "BiasAdd/bias"} : (tensor<2xf32>, tensor<3xi64>) -> tensor<2x1x1xf32>
// CHECK:         ov.add %img, %[[COL]] {ov.name = "BiasAdd"} : (tensor<4x2x3x5xf32>, tensor<2x1x1xf32>) -> tensor<4x2x3x5xf32>
// CHECK:         ov.mat_mul %[[SUB]], %bw transpose_a = true {ov.name = "BatchMatMulV2"} : (tensor<2x5x3xf32>, tensor<2x5x3xf32>) -> tensor<2x3x3xf32>
func.func @main(%fw: tensor<2x5x3xf32>, %bw: tensor<2x5x3xf32>, %half: tensor<f32>, %img: tensor<4x2x3x5xf32>, %c: tensor<2xf32>) -> (tensor<2x5x3xf32>, tensor<4x2x3x5xf32>, tensor<2x3x3xf32>) {
  %0 = "tf.AddV2"(%fw, %bw) : (tensor<2x5x3xf32>, tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  %1 = "tf.Mul"(%0, %half) : (tensor<2x5x3xf32>, tensor<f32>) -> tensor<2x5x3xf32>
  %2 = "tf.RealDiv"(%1, %fw) : (tensor<2x5x3xf32>, tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  %3 = "tf.Sub"(%2, %bw) : (tensor<2x5x3xf32>, tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  %4 = "tf.BiasAdd"(%img, %c) <{data_format = "NCHW"}> : (tensor<4x2x3x5xf32>, tensor<2xf32>) -> tensor<4x2x3x5xf32>
  %5 = "tf.BatchMatMulV2"(%3, %bw) <{adj_x = true, adj_y = false}> : (tensor<2x5x3xf32>, tensor<2x5x3xf32>) -> tensor<2x3x3xf32>
  func.return %3, %4, %5 : tensor<2x5x3xf32>, tensor<4x2x3x5xf32>, tensor<2x3x3xf32>
}

// -----

// Activations: Tanh, Sigmoid, Relu, Relu6 (a clamp to [0, 6]), Exp, Square (x * x), Neg
// (x * -1, so that 0 becomes -0 as in TensorFlow).
// CHECK-LABEL: func.func @main
// CHECK:         %[[T:.*]] = ov.tanh %x {ov.name = "Tanh"}
// CHECK:         %[[S:.*]] = ov.sigmoid %[[T]] {ov.name = "Sigmoid"}
// CHECK:         %[[R:.*]] = ov.relu %[[S]] {ov.name = "Relu"}
// CHECK:         %[[R6:.*]] = ov.clamp %[[R]] min = 0.000000e+00 max = 6.000000e+00 {ov.name = "Relu6"}
// CHECK:         %[[E:.*]] = ov.exp %[[R6]] {ov.name = "Exp"}
// CHECK:         %[[SQ:.*]] = ov.multiply %[[E]], %[[E]] {ov.name = "Square"}
// CHECK:         %[[M1:.*]] = ov.constant dense<-1.000000e+00> : tensor<f32>
// CHECK:         %[[N:.*]] = ov.multiply %[[SQ]], %[[M1]] {ov.name = "Neg"} : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// LeakyRelu(alpha) -> ov.prelu with a one-element slope; SquaredDifference -> (x - y) * (x - y).
// CHECK:         %[[AL:.*]] = ov.constant dense<3.000000e-01> : tensor<1xf32>
// CHECK:         %[[L:.*]] = ov.prelu %[[N]], %[[AL]] {ov.name = "LeakyRelu"} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
// CHECK:         %[[DF:.*]] = ov.subtract %[[L]], %x {ov.name = "SquaredDifference/difference"}
// CHECK:         ov.multiply %[[DF]], %[[DF]] {ov.name = "SquaredDifference"}
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "tf.Tanh"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "tf.Sigmoid"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = "tf.Relu"(%1) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = "tf.Relu6"(%2) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = "tf.Exp"(%3) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = "tf.Square"(%4) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = "tf.Neg"(%5) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = "tf.LeakyRelu"(%6) <{alpha = 3.000000e-01 : f32}> : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %8 = "tf.SquaredDifference"(%7, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %8 : tensor<2x3xf32>
}

// -----

// Shapes: ExpandDims (a constant axis, negative counts from the end of the result) ->
// ov.unsqueeze; Squeeze (squeeze_dims; none: every static 1) -> ov.squeeze; Pack -> unsqueeze
// each value on the axis and ov.concat; Unpack -> ov.split and ov.squeeze each part; the dynamic
// batch's initial state (Shape, StridedSlice, Pack, Fill) -> ov.shape_of (out_type kept),
// ov.strided_slice, ov.broadcast; ZerosLike -> a broadcast 0.
// CHECK-LABEL: func.func @main
// CHECK:         %[[A:.*]] = ov.constant dense<-1> : tensor<1xi64>
// CHECK:         ov.unsqueeze %x, %[[A]] {ov.name = "ExpandDims"} : (tensor<?x5x1xf32>, tensor<1xi64>) -> tensor<?x5x1x1xf32>
// CHECK:         %[[SD:.*]] = ov.constant dense<2> : tensor<1xi64>
// CHECK:         ov.squeeze %x, %[[SD]] {ov.name = "Squeeze"} : (tensor<?x5x1xf32>, tensor<1xi64>) -> tensor<?x5xf32>
// CHECK:         %[[SA:.*]] = ov.constant dense<[0, 2]> : tensor<2xi64>
// CHECK:         ov.squeeze %s, %[[SA]] {ov.name = "Squeeze_1"} : (tensor<1x3x1xf32>, tensor<2xi64>) -> tensor<3xf32>
// CHECK:         %[[SH:.*]] = ov.shape_of %x output_type = i32 {ov.name = "Shape"} : (tensor<?x5x1xf32>) -> tensor<3xi32>
// CHECK:         %[[N:.*]] = ov.strided_slice %[[SH]], {{.*}} {ov.name = "StridedSlice", {{.*}}shrink_axis_mask = array<i64: 1>{{.*}}} : (tensor<3xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
// CHECK:         %[[Z:.*]] = ov.constant dense<0> : tensor<1xi64>
// CHECK:         %[[U0:.*]] = ov.unsqueeze %[[N]], %[[Z]]
// CHECK:         %[[U1:.*]] = ov.unsqueeze %units, %[[Z]]
// CHECK:         %[[DIMS:.*]] = ov.concat %[[U0]], %[[U1]] axis = 0 {ov.name = "Pack"} : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
// CHECK:         ov.broadcast %zero, %[[DIMS]] {ov.name = "Fill"} : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
// CHECK:         %[[P0:[^,]*]], {{.*}} = ov.split %x, {{.*}} num_splits = 5 {ov.name = "Unpack/split"}
// CHECK:         ov.squeeze %[[P0]], {{.*}} {ov.name = "Unpack.0"} : (tensor<?x1x1xf32>, tensor<1xi64>) -> tensor<?x1xf32>
// CHECK:         ov.shape_of %x {ov.name = "ZerosLike/shape"}
// CHECK:         ov.broadcast {{.*}} {ov.name = "ZerosLike"} : (tensor<f32>, tensor<3xi64>) -> tensor<?x5x1xf32>
func.func @main(%x: tensor<?x5x1xf32>, %s: tensor<1x3x1xf32>, %units: tensor<i32>, %zero: tensor<f32>) -> (tensor<?x5x1x1xf32>, tensor<?x5xf32>, tensor<3xf32>, tensor<?x?xf32>, tensor<?x1xf32>, tensor<?x5x1xf32>) {
  %axis = "tf.Const"() <{value = dense<-1> : tensor<i32>}> : () -> tensor<i32>
  %0 = "tf.ExpandDims"(%x, %axis) : (tensor<?x5x1xf32>, tensor<i32>) -> tensor<?x5x1x1xf32>
  %1 = "tf.Squeeze"(%x) <{squeeze_dims = [-1]}> : (tensor<?x5x1xf32>) -> tensor<?x5xf32>
  %2 = "tf.Squeeze"(%s) <{squeeze_dims = []}> : (tensor<1x3x1xf32>) -> tensor<3xf32>
  %shape = "tf.Shape"(%x) : (tensor<?x5x1xf32>) -> tensor<3xi32>
  %b0 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %b1 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
  %batch = "tf.StridedSlice"(%shape, %b0, %b1, %b1) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> : (tensor<3xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
  %dims = "tf.Pack"(%batch, %units) <{axis = 0 : i64}> : (tensor<i32>, tensor<i32>) -> tensor<2xi32>
  %3 = "tf.Fill"(%dims, %zero) : (tensor<2xi32>, tensor<f32>) -> tensor<?x?xf32>
  %4:5 = "tf.Unpack"(%x) <{axis = 1 : i64}> : (tensor<?x5x1xf32>) -> (tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x1xf32>)
  %5 = "tf.ZerosLike"(%x) : (tensor<?x5x1xf32>) -> tensor<?x5x1xf32>
  func.return %0, %1, %2, %3, %4#0, %5 : tensor<?x5x1x1xf32>, tensor<?x5xf32>, tensor<3xf32>, tensor<?x?xf32>, tensor<?x1xf32>, tensor<?x5x1xf32>
}

// -----

// Embedding's GatherV2 (axis operand, batch_dims) -> ov.gather; Cast -> ov.convert to the result
// type; Split (split_dim first) -> ov.split, SplitV -> ov.variadic_split; Slice ->
// ov.strided_slice; Mean/Sum/Max/Min -> ov.reduce_* with keep_dims.
// CHECK-LABEL: func.func @main
// CHECK:         ov.gather %table, %ids, %{{.*}} {ov.name = "GatherV2"} : (tensor<10x4xf32>, tensor<2x5xi32>, tensor<i32>) -> tensor<2x5x4xf32>
// CHECK:         ov.gather %e, %ids, %{{.*}} batch_dims = 1 {ov.name = "GatherV2_1"} : (tensor<2x3xf32>, tensor<2x5xi32>, tensor<i32>) -> tensor<2x5xf32>
// CHECK:         ov.convert %ids destination_type = f32 {ov.name = "Cast"} : (tensor<2x5xi32>) -> tensor<2x5xf32>
// CHECK:         ov.split %x, %{{.*}} num_splits = 2 {ov.name = "Split"} : (tensor<2x4xf32>, tensor<i32>) -> (tensor<2x2xf32>, tensor<2x2xf32>)
// CHECK:         ov.variadic_split %x, %{{.*}}, %{{.*}} {ov.name = "SplitV"} : (tensor<2x4xf32>, tensor<i32>, tensor<2xi32>) -> (tensor<2x1xf32>, tensor<2x3xf32>)
// CHECK:         ov.strided_slice %x, {{.*}} {ov.name = "Slice", end_mask = array<i64: 1, 0>} : (tensor<2x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x2xf32>
// CHECK:         ov.reduce_mean %x, %{{.*}} keep_dims = true {ov.name = "Mean"} : (tensor<2x4xf32>, tensor<1xi32>) -> tensor<2x1xf32>
// CHECK:         ov.reduce_sum %x, %{{.*}} {ov.name = "Sum"} : (tensor<2x4xf32>, tensor<1xi32>) -> tensor<2xf32>
// CHECK:         ov.reduce_max %x, %{{.*}} {ov.name = "Max"}
// CHECK:         ov.reduce_min %x, %{{.*}} {ov.name = "Min"}
func.func @main(%table: tensor<10x4xf32>, %ids: tensor<2x5xi32>, %e: tensor<2x3xf32>, %x: tensor<2x4xf32>) -> (tensor<2x5x4xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x2xf32>, tensor<2x1xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %zero = "tf.Const"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %one = "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %last = "tf.Const"() <{value = dense<-1> : tensor<1xi32>}> : () -> tensor<1xi32>
  %sizes = "tf.Const"() <{value = dense<[1, -1]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %begin = "tf.Const"() <{value = dense<[0, 1]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %size = "tf.Const"() <{value = dense<[-1, 2]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %0 = "tf.GatherV2"(%table, %ids, %zero) <{batch_dims = 0 : i64}> : (tensor<10x4xf32>, tensor<2x5xi32>, tensor<i32>) -> tensor<2x5x4xf32>
  %1 = "tf.GatherV2"(%e, %ids, %one) <{batch_dims = 1 : i64}> : (tensor<2x3xf32>, tensor<2x5xi32>, tensor<i32>) -> tensor<2x5xf32>
  %2 = "tf.Cast"(%ids) <{Truncate = false}> : (tensor<2x5xi32>) -> tensor<2x5xf32>
  %3:2 = "tf.Split"(%one, %x) <{num_split = 2 : i64}> : (tensor<i32>, tensor<2x4xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>)
  %4:2 = "tf.SplitV"(%x, %sizes, %one) : (tensor<2x4xf32>, tensor<2xi32>, tensor<i32>) -> (tensor<2x1xf32>, tensor<2x3xf32>)
  %5 = "tf.Slice"(%x, %begin, %size) : (tensor<2x4xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x2xf32>
  %6 = "tf.Mean"(%x, %last) <{keep_dims = true}> : (tensor<2x4xf32>, tensor<1xi32>) -> tensor<2x1xf32>
  %7 = "tf.Sum"(%x, %last) <{keep_dims = false}> : (tensor<2x4xf32>, tensor<1xi32>) -> tensor<2xf32>
  %8 = "tf.Max"(%x, %last) <{keep_dims = false}> : (tensor<2x4xf32>, tensor<1xi32>) -> tensor<2xf32>
  %9 = "tf.Min"(%x, %last) <{keep_dims = false}> : (tensor<2x4xf32>, tensor<1xi32>) -> tensor<2xf32>
  func.return %0, %1, %2, %3#1, %4#1, %5, %6, %7, %8, %9 : tensor<2x5x4xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<2x2xf32>, tensor<2x3xf32>, tensor<2x2xf32>, tensor<2x1xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

// Ops whose operands are all constants fold to one ov.constant (the shape arithmetic of a
// static batch). Dropout at inference is Identity; StopGradient and Snapshot forward too.
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %[[C:.*]] = ov.constant dense<0.000000e+00> : tensor<2x3xf32> {ov.name = "Fill"}
// CHECK-NEXT:    %[[A:.*]] = ov.add %x, %[[C]] {ov.name = "AddV2"}
// CHECK-NEXT:    func.return %[[A]]
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %shape = "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %b0 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %b1 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
  %units = "tf.Const"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
  %zero = "tf.Const"() <{value = dense<0.0> : tensor<f32>}> : () -> tensor<f32>
  %batch = "tf.StridedSlice"(%shape, %b0, %b1, %b1) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> : (tensor<2xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
  %dims = "tf.Pack"(%batch, %units) <{axis = 0 : i64}> : (tensor<i32>, tensor<i32>) -> tensor<2xi32>
  %0 = "tf.Fill"(%dims, %zero) : (tensor<2xi32>, tensor<f32>) -> tensor<2x3xf32>
  %1 = "tf.StopGradient"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = "tf.Snapshot"(%1) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = "tf.AddV2"(%2, %0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %3 : tensor<2x3xf32>
}

// -----

// Keras' Conv1D: ExpandDims, Conv2D (NHWC, HWIO filter; SAME -> same_upper), Squeeze, BiasAdd.
// The input goes to NCHW and the filter to OIHW, the result back to NHWC.
// CHECK-LABEL: func.func @main
// CHECK:         %[[X:.*]] = ov.unsqueeze %x, {{.*}} {ov.name = "ExpandDims"} : (tensor<2x5x4xf32>, tensor<1xi64>) -> tensor<2x1x5x4xf32>
// CHECK:         %[[P:.*]] = ov.constant dense<[0, 3, 1, 2]> : tensor<4xi64>
// CHECK:         %[[XT:.*]] = ov.transpose %[[X]], %[[P]] {ov.name = "Conv2D/input"} : (tensor<2x1x5x4xf32>, tensor<4xi64>) -> tensor<2x4x1x5xf32>
// CHECK:         %[[FT:.*]] = ov.transpose %w, {{.*}} {ov.name = "Conv2D/filter"} : (tensor<1x3x4x6xf32>, tensor<4xi64>) -> tensor<6x4x1x3xf32>
// CHECK:         %[[C:.*]] = ov.convolution %[[XT]], %[[FT]] {ov.name = "Conv2D/nchw", strides = array<i64: 1, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>, auto_pad = #ov<auto_pad same_upper>} : (tensor<2x4x1x5xf32>, tensor<6x4x1x3xf32>) -> tensor<2x6x1x3xf32>
// CHECK:         %[[Y:.*]] = ov.transpose %[[C]], {{.*}} {ov.name = "Conv2D"} : (tensor<2x6x1x3xf32>, tensor<4xi64>) -> tensor<2x1x3x6xf32>
// CHECK:         ov.squeeze %[[Y]], {{.*}} {ov.name = "Squeeze"} : (tensor<2x1x3x6xf32>, tensor<1xi64>) -> tensor<2x3x6xf32>
func.func @main(%x: tensor<2x5x4xf32>, %w: tensor<1x3x4x6xf32>) -> tensor<2x3x6xf32> {
  %axis = "tf.Const"() <{value = dense<-3> : tensor<i32>}> : () -> tensor<i32>
  %0 = "tf.ExpandDims"(%x, %axis) : (tensor<2x5x4xf32>, tensor<i32>) -> tensor<2x1x5x4xf32>
  %1 = "tf.Conv2D"(%0, %w) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "SAME", strides = [1, 1, 2, 1], use_cudnn_on_gpu = true}> : (tensor<2x1x5x4xf32>, tensor<1x3x4x6xf32>) -> tensor<2x1x3x6xf32>
  %2 = "tf.Squeeze"(%1) <{squeeze_dims = [-3]}> : (tensor<2x1x3x6xf32>) -> tensor<2x3x6xf32>
  func.return %2 : tensor<2x3x6xf32>
}
