// A ResNet's residual connection in fp32: the 1x1 convolution "expand", its bias, the Add of
// the shortcut and the Relu are one group (cpu-fuse-kernels), and the GEMM's epilogue adds
// the shortcut (`Epilogue.residual`: the GEMM function takes R as a third pointer, and its
// micro-kernel loads it beside the accumulators), so no Add pass runs.
// The numbers against REFERENCE: test/python/lowering/test_residual_epilogue.py.
// RUN: opt-tool %s -p cpu-decompose,cpu-fold-constants,cpu-remove-views,cpu-quantize-cells,cpu-fuse-kernels | filecheck %s --check-prefix=FUSED
// RUN: lowpass-run --threads 1 %s --random-inputs 0 --device CPU --emit-llvm %t.ll -pcsort no_sort | filecheck %s --check-prefix=ROWS
// RUN: filecheck %s --check-prefix=IR < %t.ll
// FUSED:      ov.convolution {{.*}}ov.name = "expand"{{.*}}cpu.kernel = #cpu.kernel<[[G:[0-9]+]], "convolution">
// FUSED:      ov.add {{.*}}ov.name = "bias"{{.*}}cpu.fused = #cpu.fused<[[G]]>
// FUSED-NEXT: ov.add {{.*}}ov.name = "residual"{{.*}}cpu.fused = #cpu.fused<[[G]]>
// FUSED-NEXT: ov.relu {{.*}}ov.name = "relu"{{.*}}cpu.fused = #cpu.fused<[[G]]>
// ROWS:      expand {{ *}}Convolution {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// ROWS:      bias {{ *}}Add {{ *}}undef {{ *}}NOT_RUN
// ROWS-NEXT: residual {{ *}}Add {{ *}}undef {{ *}}NOT_RUN
// ROWS-NEXT: relu {{ *}}Relu {{ *}}undef {{ *}}NOT_RUN
// IR:        define {{.*}}void @expand_gemm(ptr {{[^%]*}}%{{[.0-9a-z]+}}, ptr {{[^%]*}}%{{[.0-9a-z]+}}, ptr {{[^%]*}}%{{[.0-9a-z]+}})
builtin.module {
  func.func @main(%x: tensor<1x16x6x7xf32> {ov.name = "x"}) -> (tensor<1x8x6x7xf32> {ov.name = "y"}) {
    %w0 = ov.constant dense<0.125> : tensor<16x16x1x1xf32> {ov.name = "w0"}
    %s = ov.convolution %x, %w0 {ov.name = "shortcut", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x16x6x7xf32>, tensor<16x16x1x1xf32>) -> tensor<1x16x6x7xf32>
    %w1 = ov.constant dense<0.25> : tensor<16x16x1x1xf32> {ov.name = "w1"}
    %c = ov.convolution %s, %w1 {ov.name = "expand", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x16x6x7xf32>, tensor<16x16x1x1xf32>) -> tensor<1x16x6x7xf32>
    %b = ov.constant dense<0.5> : tensor<1x16x1x1xf32> {ov.name = "b"}
    %a = ov.add %c, %b {ov.name = "bias"} : (tensor<1x16x6x7xf32>, tensor<1x16x1x1xf32>) -> tensor<1x16x6x7xf32>
    %r = ov.add %a, %s {ov.name = "residual"} : (tensor<1x16x6x7xf32>, tensor<1x16x6x7xf32>) -> tensor<1x16x6x7xf32>
    %u = ov.relu %r {ov.name = "relu"} : (tensor<1x16x6x7xf32>) -> tensor<1x16x6x7xf32>
    %w2 = ov.constant dense<0.25> : tensor<8x16x1x1xf32> {ov.name = "w2"}
    %y = ov.convolution %u, %w2 {ov.name = "next", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x16x6x7xf32>, tensor<8x16x1x1xf32>) -> tensor<1x8x6x7xf32>
    func.return %y : tensor<1x8x6x7xf32>
  }
}
