// Every case reshapes its input X to [1, 1, 16] (OpenVINO's LowLatency2 step 2: sequence length 1).
// --verify-diagnostics checks each case's expected-error (and note); the cases that reshape
// print their module (CHECK).
// RUN: opt-tool %s --split-input-file --verify-diagnostics --ov-reshape='inputs="X:1x1x16"' | filecheck %s
// The first case cannot be reshaped: exit code 1, the diagnostic on stderr, no output.
// RUN: not opt-tool %s --split-input-file --ov-reshape='inputs="X:1x1x16"' 2>&1 | filecheck %s --check-prefix=ERR
// Replacing the constant that hard-codes the shape, as the diagnostic suggests, fixes it
// (Inputs/reshape-replace-constants.mlir: the first case again, and one without that constant).
// RUN: opt-tool %S/Inputs/reshape-replace-constants.mlir --split-input-file --verify-diagnostics -p 'ov-reshape{inputs="X:1x1x16" replace-constants="seq/shape:-1x16"}' | filecheck %s --check-prefix=FIX
// Bad option values.
// RUN: not opt-tool %s --split-input-file --ov-reshape='inputs="X1x1x16"' 2>&1 | filecheck %s --check-prefix=SYNTAX1
// RUN: not opt-tool %s --split-input-file --ov-reshape='inputs="X:1xAx16"' 2>&1 | filecheck %s --check-prefix=SYNTAX2
// RUN: not opt-tool %s --split-input-file --ov-reshape='inputs="X:1x1x16" replace-constants="seq/shape:1xax16"' 2>&1 | filecheck %s --check-prefix=SYNTAX3
// Several inputs in one option, a dynamic dim (Inputs/reshape-dynamic.mlir: the TensorIterator
// case below, and a model without the second input).
// RUN: opt-tool %S/Inputs/reshape-dynamic.mlir --split-input-file --verify-diagnostics --ov-reshape='inputs="X:?x1x16","H0:1x16"' | filecheck %s --check-prefix=DYN

// SYNTAX1: ov-reshape: error: bad inputs entry 'X1x1x16': expected NAME:VALUES such as X:1x1x16 (quote it in the pass options: inputs="X:1x1x16")
// SYNTAX2: ov-reshape: error: bad inputs entry 'X:1xAx16': 'A' is not a dimension (a non-negative integer or ?)
// SYNTAX3: ov-reshape: error: bad replace-constants entry 'seq/shape:1xax16': '1xax16' is not a list of integers such as 1x-1x10

// FIX-LABEL:  func.func @hard_coded
// FIX-SAME:     (%x: tensor<1x1x16xf32> {ov.name = "X"}) -> tensor<1x16xf32>
// FIX-NEXT:     %s = ov.constant dense<[-1, 16]> : tensor<2xi64> {ov.name = "seq/shape"}
// FIX-NEXT:     %y = ov.reshape %x, %s special_zero = false {ov.name = "seq/squeeze"} : (tensor<1x1x16xf32>, tensor<2xi64>) -> tensor<1x16xf32>
// FIX-NEXT:     %r = ov.relu %y : (tensor<1x16xf32>) -> tensor<1x16xf32>
// FIX-NEXT:     func.return %r : tensor<1x16xf32>
// DYN-LABEL:   func.func @tensor_iterator
// DYN-SAME:      (%x: tensor<?x1x16xf32> {ov.name = "X"}, %h0: tensor<1x16xf32> {ov.name = "H0"}) -> (tensor<1x16xf32>, tensor<?x1x16xf32>)

// A Reshape whose constant target holds the old sequence length (a known limitation of OpenVINO's Model.reshape):
// the diagnostic names the constant and a replacement that works; the module is not changed.
func.func @hard_coded(%x: tensor<2x1x16xf32> {ov.name = "X"}) -> tensor<2x16xf32> {
  // ERR:        reshape.mlir:[[# @LINE + 7]]:3: error: 'ov.reshape' op "seq/squeeze" cannot reshape [1, 1, 16] (16 elements) to [2, 16] (32 elements) (after reshape: input 'X' [2, 1, 16] -> [1, 1, 16])
  // ERR-NEXT:   reshape.mlir:[[# @LINE + 4]]:3: note: the target shape of 'ov.reshape' "seq/squeeze" comes from ov.constant "seq/shape" = [2, 16] : tensor<2xi64>, which may hard-code a shape; replace its values with the pass option replace-constants="seq/shape:-1x16"
  // ERR-NOT:    builtin.module
  // ERR-NOT:    Traceback
  // expected-note @+1 {{the target shape of 'ov.reshape' "seq/squeeze" comes from ov.constant "seq/shape" = [2, 16] : tensor<2xi64>, which may hard-code a shape; replace its values with the pass option replace-constants="seq/shape:-1x16"}}
  %s = ov.constant dense<[2, 16]> : tensor<2xi64> {ov.name = "seq/shape"}
  // expected-error @+1 {{'ov.reshape' op "seq/squeeze" cannot reshape [1, 1, 16] (16 elements) to [2, 16] (32 elements) (after reshape: input 'X' [2, 1, 16] -> [1, 1, 16])}}
  %y = ov.reshape %x, %s special_zero = false {ov.name = "seq/squeeze"} : (tensor<2x1x16xf32>, tensor<2xi64>) -> tensor<2x16xf32>
  %r = ov.relu %y : (tensor<2x16xf32>) -> tensor<2x16xf32>
  func.return %r : tensor<2x16xf32>
}

// -----

// A convolution + matmul classifier reshaped from batch 2 to batch 1: the flatten uses
// special_zero (0 copies the batch) so that it follows.
// CHECK-LABEL: func.func @convnet
// CHECK-SAME:    (%x: tensor<1x1x16xf32> {ov.name = "X"}) -> (tensor<1x10xf32> {ov.name = "prob"})
// CHECK:         ov.convolution %x, %w {{.*}} : (tensor<1x1x16xf32>, tensor<4x1x3xf32>) -> tensor<1x4x14xf32>
// CHECK:         ov.reshape %{{.*}}, %{{.*}} special_zero = true {ov.name = "flatten"} : (tensor<1x4x14xf32>, tensor<2xi64>) -> tensor<1x56xf32>
// CHECK:         ov.mat_mul %{{.*}}, %{{.*}} {ov.name = "fc"} : (tensor<1x56xf32>, tensor<56x10xf32>) -> tensor<1x10xf32>
// CHECK:         ov.add %{{.*}}, %{{.*}} : (tensor<1x10xf32>, tensor<10xf32>) -> tensor<1x10xf32>
// CHECK:         ov.softmax %{{.*}} {ov.name = "prob"} : (tensor<1x10xf32>) -> tensor<1x10xf32>
// CHECK:         func.return %{{.*}} : tensor<1x10xf32>
func.func @convnet(%x: tensor<2x1x16xf32> {ov.name = "X"}) -> (tensor<2x10xf32> {ov.name = "prob"}) {
  %w = ov.constant dense<0.5> : tensor<4x1x3xf32>
  %c = ov.convolution %x, %w {strides = array<i64: 1>, pads_begin = array<i64: 0>, pads_end = array<i64: 0>, dilations = array<i64: 1>, ov.name = "conv"} : (tensor<2x1x16xf32>, tensor<4x1x3xf32>) -> tensor<2x4x14xf32>
  %s = ov.constant dense<[0, -1]> : tensor<2xi64> {ov.name = "flatten/shape"}
  %f = ov.reshape %c, %s special_zero = true {ov.name = "flatten"} : (tensor<2x4x14xf32>, tensor<2xi64>) -> tensor<2x56xf32>
  %m = ov.constant dense<0.125> : tensor<56x10xf32>
  %fc = ov.mat_mul %f, %m {ov.name = "fc"} : (tensor<2x56xf32>, tensor<56x10xf32>) -> tensor<2x10xf32>
  %b = ov.constant dense<1.0> : tensor<10xf32>
  %a = ov.add %fc, %b : (tensor<2x10xf32>, tensor<10xf32>) -> tensor<2x10xf32>
  %p = ov.softmax %a axis = 1 {ov.name = "prob"} : (tensor<2x10xf32>) -> tensor<2x10xf32>
  func.return %p : tensor<2x10xf32>
}

// -----

// A TensorIterator over X: [2, 1, 16] sliced on axis 0 -> [1, 1, 16]: one iteration, the
// concatenated output follows; the body does not change (its parameter was already 1x1x16).
// CHECK-LABEL: func.func @tensor_iterator
// CHECK-SAME:    (%x: tensor<1x1x16xf32> {ov.name = "X"}, %h0: tensor<1x16xf32> {ov.name = "H0"}) -> (tensor<1x16xf32>, tensor<1x1x16xf32>)
// CHECK:         ov.tensor_iterator(%x, %h0) {{.*}} : (tensor<1x1x16xf32>, tensor<1x16xf32>) -> (tensor<1x16xf32>, tensor<1x1x16xf32>) {
// CHECK-NEXT:    ^{{.*}}(%xt: tensor<1x1x16xf32>, %ht: tensor<1x16xf32>):
// CHECK:           ov.yield %h, %y : tensor<1x16xf32>, tensor<1x1x16xf32>
// CHECK:         func.return %{{.*}}, %{{.*}} : tensor<1x16xf32>, tensor<1x1x16xf32>
func.func @tensor_iterator(%x: tensor<2x1x16xf32> {ov.name = "X"}, %h0: tensor<1x16xf32> {ov.name = "H0"}) -> (tensor<1x16xf32>, tensor<2x1x16xf32>) {
  %0:2 = ov.tensor_iterator(%x, %h0) attributes {
      input_descriptions = [#ov.slice<input = 0, param = 0, axis = 0>, #ov.merged<input = 1, param = 1, result = 0>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>, #ov.concat_output<result = 1, output = 1, axis = 0>],
      ov.name = "TI"}
      : (tensor<2x1x16xf32>, tensor<1x16xf32>) -> (tensor<1x16xf32>, tensor<2x1x16xf32>) {
  ^bb0(%xt: tensor<1x1x16xf32>, %ht: tensor<1x16xf32>):
    %s = ov.constant dense<[1, 16]> : tensor<2xi64>
    %x2 = ov.reshape %xt, %s special_zero = false : (tensor<1x1x16xf32>, tensor<2xi64>) -> tensor<1x16xf32>
    %h = ov.add %ht, %x2 : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %y = ov.relu %xt : (tensor<1x1x16xf32>) -> tensor<1x1x16xf32>
    ov.yield %h, %y : tensor<1x16xf32>, tensor<1x1x16xf32>
  }
  func.return %0#0, %0#1 : tensor<1x16xf32>, tensor<2x1x16xf32>
}

// -----

// A TensorIterator cutting axis 1 of X into parts of 4: [1, 4, 16] -> [1, 1, 16] leaves one
// element, not a multiple of part_size: the op reports it.
func.func @tensor_iterator_part(%x: tensor<1x4x16xf32> {ov.name = "X"}) -> tensor<1x4x16xf32> {
  // expected-error @+1 {{'ov.tensor_iterator' op "TI2" input description #0 (#ov.slice<input = 0, param = 0, axis = 1, part_size = 4>): the 1 sliced elements of axis 1 are not a multiple of part_size 4}}
  %0 = ov.tensor_iterator(%x) attributes {
      input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1, part_size = 4>],
      output_descriptions = [#ov.concat_output<result = 0, output = 0, axis = 1, part_size = 4>],
      ov.name = "TI2"}
      : (tensor<1x4x16xf32>) -> tensor<1x4x16xf32> {
  ^bb0(%xt: tensor<1x4x16xf32>):
    %y = ov.relu %xt : (tensor<1x4x16xf32>) -> tensor<1x4x16xf32>
    ov.yield %y : tensor<1x4x16xf32>
  }
  func.return %0 : tensor<1x4x16xf32>
}

// -----

// A Loop whose trip count is Gather(ShapeOf(X), 0) (upstream LowLatency2_LSTM_Loop_Reshape):
// X: [10, 1, 16] -> [1, 1, 16] makes the trip count 1 and the concatenated output [1, 1, 16].
// CHECK-LABEL: func.func @loop
// CHECK-SAME:    (%x: tensor<1x1x16xf32> {ov.name = "X"}, %h0: tensor<1x16xf32> {ov.name = "H0"}) -> (tensor<1x16xf32>, tensor<1x1x16xf32>)
// CHECK:         %shape = ov.shape_of %x : (tensor<1x1x16xf32>) -> tensor<3xi64>
// CHECK:         ov.loop(%trip, %true, %x, %h0) {{.*}} : (tensor<i64>, tensor<i1>, tensor<1x1x16xf32>, tensor<1x16xf32>) -> (tensor<1x16xf32>, tensor<1x1x16xf32>) {
// CHECK-NEXT:    ^{{.*}}(%i: tensor<i64>, %xt: tensor<1x1x16xf32>, %ht: tensor<1x16xf32>):
// CHECK:         func.return %{{.*}}, %{{.*}} : tensor<1x16xf32>, tensor<1x1x16xf32>
func.func @loop(%x: tensor<10x1x16xf32> {ov.name = "X"}, %h0: tensor<1x16xf32> {ov.name = "H0"}) -> (tensor<1x16xf32>, tensor<10x1x16xf32>) {
  %shape = ov.shape_of %x : (tensor<10x1x16xf32>) -> tensor<3xi64>
  %zero = ov.constant dense<0> : tensor<i64>
  %trip = ov.gather %shape, %zero, %zero : (tensor<3xi64>, tensor<i64>, tensor<i64>) -> tensor<i64>
  %true = ov.constant dense<true> : tensor<i1>
  %0:2 = ov.loop(%trip, %true, %x, %h0) attributes {
      input_descriptions = [#ov.slice<input = 2, param = 1, axis = 0>, #ov.merged<input = 3, param = 2, result = 0>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>, #ov.concat_output<result = 1, output = 1, axis = 0>],
      special_body_ports = array<i64: 0, 2>, ov.name = "LSTMLoop"}
      : (tensor<i64>, tensor<i1>, tensor<10x1x16xf32>, tensor<1x16xf32>) -> (tensor<1x16xf32>, tensor<10x1x16xf32>) {
  ^bb0(%i: tensor<i64>, %xt: tensor<1x1x16xf32>, %ht: tensor<1x16xf32>):
    %cond = ov.constant dense<true> : tensor<i1>
    %s = ov.constant dense<[1, 16]> : tensor<2xi64>
    %x2 = ov.reshape %xt, %s special_zero = false : (tensor<1x1x16xf32>, tensor<2xi64>) -> tensor<1x16xf32>
    %h = ov.add %ht, %x2 : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %y = ov.relu %xt : (tensor<1x1x16xf32>) -> tensor<1x1x16xf32>
    ov.yield %h, %y, %cond : tensor<1x16xf32>, tensor<1x1x16xf32>, tensor<i1>
  }
  func.return %0#0, %0#1 : tensor<1x16xf32>, tensor<10x1x16xf32>
}

// -----

// A batch-dependent state inside a TensorIterator body: reshaping the batch of X changes the
// type of the back edge's body result but not of its initial value H0: reported on the op
// that produces the back-edge value.
func.func @back_edge(%x: tensor<4x3x16xf32> {ov.name = "X"}, %h0: tensor<4x16xf32> {ov.name = "H0"}) -> tensor<4x16xf32> {
  %0 = ov.tensor_iterator(%x, %h0) attributes {
      input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>],
      ov.name = "TI3"}
      : (tensor<4x3x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32> {
  ^bb0(%xt: tensor<4x1x16xf32>, %ht: tensor<4x16xf32>):
    %s = ov.constant dense<[0, 16]> : tensor<2xi64>
    %x2 = ov.reshape %xt, %s special_zero = true : (tensor<4x1x16xf32>, tensor<2xi64>) -> tensor<4x16xf32>
    // expected-error @+1 {{'ov.add' op breaks the back edge of body parameter 'ht' of ov.tensor_iterator "TI3": the parameter takes the type of operand #1, tensor<4x16xf32>, but body result #0 is now tensor<1x16xf32>; reshape input 'H0' as well (after reshape: input 'X' [4, 3, 16] -> [1, 1, 16])}}
    %h = ov.add %x2, %x2 : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    ov.yield %h : tensor<4x16xf32>
  }
  func.return %0 : tensor<4x16xf32>
}

// -----

// An input name the model does not have: its inputs are listed.
// expected-error @+1 {{'func.func' op @unknown_input: the model has no input named 'X': its inputs are 'data' [2, 16], 'mask' [2, 16]}}
func.func @unknown_input(%d: tensor<2x16xf32> {ov.name = "data"}, %m: tensor<2x16xf32> {ov.name = "mask"}) -> tensor<2x16xf32> {
  %0 = ov.add %d, %m : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
  func.return %0 : tensor<2x16xf32>
}

// -----

// A rank change the graph cannot follow (a 2-D convolution on a rank-3 input).
func.func @rank_change(%x: tensor<1x1x4x4xf32> {ov.name = "X"}) -> tensor<1x2x2x2xf32> {
  %w = ov.constant dense<1.0> : tensor<2x1x3x3xf32>
  // expected-error @+1 {{'ov.convolution' op "conv2d" filter must have rank 3 (C_out x C_in and the 1 spatial axes of the rank-3 input), got rank 4 (after reshape: input 'X' [1, 1, 4, 4] -> [1, 1, 16])}}
  %0 = ov.convolution %x, %w {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>, ov.name = "conv2d"} : (tensor<1x1x4x4xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x2x2xf32>
  func.return %0 : tensor<1x2x2x2xf32>
}

// -----

// Reshaping to the current shapes changes nothing.
// CHECK-LABEL: func.func @same_shape
// CHECK-SAME:    (%x: tensor<1x1x16xf32> {ov.name = "X"}) -> tensor<1x16xf32> {
// CHECK-NEXT:    %s = ov.constant dense<[1, 16]> : tensor<2xi64>
// CHECK-NEXT:    %y = ov.reshape %x, %s special_zero = false : (tensor<1x1x16xf32>, tensor<2xi64>) -> tensor<1x16xf32>
// CHECK-NEXT:    func.return %y : tensor<1x16xf32>
func.func @same_shape(%x: tensor<1x1x16xf32> {ov.name = "X"}) -> tensor<1x16xf32> {
  %s = ov.constant dense<[1, 16]> : tensor<2xi64>
  %y = ov.reshape %x, %s special_zero = false : (tensor<1x1x16xf32>, tensor<2xi64>) -> tensor<1x16xf32>
  func.return %y : tensor<1x16xf32>
}
