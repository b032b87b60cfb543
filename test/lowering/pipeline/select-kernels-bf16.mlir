// REQUIRES: avx512-bf16
// cpu-select-kernels{bf16=true} on a host with AVX512-BF16: the float32 GEMMs of constant
// weights take #cpu<gemm bf16> (bfloat16 products, float32 sums), and a 3x3 convolution of
// stride 1 takes im2col first (Winograd's products stay float32); without the option they
// keep f32 and Winograd. The translation calls vdpbf16ps where the IR says bf16 (im2col
// writes its rows in bfloat16), or, on a host with AMX-BF16, the tiles' tdpbf16ps, and
// refuses bf16 under Winograd.
// RUN: opt-tool -p 'cpu-fold-constants,cpu-remove-views,cpu-fuse-kernels,cpu-choose-layouts,cpu-select-kernels{bf16=true}' %s | filecheck %s
// RUN: opt-tool -p cpu-fold-constants,cpu-remove-views,cpu-fuse-kernels,cpu-choose-layouts,cpu-select-kernels %s | filecheck %s --check-prefix=DEFAULT
// RUN: opt-tool -p 'cpu-decompose,cpu-fold-constants,cpu-remove-views,cpu-quantize-cells,cpu-fuse-kernels,cpu-choose-layouts,cpu-select-kernels{bf16=true},cpu-assign-buffers' %s -o %t.mlir
// RUN: opt-tool %t.mlir -t cpu-llvm | filecheck %s --check-prefix=LLVM
// RUN: opt-tool %t.mlir -t cpu-llvm | filecheck %s --check-prefix=IM2COL
// RUN: sed -e 's/#cpu<gemm bf16>/#cpu<gemm f32>/g' %t.mlir | opt-tool -t cpu-llvm | filecheck %s --check-prefix=F32
// RUN: sed -e 's/"conv3", \(.*\)#cpu<algorithm im2col>/"conv3", \1#cpu<algorithm winograd>/' %t.mlir > %t.bad.mlir
// RUN: not opt-tool %t.bad.mlir -t cpu-llvm 2>&1 | filecheck %s --check-prefix=BAD
// CHECK:      ov.convolution {{.*}}"conv3"{{.*}}cpu.algorithm = #cpu<algorithm im2col>, cpu.gemm = #cpu<gemm bf16>
// CHECK:      ov.convolution {{.*}}"conv1"{{.*}}cpu.algorithm = #cpu<algorithm im2col>, cpu.gemm = #cpu<gemm bf16>
// CHECK:      ov.mat_mul {{.*}}"fc"{{.*}}cpu.gemm = #cpu<gemm bf16>
// DEFAULT:    ov.convolution {{.*}}"conv3"{{.*}}cpu.algorithm = #cpu<algorithm winograd>, cpu.gemm = #cpu<gemm f32>
// DEFAULT:    ov.convolution {{.*}}"conv1"{{.*}}cpu.algorithm = #cpu<algorithm im2col>, cpu.gemm = #cpu<gemm f32>
// DEFAULT:    ov.mat_mul {{.*}}"fc"{{.*}}cpu.gemm = #cpu<gemm f32>
// LLVM:       call {{.*}}@{{"?}}llvm.x86.{{avx512bf16.dpbf16ps.512|tdpbf16ps}}
// IM2COL:     fptrunc <16 x float> {{.*}} to <16 x bfloat>
// F32-NOT:    dpbf16ps
// BAD:        error: {{.*}}Convolution 'conv3': #cpu<gemm bf16> cannot compute it on this host (it takes f32)
builtin.module {
  func.func @main(%x: tensor<1x16x6x7xf32> {ov.name = "x"}, %v: tensor<8x32xf32> {ov.name = "v"}) -> (tensor<1x8x6x7xf32> {ov.name = "y"}, tensor<8x24xf32> {ov.name = "z"}) {
    %w3 = ov.constant dense<0.125> : tensor<16x16x3x3xf32> {ov.name = "w3"}
    %c = ov.convolution %x, %w3 {ov.name = "conv3", strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x16x6x7xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x6x7xf32>
    %r = ov.relu %c {ov.name = "relu"} : (tensor<1x16x6x7xf32>) -> tensor<1x16x6x7xf32>
    %w1 = ov.constant dense<0.25> : tensor<8x16x1x1xf32> {ov.name = "w1"}
    %y = ov.convolution %r, %w1 {ov.name = "conv1", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x16x6x7xf32>, tensor<8x16x1x1xf32>) -> tensor<1x8x6x7xf32>
    %wf = ov.constant dense<0.5> : tensor<32x24xf32> {ov.name = "wf"}
    %z = ov.mat_mul %v, %wf {ov.name = "fc"} : (tensor<8x32xf32>, tensor<32x24xf32>) -> tensor<8x24xf32>
    func.return %y, %z : tensor<1x8x6x7xf32>, tensor<8x24xf32>
  }
}
