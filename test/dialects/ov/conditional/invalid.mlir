// RUN: opt-tool %s --split-input-file --verify-diagnostics

// cond_type
func.func @cond_type(%c: tensor<2xi1>, %a: tensor<3xf32>) {
  // expected-error @+1 {{'ov.if' op cond must be an i1 scalar or 1-element 1-D tensor, got tensor<2xi1>}}
  %y = ov.if(%c, %a) attributes {then_inputs = [#ov.invariant<input = 1, param = 0>], else_inputs = [#ov.invariant<input = 1, param = 0>], then_outputs = [#ov.body_output<result = 0, output = 0>], else_outputs = [#ov.body_output<result = 0, output = 0>]} : (tensor<2xi1>, tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%x: tensor<3xf32>):
    ov.yield %x : tensor<3xf32>
  } else {
  ^bb0(%x: tensor<3xf32>):
    ov.yield %x : tensor<3xf32>
  }
  func.return
}

// -----

// condition_as_body_input
func.func @condition_as_body_input(%c: tensor<i1>, %a: tensor<3xf32>) {
  // expected-error @+1 {{'ov.if' op then_inputs #0 (#ov.invariant<input = 0, param = 0>): input 0 is out of range, expected a data input index in [1, 1] (input 0 is the condition)}}
  %y = ov.if(%c, %a) attributes {then_inputs = [#ov.invariant<input = 0, param = 0>], else_inputs = [#ov.invariant<input = 1, param = 0>], then_outputs = [#ov.body_output<result = 0, output = 0>], else_outputs = [#ov.body_output<result = 0, output = 0>]} : (tensor<i1>, tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%x: tensor<3xf32>):
    ov.yield %x : tensor<3xf32>
  } else {
  ^bb0(%x: tensor<3xf32>):
    ov.yield %x : tensor<3xf32>
  }
  func.return
}

// -----

// undescribed_parameter
func.func @undescribed_parameter(%c: tensor<i1>, %a: tensor<3xf32>) {
  // expected-error @+1 {{'ov.if' op else_body parameter #0 is not described by any else_inputs entry}}
  %y = ov.if(%c, %a) attributes {then_inputs = [#ov.invariant<input = 1, param = 0>], else_inputs = [], then_outputs = [#ov.body_output<result = 0, output = 0>], else_outputs = [#ov.body_output<result = 0, output = 0>]} : (tensor<i1>, tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%x: tensor<3xf32>):
    ov.yield %x : tensor<3xf32>
  } else {
  ^bb0(%x: tensor<3xf32>):
    ov.yield %x : tensor<3xf32>
  }
  func.return
}

// -----

// parameter_type
func.func @parameter_type(%c: tensor<i1>, %a: tensor<3xf32>) {
  // expected-error @+1 {{'ov.if' op else_inputs #0 (#ov.invariant<input = 1, param = 0>): body parameter #0 has type tensor<4xf32>, expected the outer input type tensor<3xf32>}}
  %y = ov.if(%c, %a) attributes {then_inputs = [#ov.invariant<input = 1, param = 0>], else_inputs = [#ov.invariant<input = 1, param = 0>], then_outputs = [#ov.body_output<result = 0, output = 0>], else_outputs = [#ov.body_output<result = 0, output = 0>]} : (tensor<i1>, tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%x: tensor<3xf32>):
    ov.yield %x : tensor<3xf32>
  } else {
  ^bb0(%x: tensor<4xf32>):
    %k = ov.constant dense<0.0> : tensor<3xf32>
    ov.yield %k : tensor<3xf32>
  }
  func.return
}

// -----

// missing_output
func.func @missing_output(%c: tensor<i1>, %a: tensor<3xf32>) {
  // expected-error @+1 {{'ov.if' op result #0 is not described by any else_outputs entry}}
  %y = ov.if(%c, %a) attributes {then_inputs = [#ov.invariant<input = 1, param = 0>], else_inputs = [#ov.invariant<input = 1, param = 0>], then_outputs = [#ov.body_output<result = 0, output = 0>], else_outputs = []} : (tensor<i1>, tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%x: tensor<3xf32>):
    ov.yield %x : tensor<3xf32>
  } else {
  ^bb0(%x: tensor<3xf32>):
    ov.yield %x : tensor<3xf32>
  }
  func.return
}

// -----

// rank_mismatch: bodies of different ranks give a dynamic rank, which the op must declare
func.func @rank_mismatch(%c: tensor<i1>, %a: tensor<3xf32>) {
  // expected-error @+1 {{'ov.if' op inferred type(s) 'tensor<*xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  %y = ov.if(%c, %a) attributes {then_inputs = [#ov.invariant<input = 1, param = 0>], else_inputs = [#ov.invariant<input = 1, param = 0>], then_outputs = [#ov.body_output<result = 0, output = 0>], else_outputs = [#ov.body_output<result = 0, output = 0>]} : (tensor<i1>, tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%x: tensor<3xf32>):
    ov.yield %x : tensor<3xf32>
  } else {
  ^bb0(%x: tensor<3xf32>):
    %k = ov.constant dense<0.0> : tensor<1x3xf32>
    ov.yield %k : tensor<1x3xf32>
  }
  func.return
}

// -----

// no_yield
func.func @no_yield(%c: tensor<i1>, %a: tensor<3xf32>) {
  // expected-error @+1 {{'ov.if' op then_body must end with ov.yield (the body Results)}}
  %y = ov.if(%c, %a) attributes {then_inputs = [#ov.invariant<input = 1, param = 0>], else_inputs = [#ov.invariant<input = 1, param = 0>], then_outputs = [#ov.body_output<result = 0, output = 0>], else_outputs = [#ov.body_output<result = 0, output = 0>]} : (tensor<i1>, tensor<3xf32>) -> tensor<3xf32> {
  ^bb0(%x: tensor<3xf32>):
    %n = ov.relu %x : (tensor<3xf32>) -> tensor<3xf32>
  } else {
  ^bb0(%x: tensor<3xf32>):
    ov.yield %x : tensor<3xf32>
  }
  func.return
}

// -----

// element_type_mismatch: bodies of different ranks must still agree on the element type
func.func @element_type_mismatch(%c: tensor<i1>, %a: tensor<3xf32>) {
  // expected-error @+1 {{'ov.if' op result #0: the bodies give tensor<3xf32> (then) and tensor<1x3xi32> (else), expected one element type}}
  %y = ov.if(%c, %a) attributes {then_inputs = [#ov.invariant<input = 1, param = 0>], else_inputs = [#ov.invariant<input = 1, param = 0>], then_outputs = [#ov.body_output<result = 0, output = 0>], else_outputs = [#ov.body_output<result = 0, output = 0>]} : (tensor<i1>, tensor<3xf32>) -> tensor<*xf32> {
  ^bb0(%x: tensor<3xf32>):
    ov.yield %x : tensor<3xf32>
  } else {
  ^bb0(%x: tensor<3xf32>):
    %k = ov.constant dense<0> : tensor<1x3xi32>
    ov.yield %k : tensor<1x3xi32>
  }
  func.return
}

// -----

// unranked_wrong_element_type: a declared dynamic rank keeps the element type checked
func.func @unranked_wrong_element_type(%c: tensor<i1>, %a: tensor<3xf32>) {
  // expected-error @+1 {{'ov.if' op inferred type(s) 'tensor<*xf32>' are incompatible with return type(s) of operation 'tensor<*xf16>'}}
  %y = ov.if(%c, %a) attributes {then_inputs = [#ov.invariant<input = 1, param = 0>], else_inputs = [#ov.invariant<input = 1, param = 0>], then_outputs = [#ov.body_output<result = 0, output = 0>], else_outputs = [#ov.body_output<result = 0, output = 0>]} : (tensor<i1>, tensor<3xf32>) -> tensor<*xf16> {
  ^bb0(%x: tensor<3xf32>):
    ov.yield %x : tensor<3xf32>
  } else {
  ^bb0(%x: tensor<3xf32>):
    %k = ov.constant dense<0.0> : tensor<1x3xf32>
    ov.yield %k : tensor<1x3xf32>
  }
  func.return
}

// -----

// unranked_consumer_declares_rank: an op of a dynamic-rank operand gives a dynamic rank
func.func @unranked_consumer_declares_rank(%x: tensor<*xf32>) {
  // expected-error @+1 {{'ov.relu' op inferred type(s) 'tensor<*xf32>' are incompatible with return type(s) of operation 'tensor<3xf32>'}}
  %y = ov.relu %x : (tensor<*xf32>) -> tensor<3xf32>
  func.return
}

// -----

// unranked_binary_element_types: the element types are checked with a dynamic rank too
func.func @unranked_binary_element_types(%x: tensor<*xf32>, %y: tensor<3xi32>) {
  // expected-error @+1 {{'ov.add' op operands must have the same element type, got f32 and i32}}
  %z = ov.add %x, %y : (tensor<*xf32>, tensor<3xi32>) -> tensor<*xf32>
  func.return
}

// -----

// unranked_shape_of_length: ShapeOf of a dynamic rank has a dynamic length
func.func @unranked_shape_of_length(%x: tensor<*xf32>) {
  // expected-error @+1 {{'ov.shape_of' op inferred type(s) 'tensor<?xi64>' are incompatible with return type(s) of operation 'tensor<?x?xi64>'}}
  %s = ov.shape_of %x : (tensor<*xf32>) -> tensor<?x?xi64>
  func.return
}

// -----

// unranked_concat_ranks: the ranked inputs of a Concat must still agree
func.func @unranked_concat_ranks(%x: tensor<*xf32>, %a: tensor<3xf32>, %b: tensor<2x3xf32>) {
  // expected-error @+1 {{'ov.concat' op inputs must have the same rank, got shapes [3], [2, 3]}}
  %z = ov.concat %x, %a, %b axis = 0 : (tensor<*xf32>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<?xf32>
  func.return
}
