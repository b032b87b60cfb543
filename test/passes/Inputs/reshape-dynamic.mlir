// Read by reshape.mlir (DYN): inputs="X:?x1x16","H0:1x16" reshapes the TensorIterator case
// (with a dynamic sequence length the number of iterations is unknown: the concat axis is ?);
// a model without an input H0 is refused, its inputs listed.

func.func @tensor_iterator(%x: tensor<2x1x16xf32> {ov.name = "X"}, %h0: tensor<1x16xf32> {ov.name = "H0"}) -> (tensor<1x16xf32>, tensor<2x1x16xf32>) {
  %0:2 = ov.tensor_iterator(%x, %h0) attributes {
      input_descriptions = [#ov.slice<input = 0, param = 0, axis = 0>, #ov.merged<input = 1, param = 1, result = 0>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>, #ov.concat_output<result = 1, output = 1, axis = 0>],
      ov.name = "TI"}
      : (tensor<2x1x16xf32>, tensor<1x16xf32>) -> (tensor<1x16xf32>, tensor<2x1x16xf32>) {
  ^bb0(%xt: tensor<1x1x16xf32>, %ht: tensor<1x16xf32>):
    %s = ov.constant dense<[1, 16]> : tensor<2xi64>
    %x2 = ov.reshape %xt, %s special_zero = false : (tensor<1x1x16xf32>, tensor<2xi64>) -> tensor<1x16xf32>
    %h = ov.add %ht, %x2 : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
    %y = ov.relu %xt : (tensor<1x1x16xf32>) -> tensor<1x1x16xf32>
    ov.yield %h, %y : tensor<1x16xf32>, tensor<1x1x16xf32>
  }
  func.return %0#0, %0#1 : tensor<1x16xf32>, tensor<2x1x16xf32>
}

// -----

// expected-error @+1 {{'func.func' op @hard_coded: the model has no input named 'H0': its inputs are 'X' [2, 1, 16]}}
func.func @hard_coded(%x: tensor<2x1x16xf32> {ov.name = "X"}) -> tensor<2x16xf32> {
  %s = ov.constant dense<[2, 16]> : tensor<2xi64> {ov.name = "seq/shape"}
  %y = ov.reshape %x, %s special_zero = false {ov.name = "seq/squeeze"} : (tensor<2x1x16xf32>, tensor<2xi64>) -> tensor<2x16xf32>
  %r = ov.relu %y : (tensor<2x16xf32>) -> tensor<2x16xf32>
  func.return %r : tensor<2x16xf32>
}
