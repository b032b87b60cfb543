// RUN: opt-tool %s | opt-tool | filecheck %s
// RUN: %roundtrip

// CHECK-LABEL: func.func @constant
func.func @constant() -> tensor<2xf32> {
  // CHECK: ov.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32> {ov.name = "c"}
  %0 = ov.constant dense<[1.0, 2.0]> : tensor<2xf32> {ov.name = "c"}
  func.return %0 : tensor<2xf32>
}

// An LSTM-like TensorIterator: X sliced along the sequence axis, H and C carried by
// back-edges, W and R invariant; H exported as last value and concatenated.
// CHECK-LABEL: func.func @tensor_iterator
func.func @tensor_iterator(%x: tensor<1x3x4xf32>, %h0: tensor<1x1x4xf32>, %c0: tensor<1x1x4xf32>, %w: tensor<4x4xf32>, %r: tensor<4x4xf32>) -> (tensor<1x1x4xf32>, tensor<1x3x4xf32>, tensor<1x1x4xf32>) {
  // CHECK:      %{{.*}}, %{{.*}}, %{{.*}} = ov.tensor_iterator(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) attributes {ov.name = "LSTMTensorIterator", input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>, #ov.merged<input = 2, param = 2, result = 1>, #ov.invariant<input = 3, param = 3>, #ov.invariant<input = 4, param = 4>], output_descriptions = [#ov.body_output<result = 0, output = 0>, #ov.concat_output<result = 0, output = 1, axis = 1>, #ov.body_output<result = 1, output = 2>], parameter_names = ["X_t", "H_t", "C_t", "W", "R"]} : (tensor<1x3x4xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> (tensor<1x1x4xf32>, tensor<1x3x4xf32>, tensor<1x1x4xf32>) {
  // CHECK-NEXT: ^{{.*}}(%{{.*}}: tensor<1x1x4xf32>, %{{.*}}: tensor<1x1x4xf32>, %{{.*}}: tensor<1x1x4xf32>, %{{.*}}: tensor<4x4xf32>, %{{.*}}: tensor<4x4xf32>):
  // CHECK:        ov.mat_mul
  // CHECK:        ov.yield %{{.*}}, %{{.*}} : tensor<1x1x4xf32>, tensor<1x1x4xf32>
  // CHECK-NEXT: }
  %0:3 = ov.tensor_iterator(%x, %h0, %c0, %w, %r) attributes {
      input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1, start = 0, stride = 1, part_size = 1, end = -1>,
                            #ov.merged<input = 1, param = 1, result = 0>,
                            #ov.merged<param = 2, input = 2, result = 1>,
                            #ov.invariant<input = 3, param = 3>,
                            #ov.invariant<input = 4, param = 4>],
      output_descriptions = [#ov.body_output<result = 0, output = 0, iteration = -1>,
                             #ov.concat_output<result = 0, output = 1, axis = 1>,
                             #ov.body_output<result = 1, output = 2>],
      parameter_names = ["X_t", "H_t", "C_t", "W", "R"], ov.name = "LSTMTensorIterator"}
      : (tensor<1x3x4xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> (tensor<1x1x4xf32>, tensor<1x3x4xf32>, tensor<1x1x4xf32>) {
  ^bb0(%xt: tensor<1x1x4xf32>, %ht: tensor<1x1x4xf32>, %ct: tensor<1x1x4xf32>, %wt: tensor<4x4xf32>, %rt: tensor<4x4xf32>):
    %a = ov.mat_mul %xt, %wt : (tensor<1x1x4xf32>, tensor<4x4xf32>) -> tensor<1x1x4xf32>
    %b = ov.mat_mul %ht, %rt : (tensor<1x1x4xf32>, tensor<4x4xf32>) -> tensor<1x1x4xf32>
    %g = ov.add %a, %b : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    %cg = ov.multiply %ct, %g : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    %c = ov.add %cg, %g : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    %h = ov.multiply %g, %c : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %h, %c : tensor<1x1x4xf32>, tensor<1x1x4xf32>
  }
  func.return %0#0, %0#1, %0#2 : tensor<1x1x4xf32>, tensor<1x3x4xf32>, tensor<1x1x4xf32>
}

// Reverse slicing (stride -1), part_size 2, a dynamic sequence length and a reversed concat.
// CHECK-LABEL: func.func @reverse
func.func @reverse(%x: tensor<2x6xf32>, %y: tensor<2x?xf32>, %s0: tensor<2x2xf32>) -> (tensor<2x6xf32>, tensor<2x?xf32>) {
  // CHECK: ov.tensor_iterator(%{{.*}}, %{{.*}}) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1, start = -1, stride = -1, part_size = 2, end = 0>, #ov.merged<input = 1, param = 1, result = 0>], output_descriptions = [#ov.concat_output<result = 0, output = 0, axis = -1, stride = -1, part_size = 2>]} : (tensor<2x6xf32>, tensor<2x2xf32>) -> tensor<2x6xf32> {
  %0 = ov.tensor_iterator(%x, %s0) attributes {
      input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1, start = -1, stride = -1, part_size = 2, end = 0>, #ov.merged<input = 1, param = 1, result = 0>],
      output_descriptions = [#ov.concat_output<result = 0, output = 0, axis = -1, stride = -1, part_size = 2>]}
      : (tensor<2x6xf32>, tensor<2x2xf32>) -> tensor<2x6xf32> {
  ^bb0(%xt: tensor<2x2xf32>, %acc: tensor<2x2xf32>):
    %sum = ov.add %acc, %xt : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    ov.yield %sum : tensor<2x2xf32>
  }
  // CHECK: ov.tensor_iterator(%{{.*}}) attributes {input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>], output_descriptions = [#ov.concat_output<result = 0, output = 0, axis = 1>]} : (tensor<2x?xf32>) -> tensor<2x?xf32> {
  %1 = ov.tensor_iterator(%y) attributes {
      input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>],
      output_descriptions = [#ov.concat_output<result = 0, output = 0, axis = 1>]}
      : (tensor<2x?xf32>) -> tensor<2x?xf32> {
  ^bb0(%yt: tensor<2x1xf32>):
    %d = ov.add %yt, %yt : (tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
    ov.yield %d : tensor<2x1xf32>
  }
  func.return %0, %1 : tensor<2x6xf32>, tensor<2x?xf32>
}

// A Loop with a current_iteration parameter, a constant body condition, a trip count,
// a sliced input, a back-edge and a concatenated output.
// CHECK-LABEL: func.func @loop
func.func @loop(%x: tensor<5x3xf32>, %acc0: tensor<1x3xf32>, %flags: tensor<4xi1>) -> (tensor<1x3xf32>, tensor<5x3xf32>, tensor<1x3xf32>) {
  %trip = ov.constant dense<5> : tensor<i64>
  %true = ov.constant dense<true> : tensor<i1>
  // CHECK: ov.loop(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) attributes {ov.name = "loop", input_descriptions = [#ov.slice<input = 2, param = 1, axis = 0>, #ov.merged<input = 3, param = 2, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>, #ov.concat_output<result = 1, output = 1, axis = 0>], special_body_ports = array<i64: 0, 2>} : (tensor<i64>, tensor<i1>, tensor<5x3xf32>, tensor<1x3xf32>) -> (tensor<1x3xf32>, tensor<5x3xf32>) {
  // CHECK: ov.yield %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x3xf32>, tensor<1x3xf32>, tensor<i1>
  %0:2 = ov.loop(%trip, %true, %x, %acc0) attributes {
      input_descriptions = [#ov.slice<input = 2, param = 1, axis = 0>, #ov.merged<input = 3, param = 2, result = 0>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>, #ov.concat_output<result = 1, output = 1, axis = 0>],
      special_body_ports = array<i64: 0, 2>, ov.name = "loop"}
      : (tensor<i64>, tensor<i1>, tensor<5x3xf32>, tensor<1x3xf32>) -> (tensor<1x3xf32>, tensor<5x3xf32>) {
  ^bb0(%i: tensor<i64>, %xt: tensor<1x3xf32>, %acc: tensor<1x3xf32>):
    %cond = ov.constant dense<true> : tensor<i1>
    %sum = ov.add %acc, %xt : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
    %sq = ov.multiply %xt, %xt : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
    ov.yield %sum, %sq, %cond : tensor<1x3xf32>, tensor<1x3xf32>, tensor<i1>
  }
  // A while loop: unbounded trip count, condition read from a sliced input; no data output
  // depends on the number of iterations statically (the concat output is dynamic).
  // CHECK: ov.loop(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) attributes {{{.*}}special_body_ports = array<i64: -1, 1>} : (tensor<1xi64>, tensor<i1>, tensor<4xi1>, tensor<1x3xf32>) -> (tensor<1x3xf32>, tensor<?x3xf32>)
  %minus1 = ov.constant dense<-1> : tensor<1xi64>
  %1:2 = ov.loop(%minus1, %true, %flags, %acc0) attributes {
      input_descriptions = [#ov.slice<input = 2, param = 0, axis = 0>, #ov.merged<input = 3, param = 1, result = 0>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>, #ov.concat_output<result = 0, output = 1, axis = 0>],
      special_body_ports = array<i64: -1, 1>}
      : (tensor<1xi64>, tensor<i1>, tensor<4xi1>, tensor<1x3xf32>) -> (tensor<1x3xf32>, tensor<?x3xf32>) {
  ^bb0(%f: tensor<1xi1>, %a: tensor<1x3xf32>):
    %a2 = ov.add %a, %a : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
    ov.yield %a2, %f : tensor<1x3xf32>, tensor<1xi1>
  }
  func.return %0#0, %0#1, %1#0 : tensor<1x3xf32>, tensor<5x3xf32>, tensor<1x3xf32>
}

// A carried value that grows by a row per iteration: its parameter is dynamic where the
// back-edge differs from the initial value (OpenVINO's Loop shape inference; ONNX Loop's
// sequences), and the last value too.
// CHECK-LABEL: func.func @loop_growing
// CHECK: ov.loop({{.*}}) -> tensor<?x3xf32> {
// CHECK: ^bb0(%{{.*}}: tensor<i64>, %{{.*}}: tensor<?x3xf32>, %{{.*}}: tensor<1x3xf32>):
// CHECK: ov.yield %{{.*}}, %{{.*}} : tensor<?x3xf32>, tensor<i1>
func.func @loop_growing(%trip: tensor<i64>, %s0: tensor<1x3xf32>, %row: tensor<1x3xf32>) -> tensor<?x3xf32> {
  %true = ov.constant dense<true> : tensor<i1>
  %0 = ov.loop(%trip, %true, %s0, %row) attributes {
      input_descriptions = [#ov.merged<input = 2, param = 1, result = 0>, #ov.invariant<input = 3, param = 2>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>],
      special_body_ports = array<i64: 0, 1>}
      : (tensor<i64>, tensor<i1>, tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32> {
  ^bb0(%i: tensor<i64>, %s: tensor<?x3xf32>, %r: tensor<1x3xf32>):
    %c = ov.constant dense<true> : tensor<i1>
    %grown = ov.concat %s, %r axis = 0 : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
    ov.yield %grown, %c : tensor<?x3xf32>, tensor<i1>
  }
  func.return %0 : tensor<?x3xf32>
}
