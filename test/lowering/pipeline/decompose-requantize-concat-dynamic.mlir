// cpu-decompose on a Concat of a dynamic size along its axis: the requantization after it
// stays (its limits could not be cut by the parts' sizes), as before any reshape.
// RUN: opt-tool -p cpu-decompose %s | filecheck %s
// CHECK:      %cat = ov.concat %a, %b axis = 1
// CHECK-NEXT: %as_float = ov.convert %cat
// CHECK:      %requant = ov.fake_quantize %as_float
// CHECK-NOT:  part0
builtin.module {
  func.func @main(%x: tensor<1x?x4x4xf32>, %x1: tensor<1x5x4x4xf32>) -> (tensor<1x?x4x4xf32>) {
    %low = ov.constant dense<0.0> : tensor<f32>
    %high = ov.constant dense<10.2> : tensor<f32>
    %zero = ov.constant dense<0.0> : tensor<f32>
    %top = ov.constant dense<255.0> : tensor<f32>
    %a = ov.fake_quantize %x, %low, %high, %zero, %top levels = 256 {ov.name = "a"} : (tensor<1x?x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x?x4x4xui8>
    %b = ov.fake_quantize %x1, %low, %high, %zero, %top levels = 256 {ov.name = "b"} : (tensor<1x5x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x5x4x4xui8>
    %cat = ov.concat %a, %b axis = 1 {ov.name = "cat"} : (tensor<1x?x4x4xui8>, tensor<1x5x4x4xui8>) -> tensor<1x?x4x4xui8>
    %as_float = ov.convert %cat destination_type = f32 : (tensor<1x?x4x4xui8>) -> tensor<1x?x4x4xf32>
    %clow = ov.constant dense<[[[[-1.5]], [[-2.5]], [[-0.5]], [[-3.0]], [[-1.5]], [[-2.5]], [[-0.5]], [[-3.0]]]]> : tensor<1x8x1x1xf32>
    %chigh = ov.constant dense<[[[[250.5]], [[251.5]], [[240.0]], [[299.0]], [[250.5]], [[251.5]], [[240.0]], [[299.0]]]]> : tensor<1x8x1x1xf32>
    %requant = ov.fake_quantize %as_float, %clow, %chigh, %zero, %top levels = 256 {ov.name = "requant"} : (tensor<1x?x4x4xf32>, tensor<1x8x1x1xf32>, tensor<1x8x1x1xf32>, tensor<f32>, tensor<f32>) -> tensor<1x?x4x4xui8>
    %out = ov.convert %requant destination_type = f32 : (tensor<1x?x4x4xui8>) -> tensor<1x?x4x4xf32>
    func.return %out : tensor<1x?x4x4xf32>
  }
}
