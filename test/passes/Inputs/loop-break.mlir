builtin.module {
  func.func @main(%x: tensor<1x4xf32> {ov.name = "x"}) -> (tensor<1x4xf32> {ov.name = "h"}) {
    %trip = ov.constant dense<8> : tensor<i64> {ov.name = "trip"}
    %go = ov.constant dense<true> : tensor<i1> {ov.name = "go"}
    %h0 = ov.constant dense<0.0> : tensor<1x4xf32> {ov.name = "h0"}
    %h = ov.loop(%trip, %go, %h0, %x) attributes {ov.name = "decode", input_descriptions = [#ov.merged<input = 2, param = 1, result = 0>, #ov.invariant<input = 3, param = 2>], output_descriptions = [#ov.body_output<result = 0, output = 0>], special_body_ports = array<i64: 0, 1>} : (tensor<i64>, tensor<i1>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32> {
    ^bb0(%i: tensor<i64>, %hp: tensor<1x4xf32>, %xs: tensor<1x4xf32>):
      %s = ov.add %hp, %xs {ov.name = "s"} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
      %hn = ov.tanh %s {ov.name = "hn"} : (tensor<1x4xf32>) -> tensor<1x4xf32>
      %axes = ov.constant dense<[0, 1]> : tensor<2xi64> {ov.name = "axes"}
      %m = ov.reduce_max %hn, %axes {ov.name = "m"} : (tensor<1x4xf32>, tensor<2xi64>) -> tensor<f32>
      %limit = ov.constant dense<0.9> : tensor<f32> {ov.name = "limit"}
      %stop = ov.greater %m, %limit {ov.name = "stop"} : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cont = ov.if(%stop, %i) attributes {ov.name = "break", then_inputs = [], else_inputs = [#ov.invariant<input = 1, param = 0>], then_outputs = [#ov.body_output<result = 0, output = 0>], else_outputs = [#ov.body_output<result = 0, output = 0>]} : (tensor<i1>, tensor<i64>) -> tensor<i1> {
        %f = ov.constant dense<false> : tensor<i1> {ov.name = "f"}
        ov.yield %f : tensor<i1>
      } else {
      ^bb0(%j: tensor<i64>):
        %one = ov.constant dense<1> : tensor<i64> {ov.name = "one"}
        %next = ov.add %j, %one {ov.name = "next"} : (tensor<i64>, tensor<i64>) -> tensor<i64>
        %n = ov.constant dense<8> : tensor<i64> {ov.name = "n"}
        %more = ov.less %next, %n {ov.name = "more"} : (tensor<i64>, tensor<i64>) -> tensor<i1>
        ov.yield %more : tensor<i1>
      }
      ov.yield %hn, %cont : tensor<1x4xf32>, tensor<i1>
    }
    func.return %h : tensor<1x4xf32>
  }
}
