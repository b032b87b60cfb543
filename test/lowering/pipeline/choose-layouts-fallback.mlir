// cpu-choose-layouts next to a reference-fallback group: a Convolution of u8 data whose
// weights come at run time (a model input here) has no lowering and runs on the reference
// interpreter (`ref_U8`), which reads and writes NCHW arrays. Its output, which a
// FakeQuantize and a native convolution read, must stay NCHW (before the fix it was marked
// channels-last and the next convolution read the NCHW bytes as NHWC: a silent wrong
// result; the defect's first form, u8 data by constant float weights, now runs natively:
// `cpu-decompose` converts the codes to float). Small integers, power-of-two weights and
// FakeQuantize levels 1/8 apart keep every sum exact: CPU equals REFERENCE bit for bit.
// RUN: opt-tool -p cpu-fold-constants,cpu-remove-views,cpu-fuse-kernels,cpu-choose-layouts %s | filecheck %s
// RUN: python -c "import numpy as np; np.save('%t.x.npy', (np.arange(108, dtype=np.float32) %% 7 - 3).reshape(1, 3, 6, 6)); np.save('%t.w.npy', np.full((4, 3, 3, 3), 0.25, np.float32))"
// RUN: lowpass-run %s -i x=%t.x.npy -i w1=%t.w.npy --device CPU --full > %t.cpu
// RUN: lowpass-run %s -i x=%t.x.npy -i w1=%t.w.npy --full > %t.ref
// RUN: diff %t.cpu %t.ref
// RUN: lowpass-run %s -i x=%t.x.npy -i w1=%t.w.npy --device CPU --perf-counts | filecheck %s --check-prefix=PERF
// CHECK:      %conv1 = ov.convolution %q, %w1 {ov.name = "conv1", cpu.kernel = #cpu.kernel<1, "reference">, strides
// CHECK-NEXT: %fq = ov.fake_quantize %conv1, %lo, %hi, %lo, %hi levels = 256 {ov.name = "fq", cpu.kernel = #cpu.kernel<2, "fake-quantize">}
// CHECK-NEXT: %conv2 = ov.convolution %fq, %w2 {ov.name = "conv2", cpu.kernel = #cpu.kernel<3, "convolution">, strides
// PERF-DAG: conv1 {{.*}} ref_U8
// PERF-DAG: conv2 {{.*}} jit_{{[a-z0-9]+}}_FP32
builtin.module {
  func.func @main(%x: tensor<1x3x6x6xf32> {ov.name = "x"}, %w1: tensor<4x3x3x3xf32> {ov.name = "w1"}) -> tensor<1x5x4x4xf32> {
    %ql = ov.constant dense<-3.0> : tensor<f32> {ov.name = "ql"}
    %qh = ov.constant dense<252.0> : tensor<f32> {ov.name = "qh"}
    %ol = ov.constant dense<0.0> : tensor<f32> {ov.name = "ol"}
    %oh = ov.constant dense<255.0> : tensor<f32> {ov.name = "oh"}
    %lo = ov.constant dense<0.0> : tensor<f32> {ov.name = "lo"}
    %hi = ov.constant dense<31.875> : tensor<f32> {ov.name = "hi"}
    %w2 = ov.constant dense<[[[[0.5]], [[-0.25]], [[1.0]], [[0.125]]], [[[-1.0]], [[0.5]], [[0.25]], [[-0.5]]], [[[0.125]], [[1.0]], [[-0.5]], [[0.25]]], [[[0.25]], [[0.25]], [[-1.0]], [[1.0]]], [[[-0.125]], [[-0.5]], [[0.5]], [[0.5]]]]> : tensor<5x4x1x1xf32> {ov.name = "w2"}
    %q = ov.fake_quantize %x, %ql, %qh, %ol, %oh levels = 256 {ov.name = "q"} : (tensor<1x3x6x6xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x6x6xui8>
    %conv1 = ov.convolution %q, %w1 {ov.name = "conv1", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x6x6xui8>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
    %fq = ov.fake_quantize %conv1, %lo, %hi, %lo, %hi levels = 256 {ov.name = "fq"} : (tensor<1x4x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x4x4x4xf32>
    %conv2 = ov.convolution %fq, %w2 {ov.name = "conv2", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x4x4xf32>, tensor<5x4x1x1xf32>) -> tensor<1x5x4x4xf32>
    func.return %conv2 : tensor<1x5x4x4xf32>
  }
}
