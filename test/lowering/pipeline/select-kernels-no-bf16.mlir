// UNSUPPORTED: avx512-bf16
// cpu-select-kernels{bf16=true} on a host without AVX512-BF16 keeps #cpu<gemm f32> (and
// Winograd), and the translation refuses a #cpu<gemm bf16> written in, naming what the op
// takes (select-kernels-bf16.mlir is its counterpart on the hosts that have it).
// RUN: opt-tool -p 'cpu-fold-constants,cpu-remove-views,cpu-fuse-kernels,cpu-choose-layouts,cpu-select-kernels{bf16=true}' %s | filecheck %s
// RUN: opt-tool -p 'cpu-decompose,cpu-fold-constants,cpu-remove-views,cpu-quantize-cells,cpu-fuse-kernels,cpu-choose-layouts,cpu-select-kernels{bf16=true},cpu-assign-buffers' %s -o %t.mlir
// RUN: sed -e 's/"conv1", \(.*\)#cpu<gemm f32>/"conv1", \1#cpu<gemm bf16>/' %t.mlir > %t.bad.mlir
// RUN: not opt-tool %t.bad.mlir -t cpu-llvm 2>&1 | filecheck %s --check-prefix=BAD
// CHECK:      ov.convolution {{.*}}"conv3"{{.*}}cpu.algorithm = #cpu<algorithm winograd>, cpu.gemm = #cpu<gemm f32>
// CHECK:      ov.convolution {{.*}}"conv1"{{.*}}cpu.algorithm = #cpu<algorithm im2col>, cpu.gemm = #cpu<gemm f32>
// CHECK:      ov.mat_mul {{.*}}"fc"{{.*}}cpu.gemm = #cpu<gemm f32>
// BAD:        error: {{.*}}Convolution 'conv1': #cpu<gemm bf16> cannot compute it on this host (it takes f32)
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
