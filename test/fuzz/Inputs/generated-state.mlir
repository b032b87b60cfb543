// A graph of fuzz/generate.py (generate(1, 'state')), a seed for the MLIR mutator.
builtin.module {
  ov.variable @"acc" : tensor<1x4xf32>
  func.func @main(%x: tensor<1x4xf32> {ov.name = "x"}) -> (tensor<1x4xf32> {ov.name = "y"}) {
    %a = ov.read_value @"acc" {ov.name = "read"} : tensor<1x4xf32>
    %c1 = ov.constant dense<"0x250651BF8126C2BE448B6C3EA60AC63D"> : tensor<1x4xf32>
    %v2 = ov.multiply %a, %x {ov.name = "step"} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %v3 = ov.add %v2, %c1 {ov.name = "shift"} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %v4 = ov.sigmoid %v3 {ov.name = "act"} : (tensor<1x4xf32>) -> tensor<1x4xf32>
    ov.assign @"acc", %v4 {ov.name = "write"} : tensor<1x4xf32>
    func.return %v4 : tensor<1x4xf32>
  }
}
