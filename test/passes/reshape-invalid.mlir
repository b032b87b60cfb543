// ov-reshape's errors name what the IR says: a TensorIterator slicing an input reshaped to
// rank 0 (an axis the input no longer has, not Python's IndexError text), and an
// unregistered op by its own name (not xDSL's 'builtin.unregistered').
// RUN: not opt-tool %s --split-input-file --ov-reshape='inputs="x:"' 2>&1 | filecheck %s --check-prefix=AXIS
// RUN: not opt-tool %s --split-input-file --allow-unregistered-dialect --ov-reshape='inputs="x:1x4"' 2>&1 | filecheck %s --check-prefix=UNREGISTERED

// AXIS: reshape-invalid.mlir:[[# @LINE + 2]]:3: error: 'ov.tensor_iterator' op "ti" input description #0 (#ov.slice<input = 0, param = 0, axis = 1>) does not fit operand #0 of type tensor<f32>: axis 1 is out of range for the rank-0 outer input, which has no axis to slice (after reshape: input 'x' [1, 5, 4] -> [])
func.func @main(%x: tensor<1x5x4xf32> {ov.name = "x"}, %h0: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = ov.tensor_iterator(%x, %h0) attributes {ov.name = "ti",
      input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>,
                            #ov.merged<input = 1, param = 1, result = 0>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>],
      parameter_names = ["x", "h"]}
      : (tensor<1x5x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32> {
  ^bb0(%xt: tensor<1x1x4xf32>, %ht: tensor<1x4xf32>):
    %axis = ov.constant dense<[1]> : tensor<1xi64>
    %x2 = ov.squeeze %xt, %axis : (tensor<1x1x4xf32>, tensor<1xi64>) -> tensor<1x4xf32>
    %h = ov.add %ht, %x2 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    ov.yield %h : tensor<1x4xf32>
  }
  func.return %0 : tensor<1x4xf32>
}

// -----

// UNREGISTERED: reshape-invalid.mlir:[[# @LINE + 2]]:3: error: 'foo.op' op has no shape inference, so it cannot follow the new input shapes (after reshape: input 'x' [2, 4] -> [1, 4])
func.func @main(%x: tensor<2x4xf32> {ov.name = "x"}) -> tensor<2x4xf32> {
  %0 = "foo.op"(%x) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}
