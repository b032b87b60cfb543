// A grouping edited by hand that its lowering cannot emit is refused where the groups are
// read (cpu-select-kernels, the translation: `check_fusion`), with one error at the op: a
// fused op that reads a value computed outside the group after its first op, an op that is
// not the next step the lowering takes, a zero-point Subtract without its convolution.
// RUN: opt-tool -p cpu-select-kernels %s --split-input-file --verify-diagnostics

// The Relu made a group of its own, but the FakeQuantize after it left in the convolution's.
builtin.module {
  func.func @main(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
    %w = ov.constant dense<0.5> : tensor<2x2x1x1xf32> {ov.name = "w"}
    %conv = ov.convolution %x, %w {ov.name = "conv", cpu.kernel = #cpu.kernel<0, "convolution">, strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
    %b = ov.constant dense<[[[[0.5]], [[-0.25]]]]> : tensor<1x2x1x1xf32> {ov.name = "b"}
    %biased = ov.add %conv, %b {ov.name = "biased", cpu.fused = #cpu.fused<0>} : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x4x4xf32>
    %relu = ov.relu %biased {ov.name = "relu", cpu.kernel = #cpu.kernel<1, "elementwise">} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
    %lo = ov.constant dense<0.0> : tensor<f32> {ov.name = "lo"}
    %hi = ov.constant dense<2.55> : tensor<f32> {ov.name = "hi"}
    // expected-error @+1 {{FakeQuantize 'fq': #cpu.fused<0>, but it reads Relu 'relu', which is computed outside the group after its first op Convolution 'conv'}}
    %y = ov.fake_quantize %relu, %lo, %hi, %lo, %hi levels = 256 {ov.name = "fq", cpu.fused = #cpu.fused<0>} : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x2x4x4xf32>
    func.return %y : tensor<1x2x4x4xf32>
  }
}

// -----

// The Relu fused without the bias Add before it (the Add its own group after the convolution).
builtin.module {
  func.func @main(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
    %w = ov.constant dense<0.5> : tensor<2x2x1x1xf32> {ov.name = "w"}
    %conv = ov.convolution %x, %w {ov.name = "conv", cpu.kernel = #cpu.kernel<0, "convolution">, strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
    %b = ov.constant dense<[[[[0.5]], [[-0.25]]]]> : tensor<1x2x1x1xf32> {ov.name = "b"}
    %biased = ov.add %conv, %b {ov.name = "biased", cpu.kernel = #cpu.kernel<1, "elementwise">} : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x4x4xf32>
    // expected-error @+1 {{Relu 'relu': #cpu.fused<0>, but it reads Add 'biased', which is computed outside the group after its first op Convolution 'conv'}}
    %relu = ov.relu %biased {ov.name = "relu", cpu.fused = #cpu.fused<0>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
    func.return %relu : tensor<1x2x4x4xf32>
  }
}

// -----

// A ReduceMean is no step of a convolution's post-op program.
builtin.module {
  func.func @main(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x1x1xf32> {
    %w = ov.constant dense<0.5> : tensor<2x2x1x1xf32> {ov.name = "w"}
    %conv = ov.convolution %x, %w {ov.name = "conv", cpu.kernel = #cpu.kernel<0, "convolution">, strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
    %relu = ov.relu %conv {ov.name = "relu", cpu.fused = #cpu.fused<0>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
    %axes = ov.constant dense<[2, 3]> : tensor<2xi64> {ov.name = "axes"}
    // expected-error @+1 {{ReduceMean 'mean': #cpu.fused<0>, but the "convolution" lowering of Convolution 'conv' cannot take it after Relu 'relu' (it takes no more ops)}}
    %mean = ov.reduce_mean %relu, %axes keep_dims = true {ov.name = "mean", cpu.fused = #cpu.fused<0>} : (tensor<1x2x4x4xf32>, tensor<2xi64>) -> tensor<1x2x1x1xf32>
    func.return %mean : tensor<1x2x1x1xf32>
  }
}

// -----

// A zero-point Subtract whose convolution is a group of its own.
builtin.module {
  func.func @main(%q: tensor<1x2x4x4xui8>) -> tensor<1x2x4x4xf32> {
    %zp = ov.constant dense<3> : tensor<ui8> {ov.name = "zp"}
    // expected-error @+1 {{Subtract 'sub': its "convolution" group must take Convolution 'conv' too (#cpu.fused<0>)}}
    %sub = ov.subtract %q, %zp {ov.name = "sub", cpu.kernel = #cpu.kernel<0, "convolution">} : (tensor<1x2x4x4xui8>, tensor<ui8>) -> tensor<1x2x4x4xf32>
    %w = ov.constant dense<2> : tensor<2x2x1x1xi8> {ov.name = "w"}
    %conv = ov.convolution %sub, %w {ov.name = "conv", cpu.kernel = #cpu.kernel<1, "convolution">, strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xi8>) -> tensor<1x2x4x4xf32>
    func.return %conv : tensor<1x2x4x4xf32>
  }
}
