// cpu-decompose: a channel shuffle as onnxruntime quantizes it and LPT leaves it. The u8
// tensor goes through a Reshape, and a FakeQuantize with the scale of the one before it
// requantizes the converted values: it gives back each u8 value, so it, its Convert and its
// limits go (the `ov` canonicalization FoldIdentityFakeQuantize) and the Transpose reads the
// u8 tensor. The last FakeQuantize halves the values and stays. CPU equals REFERENCE bit for
// bit.
// RUN: opt-tool -p cpu-decompose %s | filecheck %s
// RUN: python -c "import numpy as np; np.save('%t.x.npy', (np.arange(32, dtype=np.float32) %% 13 - 2).reshape(1, 4, 2, 4))"
// RUN: lowpass-run %s -i x=%t.x.npy --device CPU --full > %t.cpu
// RUN: lowpass-run --device REFERENCE %s -i x=%t.x.npy --full > %t.ref
// RUN: diff %t.cpu %t.ref
// CHECK:      %q = ov.fake_quantize %x, %low, %high, %zero, %levels
// CHECK-NEXT: %five = ov.constant
// CHECK-NEXT: %groups = ov.reshape %q, %five
// CHECK-NEXT: %perm = ov.constant
// CHECK-NEXT: %shuffled = ov.transpose %groups, %perm
// CHECK:      %halved = ov.fake_quantize
// CHECK-NOT:  ov.fake_quantize
builtin.module {
  func.func @main(%x: tensor<1x4x2x4xf32>) -> tensor<1x4x2x4xf32> {
    %low = ov.constant dense<0.0> : tensor<f32>
    %high = ov.constant dense<10.2> : tensor<f32>
    %zero = ov.constant dense<0.0> : tensor<f32>
    %levels = ov.constant dense<255.0> : tensor<f32>
    %q = ov.fake_quantize %x, %low, %high, %zero, %levels levels = 256 {ov.name = "q"} : (tensor<1x4x2x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x4x2x4xui8>
    %five = ov.constant dense<[1, 2, 2, 2, 4]> : tensor<5xi64>
    %groups = ov.reshape %q, %five special_zero = false {ov.name = "groups"} : (tensor<1x4x2x4xui8>, tensor<5xi64>) -> tensor<1x2x2x2x4xui8>
    %as_float = ov.convert %groups destination_type = f32 : (tensor<1x2x2x2x4xui8>) -> tensor<1x2x2x2x4xf32>
    %low_again = ov.constant dense<-0.25> : tensor<f32>
    %high_again = ov.constant dense<254.75> : tensor<f32>
    %same = ov.fake_quantize %as_float, %low_again, %high_again, %zero, %levels levels = 256 {ov.name = "same"} : (tensor<1x2x2x2x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x2x2x2x4xui8>
    %perm = ov.constant dense<[0, 2, 1, 3, 4]> : tensor<5xi64>
    %shuffled = ov.transpose %same, %perm {ov.name = "shuffled"} : (tensor<1x2x2x2x4xui8>, tensor<5xi64>) -> tensor<1x2x2x2x4xui8>
    %four = ov.constant dense<[1, 4, 2, 4]> : tensor<4xi64>
    %back = ov.reshape %shuffled, %four special_zero = false {ov.name = "back"} : (tensor<1x2x2x2x4xui8>, tensor<4xi64>) -> tensor<1x4x2x4xui8>
    %back_float = ov.convert %back destination_type = f32 : (tensor<1x4x2x4xui8>) -> tensor<1x4x2x4xf32>
    %twice = ov.constant dense<510.0> : tensor<f32>
    %halved = ov.fake_quantize %back_float, %zero, %twice, %zero, %levels levels = 256 {ov.name = "halved"} : (tensor<1x4x2x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x4x2x4xui8>
    %out = ov.convert %halved destination_type = f32 : (tensor<1x4x2x4xui8>) -> tensor<1x4x2x4xf32>
    %scale = ov.constant dense<0.04> : tensor<f32>
    %y = ov.multiply %out, %scale {ov.name = "y"} : (tensor<1x4x2x4xf32>, tensor<f32>) -> tensor<1x4x2x4xf32>
    func.return %y : tensor<1x4x2x4xf32>
  }
}
