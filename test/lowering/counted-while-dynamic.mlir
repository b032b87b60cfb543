// A counted while loop, as OpenVINO converts TensorFlow's (a Keras 2 RNN): trip count -1, the
// sequence sliced along axis 0, the condition `time + 1 < T` computed in the body, T read
// from the sequence's shape. Its number of iterations follows from the condition
// (`LoopOp.counted_iterations`), so ov-reshape infers the concatenated output's length (5;
// OpenVINO's shape inference leaves it dynamic) and the CPU device compiles the loop (one jit
// row, no fallback), computing what REFERENCE computes.
// RUN: opt-tool --ov-reshape='inputs="x:5x2x3"' %s | filecheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: lowpass-run %s --shape 'x[5,2,3]' --random-inputs 1 --device REFERENCE --save-outputs %t/ref
// RUN: lowpass-run %s --shape 'x[5,2,3]' --random-inputs 1 --device CPU --save-outputs %t/cpu -pcsort no_sort | filecheck %s --check-prefix=ROWS
// RUN: python3 %S/../tools/lowpass-run/Inputs/compare_outputs.py %t/ref %t/cpu | filecheck %s --check-prefix=SAME
// CHECK: -> (tensor<5x2x3xf32> {ov.name = "ys"})
// CHECK: ov.loop({{.*}}) -> tensor<5x2x3xf32> {
// ROWS:  while {{ *}}Loop {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// SAME:  same ys
func.func @main(%x: tensor<?x2x3xf32> {ov.name = "x"}) -> (tensor<?x2x3xf32> {ov.name = "ys"}) {
  %trip = ov.constant dense<-1> : tensor<i32>
  %go = ov.constant dense<true> : tensor<i1>
  %t0 = ov.constant dense<0> : tensor<i32>
  %shape = ov.shape_of %x output_type = i32 : (tensor<?x2x3xf32>) -> tensor<3xi32>
  %zero = ov.constant dense<0> : tensor<i32>
  %length = ov.gather %shape, %zero, %zero : (tensor<3xi32>, tensor<i32>, tensor<i32>) -> tensor<i32>
  %h0 = ov.constant dense<0.0> : tensor<2x3xf32>
  %ys = ov.loop(%trip, %go, %t0, %h0, %length, %x) attributes {ov.name = "while",
      input_descriptions = [#ov.merged<input = 2, param = 0, result = 0>, #ov.merged<input = 3, param = 1, result = 1>,
                            #ov.invariant<input = 4, param = 2>, #ov.slice<input = 5, param = 3, axis = 0>],
      output_descriptions = [#ov.concat_output<result = 2, output = 0, axis = 0>],
      special_body_ports = array<i64: -1, 3>}
      : (tensor<i32>, tensor<i1>, tensor<i32>, tensor<2x3xf32>, tensor<i32>, tensor<?x2x3xf32>) -> tensor<?x2x3xf32> {
  ^bb0(%t: tensor<i32>, %h: tensor<2x3xf32>, %n: tensor<i32>, %x_t: tensor<1x2x3xf32>):
    %one = ov.constant dense<1> : tensor<i32>
    %t1 = ov.add %t, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %axes = ov.constant dense<0> : tensor<1xi64>
    %step = ov.squeeze %x_t, %axes : (tensor<1x2x3xf32>, tensor<1xi64>) -> tensor<2x3xf32>
    %s = ov.add %h, %step : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %h1 = ov.tanh %s : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %y = ov.unsqueeze %h1, %axes : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<1x2x3xf32>
    %c = ov.less %t1, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    ov.yield %t1, %h1, %y, %c : tensor<i32>, tensor<2x3xf32>, tensor<1x2x3xf32>, tensor<i1>
  }
  func.return %ys : tensor<?x2x3xf32>
}
