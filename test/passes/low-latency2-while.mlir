// RUN: opt-tool %s --split-input-file --low-latency2 | filecheck %s
// RUN: opt-tool %s --split-input-file --low-latency2 | opt-tool --split-input-file | filecheck %s

// A while loop, `do { acc = acc + m } while (++i < n)`: its body condition (ov.less of the
// current iteration and an invariant input) depends on the data, so the number of
// iterations is unknown and the Loop is kept, as upstream does, whatever its trip count;
// the back edge becomes a variable and the condition is left alone.
// CHECK-LABEL: func.func @while_less
// CHECK:         %[[ACC:.*]] = ov.read_value @"while/acc/variable_0"
// CHECK:         %[[L:.*]] = ov.loop(%{{.*}}, %{{.*}}, %[[ACC]], %{{.*}}, %{{.*}})
// CHECK:           %[[N:.*]] = ov.add %{{.*}}, %{{.*}} : (tensor<i64>, tensor<i64>) -> tensor<i64>
// CHECK:           %[[GO:.*]] = ov.less %[[N]], %{{.*}} : (tensor<i64>, tensor<i64>) -> tensor<i1>
// CHECK:           ov.yield %{{.*}}, %[[GO]] : tensor<1x3xf32>, tensor<i1>
// CHECK:         ov.assign @"while/acc/variable_0", %[[L]]
func.func @while_less(%a0: tensor<1x3xf32>, %m: tensor<1x3xf32>, %n: tensor<i64>) -> tensor<1x3xf32> {
  %one_trip = ov.constant dense<1> : tensor<i64>
  %go = ov.constant dense<true> : tensor<i1>
  %0 = ov.loop(%one_trip, %go, %a0, %m, %n) attributes {ov.name = "while",
      input_descriptions = [#ov.merged<input = 2, param = 1, result = 0>, #ov.invariant<input = 3, param = 2>, #ov.invariant<input = 4, param = 3>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>],
      special_body_ports = array<i64: 0, 1>, parameter_names = ["i", "acc", "m", "n"]}
      : (tensor<i64>, tensor<i1>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<i64>) -> tensor<1x3xf32> {
  ^bb0(%i: tensor<i64>, %acc: tensor<1x3xf32>, %mb: tensor<1x3xf32>, %nb: tensor<i64>):
    %s = ov.add %acc, %mb : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
    %one = ov.constant dense<1> : tensor<i64>
    %next = ov.add %i, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %more = ov.less %next, %nb : (tensor<i64>, tensor<i64>) -> tensor<i1>
    ov.yield %s, %more : tensor<1x3xf32>, tensor<i1>
  }
  func.return %0 : tensor<1x3xf32>
}

// -----

// A body condition computed from constants is known: `1 < 2` is true, so a trip count of 1
// is one iteration and the Loop is unrolled.
// CHECK-LABEL: func.func @constant_less
// CHECK-NOT:     ov.loop
// CHECK:         %[[ACC:.*]] = ov.read_value @"once/acc/variable_0"
// CHECK:         %[[S:.*]] = ov.add %[[ACC]], %m
// CHECK:         ov.assign @"once/acc/variable_0", %[[S]]
func.func @constant_less(%a0: tensor<1x3xf32>, %m: tensor<1x3xf32>) -> tensor<1x3xf32> {
  %one_trip = ov.constant dense<1> : tensor<i64>
  %go = ov.constant dense<true> : tensor<i1>
  %0 = ov.loop(%one_trip, %go, %a0, %m) attributes {ov.name = "once",
      input_descriptions = [#ov.merged<input = 2, param = 0, result = 0>, #ov.invariant<input = 3, param = 1>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>],
      special_body_ports = array<i64: -1, 1>, parameter_names = ["acc", "m"]}
      : (tensor<i64>, tensor<i1>, tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32> {
  ^bb0(%acc: tensor<1x3xf32>, %mb: tensor<1x3xf32>):
    %s = ov.add %acc, %mb : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
    %a = ov.constant dense<1> : tensor<i64>
    %b = ov.constant dense<2> : tensor<i64>
    %more = ov.less %a, %b : (tensor<i64>, tensor<i64>) -> tensor<i1>
    ov.yield %s, %more : tensor<1x3xf32>, tensor<i1>
  }
  func.return %0 : tensor<1x3xf32>
}
