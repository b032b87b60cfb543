// cpu-select-kernels: each convolution's algorithm and each GEMM's micro-kernel as attributes.
// An fp32 3x3 convolution of stride 1 whose output a convolution reads (NHWC) takes Winograd,
// a 1x1 and a strided one im2col; fp32 GEMMs are f32; an int8 GEMM is vnni on a VNNI host,
// else u8s8 when every weight is in [-64, 63] (w_small), else s16 (w_full): the CHECKs take
// this host's (target.py detects it).
// RUN: opt-tool -p cpu-fold-constants,cpu-remove-views,cpu-quantize-cells,cpu-fuse-kernels,cpu-choose-layouts,cpu-select-kernels %s | filecheck %s
// RUN: opt-tool -p 'cpu-fold-constants,cpu-remove-views,cpu-fuse-kernels,cpu-choose-layouts,cpu-select-kernels{winograd=false}' %s | filecheck %s --check-prefix=NOWINO
// NOWINO:     ov.convolution {{.*}}"conv3"{{.*}}cpu.algorithm = #cpu<algorithm im2col>, cpu.gemm = #cpu<gemm f32>
// The translation emits what the attributes say: im2col written over winograd is honoured
// (no Winograd code); winograd on the strided convolution, or u8s8 on full-range weights,
// is an error naming the op and what it takes.
// RUN: opt-tool -p cpu-decompose,cpu-fold-constants,cpu-remove-views,cpu-quantize-cells,cpu-fuse-kernels,cpu-choose-layouts,cpu-select-kernels,cpu-assign-buffers %s -o %t.mlir
// RUN: opt-tool %t.mlir -t cpu-llvm | filecheck %s --check-prefix=WINOGRAD
// RUN: sed -e 's/#cpu<algorithm winograd>/#cpu<algorithm im2col>/' %t.mlir > %t.im2col.mlir
// RUN: opt-tool %t.im2col.mlir -t cpu-llvm | filecheck %s --check-prefix=IM2COL
// RUN: sed -e 's/"conv_s2", \(.*\)#cpu<algorithm im2col>/"conv_s2", \1#cpu<algorithm winograd>/' %t.mlir > %t.bad.mlir
// RUN: not opt-tool %t.bad.mlir -t cpu-llvm 2>&1 | filecheck %s --check-prefix=BAD
// RUN: sed -e 's/"conv_full", \(.*\)#cpu<gemm [a-z0-9]*>/"conv_full", \1#cpu<gemm u8s8>/' %t.mlir > %t.kind.mlir
// RUN: not opt-tool %t.kind.mlir -t cpu-llvm 2>&1 | filecheck %s --check-prefix=KIND
// RUN: not opt-tool -p cpu-select-kernels %S/Inputs/select-kernels-invalid.mlir 2>&1 | filecheck %s --check-prefix=PARSE
// RUN: not opt-tool -p 'cpu-select-kernels{bf16=maybe}' %s 2>&1 | filecheck %s --check-prefix=OPTION
// CHECK:      ov.convolution {{.*}}"conv3"{{.*}}cpu.algorithm = #cpu<algorithm winograd>, cpu.gemm = #cpu<gemm f32>
// CHECK:      ov.convolution {{.*}}"conv1"{{.*}}cpu.algorithm = #cpu<algorithm im2col>, cpu.gemm = #cpu<gemm f32>
// CHECK:      ov.convolution {{.*}}"conv_s2"{{.*}}cpu.algorithm = #cpu<algorithm im2col>, cpu.gemm = #cpu<gemm f32>
// CHECK:      ov.convolution {{.*}}"conv_small"{{.*}}cpu.algorithm = #cpu<algorithm im2col>, cpu.gemm = #cpu<gemm {{vnni|u8s8}}>
// CHECK:      ov.convolution {{.*}}"conv_full"{{.*}}cpu.algorithm = #cpu<algorithm im2col>, cpu.gemm = #cpu<gemm {{vnni|s16}}>
// WINOGRAD:   define {{.*}}void @conv3_winograd_entries(
// IM2COL-NOT: winograd
// BAD:        error: {{.*}}Convolution 'conv_s2': #cpu<algorithm winograd> cannot compute it (it takes im2col)
// KIND:       error: {{.*}}Convolution 'conv_full': #cpu<gemm u8s8> cannot compute it on this host (it takes {{(vnni, )?}}s16)
// PARSE:      select-kernels-invalid.mlir:4:53: error: Expected `im2col`, `winograd`, or `depthwise`.
// OPTION:     opt-tool: error: pass 'cpu-select-kernels': option 'bf16' expects <bool>, got 'maybe'
builtin.module {
  func.func @main(%x: tensor<1x16x6x7xf32> {ov.name = "x"}, %q: tensor<1x2x8x8xui8> {ov.name = "q"}) -> (tensor<1x8x6x7xf32> {ov.name = "y"}, tensor<1x8x3x4xf32> {ov.name = "z"}, tensor<1x8x8x8xf32> {ov.name = "s"}, tensor<1x8x8x8xf32> {ov.name = "f"}) {
    %w3 = ov.constant dense<0.125> : tensor<16x16x3x3xf32> {ov.name = "w3"}
    %c = ov.convolution %x, %w3 {ov.name = "conv3", strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x16x6x7xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x6x7xf32>
    %r = ov.relu %c {ov.name = "relu"} : (tensor<1x16x6x7xf32>) -> tensor<1x16x6x7xf32>
    %w1 = ov.constant dense<0.25> : tensor<8x16x1x1xf32> {ov.name = "w1"}
    %y = ov.convolution %r, %w1 {ov.name = "conv1", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x16x6x7xf32>, tensor<8x16x1x1xf32>) -> tensor<1x8x6x7xf32>
    %s2 = ov.convolution %x, %w3 {ov.name = "conv_s2", strides = array<i64: 2, 2>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x16x6x7xf32>, tensor<16x16x3x3xf32>) -> tensor<1x16x3x4xf32>
    %z = ov.convolution %s2, %w1 {ov.name = "conv_s2_1x1", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x16x3x4xf32>, tensor<8x16x1x1xf32>) -> tensor<1x8x3x4xf32>
    %zp = ov.constant dense<3> : tensor<ui8> {ov.name = "zp"}
    %sub = ov.subtract %q, %zp {ov.name = "sub"} : (tensor<1x2x8x8xui8>, tensor<ui8>) -> tensor<1x2x8x8xf32>
    %ws = ov.constant dense<[[[[-64, 63, 1], [2, 3, 4], [5, 6, 7]], [[1, 2, 3], [4, 5, 6], [7, 8, 9]]], [[[1, 1, 1], [1, 1, 1], [1, 1, 1]], [[2, 2, 2], [2, 2, 2], [2, 2, 2]]], [[[3, 3, 3], [3, 3, 3], [3, 3, 3]], [[4, 4, 4], [4, 4, 4], [4, 4, 4]]], [[[5, 5, 5], [5, 5, 5], [5, 5, 5]], [[6, 6, 6], [6, 6, 6], [6, 6, 6]]], [[[7, 7, 7], [7, 7, 7], [7, 7, 7]], [[8, 8, 8], [8, 8, 8], [8, 8, 8]]], [[[9, 9, 9], [9, 9, 9], [9, 9, 9]], [[10, 10, 10], [10, 10, 10], [10, 10, 10]]], [[[11, 11, 11], [11, 11, 11], [11, 11, 11]], [[12, 12, 12], [12, 12, 12], [12, 12, 12]]], [[[13, 13, 13], [13, 13, 13], [13, 13, 13]], [[14, 14, 14], [14, 14, 14], [14, 14, 14]]]]> : tensor<8x2x3x3xi8> {ov.name = "w_small"}
    %s = ov.convolution %sub, %ws {ov.name = "conv_small", strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x2x8x8xf32>, tensor<8x2x3x3xi8>) -> tensor<1x8x8x8xf32>
    %sub2 = ov.subtract %q, %zp {ov.name = "sub2"} : (tensor<1x2x8x8xui8>, tensor<ui8>) -> tensor<1x2x8x8xf32>
    %wf = ov.constant dense<-100> : tensor<8x2x3x3xi8> {ov.name = "w_full"}
    %f = ov.convolution %sub2, %wf {ov.name = "conv_full", strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x2x8x8xf32>, tensor<8x2x3x3xi8>) -> tensor<1x8x8x8xf32>
    func.return %y, %z, %s, %f : tensor<1x8x6x7xf32>, tensor<1x8x3x4xf32>, tensor<1x8x8x8xf32>, tensor<1x8x8x8xf32>
  }
}
