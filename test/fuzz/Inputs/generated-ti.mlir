// A graph of fuzz/generate.py (generate(2, 'ti')), a seed for the MLIR mutator.
// Valid input of: opt-tool --low-latency2
builtin.module {
  func.func @main(%x: tensor<1x1x2xf32> {ov.name = "x"}, %h0: tensor<1x2xf32> {ov.name = "h0"}) -> (tensor<1x2xf32> {ov.name = "h"}) {
    %0 = ov.tensor_iterator(%x, %h0) attributes {ov.name = "ti",
        input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>,
                              #ov.merged<input = 1, param = 1, result = 0>],
        output_descriptions = [#ov.body_output<result = 0, output = 0>],
        parameter_names = ["X_t", "H_t"]}
        : (tensor<1x1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32> {
    ^bb0(%xt: tensor<1x1x2xf32>, %ht: tensor<1x2xf32>):
      %c1 = ov.constant dense<"0x273148BEFBCB6E3E8FC2B53EE7FB69BF"> : tensor<2x2xf32>
      %c2 = ov.constant dense<"0x89D25EBB29CBB03E96B23C3FD6562C3E"> : tensor<2x2xf32>
      %c3 = ov.constant dense<"0x4694363FC364AABA"> : tensor<1x2xf32>
      %i4 = ov.constant dense<[1]> : tensor<1xi64>
    %xs = ov.squeeze %xt, %i4 : (tensor<1x1x2xf32>, tensor<1xi64>) -> tensor<1x2xf32>
    %xw = ov.mat_mul %xs, %c1 : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
    %hr = ov.mat_mul %ht, %c2 : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
    %s1 = ov.add %xw, %hr : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
    %s2 = ov.add %s1, %c3 : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
    %h = ov.tanh %s2 : (tensor<1x2xf32>) -> tensor<1x2xf32>
    ov.yield %h : tensor<1x2xf32>
    }
    func.return %0 : tensor<1x2xf32>
  }
}
