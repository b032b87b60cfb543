// cpu-choose-storage through Concats and MaxPools: a Concat all of whose inputs are stored
// in bfloat16 and whose readers are bf16 convolutions copies bfloat16 values as they are,
// and a float32 MaxPool (NHWC, no post-op) that only bf16 convolutions read writes its
// maxima rounded (the maximum of rounded values is the rounded maximum): the same bits as
// float32 tensors. Here %r1 and %r2 (read by the Concat), %cat (read by c3 and the
// MaxPool) and %p (read by c4) are stored; %q, a MaxPool that is a graph output, is not,
// nor then %r5 (its input), nor %cat2 (a Concat that %q reads). The kernels are made bf16
// by hand, on any host.
// RUN: opt-tool -p 'cpu-decompose,cpu-fold-constants,cpu-remove-views,cpu-quantize-cells,cpu-fuse-kernels,cpu-choose-layouts,cpu-select-kernels{winograd=false}' %s -o %t.sel.mlir
// RUN: sed -e 's/#cpu<gemm f32>/#cpu<gemm bf16>/g' %t.sel.mlir | opt-tool -p cpu-choose-storage,cpu-assign-buffers -o %t.mlir
// RUN: filecheck %s < %t.mlir
// CHECK-DAG:  %r1 = ov.relu {{.*}}cpu.bfloat16
// CHECK-DAG:  %r2 = ov.relu {{.*}}cpu.bfloat16
// CHECK-DAG:  %cat = ov.concat {{.*}}cpu.bfloat16
// CHECK-DAG:  %p = ov.max_pool {{.*}}cpu.bfloat16
// CHECK-NOT:  %r5 = ov.relu {{.*}}cpu.bfloat16
// CHECK-NOT:  %cat2 = ov.concat {{.*}}cpu.bfloat16
// CHECK-NOT:  %q = ov.max_pool {{.*}}cpu.bfloat16
// A mark the rules do not give (a Concat that a graph output reads) is an error of the
// translation, on any host.
// RUN: sed -e 's/"cat2", cpu.kernel/"cat2", cpu.bfloat16, cpu.kernel/' %t.mlir > %t.bad.mlir
// RUN: not opt-tool %t.bad.mlir -t cpu-llvm 2>&1 | filecheck %s --check-prefix=BAD
// BAD: error: {{.*}}Concat 'cat2': cpu.bfloat16 on a tensor that is not passed between bf16 convolutions (only cpu-choose-storage's choices are valid)
builtin.module {
  func.func @main(%x: tensor<1x32x8x20xf32> {ov.name = "x"}) -> (tensor<1x16x8x20xf32> {ov.name = "y"}, tensor<1x16x4x10xf32> {ov.name = "z"}, tensor<1x64x4x10xf32> {ov.name = "q"}) {
    %w1 = ov.constant dense<0.125> : tensor<32x32x1x1xf32> {ov.name = "w1"}
    %c1 = ov.convolution %x, %w1 {ov.name = "c1", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x32x8x20xf32>, tensor<32x32x1x1xf32>) -> tensor<1x32x8x20xf32>
    %r1 = ov.relu %c1 {ov.name = "r1"} : (tensor<1x32x8x20xf32>) -> tensor<1x32x8x20xf32>
    %w2 = ov.constant dense<0.25> : tensor<32x32x3x3xf32> {ov.name = "w2"}
    %c2 = ov.convolution %x, %w2 {ov.name = "c2", strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x32x8x20xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x8x20xf32>
    %r2 = ov.relu %c2 {ov.name = "r2"} : (tensor<1x32x8x20xf32>) -> tensor<1x32x8x20xf32>
    %cat = ov.concat %r1, %r2 axis = 1 {ov.name = "cat"} : (tensor<1x32x8x20xf32>, tensor<1x32x8x20xf32>) -> tensor<1x64x8x20xf32>
    %w3 = ov.constant dense<0.0625> : tensor<16x64x1x1xf32> {ov.name = "w3"}
    %y = ov.convolution %cat, %w3 {ov.name = "c3", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x64x8x20xf32>, tensor<16x64x1x1xf32>) -> tensor<1x16x8x20xf32>
    %p = ov.max_pool %cat {ov.name = "pool", strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>} : (tensor<1x64x8x20xf32>) -> tensor<1x64x4x10xf32>
    %w4 = ov.constant dense<0.5> : tensor<16x64x1x1xf32> {ov.name = "w4"}
    %z = ov.convolution %p, %w4 {ov.name = "c4", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x64x4x10xf32>, tensor<16x64x1x1xf32>) -> tensor<1x16x4x10xf32>
    %w5 = ov.constant dense<0.25> : tensor<32x32x1x1xf32> {ov.name = "w5"}
    %c5 = ov.convolution %x, %w5 {ov.name = "c5", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x32x8x20xf32>, tensor<32x32x1x1xf32>) -> tensor<1x32x8x20xf32>
    %r5 = ov.relu %c5 {ov.name = "r5"} : (tensor<1x32x8x20xf32>) -> tensor<1x32x8x20xf32>
    %cat2 = ov.concat %r5, %r5 axis = 1 {ov.name = "cat2"} : (tensor<1x32x8x20xf32>, tensor<1x32x8x20xf32>) -> tensor<1x64x8x20xf32>
    %q = ov.max_pool %cat2 {ov.name = "q", strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>} : (tensor<1x64x8x20xf32>) -> tensor<1x64x4x10xf32>
    func.return %y, %z, %q : tensor<1x16x8x20xf32>, tensor<1x16x4x10xf32>, tensor<1x64x4x10xf32>
  }
}
