// A graph of fuzz/generate.py (generate(3, 'float')), a seed for the MLIR mutator.
builtin.module {
  func.func @main(%data: tensor<1x1x8x8xf32> {ov.name = "data"}) -> (tensor<1x128xf32> {ov.name = "out"}) {
    %c1 = ov.constant dense<"0xF7E4113FA5BD413D865A53BC1B0D603E711BAD3E075F18BC34A2343E228E95BEAE47E1BDB98D06BE7AA5CCBE30BBE7BE3EE8F9BE05A392BD61C353BD14D0C4BD0C93A93C8D28CDBE38F8C2BC2A3A923D0BB5663E2EFF81BE8FC2F5BD11C71ABFF5B91ABE39B428BF7502DABE4C37A93E871629BFB459753EF085C93DC9E5BFBD711B0D3E2EFF213E2E90A03E4D848DBDFDF635BEECC039BE348097BE1B2F5DBC575B71BEAF25A43E97900FBFB9FCA7BE986E92BE0EBE20BF6519123FC3F538BF7B14AEBDE56121BE925CFE3E3E7918BFC1A8A43E65AA60BEA4DF3EBD96214EBEDDB5443EE0BEAEBE8126C2BC8716D93D6D560D3FC7BA38BF713DEA3EE09C913E189514BE5A64BB3DBB270FBE91EDFC3EB7D1803D6F8184BD4D158CBD8FC275BD"> : tensor<8x1x3x3xf32>
    %v3 = ov.convolution %data, %c1 {ov.name = "conv2", strides = array<i64: 2, 2>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x1x8x8xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x4x4xf32>
    %c4 = ov.constant dense<"0xBC9610BDEA0434BE58CAD23EB8AFC3BE90A038BFF085C9BC8E06F0BC7593983D"> : tensor<1x8x1x1xf32>
    %v6 = ov.add %v3, %c4 {ov.name = "bias5"} : (tensor<1x8x4x4xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x4x4xf32>
    %v8 = ov.relu %v6 {ov.name = "act7"} : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
    %i9 = ov.constant dense<[1, -1]> : tensor<2xi64>
    %v11 = ov.reshape %v8, %i9 special_zero = false {ov.name = "flatten10"} : (tensor<1x8x4x4xf32>, tensor<2xi64>) -> tensor<1x128xf32>
    %v13 = ov.softmax %v11 {ov.name = "prob12", axis = 1} : (tensor<1x128xf32>) -> tensor<1x128xf32>
    func.return %v13 : tensor<1x128xf32>
  }
}
