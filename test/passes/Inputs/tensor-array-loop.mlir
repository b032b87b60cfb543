builtin.module {
  func.func @main(%x: tensor<4x1x3xf32> {ov.name = "x"}) -> (tensor<4x1x3xf32> {ov.name = "y"}) {
    %trip = ov.constant dense<-1> : tensor<i32> {ov.name = "trip"}
    %go = ov.constant dense<true> : tensor<i1> {ov.name = "go"}
    %t0 = ov.constant dense<0> : tensor<i32> {ov.name = "t0"}
    %ta = ov.constant dense<0.0> : tensor<4x1x1xf32> {ov.name = "ta"}
    %h0 = ov.constant dense<0.0> : tensor<1x3xf32> {ov.name = "h0"}
    %y = ov.loop(%trip, %go, %t0, %ta, %h0, %x) attributes {ov.name = "while", input_descriptions = [#ov.merged<input = 2, param = 0, result = 0>, #ov.merged<input = 3, param = 1, result = 1>, #ov.merged<input = 4, param = 2, result = 2>, #ov.invariant<input = 5, param = 3>], output_descriptions = [#ov.body_output<result = 1, output = 0>], special_body_ports = array<i64: -1, 3>} : (tensor<i32>, tensor<i1>, tensor<i32>, tensor<4x1x1xf32>, tensor<1x3xf32>, tensor<4x1x3xf32>) -> tensor<4x1x3xf32> {
    ^bb0(%t: tensor<i32>, %arr: tensor<4x1x?xf32>, %h: tensor<1x3xf32>, %xs: tensor<4x1x3xf32>):
      %one = ov.constant dense<1> : tensor<i32> {ov.name = "one"}
      %t1 = ov.add %t, %one {ov.name = "t1"} : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %flat = ov.constant dense<-1> : tensor<1xi64> {ov.name = "flat"}
      %idx = ov.reshape %t, %flat special_zero = false {ov.name = "idx"} : (tensor<i32>, tensor<1xi64>) -> tensor<1xi32>
      %axis = ov.constant dense<0> : tensor<i32> {ov.name = "axis"}
      %xt = ov.gather %xs, %t, %axis {ov.name = "xt"} : (tensor<4x1x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x3xf32>
      %s = ov.add %h, %xt {ov.name = "s"} : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
      %hn = ov.tanh %s {ov.name = "hn"} : (tensor<1x3xf32>) -> tensor<1x3xf32>
      %shape = ov.constant dense<[4, 1, 3]> : tensor<3xi64> {ov.name = "shape"}
      %b = ov.broadcast %arr, %shape {ov.name = "b"} : (tensor<4x1x?xf32>, tensor<3xi64>) -> tensor<4x1x3xf32>
      %zero = ov.constant dense<0> : tensor<1xi64> {ov.name = "zero"}
      %upd = ov.unsqueeze %hn, %zero {ov.name = "upd"} : (tensor<1x3xf32>, tensor<1xi64>) -> tensor<1x1x3xf32>
      %w = ov.scatter_update %b, %idx, %upd, %axis {ov.name = "write"} : (tensor<4x1x3xf32>, tensor<1xi32>, tensor<1x1x3xf32>, tensor<i32>) -> tensor<4x1x3xf32>
      %n = ov.constant dense<4> : tensor<i32> {ov.name = "n"}
      %c = ov.less %t1, %n {ov.name = "c"} : (tensor<i32>, tensor<i32>) -> tensor<i1>
      ov.yield %t1, %w, %hn, %c : tensor<i32>, tensor<4x1x3xf32>, tensor<1x3xf32>, tensor<i1>
    }
    func.return %y : tensor<4x1x3xf32>
  }
}
