// A graph of fuzz/generate.py (generate(4, 'mixed')), a seed for the MLIR mutator.
builtin.module {
  func.func @main(%data: tensor<1x1x6x4xf32> {ov.name = "data"}) -> (tensor<1x192xf32> {ov.name = "out"}) {
    %c1 = ov.constant dense<"0xF775C03E1283403D"> : tensor<2x1x1x1xf32>
    %v3 = ov.convolution %data, %c1 {ov.name = "conv2", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x1x6x4xf32>, tensor<2x1x1x1xf32>) -> tensor<1x2x6x4xf32>
    %v5 = ov.relu %v3 {ov.name = "act4"} : (tensor<1x2x6x4xf32>) -> tensor<1x2x6x4xf32>
    %c6 = ov.constant dense<"0x0EBE70BE651962BDB9FC873D80B7003EBF0E1C3EAC8B2B3F6F81843ED8F0F4BEB5157B3DB7623FBEAD691EBE1EA7C83EDE0289BDC6DC15BFA4DFBE3DC5FEB2BD"> : tensor<8x2x1x1xf32>
    %v8 = ov.convolution %v5, %c6 {ov.name = "conv7", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x6x4xf32>, tensor<8x2x1x1xf32>) -> tensor<1x8x6x4xf32>
    %c9 = ov.constant dense<"0x91EDFCBFFA7E52C0B4C806C0E92669C0DD2486BE5EBA09BF508DE7BFD12233C0"> : tensor<1x8x1x1xf32>
    %c10 = ov.constant dense<"0x1D5A644021B0123F819553407F6ACC3F85EB51404A0C22406DE70B40A245B63E"> : tensor<1x8x1x1xf32>
    %c11 = ov.constant dense<-1.933> : tensor<f32>
    %c12 = ov.constant dense<2.8020000000000005> : tensor<f32>
    %v14 = ov.fake_quantize %v8, %c9, %c10, %c11, %c12 levels = 256 {ov.name = "fq13"} : (tensor<1x8x6x4xf32>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>, tensor<f32>, tensor<f32>) -> tensor<1x8x6x4xf32>
    %c15 = ov.constant dense<-2.0> : tensor<f32>
    %c16 = ov.constant dense<4.0> : tensor<f32>
    %c17 = ov.constant dense<0.0> : tensor<f32>
    %c18 = ov.constant dense<255.0> : tensor<f32>
    %v20 = ov.fake_quantize %v14, %c15, %c16, %c17, %c18 levels = 256 {ov.name = "fq19"} : (tensor<1x8x6x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x8x6x4xui8>
    %c21 = ov.constant dense<"0xED0D3E3B27A0093B99BB163BDE718A3C5839B4BB2E90A0BBA69B44BB5839B43BED0D3EBB17B7513A6519E2BBC1A8A4BC24977F3C99BB96BB6C09F93A6F1203BA3B70CEBB3B70CE3C17B7D13AE71D27BCF4FD543C2E90A0BB4260653B6C09F9BB24977F3B787A253C17B7D13BB37BF23B728A0E3C27A009BBA69B443B17B75139"> : tensor<4x8x1x1xf32>
    %v23 = ov.convolution %v20, %c21 {ov.name = "conv22", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x8x6x4xui8>, tensor<4x8x1x1xf32>) -> tensor<1x4x6x4xf32>
    %v25 = ov.relu %v23 {ov.name = "act24"} : (tensor<1x4x6x4xf32>) -> tensor<1x4x6x4xf32>
    %i26 = ov.constant dense<1> : tensor<i64>
    %v28 = ov.cumsum %v25, %i26 {ov.name = "cumsum27"} : (tensor<1x4x6x4xf32>, tensor<i64>) -> tensor<1x4x6x4xf32>
    %c29 = ov.constant dense<-2.0> : tensor<f32>
    %c30 = ov.constant dense<4.0> : tensor<f32>
    %c31 = ov.constant dense<0.0> : tensor<f32>
    %c32 = ov.constant dense<255.0> : tensor<f32>
    %v34 = ov.fake_quantize %v28, %c29, %c30, %c31, %c32 levels = 256 {ov.name = "fq33"} : (tensor<1x4x6x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x4x6x4xui8>
    %c35 = ov.constant dense<"0xC3642A3C52499DBAFAED6B3A89D25E3B11C7BA3B27A0093B0AD723BBE71DA7BB3480373CA69B443B17B75139728A0E3DE02D103C96430B3CA69BC43A787A25BC"> : tensor<4x4x1x1xf32>
    %v37 = ov.convolution %v34, %c35 {ov.name = "conv36", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x4xui8>, tensor<4x4x1x1xf32>) -> tensor<1x4x6x4xf32>
    %c38 = ov.constant dense<"0xAC1C42C079E916C08D9776C0F62814C0"> : tensor<1x4x1x1xf32>
    %c39 = ov.constant dense<"0x713D4ABF2DB24540F0A7A63FB4C8963F"> : tensor<1x4x1x1xf32>
    %c40 = ov.constant dense<-0.216> : tensor<f32>
    %c41 = ov.constant dense<3.6109999999999998> : tensor<f32>
    %v43 = ov.fake_quantize %v37, %c38, %c39, %c40, %c41 levels = 256 {ov.name = "fq42"} : (tensor<1x4x6x4xf32>, tensor<1x4x1x1xf32>, tensor<1x4x1x1xf32>, tensor<f32>, tensor<f32>) -> tensor<1x4x6x4xf32>
    %i44 = ov.constant dense<[1, -1]> : tensor<2xi64>
    %v46 = ov.reshape %v43, %i44 special_zero = false {ov.name = "flatten45"} : (tensor<1x4x6x4xf32>, tensor<2xi64>) -> tensor<1x96xf32>
    %c47 = ov.constant dense<"0x7B83973FBA6B59BFD0D5D63E5F98CCBF13F2E1BE006F813C363CFD3EED9EFC3FEC2FEB3FA167ABBF4ED141BF2731A03F9CC4E03EB4C8AEBF5986F83E8E0690BFAC8B5BBF7CF2A0BF66F784BEC9E50F40A5BDC13E8885DABDFED42040D656ECBEBEC117BEF0A786BE1973D73E36AB9EBE0E2DBA3F613295BEAED80F3F1DC9653EE86A5BBFD57879BF17D94EBD469412C0B840823C789CA23DAAF1123E51DA9BBD984CB53ED712B2BE3867243FF016D0BFF90F693F9CC460BF7593F83EC442EDBED93DD9BE03094ABF1F85AB3F83C08ABF2EFF99BFC0EC5E3ED42B853E0E2D323D39D675BFE2E925BF3945673F569F83BF48501C3FE7FB393F8351093E58CA9ABFF38EF33FCA54013E713D4A3EA4DFBEBE378971BFB00387BEF2D24D3E94F656BF6ADEF13DE10B933F92CBDF3E1283C0BDDD24863F48E16A3FD49A663FDE714ABF705FE7BFDFE04B3FDB8A7D3D6DE7BBBE075FF83E4260E5BE363C1DBF728AE63F0A68CABF8273563FCA54813F6154E23F2EFF813E4547023F90A068BF4B59063D"> : tensor<1x96xf32>
    %v49 = ov.concat %v46, %c47 axis = 1 {ov.name = "cat48"} : (tensor<1x96xf32>, tensor<1x96xf32>) -> tensor<1x192xf32>
    func.return %v49 : tensor<1x192xf32>
  }
}
