// RUN: opt-tool %s --convert-tfl-to-ov | filecheck %s
// RUN: opt-tool %s --convert-tfl-to-ov | opt-tool | filecheck %s

// tfl.lstm (one step) -> ov.lstm_cell: W [4H, I], R [4H, H], B [4H] in f, i, c, o order,
// no num_directions axis; the result is Ho.
// CHECK-LABEL: func.func @main
// CHECK-NOT:     tfl.
// CHECK-DAG:     %[[W:.*]] = ov.constant dense<{{\[\[}}2.000000e+00], [1.000000e+00], [3.000000e+00], [4.000000e+00]]> : tensor<4x1xf32> {ov.name = "lstm_cell/W"}
// CHECK-DAG:     %[[R:.*]] = ov.constant dense<{{\[\[}}2.000000e+01], [1.000000e+01], [3.000000e+01], [4.000000e+01]]> : tensor<4x1xf32> {ov.name = "lstm_cell/R"}
// CHECK-DAG:     %[[B:.*]] = ov.constant dense<[2.000000e+00, 1.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32> {ov.name = "lstm_cell/B"}
// CHECK:         %[[HO:.*]], %{{.*}} = ov.lstm_cell %x, %h, %c, %[[W]], %[[R]], %[[B]] {ov.name = "lstm_cell", hidden_size = 1 : i64} : (tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4xf32>) -> (tensor<2x1xf32>, tensor<2x1xf32>)
// CHECK:         func.return %[[HO]] : tensor<2x1xf32>
func.func @main(%x: tensor<2x1xf32>, %h: tensor<2x1xf32>, %c: tensor<2x1xf32>) -> tensor<2x1xf32> {
  %w1 = arith.constant dense<1.0> : tensor<1x1xf32>
  %w2 = arith.constant dense<2.0> : tensor<1x1xf32>
  %w3 = arith.constant dense<3.0> : tensor<1x1xf32>
  %w4 = arith.constant dense<4.0> : tensor<1x1xf32>
  %r1 = arith.constant dense<10.0> : tensor<1x1xf32>
  %r2 = arith.constant dense<20.0> : tensor<1x1xf32>
  %r3 = arith.constant dense<30.0> : tensor<1x1xf32>
  %r4 = arith.constant dense<40.0> : tensor<1x1xf32>
  %b1 = arith.constant dense<1.0> : tensor<1xf32>
  %b2 = arith.constant dense<2.0> : tensor<1xf32>
  %b3 = arith.constant dense<3.0> : tensor<1xf32>
  %b4 = arith.constant dense<4.0> : tensor<1xf32>
  %n = "tfl.no_value"() <{value}> : () -> none
  %y = "tfl.lstm"(%x, %w1, %w2, %w3, %w4, %r1, %r2, %r3, %r4, %n, %n, %n, %b1, %b2, %b3, %b4, %n, %n, %h, %c, %n, %n, %n, %n) <{cell_clip = 0.000000e+00 : f32, fused_activation_function = "TANH", kernel_type = "FULL", proj_clip = 0.000000e+00 : f32}> : (tensor<2x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, none, none, none, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, none, none, tensor<2x1xf32>, tensor<2x1xf32>, none, none, none, none) -> tensor<2x1xf32>
  func.return %y : tensor<2x1xf32>
}
