// make-stateful on an LSTM step with explicit state: two pairs, by alias and by name, given
// in the reverse order of the input names (the variables follow the input names' order).
// RUN: opt-tool %s -p 'make-stateful{pairs="h0:hn","c0:cn"}' | filecheck %s
// RUN: opt-tool %s -p 'make-stateful{rule="*0->*n"}' | filecheck %s
// the flag form and MLIR's --pass-pipeline take the value unquoted (`*`, `-`, `>` quoted for xDSL)
// RUN: opt-tool %s --make-stateful='rule=*0->*n' | filecheck %s
// RUN: opt-tool %s '--pass-pipeline=builtin.module(make-stateful{rule=*0->*n})' | filecheck %s
// RUN: opt-tool %s -p 'make-stateful{pairs="h0:hn,c0:cn"}' | opt-tool | filecheck %s

// `c0` is an alias of the input `cell_in`. The dynamic batch stays dynamic in the variables.
// CHECK:       ov.variable @c0cn : tensor<?x3xf32>
// CHECK-NEXT:  ov.variable @h0hn : tensor<?x3xf32>
// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%x: tensor<?x2xf32> {ov.name = "x"}) -> (tensor<?x3xf32> {ov.name = "y"})
// CHECK-NEXT:    %c = ov.read_value @c0cn : tensor<?x3xf32>
// CHECK-NEXT:    %h = ov.read_value @h0hn : tensor<?x3xf32>
// CHECK:         ov.assign @c0cn, %co : tensor<?x3xf32>
// CHECK-NEXT:    ov.assign @h0hn, %ho : tensor<?x3xf32>
// CHECK-NEXT:    func.return %y : tensor<?x3xf32>
func.func @main(%x: tensor<?x2xf32> {ov.name = "x"}, %h: tensor<?x3xf32> {ov.name = "h0"}, %c: tensor<?x3xf32> {ov.name = "cell_in", ov.aliases = ["c0"]}) -> (tensor<?x3xf32> {ov.name = "y"}, tensor<?x3xf32> {ov.name = "hn"}, tensor<?x3xf32> {ov.name = "cn"}) {
  %w = ov.constant dense<0.1> : tensor<12x2xf32>
  %r = ov.constant dense<0.2> : tensor<12x3xf32>
  %b = ov.constant dense<0.0> : tensor<12xf32>
  %ho, %co = ov.lstm_cell %x, %h, %c, %w, %r, %b {hidden_size = 3 : i64, ov.name = "cell"} : (tensor<?x2xf32>, tensor<?x3xf32>, tensor<?x3xf32>, tensor<12x2xf32>, tensor<12x3xf32>, tensor<12xf32>) -> (tensor<?x3xf32>, tensor<?x3xf32>)
  %y = ov.relu %ho : (tensor<?x3xf32>) -> tensor<?x3xf32>
  func.return %y, %ho, %co : tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>
}
