// cpu-fuse-kernels: a Convolution takes its bias Add and its Relu as epilogue (one group, one
// kernel), an op that no lowering takes (a ReduceProd over the axes 1 and 3) is a
// "reference" group (the fallback), a Reshape of a computed tensor stays a view; groups are
// numbered in graph order. -t cpu-llvm translates the result: the convolution's GEMM (bias and
// relu in its epilogue), then the fallback call of group 1.
// RUN: opt-tool -p cpu-fold-constants,cpu-remove-views,cpu-fuse-kernels %s | filecheck %s
// RUN: lowpass-run %s --random-inputs 0 --device CPU -pcsort no_sort | filecheck %s --check-prefix=ROWS
// RUN: opt-tool -p cpu-fold-constants,cpu-remove-views,cpu-quantize-cells,cpu-fuse-kernels,cpu-select-kernels,cpu-assign-buffers %s -t cpu-llvm | filecheck %s --check-prefix=LLVM
// CHECK:      %conv = ov.convolution %x, %w {{{.*}}cpu.kernel = #cpu.kernel<0, "convolution">{{.*}}}
// CHECK-NEXT: %biased = ov.add %conv, %b {ov.name = "biased", cpu.fused = #cpu.fused<0>}
// CHECK-NEXT: %relu = ov.relu %biased {ov.name = "relu", cpu.fused = #cpu.fused<0>}
// CHECK-NEXT: %flat = ov.reshape %relu, %shape special_zero = false {ov.name = "flat", cpu.view}
// CHECK-NEXT: %mid = ov.reduce_prod %relu, %axis {ov.name = "mid", cpu.kernel = #cpu.kernel<1, "reference">}
// (the entry is compiled without optimization: its blocks stay in emission order)
// LLVM-NOT:  @biased
// LLVM-NOT:  @relu
// LLVM:      define {{.*}}i32 @lowpass_main(
// LLVM-NOT:  %fallback(i64 0)
// LLVM-DAG:  call void @conv_gemm(
// LLVM-DAG:  call i32 %fallback(i64 1)
// LLVM-NOT:  @biased
// LLVM-NOT:  @relu
// ROWS:      conv {{ *}}Convolution {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// ROWS-NEXT: biased {{ *}}Add {{ *}}undef {{ *}}NOT_RUN
// ROWS-NEXT: relu {{ *}}Relu {{ *}}undef {{ *}}NOT_RUN
// ROWS-NEXT: flat {{ *}}Reshape {{ *}}unknown_FP32 {{ *}}EXECUTED
// ROWS-NEXT: mid {{ *}}ReduceProd {{ *}}ref_FP32 {{ *}}EXECUTED
builtin.module {
  func.func @main(%x: tensor<1x2x6x6xf32>) -> (tensor<144xf32>, tensor<1x6xf32>) {
    %w = ov.constant dense<0.25> : tensor<4x2x3x3xf32> {ov.name = "w"}
    %b = ov.constant dense<[[[[0.5]], [[-0.5]], [[1.0]], [[-1.0]]]]> : tensor<1x4x1x1xf32> {ov.name = "b"}
    %shape = ov.constant dense<[144]> : tensor<1xi64> {ov.name = "shape"}
    %axis = ov.constant dense<[1, 3]> : tensor<2xi64> {ov.name = "axis"}
    %conv = ov.convolution %x, %w {ov.name = "conv", strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x2x6x6xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
    %biased = ov.add %conv, %b {ov.name = "biased"} : (tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x6x6xf32>
    %relu = ov.relu %biased {ov.name = "relu"} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
    %flat = ov.reshape %relu, %shape special_zero = false {ov.name = "flat"} : (tensor<1x4x6x6xf32>, tensor<1xi64>) -> tensor<144xf32>
    %mid = ov.reduce_prod %relu, %axis {ov.name = "mid"} : (tensor<1x4x6x6xf32>, tensor<2xi64>) -> tensor<1x6xf32>
    func.return %flat, %mid : tensor<144xf32>, tensor<1x6xf32>
  }
}
