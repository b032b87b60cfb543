// Why a function is not fused. Warnings: the function is left as it is, the others are fused.
// Errors (one chunk each): the pass fails and nothing changes. --verify-diagnostics checks each
// expected-warning and expected-error. See docs/passes.md for the list and the upstream behaviour.
// The functions with a warning are printed unchanged (KEPT).
// RUN: opt-tool %s --allow-unregistered-dialect --split-input-file --verify-diagnostics --prepare-composite-functions | filecheck %s --check-prefix=KEPT
// Without --verify-diagnostics an error is one line on stderr, exit code 1, no output.
// RUN: not opt-tool %S/Inputs/no-time-major.mlir --allow-unregistered-dialect --prepare-composite-functions 2>&1 | filecheck %s --check-prefix=FAIL
// Without --allow-unregistered-dialect the TensorFlow ops of a body cannot be read.
// RUN: not opt-tool %S/Inputs/no-time-major.mlir --prepare-composite-functions 2>&1 | filecheck %s --check-prefix=FLAG

// FAIL: no-time-major.mlir:3:1: error: the function has no tf.time_major attribute (a bool): the layout of the input ([time, batch, features] or [batch, time, features]) is unknown
// FAIL-NOT: builtin.module
// FLAG: no-time-major.mlir:4:10: error: operation 'tf.Add' is not registered: pass --allow-unregistered-dialect to read ops of dialects lowpass does not define (such as TensorFlow's "tf.*" ops in composite functions)
// FLAG-NOT: Traceback

// === Lingvo cells: upstream's warnings (args 0-3, 0-4 ranked) and the signature checks ===

// expected-warning @+1 {{we cannot fuse this lstm func because all the inputs have not ranked tensor type.}}
func.func @lstmcellsimple(%arg0: tensor<*xf32>, %arg1: tensor<*xf32>, %arg2: tensor<*xf32>, %arg3: tensor<*xf32>, %arg4: tensor<*xf32>) -> tensor<*xf32> attributes  {tf._implements = "LSTMCellSimple", tf._reference = "mlir"} {
    %0 = "tf.BatchMatMulV2"(%arg3, %arg1) {adj_x = false, adj_y = false} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
    func.return %0 : tensor<*xf32>
}

// expected-warning @+1 {{we cannot fuse this lstm func because all the inputs have not ranked tensor type.}}
func.func @layernormalizedlstmcellsimple(%arg0: tensor<*xf32>, %arg1: tensor<*xf32>, %arg2: tensor<*xf32>, %arg3: tensor<*xf32>, %arg4: tensor<*xf32>) -> tensor<*xf32> attributes  {tf._implements = "LayerNormalizedLstmCellSimple", tf._reference = "mlir"} {
    %0 = "tf.BatchMatMulV2"(%arg3, %arg1) {adj_x = false, adj_y = false} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
    func.return %0 : tensor<*xf32>
}

// expected-warning @+1 {{we cannot fuse this lstm func because it has 4 arguments, LayerNormalizedLstmCellSimple takes 5 (input, weight, bias, projection, layer_norm_scale)}}
func.func private @ln_too_few_args(%arg0: tensor<1x3xf32>, %arg1: tensor<5x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<4x2xf32>) -> tensor<1x2xf32> attributes  {tf._implements = "LayerNormalizedLstmCellSimple"}

// expected-warning @+1 {{we cannot fuse this lstm func because it has 2 results, LSTMCellSimple returns 1 (the output)}}
func.func private @two_results(%arg0: tensor<1x3xf32>, %arg1: tensor<5x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<4x2xf32>) -> (tensor<1x2xf32>, tensor<1x4xf32>) attributes  {tf._implements = "LSTMCellSimple"}

// expected-warning @+1 {{we cannot fuse this lstm func because the weight, bias, projection shapes are not static (the gates are cut out of them at fixed offsets)}}
func.func private @dynamic_weight(%arg0: tensor<1x3xf32>, %arg1: tensor<?x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<4x2xf32>) -> tensor<1x2xf32> attributes  {tf._implements = "LSTMCellSimple"}

// expected-warning @+1 {{we cannot fuse this lstm func because its interface options are unknown: 'Peephole' (known: 'CoupleInputForgetGates')}}
func.func private @unknown_option(%arg0: tensor<1x3xf32>, %arg1: tensor<5x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<4x2xf32>) -> tensor<1x2xf32> attributes  {tf._implements = "LSTMCellSimple,Peephole"}

// expected-warning @+1 {{'LSTMCellSimple,CoupleInputForgetGates' is not fused: TensorFlow Lite compares tf._implements with 'LSTMCellSimple' exactly; pass fuse-cifg=true to fuse this coupled input-forget gate (CIFG) cell}}
func.func private @cifg(%arg0: tensor<1x3xf32>, %arg1: tensor<5x12xf32>, %arg2: tensor<12xf32>, %arg3: tensor<4x2xf32>) -> tensor<1x2xf32> attributes  {tf._implements = "LSTMCellSimple,CoupleInputForgetGates"}

// expected-warning @+1 {{we cannot fuse this lstm func because its element type is f16: the fused op's kernel is f32 only}}
func.func private @lingvo_f16(%arg0: tensor<1x3xf16>, %arg1: tensor<5x16xf16>, %arg2: tensor<16xf16>, %arg3: tensor<4x2xf16>) -> tensor<1x2xf16> attributes  {tf._implements = "LSTMCellSimple"}

// Nothing of the above changed:
// KEPT-LABEL: func.func @lstmcellsimple(
// KEPT-NEXT:    "tf.BatchMatMulV2"
// KEPT-LABEL: func.func @layernormalizedlstmcellsimple(
// KEPT-NEXT:    "tf.BatchMatMulV2"
// KEPT-NOT:   tfl.

// -----

// === embedding_matmul: upstream's warnings, and what tfl.embedding_lookup needs ===

// Upstream's test case, unranked: TensorFlow Lite fuses it; tfl.embedding_lookup needs ranks.
// expected-warning @+1 {{we cannot fuse this embedding func because the table and the ids are not ranked tensors (tfl.embedding_lookup needs their ranks)}}
func.func @embedding(%arg0: tensor<*xf32>, %arg1: tensor<*xi32>) -> tensor<*xf32> attributes  {tf._implements = "embedding_matmul", tf._reference = "mlir"} {
  %0 = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %1 = "tf.ExpandDims"(%arg1, %0) : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
  %2 = "tf.Const"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %3 = "tf.Const"() {value = dense<4096> : tensor<i32>} : () -> tensor<i32>
  %4 = "tf.Const"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %5 = "tf.Range"(%4, %3, %2) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4096xi32>
  %6 = "tf.Equal"(%1, %5) : (tensor<*xi32>, tensor<4096xi32>) -> tensor<*xi1>
  %7 = "tf.Cast"(%6) : (tensor<*xi1>) -> tensor<*xf32>
  %8 = "tf.BatchMatMulV2"(%7, %arg0) {adj_x = false, adj_y = false} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  func.return %8 : tensor<*xf32>
}

// expected-warning @+1 {{Invalid number of arguments in the embedding matmul composite function}}
func.func private @embedding_one_arg(%arg0: tensor<10x4xf32>) -> tensor<3x4xf32> attributes  {tf._implements = "embedding_matmul"}

// expected-warning @+1 {{Invalid number of results in the embedding matmul composite function}}
func.func private @embedding_two_results(%arg0: tensor<10x4xf32>, %arg1: tensor<3xi32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) attributes  {tf._implements = "embedding_matmul"}

// expected-warning @+1 {{we cannot fuse this embedding func because the ids are i64, tfl.embedding_lookup takes i32 ids}}
func.func private @embedding_i64_ids(%arg0: tensor<10x4xf32>, %arg1: tensor<3xi64>) -> tensor<3x4xf32> attributes  {tf._implements = "embedding_matmul"}

// KEPT-LABEL: func.func @embedding(
// KEPT-SAME:    tf._implements = "embedding_matmul"
// KEPT-NEXT:    "tf.Const"

// -----

// === Keras LSTM / GRU: upstream's warnings and the added ones ===

// Upstream's @inference_standard_lstm_with_mask (silent upstream): 7 arguments.
// expected-warning @+1 {{we cannot fuse this lstm func because it takes a mask input (argument 6), which the fused op does not support}}
func.func @inference_standard_lstm_with_mask(%arg0: tensor<?x8x8xf32>, %arg1: tensor<8x10xf32>, %arg2: tensor<8x10xf32>, %arg3: tensor<8x40xf32>, %arg4: tensor<10x40xf32>, %arg5: tensor<40xf32>, %arg6: tensor<?x8xi1>) -> (tensor<8x10xf32>, tensor<?x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_b4e9f0e7-ac55-42bc-8ef2-8496419a608c", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = true} {
  %0 = "tf.BatchMatMulV2"(%arg0, %arg3) {adj_x = false, adj_y = false} : (tensor<?x8x8xf32>, tensor<8x40xf32>) -> tensor<?x8x40xf32>
  %4 = "tf.Add"(%0, %arg2) : (tensor<?x8x40xf32>, tensor<8x10xf32>) -> tensor<?x8x10xf32>
  %5 = "tf.Add"(%arg1, %arg2) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
  %6 = "tf.Const"() {value = dense<1.000000e+00> : tensor<f32>} : () -> tensor<f32>
  func.return %5, %4, %5, %5, %6 : tensor<8x10xf32>, tensor<?x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>
}

// Upstream's @inference_cannot_fuse: the caller uses new_h (allowed here), but the states have
// a dynamic batch.
func.func @inference_cannot_fuse(%arg0: tensor<?x8x8xf32>, %arg1: tensor<?x10xf32>, %arg2: tensor<?x10xf32>, %arg3: tensor<8x40xf32>, %arg4: tensor<10x40xf32>, %arg5: tensor<40xf32>) {
  %0 = "tf.Const"() {_output_shapes = ["tfshape$"], device = "", dtype = f32, value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %1:5 = "tf.PartitionedCall"(%arg0, %arg1, %arg2, %arg3, %arg4, %arg5) {config = "", config_proto = "", executor_type = "", f = @inference_standard_lstm_time_major_cannot_fuse} : (tensor<?x8x8xf32>, tensor<?x10xf32>, tensor<?x10xf32>, tensor<8x40xf32>, tensor<10x40xf32>, tensor<40xf32>) -> (tensor<?x10xf32>, tensor<?x8x10xf32>, tensor<?x10xf32>, tensor<?x10xf32>, tensor<f32>)
  %2 = "tf.Add"(%0, %1#2) : (tensor<f32>, tensor<?x10xf32>) -> tensor<?x10xf32>
  func.return
}

// expected-warning @+1 {{we cannot fuse this lstm func because the batch size is not fixed, please consider setting fixed batch size like https://github.com/tensorflow/tensorflow/blob/master/tensorflow/lite/examples/experimental_new_converter/Keras_LSTM_fusion_Codelab.ipynb}}
func.func @inference_standard_lstm_time_major_cannot_fuse(%arg0: tensor<?x8x8xf32>, %arg1: tensor<?x10xf32>, %arg2: tensor<?x10xf32>, %arg3: tensor<8x40xf32>, %arg4: tensor<10x40xf32>, %arg5: tensor<40xf32>) -> (tensor<?x10xf32>, tensor<?x8x10xf32>, tensor<?x10xf32>, tensor<?x10xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_b4e9f0e7-ac55-42bc-8ef2-8496419a608c", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = true} {
  %0 = "tf.BatchMatMulV2"(%arg0, %arg3) {adj_x = false, adj_y = false} : (tensor<?x8x8xf32>, tensor<8x40xf32>) -> tensor<?x8x40xf32>
  %4 = "tf.Add"(%0, %arg2) : (tensor<?x8x40xf32>, tensor<?x10xf32>) -> tensor<?x8x10xf32>
  %5 = "tf.Add"(%arg1, %arg2) : (tensor<?x10xf32>, tensor<?x10xf32>) -> tensor<?x10xf32>
  %6 = "tf.Const"() {value = dense<1.000000e+00> : tensor<f32>} : () -> tensor<f32>
  func.return %5, %4, %5, %5, %6 : tensor<?x10xf32>, tensor<?x8x10xf32>, tensor<?x10xf32>, tensor<?x10xf32>, tensor<f32>
}

// expected-warning @+1 {{we cannot fuse this lstm func because the weight & bias are not fixed, please consider setting fixed batch size like https://github.com/tensorflow/tensorflow/blob/master/tensorflow/lite/examples/experimental_new_converter/Keras_LSTM_fusion_Codelab.ipynb}}
func.func private @dynamic_weights(%arg0: tensor<?x8x8xf32>, %arg1: tensor<8x10xf32>, %arg2: tensor<8x10xf32>, %arg3: tensor<?x40xf32>, %arg4: tensor<10x40xf32>, %arg5: tensor<40xf32>) -> (tensor<8x10xf32>, tensor<?x8x10xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_0", tf.go_backwards = false, tf.time_major = true}

// expected-warning @+1 {{we cannot fuse this lstm func because all the inputs have not ranked tensor type.}}
func.func private @unranked_input(%arg0: tensor<*xf32>, %arg1: tensor<8x10xf32>, %arg2: tensor<8x10xf32>, %arg3: tensor<8x40xf32>, %arg4: tensor<10x40xf32>, %arg5: tensor<40xf32>) -> (tensor<8x10xf32>, tensor<*xf32>, tensor<8x10xf32>, tensor<8x10xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_0", tf.go_backwards = false, tf.time_major = true}

// Upstream's @func_with_call (silent upstream): a one-argument function named lstm_*.
// expected-warning @+1 {{we cannot fuse this lstm func because it has 1 arguments, the Keras interface has 6 (inputs, init_h, init_c, kernel, recurrent_kernel, bias)}}
func.func private @some_func(%arg0: tensor<100xf32>) -> tensor<100xf32> attributes {tf.api_implements = "lstm_b4e9f0e7-ac55-42bc-8ef2-8496419a608c"}
func.func @func_with_call(%arg0: tensor<100xf32>) -> tensor<100xf32> {
  %0 = func.call @some_func(%arg0) : (tensor<100xf32>) -> tensor<100xf32>
  func.return %0 : tensor<100xf32>
}

// A call that does not agree with the function on the number of results.
// expected-warning-re @+1 {{we cannot fuse this lstm func because the call at {{.*}}refusals.mlir:137:3 has 2 results, the function 5}}
func.func private @called_with_two_results(%arg0: tensor<3x2x4xf32>, %arg1: tensor<2x1xf32>, %arg2: tensor<2x1xf32>, %arg3: tensor<4x4xf32>, %arg4: tensor<1x4xf32>, %arg5: tensor<4xf32>) -> (tensor<2x1xf32>, tensor<3x2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_1", tf.time_major = true}
func.func @two_result_caller(%x: tensor<3x2x4xf32>, %s: tensor<2x1xf32>, %k: tensor<4x4xf32>, %r: tensor<1x4xf32>, %b: tensor<4xf32>) {
  %0:2 = "tf.PartitionedCall"(%x, %s, %s, %k, %r, %b) {f = @called_with_two_results} : (tensor<3x2x4xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<4x4xf32>, tensor<1x4xf32>, tensor<4xf32>) -> (tensor<2x1xf32>, tensor<3x2x1xf32>)
  func.return
}

// expected-warning @+1 {{we cannot fuse this gru func because it takes a mask input (argument 5), which the fused op does not support}}
func.func private @gru_with_mask(%arg0: tensor<5x8x6xf32>, %arg1: tensor<8x10xf32>, %arg2: tensor<6x30xf32>, %arg3: tensor<10x30xf32>, %arg4: tensor<2x30xf32>, %arg5: tensor<8x5xi1>) -> (tensor<8x10xf32>, tensor<5x8x10xf32>, tensor<8x10xf32>, tensor<f32>) attributes {tf.api_implements = "gru_0", tf.time_major = true}

// expected-warning @+1 {{we cannot fuse this gru func because the batch size is not fixed, please consider setting fixed batch size like https://github.com/tensorflow/tensorflow/blob/master/tensorflow/lite/examples/experimental_new_converter/Keras_LSTM_fusion_Codelab.ipynb}}
func.func private @gru_dynamic_batch(%arg0: tensor<5x?x6xf32>, %arg1: tensor<?x10xf32>, %arg2: tensor<6x30xf32>, %arg3: tensor<10x30xf32>, %arg4: tensor<2x30xf32>) -> (tensor<?x10xf32>, tensor<5x?x10xf32>, tensor<?x10xf32>, tensor<f32>) attributes {tf.api_implements = "gru_0", tf.time_major = true}

// expected-warning @+1 {{we cannot fuse this lstm func because its element type is bf16: the fused op's kernel is f32 only}}
func.func private @keras_bf16(%arg0: tensor<3x2x4xbf16>, %arg1: tensor<2x1xbf16>, %arg2: tensor<2x1xbf16>, %arg3: tensor<4x4xbf16>, %arg4: tensor<1x4xbf16>, %arg5: tensor<4xbf16>) -> (tensor<2x1xbf16>, tensor<3x2x1xbf16>, tensor<2x1xbf16>, tensor<2x1xbf16>, tensor<f32>) attributes {tf.api_implements = "lstm_0", tf.time_major = true}

// KEPT-LABEL: func.func @inference_standard_lstm_with_mask(
// KEPT-NEXT:    "tf.BatchMatMulV2"
// KEPT-LABEL: func.func @inference_standard_lstm_time_major_cannot_fuse(
// KEPT-NEXT:    "tf.BatchMatMulV2"

// -----

// === Out of scope: composite functions TensorFlow Lite fuses and lowpass does not ===

// expected-warning @+1 {{lowpass does not fuse 'non_max_suppression_padded_v2' composite functions (out of scope): the function is left unchanged}}
func.func private @nms_padded(%arg0: tensor<100x4xf32>, %arg1: tensor<100xf32>, %arg2: tensor<i32>, %arg3: tensor<f32>, %arg4: tensor<f32>) -> (tensor<1x10xi32>, tensor<i32>) attributes  {tf._implements = "non_max_suppression_padded_v2", tf._reference = "mlir"}

// expected-warning @+1 {{lowpass does not fuse 'addons:DenseImageWarp' composite functions (out of scope): the function is left unchanged}}
func.func private @dense_image_warp(%arg0: tensor<2x4x4x1xf32>, %arg1: tensor<2x4x4x2xf32>) -> tensor<2x4x4x1xf32> attributes {tf._implements = "addons:DenseImageWarp"}

// expected-warning @+1 {{lowpass does not fuse 'TFLite_Detection_PostProcess' composite functions (tf._implements function attributes are out of scope): the function is left unchanged}}
func.func private @tflite_custom_nms(%arg0: tensor<1x100x4xf32>, %arg1: tensor<1x100x91xf32>, %arg2: tensor<100x4xf32>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) attributes  {tf._implements = #tf_type.func<@"TFLite_Detection_PostProcess", {max_detections = 10 : i64, max_classes_per_detection = 1 : i64, num_classes = 91 : i64, nms_score_threshold = 0.5 : f32, nms_iou_threshold = 0.6 : f32, y_scale = 5.0 : f32, x_scale = 10.0 : f32, h_scale = 1.0 : f32, w_scale = 2.0 : f32, use_regular_nms = 0 : i1}>, tf._reference = "mlir"}

// A string tf._implements is final (TensorFlow Lite's precedence): tf.api_implements is not read.
func.func private @implements_wins(%arg0: tensor<3x2x4xf32>, %arg1: tensor<2x1xf32>, %arg2: tensor<2x1xf32>, %arg3: tensor<4x4xf32>, %arg4: tensor<1x4xf32>, %arg5: tensor<4xf32>) -> (tensor<2x1xf32>, tensor<3x2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<f32>) attributes {tf._implements = "something_else", tf.api_implements = "lstm_1", tf.time_major = true}
// KEPT-LABEL: func.func private @implements_wins(
// KEPT-SAME:    tf.time_major = true}{{$}}

// -----

// === Bidirectional: a pair that cannot be one op becomes two unidirectional ops ===

func.func private @fw(%arg0: tensor<3x2x4xf32>, %arg1: tensor<2x1xf32>, %arg2: tensor<2x1xf32>, %arg3: tensor<4x4xf32>, %arg4: tensor<1x4xf32>, %arg5: tensor<4xf32>) -> (tensor<2x1xf32>, tensor<3x2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_fw", tf.go_backwards = false, tf.time_major = true}
func.func private @bw(%arg0: tensor<3x2x4xf32>, %arg1: tensor<2x2xf32>, %arg2: tensor<2x2xf32>, %arg3: tensor<4x8xf32>, %arg4: tensor<2x8xf32>, %arg5: tensor<8xf32>) -> (tensor<2x2xf32>, tensor<3x2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_bw", tf.go_backwards = true, tf.time_major = true}
func.func @different_units(%x: tensor<3x2x4xf32>, %s: tensor<2x1xf32>, %k: tensor<4x4xf32>, %r: tensor<1x4xf32>, %b: tensor<4xf32>, %s2: tensor<2x2xf32>, %k2: tensor<4x8xf32>, %r2: tensor<2x8xf32>, %b2: tensor<8xf32>) -> (tensor<3x2x1xf32>, tensor<3x2x2xf32>) {
  // expected-warning @+1 {{the calls of @fw and of its go_backwards twin over the same input are not fused into one tfl.bidirectional_sequence_lstm (their arguments differ: (tensor<3x2x4xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<4x4xf32>, tensor<1x4xf32>, tensor<4xf32>) and (tensor<3x2x4xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<4x8xf32>, tensor<2x8xf32>, tensor<8xf32>)): they become two tfl.unidirectional_sequence_lstm}}
  %0:5 = func.call @fw(%x, %s, %s, %k, %r, %b) : (tensor<3x2x4xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<4x4xf32>, tensor<1x4xf32>, tensor<4xf32>) -> (tensor<2x1xf32>, tensor<3x2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<f32>)
  %1:5 = func.call @bw(%x, %s2, %s2, %k2, %r2, %b2) : (tensor<3x2x4xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<4x8xf32>, tensor<2x8xf32>, tensor<8xf32>) -> (tensor<2x2xf32>, tensor<3x2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<f32>)
  func.return %0#1, %1#1 : tensor<3x2x1xf32>, tensor<3x2x2xf32>
}
// KEPT-LABEL: func.func @different_units(
// KEPT-NEXT:    func.call @fw(
// KEPT-NEXT:    func.call @bw(

// ==== Errors: one chunk each ===================================================================

// -----

// Lingvo: upstream's checks after erasing the body (pass failure there).
// expected-error @+1 {{The weight tensor was not of rank 2}}
func.func private @weight_rank_3(%arg0: tensor<1x3xf32>, %arg1: tensor<5x4x4xf32>, %arg2: tensor<16xf32>, %arg3: tensor<4x2xf32>) -> tensor<1x2xf32> attributes {tf._implements = "LSTMCellSimple"}

// -----

// expected-error @+1 {{Invalid dimension 1 of weight tensor, should be divisible by the number of gates (4), got [5, 15]}}
func.func private @weight_not_divisible(%arg0: tensor<1x3xf32>, %arg1: tensor<5x15xf32>, %arg2: tensor<16xf32>, %arg3: tensor<4x2xf32>) -> tensor<1x2xf32> attributes {tf._implements = "LSTMCellSimple"}

// -----

// expected-error @+1 {{The layer_norm_scale tensor was not of rank 1}}
func.func private @scale_rank_2(%arg0: tensor<1x3xf32>, %arg1: tensor<5x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<4x2xf32>, %arg4: tensor<2x8xf32>) -> tensor<1x2xf32> attributes {tf._implements = "LayerNormalizedLstmCellSimple"}

// -----

// Lingvo: what TensorFlow Lite turns into zero constants of a wrong shape or a wrong op.
// expected-error @+1 {{the projection must have n_cell = 4 rows (the weight's 16 columns / 4 gates), got [3, 2]}}
func.func private @projection_rows(%arg0: tensor<1x3xf32>, %arg1: tensor<5x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<3x2xf32>) -> tensor<1x2xf32> attributes {tf._implements = "LSTMCellSimple"}

// -----

// expected-error @+1 {{the weight has 1 rows, fewer than n_output = 2: its rows are the input rows followed by n_output recurrent rows}}
func.func private @weight_too_short(%arg0: tensor<1x3xf32>, %arg1: tensor<1x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<4x2xf32>) -> tensor<1x2xf32> attributes {tf._implements = "LSTMCellSimple"}

// -----

// expected-error @+1 {{the input has 4 features, the weight's 5 rows minus n_output = 2 leave n_input = 3}}
func.func private @input_features(%arg0: tensor<1x4xf32>, %arg1: tensor<5x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<4x2xf32>) -> tensor<1x2xf32> attributes {tf._implements = "LSTMCellSimple"}

// -----

// expected-error @+1 {{the bias must have rank 1 ([4 * n_cell]), got [4, 4]}}
func.func private @bias_rank_2(%arg0: tensor<1x3xf32>, %arg1: tensor<5x16xf32>, %arg2: tensor<4x4xf32>, %arg3: tensor<4x2xf32>) -> tensor<1x2xf32> attributes {tf._implements = "LSTMCellSimple"}

// -----

// expected-error @+1 {{the input must have rank 2 ([1, n_input]), got tensor<3xf32>}}
func.func private @input_rank_1(%arg0: tensor<3xf32>, %arg1: tensor<5x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<4x2xf32>) -> tensor<1x2xf32> attributes {tf._implements = "LSTMCellSimple"}

// -----

// expected-error @+1 {{the result type tensor<1x3xf32> does not match the fused step's output tensor<1x2xf32>}}
func.func private @lingvo_result(%arg0: tensor<1x3xf32>, %arg1: tensor<5x16xf32>, %arg2: tensor<16xf32>, %arg3: tensor<4x2xf32>) -> tensor<1x3xf32> attributes {tf._implements = "LSTMCellSimple"}

// -----

// expected-error @+1 {{the input, weight, bias, projection must have one element type, got tensor<1x3xf32>, tensor<5x16xf16>, tensor<16xf32>, tensor<4x2xf32>}}
func.func private @lingvo_f16(%arg0: tensor<1x3xf32>, %arg1: tensor<5x16xf16>, %arg2: tensor<16xf32>, %arg3: tensor<4x2xf32>) -> tensor<1x2xf32> attributes {tf._implements = "LSTMCellSimple"}

// -----

// Keras: upstream's failures after erasing the body (silent there).
// expected-error @+1 {{the Keras LSTM interface has 5 results (last_output, outputs, new_h, new_c, runtime), the function has 4}}
func.func private @four_results(%arg0: tensor<3x2x4xf32>, %arg1: tensor<2x1xf32>, %arg2: tensor<2x1xf32>, %arg3: tensor<4x4xf32>, %arg4: tensor<1x4xf32>, %arg5: tensor<4xf32>) -> (tensor<2x1xf32>, tensor<3x2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>) attributes {tf.api_implements = "lstm_0", tf.time_major = true}

// -----

// expected-error @+1 {{the function has no tf.time_major attribute (a bool): the layout of the input ([time, batch, features] or [batch, time, features]) is unknown}}
func.func private @no_time_major(%arg0: tensor<3x2x4xf32>, %arg1: tensor<2x1xf32>, %arg2: tensor<2x1xf32>, %arg3: tensor<4x4xf32>, %arg4: tensor<1x4xf32>, %arg5: tensor<4xf32>) -> (tensor<2x1xf32>, tensor<3x2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_0", tf.go_backwards = true}

// -----

// expected-error @+1 {{The weight should be rank of 2}}
func.func private @kernel_rank_3(%arg0: tensor<3x2x4xf32>, %arg1: tensor<2x1xf32>, %arg2: tensor<2x1xf32>, %arg3: tensor<4x1x4xf32>, %arg4: tensor<1x4xf32>, %arg5: tensor<4xf32>) -> (tensor<2x1xf32>, tensor<3x2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_0", tf.time_major = true}

// -----

// expected-error @+1 {{the kernel [4, 6] cannot be split into 4 gates: dimension 1 is not divisible by 4}}
func.func private @kernel_not_divisible(%arg0: tensor<3x2x4xf32>, %arg1: tensor<2x1xf32>, %arg2: tensor<2x1xf32>, %arg3: tensor<4x6xf32>, %arg4: tensor<1x4xf32>, %arg5: tensor<4xf32>) -> (tensor<2x1xf32>, tensor<3x2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_0", tf.time_major = true}

// -----

// Keras: inconsistent signatures (an invalid fused op otherwise).
// expected-error @+1 {{the recurrent kernel must be [units, 4 * units] = [1, 4] for the kernel [4, 4], got [2, 4]}}
func.func private @recurrent_shape(%arg0: tensor<3x2x4xf32>, %arg1: tensor<2x1xf32>, %arg2: tensor<2x1xf32>, %arg3: tensor<4x4xf32>, %arg4: tensor<2x4xf32>, %arg5: tensor<4xf32>) -> (tensor<2x1xf32>, tensor<3x2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_0", tf.time_major = true}

// -----

// expected-error @+1 {{the recurrent kernel must be [units, 4] (IndyLSTM) = [1, 4] for the kernel [4, 4], got [1, 3]}}
func.func private @indy_recurrent_shape(%arg0: tensor<3x2x4xf32>, %arg1: tensor<2x1xf32>, %arg2: tensor<2x1xf32>, %arg3: tensor<4x4xf32>, %arg4: tensor<1x3xf32>, %arg5: tensor<4xf32>) -> (tensor<2x1xf32>, tensor<3x2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<f32>) attributes {tf.api_implements = "indy_lstm_0", tf.time_major = true}

// -----

// expected-error @+1 {{the bias must be [4 * units] = [4], got [8]}}
func.func private @bias_shape(%arg0: tensor<3x2x4xf32>, %arg1: tensor<2x1xf32>, %arg2: tensor<2x1xf32>, %arg3: tensor<4x4xf32>, %arg4: tensor<1x4xf32>, %arg5: tensor<8xf32>) -> (tensor<2x1xf32>, tensor<3x2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_0", tf.time_major = true}

// -----

// expected-error @+1 {{the input has 5 features but the kernel [4, 4] has 4 rows}}
func.func private @kernel_rows(%arg0: tensor<3x2x5xf32>, %arg1: tensor<2x1xf32>, %arg2: tensor<2x1xf32>, %arg3: tensor<4x4xf32>, %arg4: tensor<1x4xf32>, %arg5: tensor<4xf32>) -> (tensor<2x1xf32>, tensor<3x2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_0", tf.time_major = true}

// -----

// expected-error @+1 {{init_c must be [batch, units] = [2, 1], got [3, 1]}}
func.func private @init_c_shape(%arg0: tensor<3x2x4xf32>, %arg1: tensor<2x1xf32>, %arg2: tensor<3x1xf32>, %arg3: tensor<4x4xf32>, %arg4: tensor<1x4xf32>, %arg5: tensor<4xf32>) -> (tensor<2x1xf32>, tensor<3x2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_0", tf.time_major = true}

// -----

// expected-error @+1 {{the input must have rank 3 ([time, batch, features]), got tensor<3x4xf32>}}
func.func private @input_rank_2(%arg0: tensor<3x4xf32>, %arg1: tensor<2x1xf32>, %arg2: tensor<2x1xf32>, %arg3: tensor<4x4xf32>, %arg4: tensor<1x4xf32>, %arg5: tensor<4xf32>) -> (tensor<2x1xf32>, tensor<3x2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_0", tf.time_major = true}

// -----

// expected-error @+1 {{result 'outputs' is declared tensor<2x3x1xf32>, the fused op computes tensor<3x2x1xf32>}}
func.func private @declared_sequence(%arg0: tensor<3x2x4xf32>, %arg1: tensor<2x1xf32>, %arg2: tensor<2x1xf32>, %arg3: tensor<4x4xf32>, %arg4: tensor<1x4xf32>, %arg5: tensor<4xf32>) -> (tensor<2x1xf32>, tensor<2x3x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<f32>) attributes {tf.api_implements = "lstm_0", tf.time_major = true}

// -----

// expected-error @+1 {{result 'runtime' must be a static or unranked float tensor (Keras returns the constant 1.0), got tensor<i32>}}
func.func private @runtime_i32(%arg0: tensor<3x2x4xf32>, %arg1: tensor<2x1xf32>, %arg2: tensor<2x1xf32>, %arg3: tensor<4x4xf32>, %arg4: tensor<1x4xf32>, %arg5: tensor<4xf32>) -> (tensor<2x1xf32>, tensor<3x2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<i32>) attributes {tf.api_implements = "lstm_0", tf.time_major = true}

// -----

// Keras GRU: a 1-D bias (Keras' reset_before GRU never uses this function).
// expected-error @+1 {{the bias must be [2, 3 * units] (input and recurrent bias rows) = [2, 30], got [30]}}
func.func private @gru_bias_rank_1(%arg0: tensor<5x8x6xf32>, %arg1: tensor<8x10xf32>, %arg2: tensor<6x30xf32>, %arg3: tensor<10x30xf32>, %arg4: tensor<30xf32>) -> (tensor<8x10xf32>, tensor<5x8x10xf32>, tensor<8x10xf32>, tensor<f32>) attributes {tf.api_implements = "gru_0", tf.time_major = true}

// -----

// embedding_matmul: a result the lookup cannot produce.
// expected-error @+1 {{the result type tensor<3x5xf32> does not match the lookup of ids tensor<3xi32> in table tensor<10x4xf32>: expected tensor<3x4xf32>}}
func.func private @embedding_result(%arg0: tensor<10x4xf32>, %arg1: tensor<3xi32>) -> tensor<3x5xf32> attributes {tf._implements = "embedding_matmul"}
