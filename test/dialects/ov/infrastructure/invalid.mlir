// RUN: opt-tool %s --split-input-file --verify-diagnostics

// no_yield
func.func @no_yield(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op body must end with ov.yield (its operands are the body Results)}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
  }
  func.return
}

// -----

// yield_outside
func.func @yield_outside(%x: tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  // expected-error @+1 {{'ov.yield' op 'ov.yield' expects parent op to be one of 'ov.tensor_iterator', 'ov.loop'}}
  ov.yield %x : tensor<1x1x4xf32>
}

// -----

// input_kind
func.func @input_kind(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op input description #1 must be #ov.slice, #ov.merged or #ov.invariant, got #ov.body_output<result = 0, output = 1>}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.body_output<result = 0, output = 1>], output_descriptions = [#ov.body_output<result = 0, output = 0>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// input_range
func.func @input_range(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op input description #1 (#ov.merged<input = 2, param = 1, result = 0>): input 2 is out of range, expected an operand index in [0, 1]}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 2, param = 1, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// operand_twice
func.func @operand_twice(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op input description #1 (#ov.merged<input = 0, param = 1, result = 0>): operand #0 is already described by input description #0}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 0, param = 1, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// param_range
func.func @param_range(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op input description #1 (#ov.merged<input = 1, param = 2, result = 0>): param 2 is out of range, the body has 2 parameters}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 2, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// param_twice
func.func @param_twice(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op input description #1 (#ov.merged<input = 1, param = 0, result = 0>): body parameter #0 is already described by input description #0}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 0, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// operand_missing
func.func @operand_missing(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op operand #1 is not described by any input description}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>], output_descriptions = [#ov.body_output<result = 0, output = 0>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>):
    %s = ov.add %a, %a : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// param_missing
func.func @param_missing(%x: tensor<1x3x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op body parameter #1 is not described by any input description}}
  %0 = ov.tensor_iterator(%x) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>], output_descriptions = [#ov.body_output<result = 0, output = 0>]} : (tensor<1x3x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// axis_range
func.func @axis_range(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op input description #0 (#ov.slice<input = 0, param = 0, axis = 3>): axis 3 is out of range for the rank-3 outer input, expected [-3, 2]}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 3>, #ov.merged<input = 1, param = 1, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// stride_zero
func.func @stride_zero(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op input description #0 (#ov.slice<input = 0, param = 0, axis = 1, stride = 0>): stride must be non-zero}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1, stride = 0>, #ov.merged<input = 1, param = 1, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// part_size_zero
func.func @part_size_zero(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op input description #0 (#ov.slice<input = 0, param = 0, axis = 1, part_size = 0>): part_size must be positive, got 0}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1, part_size = 0>, #ov.merged<input = 1, param = 1, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// part_size_divides
func.func @part_size_divides(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op input description #0 (#ov.slice<input = 0, param = 0, axis = 1, part_size = 2>): the 3 sliced elements of axis 1 are not a multiple of part_size 2}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1, part_size = 2>, #ov.merged<input = 1, param = 1, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x2x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %b, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// start_range
func.func @start_range(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op input description #0 (#ov.slice<input = 0, param = 0, axis = 1, start = 3>): start 3 and end -1 must lie in the 3 elements of axis 1 (negative values count from the end)}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1, start = 3>, #ov.merged<input = 1, param = 1, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// slice_type
func.func @slice_type(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op input description #0 (#ov.slice<input = 0, param = 0, axis = 1>): body parameter #0 has type tensor<1x3x4xf32>, expected tensor<1x1x4xf32> (the outer type with the sliced axis = part_size)}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x3x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %b, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// invariant_type
func.func @invariant_type(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op input description #1 (#ov.invariant<input = 1, param = 1>): body parameter #1 has type tensor<1x4xf32>, expected tensor<1x1x4xf32> (the outer input type, or one that differs only by dynamic dimensions)}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.invariant<input = 1, param = 1>], output_descriptions = [#ov.body_output<result = 0, output = 0>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x4xf32>):
    %s = ov.add %a, %a : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// merged_result_range
func.func @merged_result_range(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op input description #1 (#ov.merged<input = 1, param = 1, result = 1>): result 1 is out of range, the body has 1 results}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 1>], output_descriptions = [#ov.body_output<result = 0, output = 0>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// back_edge_type
func.func @back_edge_type(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op input description #1 (#ov.merged<input = 1, param = 1, result = 1>): back-edge body result #1 has type tensor<1x1x4xf16>, expected the type of body parameter #1, tensor<1x1x4xf32> (or one that differs only by dynamic dimensions)}}
  %0:2 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 1>], output_descriptions = [#ov.body_output<result = 0, output = 0>, #ov.body_output<result = 1, output = 1>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> (tensor<1x1x4xf32>, tensor<1x1x4xf16>) {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    %c = ov.constant dense<0.0> : tensor<1x1x4xf16>
    ov.yield %s, %c : tensor<1x1x4xf32>, tensor<1x1x4xf16>
  }
  func.return
}

// -----

// slice_counts
func.func @slice_counts(%x: tensor<1x3x4xf32>, %y: tensor<1x2x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op sliced inputs give different numbers of iterations (#0: 3, #1: 2)}}
  %0 = ov.tensor_iterator(%x, %y) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.slice<input = 1, param = 1, axis = 1>], output_descriptions = [#ov.body_output<result = 0, output = 0>]} : (tensor<1x3x4xf32>, tensor<1x2x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// output_kind
func.func @output_kind(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op output description #0 must be #ov.body_output or #ov.concat_output, got #ov.merged<input = 1, param = 1, result = 0>}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>], output_descriptions = [#ov.merged<input = 1, param = 1, result = 0>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// output_result_range
func.func @output_result_range(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op output description #0 (#ov.body_output<result = 1, output = 0>): result 1 is out of range, the body has 1 results}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>], output_descriptions = [#ov.body_output<result = 1, output = 0>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// output_range
func.func @output_range(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op output description #0 (#ov.body_output<result = 0, output = 1>): output 1 is out of range, the op has 1 results}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 1>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// output_twice
func.func @output_twice(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op output description #1 (#ov.body_output<result = 0, output = 0>): result #0 is already described by output description #0}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>, #ov.body_output<result = 0, output = 0>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// output_missing
func.func @output_missing(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op result #1 is not described by any output description}}
  %0:2 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> (tensor<1x1x4xf32>, tensor<1x1x4xf32>) {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// body_output_type
func.func @body_output_type(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op output description #0 (#ov.body_output<result = 0, output = 0>): result #0 has type tensor<1x3x4xf32>, expected tensor<1x1x4xf32> (the body result type)}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x3x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// concat_type
func.func @concat_type(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op output description #0 (#ov.concat_output<result = 0, output = 0, axis = 1>): result #0 has type tensor<1x4x4xf32>, expected tensor<1x3x4xf32> (the body result type with the axis = num_iterations (3) x part_size)}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>], output_descriptions = [#ov.concat_output<result = 0, output = 0, axis = 1>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x4x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// concat_part
func.func @concat_part(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op output description #0 (#ov.concat_output<result = 0, output = 0, axis = 2>): the body result has 4 elements along axis 2, expected part_size = 1}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>], output_descriptions = [#ov.concat_output<result = 0, output = 0, axis = 2>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x12xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// concat_scalar_axis
func.func @concat_scalar_axis(%x: tensor<1x3x4xf32>, %h: tensor<f32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op output description #0 (#ov.concat_output<result = 0, output = 0, axis = 1>): a rank-0 body value is concatenated into 1-D, axis must be 0, got 1}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>], output_descriptions = [#ov.concat_output<result = 0, output = 0, axis = 1>]} : (tensor<1x3x4xf32>, tensor<f32>) -> tensor<3xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<f32>):
    %s = ov.add %b, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    ov.yield %s : tensor<f32>
  }
  func.return
}

// -----

// iteration_range
func.func @iteration_range(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op output description #0 (#ov.body_output<result = 0, output = 0, iteration = 3>): iteration must be -1 (the last) or a non-negative index and below the 3 iterations, got 3}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0, iteration = 3>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// unused_result
func.func @unused_result(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op body result #1 is not used: no output description, back-edge or special port refers to it}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s, %a : tensor<1x1x4xf32>, tensor<1x1x4xf32>
  }
  func.return
}

// -----

// parameter_names
func.func @parameter_names(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op parameter_names has 1 names, expected one per body parameter (2)}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>], parameter_names = ["X_t"]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// nested_ti
func.func @nested_ti(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op a TensorIterator body cannot directly contain a TensorIterator (OpenVINO: no nested TensorIterator; use a Loop)}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    %n = ov.tensor_iterator(%a) attributes {input_descriptions = [#ov.invariant<input = 0, param = 0>], output_descriptions = [#ov.concat_output<result = 0, output = 0, axis = 1, end = 1>]} : (tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
    ^bb0(%z: tensor<1x1x4xf32>):
      ov.yield %z : tensor<1x1x4xf32>
    }
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// isolated
func.func @isolated(%x: tensor<1x3x4xf32>, %h: tensor<1x1x4xf32>) {
  // expected-error @+1 {{'ov.tensor_iterator' op Operation using value defined out of its IsolatedFromAbove parent: AddOp(%s = ov.add %h, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>)}}
  %0 = ov.tensor_iterator(%x, %h) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%a: tensor<1x1x4xf32>, %b: tensor<1x1x4xf32>):
    %s = ov.add %h, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %s : tensor<1x1x4xf32>
  }
  func.return
}

// -----

// loop_input_index
func.func @loop_input_index(%t: tensor<i64>, %c: tensor<i1>, %x: tensor<1x3xf32>) {
  // expected-error @+1 {{'ov.loop' op input description #0 (#ov.merged<input = 1, param = 0, result = 0>): input 1 is out of range, expected an operand index in [2, 2] (data inputs of ov.loop start at 2)}}
  %0 = ov.loop(%t, %c, %x) attributes {input_descriptions = [#ov.merged<input = 1, param = 0, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>], special_body_ports = array<i64: -1, 1>} : (tensor<i64>, tensor<i1>, tensor<1x3xf32>) -> tensor<1x3xf32> {
  ^bb0(%a: tensor<1x3xf32>):
    %s = ov.add %a, %a : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
    %k = ov.constant dense<true> : tensor<i1>
    ov.yield %s, %k : tensor<1x3xf32>, tensor<i1>
  }
  func.return
}

// -----

// loop_trip_count_type
func.func @loop_trip_count_type(%t: tensor<f32>, %c: tensor<i1>, %x: tensor<1x3xf32>) {
  // expected-error @+1 {{'ov.loop' op trip_count must be an i32 or i64 scalar or 1-element 1-D tensor, got tensor<f32>}}
  %0 = ov.loop(%t, %c, %x) attributes {input_descriptions = [#ov.merged<input = 2, param = 0, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>], special_body_ports = array<i64: -1, 1>} : (tensor<f32>, tensor<i1>, tensor<1x3xf32>) -> tensor<1x3xf32> {
  ^bb0(%a: tensor<1x3xf32>):
    %s = ov.add %a, %a : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
    %k = ov.constant dense<true> : tensor<i1>
    ov.yield %s, %k : tensor<1x3xf32>, tensor<i1>
  }
  func.return
}

// -----

// loop_condition_type
func.func @loop_condition_type(%t: tensor<i64>, %c: tensor<2xi1>, %x: tensor<1x3xf32>) {
  // expected-error @+1 {{'ov.loop' op execution_condition must be an i1 scalar or 1-element 1-D tensor, got tensor<2xi1>}}
  %0 = ov.loop(%t, %c, %x) attributes {input_descriptions = [#ov.merged<input = 2, param = 0, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>], special_body_ports = array<i64: -1, 1>} : (tensor<i64>, tensor<2xi1>, tensor<1x3xf32>) -> tensor<1x3xf32> {
  ^bb0(%a: tensor<1x3xf32>):
    %s = ov.add %a, %a : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
    %k = ov.constant dense<true> : tensor<i1>
    ov.yield %s, %k : tensor<1x3xf32>, tensor<i1>
  }
  func.return
}

// -----

// loop_ports_length
func.func @loop_ports_length(%t: tensor<i64>, %c: tensor<i1>, %x: tensor<1x3xf32>) {
  // expected-error @+1 {{'ov.loop' op special_body_ports must hold 2 values (current_iteration parameter, condition result), got 1}}
  %0 = ov.loop(%t, %c, %x) attributes {input_descriptions = [#ov.merged<input = 2, param = 0, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>], special_body_ports = array<i64: 1>} : (tensor<i64>, tensor<i1>, tensor<1x3xf32>) -> tensor<1x3xf32> {
  ^bb0(%a: tensor<1x3xf32>):
    %s = ov.add %a, %a : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
    %k = ov.constant dense<true> : tensor<i1>
    ov.yield %s, %k : tensor<1x3xf32>, tensor<i1>
  }
  func.return
}

// -----

// loop_current_range
func.func @loop_current_range(%t: tensor<i64>, %c: tensor<i1>, %x: tensor<1x3xf32>) {
  // expected-error @+1 {{'ov.loop' op special_body_ports: current_iteration parameter 1 is out of range, expected -1 or [0, 0]}}
  %0 = ov.loop(%t, %c, %x) attributes {input_descriptions = [#ov.merged<input = 2, param = 0, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>], special_body_ports = array<i64: 1, 1>} : (tensor<i64>, tensor<i1>, tensor<1x3xf32>) -> tensor<1x3xf32> {
  ^bb0(%a: tensor<1x3xf32>):
    %s = ov.add %a, %a : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
    %k = ov.constant dense<true> : tensor<i1>
    ov.yield %s, %k : tensor<1x3xf32>, tensor<i1>
  }
  func.return
}

// -----

// loop_current_type
func.func @loop_current_type(%t: tensor<i64>, %c: tensor<i1>, %x: tensor<1x3xf32>) {
  // expected-error @+1 {{'ov.loop' op special_body_ports: current_iteration parameter #0 must be an i32 or i64 scalar or 1-element 1-D tensor, got tensor<f32>}}
  %0 = ov.loop(%t, %c, %x) attributes {input_descriptions = [#ov.merged<input = 2, param = 1, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>], special_body_ports = array<i64: 0, 1>} : (tensor<i64>, tensor<i1>, tensor<1x3xf32>) -> tensor<1x3xf32> {
  ^bb0(%i: tensor<f32>, %a: tensor<1x3xf32>):
    %s = ov.add %a, %a : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
    %k = ov.constant dense<true> : tensor<i1>
    ov.yield %s, %k : tensor<1x3xf32>, tensor<i1>
  }
  func.return
}

// -----

// loop_current_described
func.func @loop_current_described(%t: tensor<i64>, %c: tensor<i1>, %x: tensor<1x3xf32>) {
  // expected-error @+1 {{'ov.loop' op input description #0 (#ov.merged<input = 2, param = 0, result = 0>): body parameter #0 is the current_iteration parameter, which takes no input}}
  %0 = ov.loop(%t, %c, %x) attributes {input_descriptions = [#ov.merged<input = 2, param = 0, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>], special_body_ports = array<i64: 0, 1>} : (tensor<i64>, tensor<i1>, tensor<1x3xf32>) -> tensor<1x3xf32> {
  ^bb0(%i: tensor<i64>, %a: tensor<1x3xf32>):
    %s = ov.add %a, %a : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
    %k = ov.constant dense<true> : tensor<i1>
    ov.yield %s, %k : tensor<1x3xf32>, tensor<i1>
  }
  func.return
}

// -----

// loop_condition_range
func.func @loop_condition_range(%t: tensor<i64>, %c: tensor<i1>, %x: tensor<1x3xf32>) {
  // expected-error @+1 {{'ov.loop' op special_body_ports: the condition result 2 is out of range, expected [0, 1] (the body condition is mandatory)}}
  %0 = ov.loop(%t, %c, %x) attributes {input_descriptions = [#ov.merged<input = 2, param = 0, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>], special_body_ports = array<i64: -1, 2>} : (tensor<i64>, tensor<i1>, tensor<1x3xf32>) -> tensor<1x3xf32> {
  ^bb0(%a: tensor<1x3xf32>):
    %s = ov.add %a, %a : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
    %k = ov.constant dense<true> : tensor<i1>
    ov.yield %s, %k : tensor<1x3xf32>, tensor<i1>
  }
  func.return
}

// -----

// loop_condition_result_type
func.func @loop_condition_result_type(%t: tensor<i64>, %c: tensor<i1>, %x: tensor<1x3xf32>) {
  // expected-error @+1 {{'ov.loop' op special_body_ports: condition result #1 must be an i1 scalar or 1-element 1-D tensor, got tensor<1x3xf32>}}
  %0 = ov.loop(%t, %c, %x) attributes {input_descriptions = [#ov.merged<input = 2, param = 0, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>], special_body_ports = array<i64: -1, 1>} : (tensor<i64>, tensor<i1>, tensor<1x3xf32>) -> tensor<1x3xf32> {
  ^bb0(%a: tensor<1x3xf32>):
    %s = ov.add %a, %a : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
    ov.yield %s, %s : tensor<1x3xf32>, tensor<1x3xf32>
  }
  func.return
}
