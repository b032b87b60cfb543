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

// rank_mismatch
func.func @rank_mismatch(%c: tensor<i1>, %a: tensor<3xf32>) {
  // expected-error @+1 {{'ov.if' op result #0: the bodies give tensor<3xf32> (then) and tensor<1x3xf32> (else), expected one element type and rank}}
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
