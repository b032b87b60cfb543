// cpu-choose-storage: a tensor that a bf16 convolution's GEMMs write (NHWC, its post-ops
// all their epilogue's own steps) and that only bf16 convolutions read is stored in bfloat16
// ({cpu.bfloat16}); cpu-assign-buffers then gives it half the bytes. Each such reader rounds
// its input to bfloat16 anyway, so the results are the same bits. Not stored: %r2 (a pooling
// reads it too, and a residual Add), %a3 (c3's epilogue adds a residual tensor in a pass:
// its GEMMs do not write it), %y (a graph output), %r5 (read by an f32 GEMM). The pass reads
// the kernels' attributes only: the kernels are made bf16 by hand, on any host.
// RUN: opt-tool -p 'cpu-decompose,cpu-fold-constants,cpu-remove-views,cpu-quantize-cells,cpu-fuse-kernels,cpu-choose-layouts,cpu-select-kernels{winograd=false}' %s -o %t.sel.mlir
// RUN: sed -e 's/#cpu<gemm f32>/#cpu<gemm bf16>/g' -e 's/\("c6".*\)#cpu<gemm bf16>/\1#cpu<gemm f32>/' %t.sel.mlir | opt-tool -p cpu-choose-storage,cpu-assign-buffers -o %t.mlir
// RUN: filecheck %s < %t.mlir
// CHECK:      func.func @main{{.*}}cpu.arena = #cpu.arena<25600>
// CHECK:      %r1 = ov.relu %c1 {ov.name = "r1", cpu.fused = #cpu.fused<0>, cpu.channels_last, cpu.bfloat16, cpu.buffers = [#cpu.buffer<arena 0, 5120>]}
// CHECK:      %r2 = ov.relu {{.*}}cpu.buffers = [#cpu.buffer<arena 5120, 10240>]}
// CHECK:      %a3 = ov.add {{.*}}cpu.buffers = [#cpu.buffer<arena 15360, 10240>]}
// CHECK:      %r5 = ov.relu %c5 {ov.name = "r5", cpu.fused = #cpu.fused<5>, cpu.channels_last, cpu.buffers = [#cpu.buffer<arena 0, 10240>]}
// CHECK-NOT:  cpu.bfloat16
// The pass is idempotent, and without bf16 kernels it stores nothing.
// RUN: opt-tool -p cpu-choose-storage,cpu-assign-buffers %t.mlir | filecheck %s
// RUN: opt-tool -p cpu-choose-storage %t.sel.mlir | filecheck %s --check-prefix=F32
// F32-NOT:    cpu.bfloat16
// A mark the rules do not give is an error of the translation, on any host.
// RUN: sed -e 's/"r5", cpu.fused = #cpu.fused<5>, cpu.channels_last,/"r5", cpu.fused = #cpu.fused<5>, cpu.channels_last, cpu.bfloat16,/' %t.mlir > %t.bad.mlir
// RUN: not opt-tool %t.bad.mlir -t cpu-llvm 2>&1 | filecheck %s --check-prefix=BAD
// BAD: error: {{.*}}Relu 'r5': cpu.bfloat16 on a tensor that is not passed between bf16 convolutions (only cpu-choose-storage's choices are valid)
builtin.module {
  func.func @main(%x: tensor<1x16x8x20xf32> {ov.name = "x"}) -> (tensor<1x16x8x20xf32> {ov.name = "y"}, tensor<1x16x4x10xf32> {ov.name = "p"}, tensor<1x16x8x20xf32> {ov.name = "z"}) {
    %w1 = ov.constant dense<0.125> : tensor<16x16x1x1xf32> {ov.name = "w1"}
    %c1 = ov.convolution %x, %w1 {ov.name = "c1", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x16x8x20xf32>, tensor<16x16x1x1xf32>) -> tensor<1x16x8x20xf32>
    %r1 = ov.relu %c1 {ov.name = "r1"} : (tensor<1x16x8x20xf32>) -> tensor<1x16x8x20xf32>
    %w2 = ov.constant dense<0.25> : tensor<16x16x3x3xf32> {ov.name = "w2"}
    %c2 = ov.convolution %r1, %w2 {ov.name = "c2", strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x16x8x20xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x8x20xf32>
    %bias = ov.constant dense<0.5> : tensor<1x16x1x1xf32> {ov.name = "bias"}
    %b2 = ov.add %c2, %bias {ov.name = "b2"} : (tensor<1x16x8x20xf32>, tensor<1x16x1x1xf32>) -> tensor<1x16x8x20xf32>
    %r2 = ov.relu %b2 {ov.name = "r2"} : (tensor<1x16x8x20xf32>) -> tensor<1x16x8x20xf32>
    %p = ov.max_pool %r2 {ov.name = "pool", strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>} : (tensor<1x16x8x20xf32>) -> tensor<1x16x4x10xf32>
    %w3 = ov.constant dense<-0.125> : tensor<16x16x1x1xf32> {ov.name = "w3"}
    %c3 = ov.convolution %r2, %w3 {ov.name = "c3", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x16x8x20xf32>, tensor<16x16x1x1xf32>) -> tensor<1x16x8x20xf32>
    %a3 = ov.add %c3, %r2 {ov.name = "a3"} : (tensor<1x16x8x20xf32>, tensor<1x16x8x20xf32>) -> tensor<1x16x8x20xf32>
    %w4 = ov.constant dense<0.0625> : tensor<16x16x1x1xf32> {ov.name = "w4"}
    %y = ov.convolution %a3, %w4 {ov.name = "c4", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x16x8x20xf32>, tensor<16x16x1x1xf32>) -> tensor<1x16x8x20xf32>
    %w5 = ov.constant dense<0.25> : tensor<16x16x1x1xf32> {ov.name = "w5"}
    %c5 = ov.convolution %x, %w5 {ov.name = "c5", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x16x8x20xf32>, tensor<16x16x1x1xf32>) -> tensor<1x16x8x20xf32>
    %r5 = ov.relu %c5 {ov.name = "r5"} : (tensor<1x16x8x20xf32>) -> tensor<1x16x8x20xf32>
    %w6 = ov.constant dense<0.5> : tensor<16x16x1x1xf32> {ov.name = "w6"}
    %z = ov.convolution %r5, %w6 {ov.name = "c6", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x16x8x20xf32>, tensor<16x16x1x1xf32>) -> tensor<1x16x8x20xf32>
    func.return %y, %p, %z : tensor<1x16x8x20xf32>, tensor<1x16x4x10xf32>, tensor<1x16x8x20xf32>
  }
}
