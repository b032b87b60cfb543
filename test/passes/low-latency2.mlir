// RUN: opt-tool %s --split-input-file --low-latency2 | filecheck %s
// RUN: opt-tool %s --split-input-file -p 'low-latency2{use-const-initializer=false}' | filecheck %s --check-prefix=ORIG
// RUN: opt-tool %s --split-input-file --low-latency2='use-const-initializer=false' | filecheck %s --check-prefix=ORIG
// RUN: opt-tool %s --split-input-file -p low-latency2,low-latency2 | opt-tool --split-input-file | filecheck %s

// Upstream LowLatency2_LSTM: descriptions [C merged, X sliced, H merged], one iteration:
// state names count every description; the TI is unrolled; zero initializers.
// CHECK-LABEL: func.func @lstm_one_iteration
// CHECK-SAME:    -> (tensor<1x4xf32> {ov.name = "LSTMTensorIterator.0"}, tensor<1x4xf32> {ov.name = "LSTMTensorIterator.1"})
// CHECK:         %[[Z1:.*]] = ov.constant dense<0.000000e+00> : tensor<f32>
// CHECK-NEXT:    %[[S1:.*]] = ov.shape_of %c0
// CHECK-NEXT:    %[[B1:.*]] = ov.broadcast %[[Z1]], %[[S1]]
// CHECK-NEXT:    %[[C:.*]] = ov.read_value @"LSTMTensorIterator/C_t/variable_0" init(%[[B1]] : tensor<1x4xf32>)
// CHECK:         %[[H:.*]] = ov.read_value @"LSTMTensorIterator/H_t/variable_2" init(
// CHECK-NOT:     ov.tensor_iterator
// CHECK:         %[[HO:.*]], %[[CO:.*]] = ov.lstm_cell %{{.*}}, %[[H]], %[[C]]
// CHECK-DAG:     ov.assign @"LSTMTensorIterator/C_t/variable_0", %[[CO]]
// CHECK-DAG:     ov.assign @"LSTMTensorIterator/H_t/variable_2", %[[HO]]
// CHECK:         func.return %[[HO]], %[[CO]]
// ORIG-LABEL: func.func @lstm_one_iteration
// ORIG-NOT:      ov.broadcast
// ORIG:          ov.read_value @"LSTMTensorIterator/C_t/variable_0" init(%c0 : tensor<1x4xf32>)
// ORIG:          ov.read_value @"LSTMTensorIterator/H_t/variable_2" init(%h0 : tensor<1x4xf32>)
func.func @lstm_one_iteration(%x: tensor<1x1x2xf32>, %h0: tensor<1x4xf32>, %c0: tensor<1x4xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>) {
  %0:2 = ov.tensor_iterator(%c0, %x, %h0) attributes {ov.name = "LSTMTensorIterator",
      input_descriptions = [#ov.merged<input = 0, param = 0, result = 1>,
                            #ov.slice<input = 1, param = 1, axis = 1>,
                            #ov.merged<input = 2, param = 2, result = 0>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>, #ov.body_output<result = 1, output = 1>],
      parameter_names = ["C_t", "X_t", "H_t"]}
      : (tensor<1x4xf32>, tensor<1x1x2xf32>, tensor<1x4xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>) {
  ^bb0(%ct: tensor<1x4xf32>, %xt: tensor<1x1x2xf32>, %ht: tensor<1x4xf32>):
    %axis = ov.constant dense<[1]> : tensor<1xi64>
    %x2 = ov.squeeze %xt, %axis : (tensor<1x1x2xf32>, tensor<1xi64>) -> tensor<1x2xf32>
    %w = ov.constant dense<0.1> : tensor<16x2xf32>
    %r = ov.constant dense<0.2> : tensor<16x4xf32>
    %b = ov.constant dense<0.3> : tensor<16xf32>
    %h, %c = ov.lstm_cell %x2, %ht, %ct, %w, %r, %b {hidden_size = 4 : i64} : (tensor<1x2xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<16x2xf32>, tensor<16x4xf32>, tensor<16xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>)
    ov.yield %h, %c : tensor<1x4xf32>, tensor<1x4xf32>
  }
  func.return %0#0, %0#1 : tensor<1x4xf32>, tensor<1x4xf32>
}

// -----

// Upstream LowLatency2_LSTM_several_iterations: the TI is kept; the back edge of C is not
// exported, so a last-iteration output is added for its Assign.
// CHECK-LABEL: func.func @several_iterations
// CHECK:         %[[H:.*]], %[[C:.*]] = ov.tensor_iterator(%x, %{{.*}}, %{{.*}}) attributes {{{.*}}output_descriptions = [#ov.body_output<result = 0, output = 0>, #ov.body_output<result = 1, output = 1>]
// CHECK:         ov.assign @"ti/h/variable_1", %[[H]]
// CHECK-NEXT:    ov.assign @"ti/c/variable_2", %[[C]]
// CHECK-NEXT:    func.return %[[H]] : tensor<1x4xf32>
func.func @several_iterations(%x: tensor<1x5x4xf32>, %h0: tensor<1x4xf32>, %c0: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = ov.tensor_iterator(%x, %h0, %c0) attributes {ov.name = "ti",
      input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>,
                            #ov.merged<input = 1, param = 1, result = 0>,
                            #ov.merged<input = 2, param = 2, result = 1>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>],
      parameter_names = ["x", "h", "c"]}
      : (tensor<1x5x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32> {
  ^bb0(%xt: tensor<1x1x4xf32>, %ht: tensor<1x4xf32>, %ct: tensor<1x4xf32>):
    %axis = ov.constant dense<[1]> : tensor<1xi64>
    %x2 = ov.squeeze %xt, %axis : (tensor<1x1x4xf32>, tensor<1xi64>) -> tensor<1x4xf32>
    %c = ov.add %ct, %x2 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %h = ov.multiply %ht, %c : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    ov.yield %h, %c : tensor<1x4xf32>, tensor<1x4xf32>
  }
  func.return %0 : tensor<1x4xf32>
}

// -----

// Bug §8.1 fixed: the back edge is exported only as a concatenation; the Assign takes a new
// last-iteration output, not the [1,3,4] concatenation.
// CHECK-LABEL: func.func @concat_only
// CHECK:         %{{.*}}, %[[LAST:.*]] = ov.tensor_iterator{{.*}}output_descriptions = [#ov.concat_output<result = 0, output = 0, axis = 1>, #ov.body_output<result = 0, output = 1>]
// CHECK:         ov.assign @"acc/s/variable_1", %[[LAST]] {{.*}}: tensor<1x1x4xf32>
func.func @concat_only(%x: tensor<1x3x4xf32>, %s0: tensor<1x1x4xf32>) -> tensor<1x3x4xf32> {
  %0 = ov.tensor_iterator(%x, %s0) attributes {ov.name = "acc",
      input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>],
      output_descriptions = [#ov.concat_output<result = 0, output = 0, axis = 1>],
      parameter_names = ["x", "s"]}
      : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x3x4xf32> {
  ^bb0(%xt: tensor<1x1x4xf32>, %st: tensor<1x1x4xf32>):
    %n = ov.add %st, %xt : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %n : tensor<1x1x4xf32>
  }
  func.return %0 : tensor<1x3x4xf32>
}

// -----

// Upstream LowLatency2_LSTM_Loop + bug §8.2 fixed: a one-iteration Loop is unrolled, its
// current_iteration parameter becomes the constant 0 (OpenVINO leaves it dangling).
// CHECK-LABEL: func.func @loop_current_iteration
// CHECK-NOT:     ov.loop
// CHECK:         %[[I:.*]] = ov.constant dense<0> : tensor<i64> {ov.name = "loop/current_iteration"}
// CHECK:         ov.convert %[[I]]
// CHECK:         ov.assign @"loop/acc/variable_0"
func.func @loop_current_iteration(%a0: tensor<f32>) -> tensor<f32> {
  %one = ov.constant dense<1> : tensor<i64>
  %true = ov.constant dense<true> : tensor<i1>
  %0 = ov.loop(%one, %true, %a0) attributes {ov.name = "loop",
      input_descriptions = [#ov.merged<input = 2, param = 1, result = 0>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>],
      special_body_ports = array<i64: 0, 1>, parameter_names = ["i", "acc"]}
      : (tensor<i64>, tensor<i1>, tensor<f32>) -> tensor<f32> {
  ^bb0(%i: tensor<i64>, %acc: tensor<f32>):
    %f = ov.convert %i destination_type = f32 : (tensor<i64>) -> tensor<f32>
    %s = ov.add %acc, %f : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %c = ov.constant dense<true> : tensor<i1>
    ov.yield %s, %c : tensor<f32>, tensor<i1>
  }
  func.return %0 : tensor<f32>
}

// -----

// Bug §8.3 fixed: a do-while Loop (body condition false: one iteration) over a longer
// sliced input sees only the first slice after unrolling.
// CHECK-LABEL: func.func @do_while
// CHECK-NOT:     ov.loop
// CHECK:         %[[X0:.*]] = ov.strided_slice %x, {{.*}} {ov.name = "dw/slice_2"{{.*}} : ({{.*}}) -> tensor<1x1x3xf32>
// CHECK:         ov.add %{{.*}}, %[[X0]]
func.func @do_while(%x: tensor<1x4x3xf32>, %s0: tensor<1x1x3xf32>) -> tensor<1x1x3xf32> {
  %n = ov.constant dense<10> : tensor<i64>
  %true = ov.constant dense<true> : tensor<i1>
  %0 = ov.loop(%n, %true, %x, %s0) attributes {ov.name = "dw",
      input_descriptions = [#ov.slice<input = 2, param = 0, axis = 1>, #ov.merged<input = 3, param = 1, result = 0>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>],
      special_body_ports = array<i64: -1, 1>}
      : (tensor<i64>, tensor<i1>, tensor<1x4x3xf32>, tensor<1x1x3xf32>) -> tensor<1x1x3xf32> {
  ^bb0(%xt: tensor<1x1x3xf32>, %st: tensor<1x1x3xf32>):
    %s = ov.add %st, %xt : (tensor<1x1x3xf32>, tensor<1x1x3xf32>) -> tensor<1x1x3xf32>
    %c = ov.constant dense<false> : tensor<i1>
    ov.yield %s, %c : tensor<1x1x3xf32>, tensor<i1>
  }
  func.return %0 : tensor<1x1x3xf32>
}

// -----

// Bug §8.6 fixed: an already transformed TI does not stop the pass; the next one is still
// transformed (OpenVINO returns early and drops the Assigns of earlier ops).
// CHECK-LABEL: func.func @partial
// CHECK:         ov.read_value @"first/s/variable_1"
// CHECK:         ov.assign @"first/s/variable_1"
// CHECK:         ov.read_value @"second/s/variable_1"
// CHECK:         ov.tensor_iterator
// CHECK:         ov.assign @"second/s/variable_1"
ov.variable @"first/s/variable_1" : tensor<1x1x4xf32>
func.func @partial(%x: tensor<1x3x4xf32>, %s0: tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  %rv = ov.read_value @"first/s/variable_1" init(%s0 : tensor<1x1x4xf32>) : tensor<1x1x4xf32>
  %0 = ov.tensor_iterator(%x, %rv) attributes {ov.name = "first",
      input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>], parameter_names = ["x", "s"]}
      : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%xt: tensor<1x1x4xf32>, %st: tensor<1x1x4xf32>):
    %n = ov.add %st, %xt : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %n : tensor<1x1x4xf32>
  }
  ov.assign @"first/s/variable_1", %0 : tensor<1x1x4xf32>
  %1 = ov.tensor_iterator(%x, %0) attributes {ov.name = "second",
      input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>], parameter_names = ["x", "s"]}
      : (tensor<1x3x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
  ^bb0(%xt: tensor<1x1x4xf32>, %st: tensor<1x1x4xf32>):
    %n = ov.multiply %st, %xt : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %n : tensor<1x1x4xf32>
  }
  func.return %1 : tensor<1x1x4xf32>
}

// -----

// Bug §8.8 fixed: a rank-0 state gets a rank-0 zero initializer.
// CHECK-LABEL: func.func @rank0
// CHECK:         ov.broadcast %{{.*}}, %{{.*}} : (tensor<f32>, tensor<0xi64>) -> tensor<f32>
// CHECK:         ov.read_value @"scalar/s/variable_1" init(%{{.*}} : tensor<f32>) {{.*}}: tensor<f32>
func.func @rank0(%x: tensor<3xf32>, %s0: tensor<f32>) -> tensor<f32> {
  %0 = ov.tensor_iterator(%x, %s0) attributes {ov.name = "scalar",
      input_descriptions = [#ov.slice<input = 0, param = 0, axis = 0>, #ov.merged<input = 1, param = 1, result = 0>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>], parameter_names = ["x", "s"]}
      : (tensor<3xf32>, tensor<f32>) -> tensor<f32> {
  ^bb0(%xt: tensor<1xf32>, %st: tensor<f32>):
    %zero = ov.constant dense<[0]> : tensor<1xi64>
    %n = ov.reduce_sum %xt, %zero : (tensor<1xf32>, tensor<1xi64>) -> tensor<f32>
    %a = ov.add %st, %n : (tensor<f32>, tensor<f32>) -> tensor<f32>
    ov.yield %a : tensor<f32>
  }
  func.return %0 : tensor<f32>
}

// -----

// Nested: the inner Loop's back edge becomes state first (inside the body, named after the
// inner op); the one-iteration outer TI is then unrolled and the inner state ends up in the
// function (OpenVINO hoists the body's sinks the same way).
// CHECK-LABEL: func.func @nested
// CHECK-NOT:     ov.tensor_iterator
// CHECK:         ov.read_value @"outer/s/variable_1"
// CHECK:         ov.read_value @"inner/a/variable_0"
// CHECK:         ov.loop
// CHECK:         ov.assign @"inner/a/variable_0"
// CHECK:         ov.assign @"outer/s/variable_1"
func.func @nested(%x: tensor<1x1x2xf32>, %s0: tensor<1x1x2xf32>) -> tensor<1x1x2xf32> {
  %0 = ov.tensor_iterator(%x, %s0) attributes {ov.name = "outer",
      input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>], parameter_names = ["x", "s"]}
      : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xf32> {
  ^bb0(%xt: tensor<1x1x2xf32>, %st: tensor<1x1x2xf32>):
    %n = ov.constant dense<3> : tensor<i64>
    %true = ov.constant dense<true> : tensor<i1>
    %in = ov.loop(%n, %true, %xt) attributes {ov.name = "inner",
        input_descriptions = [#ov.merged<input = 2, param = 0, result = 0>],
        output_descriptions = [#ov.body_output<result = 0, output = 0>],
        special_body_ports = array<i64: -1, 1>, parameter_names = ["a"]}
        : (tensor<i64>, tensor<i1>, tensor<1x1x2xf32>) -> tensor<1x1x2xf32> {
    ^bb0(%a: tensor<1x1x2xf32>):
      %d = ov.add %a, %a : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
      %c = ov.constant dense<true> : tensor<i1>
      ov.yield %d, %c : tensor<1x1x2xf32>, tensor<i1>
    }
    %sum = ov.add %st, %in : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
    ov.yield %sum : tensor<1x1x2xf32>
  }
  func.return %0 : tensor<1x1x2xf32>
}

// -----

// Upstream LowLatency2_LSTM_Loop_several_iterations: trip count 10, the Loop is kept; the
// data inputs start at operand 2 but the variable index counts input descriptions only.
// CHECK-LABEL: func.func @loop_several
// CHECK:         %[[RV:.*]] = ov.read_value @"LSTMLoop/acc/variable_1"
// CHECK:         %[[L:.*]] = ov.loop(%{{.*}}, %{{.*}}, %x, %[[RV]])
// CHECK:         ov.assign @"LSTMLoop/acc/variable_1", %[[L]]
func.func @loop_several(%x: tensor<1x10x3xf32>, %s0: tensor<1x1x3xf32>) -> tensor<1x1x3xf32> {
  %n = ov.constant dense<10> : tensor<i64>
  %true = ov.constant dense<true> : tensor<i1>
  %0 = ov.loop(%n, %true, %x, %s0) attributes {ov.name = "LSTMLoop",
      input_descriptions = [#ov.slice<input = 2, param = 0, axis = 1>, #ov.merged<input = 3, param = 1, result = 0>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>],
      special_body_ports = array<i64: -1, 1>, parameter_names = ["x", "acc"]}
      : (tensor<i64>, tensor<i1>, tensor<1x10x3xf32>, tensor<1x1x3xf32>) -> tensor<1x1x3xf32> {
  ^bb0(%xt: tensor<1x1x3xf32>, %st: tensor<1x1x3xf32>):
    %s = ov.add %st, %xt : (tensor<1x1x3xf32>, tensor<1x1x3xf32>) -> tensor<1x1x3xf32>
    %c = ov.constant dense<true> : tensor<i1>
    ov.yield %s, %c : tensor<1x1x3xf32>, tensor<i1>
  }
  func.return %0 : tensor<1x1x3xf32>
}

// -----

// Oracle C3: [x sliced, s1 merged, m invariant, s2 merged] -> variable_1 and variable_3.
// CHECK-LABEL: func.func @invariant_counted
// CHECK:         ov.read_value @"AccTI/s1/variable_1"
// CHECK:         ov.read_value @"AccTI/s2/variable_3"
// CHECK:         ov.tensor_iterator
// CHECK:         ov.assign @"AccTI/s1/variable_1"
// CHECK-NEXT:    ov.assign @"AccTI/s2/variable_3"
func.func @invariant_counted(%x: tensor<1x3x2xf32>, %a: tensor<1x1x2xf32>, %m: tensor<1x1x2xf32>, %b: tensor<1x1x2xf32>) -> (tensor<1x1x2xf32>, tensor<1x1x2xf32>) {
  %0:2 = ov.tensor_iterator(%x, %a, %m, %b) attributes {ov.name = "AccTI",
      input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>,
                            #ov.invariant<input = 2, param = 2>, #ov.merged<input = 3, param = 3, result = 1>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>, #ov.body_output<result = 1, output = 1>],
      parameter_names = ["x", "s1", "m", "s2"]}
      : (tensor<1x3x2xf32>, tensor<1x1x2xf32>, tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> (tensor<1x1x2xf32>, tensor<1x1x2xf32>) {
  ^bb0(%xt: tensor<1x1x2xf32>, %s1: tensor<1x1x2xf32>, %mt: tensor<1x1x2xf32>, %s2: tensor<1x1x2xf32>):
    %n1 = ov.add %s1, %xt : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
    %p = ov.multiply %s2, %mt : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
    %n2 = ov.add %p, %n1 : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
    ov.yield %n1, %n2 : tensor<1x1x2xf32>, tensor<1x1x2xf32>
  }
  func.return %0#0, %0#1 : tensor<1x1x2xf32>, tensor<1x1x2xf32>
}

// -----

// Bug §8.8 (unroll half) fixed: a one-iteration TI concatenating a rank-0 value is unrolled
// with an Unsqueeze on axis 0 (OpenVINO's identity Unsqueeze on axis 1 fails for rank 0).
// CHECK-LABEL: func.func @rank0_concat
// CHECK-NOT:     ov.tensor_iterator
// CHECK:         %[[A:.*]] = ov.add %{{.*}}, %{{.*}} : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK:         %[[U:.*]] = ov.unsqueeze %[[A]], %{{.*}} {ov.name = "sc.0"} : (tensor<f32>, tensor<1xi64>) -> tensor<1xf32>
// CHECK:         ov.assign @"sc/s/variable_1", %[[A]]
// CHECK:         func.return %[[U]], %[[A]]
func.func @rank0_concat(%x: tensor<1xf32>, %s0: tensor<f32>) -> (tensor<1xf32>, tensor<f32>) {
  %0:2 = ov.tensor_iterator(%x, %s0) attributes {ov.name = "sc",
      input_descriptions = [#ov.slice<input = 0, param = 0, axis = 0>, #ov.merged<input = 1, param = 1, result = 0>],
      output_descriptions = [#ov.concat_output<result = 0, output = 0, axis = 0>, #ov.body_output<result = 0, output = 1>], parameter_names = ["x", "s"]}
      : (tensor<1xf32>, tensor<f32>) -> (tensor<1xf32>, tensor<f32>) {
  ^bb0(%xt: tensor<1xf32>, %st: tensor<f32>):
    %zero = ov.constant dense<[0]> : tensor<1xi64>
    %n = ov.reduce_sum %xt, %zero : (tensor<1xf32>, tensor<1xi64>) -> tensor<f32>
    %a = ov.add %st, %n : (tensor<f32>, tensor<f32>) -> tensor<f32>
    ov.yield %a : tensor<f32>
  }
  func.return %0#0, %0#1 : tensor<1xf32>, tensor<f32>
}

// -----

// Bug §8.5 (Q3) fixed: with use-const-initializer=false the inner Loop's ReadValue reads the
// outer merged parameter; OpenVINO then takes the outer TI for "already transformed" and
// skips it. Here both get their state.
// CHECK-LABEL: func.func @nested_original_init
// CHECK:         ov.read_value @"outer/s/variable_1"
// CHECK:         ov.read_value @"inner/a/variable_0"
// CHECK:         ov.assign @"inner/a/variable_0"
// CHECK:         ov.assign @"outer/s/variable_1"
// ORIG-LABEL: func.func @nested_original_init
// ORIG:          %[[O:.*]] = ov.read_value @"outer/s/variable_1" init(%s0 : tensor<1x1x2xf32>)
// ORIG:          ov.tensor_iterator(%x, %[[O]])
// ORIG:          ^bb0(%{{.*}}: tensor<1x1x2xf32>, %[[ST:.*]]: tensor<1x1x2xf32>):
// ORIG:          ov.read_value @"inner/a/variable_0" init(%[[ST]] : tensor<1x1x2xf32>)
// ORIG:          ov.assign @"inner/a/variable_0"
// ORIG:          ov.assign @"outer/s/variable_1"
func.func @nested_original_init(%x: tensor<1x3x2xf32>, %s0: tensor<1x1x2xf32>) -> tensor<1x1x2xf32> {
  %0 = ov.tensor_iterator(%x, %s0) attributes {ov.name = "outer",
      input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>], parameter_names = ["x", "s"]}
      : (tensor<1x3x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xf32> {
  ^bb0(%xt: tensor<1x1x2xf32>, %st: tensor<1x1x2xf32>):
    %n = ov.constant dense<2> : tensor<i64>
    %true = ov.constant dense<true> : tensor<i1>
    %in = ov.loop(%n, %true, %st, %xt) attributes {ov.name = "inner",
        input_descriptions = [#ov.merged<input = 2, param = 0, result = 0>, #ov.invariant<input = 3, param = 1>],
        output_descriptions = [#ov.body_output<result = 0, output = 0>],
        special_body_ports = array<i64: -1, 1>, parameter_names = ["a", "b"]}
        : (tensor<i64>, tensor<i1>, tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xf32> {
    ^bb0(%a: tensor<1x1x2xf32>, %b: tensor<1x1x2xf32>):
      %d = ov.add %a, %b : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
      %c = ov.constant dense<true> : tensor<i1>
      ov.yield %d, %c : tensor<1x1x2xf32>, tensor<i1>
    }
    ov.yield %in : tensor<1x1x2xf32>
  }
  func.return %0 : tensor<1x1x2xf32>
}

// -----

// A do-while Loop whose trip count is 0 runs no iteration: it is not unrolled (OpenVINO's
// num_iterations says 1 for any do-while and would unroll it).
// CHECK-LABEL: func.func @do_while_zero_trips
// CHECK:         ov.read_value @"dw0/s/variable_1"
// CHECK:         ov.loop
// CHECK:         ov.assign @"dw0/s/variable_1"
func.func @do_while_zero_trips(%x: tensor<1x4x3xf32>, %s0: tensor<1x1x3xf32>) -> tensor<1x1x3xf32> {
  %n = ov.constant dense<0> : tensor<i64>
  %true = ov.constant dense<true> : tensor<i1>
  %0 = ov.loop(%n, %true, %x, %s0) attributes {ov.name = "dw0",
      input_descriptions = [#ov.slice<input = 2, param = 0, axis = 1>, #ov.merged<input = 3, param = 1, result = 0>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>],
      special_body_ports = array<i64: -1, 1>, parameter_names = ["x", "s"]}
      : (tensor<i64>, tensor<i1>, tensor<1x4x3xf32>, tensor<1x1x3xf32>) -> tensor<1x1x3xf32> {
  ^bb0(%xt: tensor<1x1x3xf32>, %st: tensor<1x1x3xf32>):
    %s = ov.add %st, %xt : (tensor<1x1x3xf32>, tensor<1x1x3xf32>) -> tensor<1x1x3xf32>
    %c = ov.constant dense<false> : tensor<i1>
    ov.yield %s, %c : tensor<1x1x3xf32>, tensor<i1>
  }
  func.return %0 : tensor<1x1x3xf32>
}

// -----

// Upstream LLT2Sequence GRU x 1 and LSTM x 10 (the other combinations are in
// low-latency2-sequences.mlir).
// CHECK-LABEL: func.func @gru_seq1
// CHECK:         %[[H:.*]] = ov.read_value @"g1/variable_0"
// CHECK-NOT:     ov.gru_sequence
// CHECK:         %[[HO:.*]] = ov.gru_cell {{.*}}ov.name = "g1/cell"
// CHECK-DAG:     %[[Y:.*]] = ov.unsqueeze %[[HO]], %{{.*}} {ov.name = "g1:0"}
// CHECK-DAG:     %[[H1:.*]] = ov.unsqueeze %[[HO]], %{{.*}} {ov.name = "g1:1"}
// CHECK:         ov.assign @"g1/variable_0", %[[H1]]
func.func @gru_seq1(%x: tensor<1x1x3xf32>, %h: tensor<1x1x4xf32>, %w: tensor<1x12x3xf32>, %r: tensor<1x12x4xf32>, %b: tensor<1x12xf32>) -> tensor<1x1x1x4xf32> {
  %len = ov.constant dense<[1]> : tensor<1xi64>
  %y, %ho = ov.gru_sequence %x, %h, %len, %w, %r, %b {ov.name = "g1", hidden_size = 4 : i64, direction = #ov<direction forward>} : (tensor<1x1x3xf32>, tensor<1x1x4xf32>, tensor<1xi64>, tensor<1x12x3xf32>, tensor<1x12x4xf32>, tensor<1x12xf32>) -> (tensor<1x1x1x4xf32>, tensor<1x1x4xf32>)
  func.return %y : tensor<1x1x1x4xf32>
}

// -----

// CHECK-LABEL: func.func @lstm_seq10
// CHECK:         %[[H:.*]] = ov.read_value @"l10/variable_0"
// CHECK:         %[[C:.*]] = ov.read_value @"l10/variable_1"
// CHECK:         %{{.*}}, %[[HO:.*]], %[[CO:.*]] = ov.lstm_sequence %x, %[[H]], %[[C]]
// CHECK-NEXT:    ov.assign @"l10/variable_0", %[[HO]]
// CHECK-NEXT:    ov.assign @"l10/variable_1", %[[CO]]
func.func @lstm_seq10(%x: tensor<1x10x3xf32>, %h: tensor<1x1x4xf32>, %c: tensor<1x1x4xf32>, %w: tensor<1x16x3xf32>, %r: tensor<1x16x4xf32>, %b: tensor<1x16xf32>) -> tensor<1x1x10x4xf32> {
  %len = ov.constant dense<[10]> : tensor<1xi64>
  %y, %ho, %co = ov.lstm_sequence %x, %h, %c, %len, %w, %r, %b {ov.name = "l10", hidden_size = 4 : i64, direction = #ov<direction forward>} : (tensor<1x10x3xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1xi64>, tensor<1x16x3xf32>, tensor<1x16x4xf32>, tensor<1x16xf32>) -> (tensor<1x1x10x4xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>)
  func.return %y : tensor<1x1x10x4xf32>
}
