// A generated quantized graph (fuzz seed 3915, issue 39) whose mutated constant (0xffdbfe47, a
// NaN) meets a dequantization scale while the CPU device runs lpt: no numpy warning.
builtin.module @main {
  func.func @main(%data: tensor<1x3x8x8xf32> {ov.name = "data"}) -> (tensor<512x1xf32> {ov.name = "out"}) {
    %0 = ov.constant dense<-2.921000e+00> : tensor<f32> {ov.name = "Constant_0"}
    %1 = ov.constant dense<1.213000e+00> : tensor<f32> {ov.name = "Constant_1"}
    %2 = ov.constant dense<0.000000e+00> : tensor<f32> {ov.name = "Constant_2"}
    %3 = ov.constant dense<2.557500e+02> : tensor<f32> {ov.name = "Constant_3"}
    %4 = ov.fake_quantize %data, %0, %1, %2, %3 levels = 256 {ov.name = "fq5"} : (tensor<1x3x8x8xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x8x8xf32>
    %5 = ov.convert %4 destination_type = ui8 {ov.name = "fq5/convert"} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xui8>
    %6 = ov.convert %5 destination_type = f32 {ov.name = "Subtract_7/input0/convert"} : (tensor<1x3x8x8xui8>) -> tensor<1x3x8x8xf32>
    %7 = ov.constant dense<180> : tensor<1x3x1x1xui8> {ov.name = "Constant_6"}
    %8 = ov.convert %7 destination_type = f32 {ov.name = "Subtract_7/input1/convert"} : (tensor<1x3x1x1xui8>) -> tensor<1x3x1x1xf32>
    %9 = ov.subtract %6, %8 {ov.name = "Subtract_7"} : (tensor<1x3x8x8xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x8x8xf32>
    %10 = ov.constant dense<1.000000e+00> : tensor<f32> {ov.name = "Subtract_7/dequantize/scale"}
    %11 = ov.multiply %9, %10 {ov.name = "Subtract_7/dequantize"} : (tensor<1x3x8x8xf32>, tensor<f32>) -> tensor<1x3x8x8xf32>
    %12 = ov.constant dense<[[[[-14]], [[106]], [[16]]], [[[13]], [[32]], [[-72]]], [[[-50]], [[10]], [[-6]]], [[[-15]], [[39]], [[18]]], [[[-84]], [[-18]], [[28]]], [[[26]], [[-1]], [[24]]], [[[-25]], [[3]], [[-7]]], [[[-21]], [[99]], [[-8]]]]> : tensor<8x3x1x1xi8> {ov.name = "fq12"}
    %13 = ov.convert %12 destination_type = f32 {ov.name = "Subtract_9/input0/convert"} : (tensor<8x3x1x1xi8>) -> tensor<8x3x1x1xf32>
    %14 = ov.constant dense<[[[[16]]], [[[16]]], [[[16]]], [[[16]]], [[[16]]], [[[16]]], [[[-128]]], [[[16]]]]> : tensor<8x1x1x1xi8> {ov.name = "Constant_8"}
    %15 = ov.convert %14 destination_type = f32 {ov.name = "Subtract_9/input1/convert"} : (tensor<8x1x1x1xi8>) -> tensor<8x1x1x1xf32>
    %16 = ov.subtract %13, %15 {ov.name = "Subtract_9"} : (tensor<8x3x1x1xf32>, tensor<8x1x1x1xf32>) -> tensor<8x3x1x1xf32>
    %17 = ov.constant dense<1.000000e+00> : tensor<f32> {ov.name = "Subtract_9/dequantize/scale"}
    %18 = ov.multiply %16, %17 {ov.name = "Subtract_9/dequantize"} : (tensor<8x3x1x1xf32>, tensor<f32>) -> tensor<8x3x1x1xf32>
    %19 = ov.convolution %11, %18 {ov.name = "conv14", strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>} : (tensor<1x3x8x8xf32>, tensor<8x3x1x1xf32>) -> tensor<1x8x8x8xf32>
    %20 = ov.constant dense<0xffdbfe47> : tensor<f32> {ov.name = "Constant_11"}
    %21 = ov.multiply %19, %20 {ov.name = "Multiply_12"} : (tensor<1x8x8x8xf32>, tensor<f32>) -> tensor<1x8x8x8xf32>
    %22 = ov.constant dense<[[[[-1.670000e-02]], [[-2.253000e-01]], [[-2.099000e-01]], [[-1.185000e-01]], [[2.278000e-01]], [[1.777000e-01]], [[1.380000e-01]], [[-0.125506252]]]]> : tensor<1x8x1x1xf32> {ov.name = "Constant_13"}
    %23 = ov.add %21, %22 {ov.name = "bias17"} : (tensor<1x8x8x8xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x8x8xf32>
    %24 = ov.relu %23 {ov.name = "act19"} : (tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
    %25 = ov.constant dense<-1.737000e+00> : tensor<f32> {ov.name = "Constant_16"}
    %26 = ov.constant dense<1.417000e+00> : tensor<f32> {ov.name = "Constant_17"}
    %27 = ov.constant dense<0.000000e+00> : tensor<f32> {ov.name = "Constant_18"}
    %28 = ov.constant dense<2.557500e+02> : tensor<f32> {ov.name = "Constant_19"}
    %29 = ov.fake_quantize %24, %25, %26, %27, %28 levels = 256 {ov.name = "fq25"} : (tensor<1x8x8x8xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x8x8x8xf32>
    %30 = ov.convert %29 destination_type = ui8 {ov.name = "fq25/convert"} : (tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xui8>
    %31 = ov.convert %30 destination_type = f32 {ov.name = "Subtract_23/input0/convert"} : (tensor<1x8x8x8xui8>) -> tensor<1x8x8x8xf32>
    %32 = ov.constant dense<140> : tensor<1x8x1x1xui8> {ov.name = "Constant_22"}
    %33 = ov.convert %32 destination_type = f32 {ov.name = "Subtract_23/input1/convert"} : (tensor<1x8x1x1xui8>) -> tensor<1x8x1x1xf32>
    %34 = ov.subtract %31, %33 {ov.name = "Subtract_23"} : (tensor<1x8x8x8xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x8x8xf32>
    %35 = ov.constant dense<1.000000e+00> : tensor<f32> {ov.name = "Subtract_23/dequantize/scale"}
    %36 = ov.multiply %34, %35 {ov.name = "Subtract_23/dequantize"} : (tensor<1x8x8x8xf32>, tensor<f32>) -> tensor<1x8x8x8xf32>
    %37 = ov.constant dense<[[[[87]], [[-25]], [[-3]], [[54]], [[-125]], [[-117]], [[-108]], [[-128]]], [[[-82]], [[-62]], [[6]], [[-128]], [[-2]], [[-128]], [[127]], [[-66]]], [[[11]], [[-128]], [[-68]], [[62]], [[127]], [[65]], [[35]], [[-52]]], [[[127]], [[30]], [[57]], [[-16]], [[31]], [[-128]], [[-81]], [[-7]]], [[[127]], [[127]], [[4]], [[4]], [[42]], [[26]], [[-128]], [[0]]], [[[127]], [[8]], [[-128]], [[127]], [[-28]], [[-64]], [[127]], [[60]]], [[[-81]], [[-78]], [[34]], [[-128]], [[-33]], [[-36]], [[-128]], [[-87]]], [[[-128]], [[127]], [[-128]], [[-117]], [[73]], [[79]], [[-25]], [[-65]]]]> : tensor<8x8x1x1xi8> {ov.name = "fq32"}
    %38 = ov.convert %37 destination_type = f32 {ov.name = "Subtract_25/input0/convert"} : (tensor<8x8x1x1xi8>) -> tensor<8x8x1x1xf32>
    %39 = ov.constant dense<-3> : tensor<8x1x1x1xi8> {ov.name = "Constant_24"}
    %40 = ov.convert %39 destination_type = f32 {ov.name = "Subtract_25/input1/convert"} : (tensor<8x1x1x1xi8>) -> tensor<8x1x1x1xf32>
    %41 = ov.subtract %38, %40 {ov.name = "Subtract_25"} : (tensor<8x8x1x1xf32>, tensor<8x1x1x1xf32>) -> tensor<8x8x1x1xf32>
    %42 = ov.constant dense<1.000000e+00> : tensor<f32> {ov.name = "Subtract_25/dequantize/scale"}
    %43 = ov.multiply %41, %42 {ov.name = "Subtract_25/dequantize"} : (tensor<8x8x1x1xf32>, tensor<f32>) -> tensor<8x8x1x1xf32>
    %44 = ov.convolution %36, %43 {ov.name = "conv34", strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>} : (tensor<1x8x8x8xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x8x8xf32>
    %45 = ov.constant dense<2.68229451e-05> : tensor<f32> {ov.name = "Constant_27"}
    %46 = ov.multiply %44, %45 {ov.name = "Multiply_28"} : (tensor<1x8x8x8xf32>, tensor<f32>) -> tensor<1x8x8x8xf32>
    %47 = ov.constant dense<[[[[9.100000e-03]], [[-9.030000e-02]], [[6.056000e-01]], [[-1.412000e-01]], [[3.820000e-01]], [[-0.11990118]], [[8.760000e-02]], [[7.440000e-02]]]]> : tensor<1x8x1x1xf32> {ov.name = "Constant_29"}
    %48 = ov.add %46, %47 {ov.name = "bias37"} : (tensor<1x8x8x8xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x8x8xf32>
    %49 = ov.constant dense<[1, -1]> : tensor<2xi64> {ov.name = "Constant_31"}
    %50 = ov.reshape %48, %49 special_zero = false {ov.name = "flatten40"} : (tensor<1x8x8x8xf32>, tensor<2xi64>) -> tensor<1x512xf32>
    %51 = ov.constant dense<[1, 0]> : tensor<2xi64> {ov.name = "Constant_33"}
    %52 = ov.transpose %50, %51 {ov.name = "tr43"} : (tensor<1x512xf32>, tensor<2xi64>) -> tensor<512x1xf32>
    %53 = ov.softmax %52 {ov.name = "prob45"} : (tensor<512x1xf32>) -> tensor<512x1xf32>
    func.return %53 : tensor<512x1xf32>
  }
}

