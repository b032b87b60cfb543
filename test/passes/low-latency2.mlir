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
