// cpu-decompose: SqueezeNet's fire module as onnxruntime quantizes it and LPT leaves it. Two
// requantized (u8) branches are concatenated, and the Concat's own scale requantizes the
// converted codes per channel. The Convert and the FakeQuantize move onto each branch with
// the limits cut along the channels, so that they end the branches' programs; the Concat
// then joins the requantized codes. A Concat of a graph input (`other`) is left alone: its
// part is not a FakeQuantize of its own. CPU equals REFERENCE bit for bit.
// RUN: opt-tool -p cpu-decompose %s | filecheck %s
// RUN: python -c "import numpy as np; np.save('%t.x.npy', (np.arange(32, dtype=np.float32) %% 13 - 2).reshape(1, 2, 4, 4))"
// RUN: python -c "import numpy as np; np.save('%t.u.npy', (np.arange(32) * 7 %% 256).astype(np.uint8).reshape(1, 2, 4, 4))"
// RUN: lowpass-run %s -i x=%t.x.npy -i u=%t.u.npy --device CPU --full > %t.cpu
// RUN: lowpass-run --device REFERENCE %s -i x=%t.x.npy -i u=%t.u.npy --full > %t.ref
// RUN: diff %t.cpu %t.ref
// CHECK:      %a = ov.fake_quantize %x, %low, %high, %zero, %top
// CHECK:      %b = ov.fake_quantize %x, %low, %high2, %zero, %top
// CHECK:      %[[LOW0:.*]] = ov.constant dense<{{.*}}-1.500000e+00{{.*}}-2.500000e+00{{.*}}> : tensor<1x2x1x1xf32> {ov.name = "requant/part0/input_low"}
// CHECK-NEXT: %[[HIGH0:.*]] = ov.constant dense<{{.*}}2.505000e+02{{.*}}2.515000e+02{{.*}}> : tensor<1x2x1x1xf32> {ov.name = "requant/part0/input_high"}
// CHECK-NEXT: %[[A:.*]] = ov.convert %a destination_type = f32
// CHECK-NEXT: %[[QA:.*]] = ov.fake_quantize %[[A]], %[[LOW0]], %[[HIGH0]], %zero, %top levels = 256 {ov.name = "requant/part0"}
// CHECK:      %[[B:.*]] = ov.convert %b destination_type = f32
// CHECK-NEXT: %[[QB:.*]] = ov.fake_quantize %[[B]], %{{.*}}, %{{.*}}, %zero, %top levels = 256 {ov.name = "requant/part1"}
// CHECK-NEXT: %{{.*}} = ov.concat %[[QA]], %[[QB]] axis = 1 {ov.name = "cat"}
// CHECK:      %other_cat = ov.concat %a2, %u axis = 1
// CHECK-NEXT: %other_float = ov.convert %other_cat
builtin.module {
  func.func @main(%x: tensor<1x2x4x4xf32>, %u: tensor<1x2x4x4xui8>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) {
    %low = ov.constant dense<0.0> : tensor<f32>
    %high = ov.constant dense<10.2> : tensor<f32>
    %high2 = ov.constant dense<7.3> : tensor<f32>
    %zero = ov.constant dense<0.0> : tensor<f32>
    %top = ov.constant dense<255.0> : tensor<f32>
    %a = ov.fake_quantize %x, %low, %high, %zero, %top levels = 256 {ov.name = "a"} : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x2x4x4xui8>
    %b = ov.fake_quantize %x, %low, %high2, %zero, %top levels = 256 {ov.name = "b"} : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x2x4x4xui8>
    %cat = ov.concat %a, %b axis = 1 {ov.name = "cat"} : (tensor<1x2x4x4xui8>, tensor<1x2x4x4xui8>) -> tensor<1x4x4x4xui8>
    %as_float = ov.convert %cat destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %clow = ov.constant dense<[[[[-1.5]], [[-2.5]], [[-0.5]], [[-3.0]]]]> : tensor<1x4x1x1xf32>
    %chigh = ov.constant dense<[[[[250.5]], [[251.5]], [[240.0]], [[299.0]]]]> : tensor<1x4x1x1xf32>
    %requant = ov.fake_quantize %as_float, %clow, %chigh, %zero, %top levels = 256 {ov.name = "requant"} : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>, tensor<1x4x1x1xf32>, tensor<f32>, tensor<f32>) -> tensor<1x4x4x4xui8>
    %out = ov.convert %requant destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %scale = ov.constant dense<0.04> : tensor<f32>
    %y = ov.multiply %out, %scale {ov.name = "y"} : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    %a2 = ov.fake_quantize %x, %low, %high2, %zero, %top levels = 256 {ov.name = "a2"} : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x2x4x4xui8>
    %other_cat = ov.concat %a2, %u axis = 1 {ov.name = "other_cat"} : (tensor<1x2x4x4xui8>, tensor<1x2x4x4xui8>) -> tensor<1x4x4x4xui8>
    %other_float = ov.convert %other_cat destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %other_q = ov.fake_quantize %other_float, %clow, %chigh, %zero, %top levels = 256 {ov.name = "other_q"} : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>, tensor<1x4x1x1xf32>, tensor<f32>, tensor<f32>) -> tensor<1x4x4x4xui8>
    %z_float = ov.convert %other_q destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %z = ov.multiply %z_float, %scale {ov.name = "z"} : (tensor<1x4x4x4xf32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    func.return %y, %z : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>
  }
}
