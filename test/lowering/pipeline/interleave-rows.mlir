// cpu-interleave-rows: a depthwise convolution on NHWC float32 tensors runs band by band of
// its output rows together with the convolution before it, which writes its input for it
// alone ({cpu.row_bands = #cpu.row_bands<rows R, groups A to B>} on the depthwise one): each
// band computes the input rows it reads first. Here with `min-bytes=0` (the default bands
// tensors of 1 MiB or more); d1 gets a band (of 6 rows: 256 KiB of its input rows, the whole
// image), d2 none (e2's output is also a graph output). cpu-assign-buffers keeps the tensors
// of a band apart through all of it, and gives the one between its groups no memory (it
// lives in the band's rings of rows).
// RUN: opt-tool -p 'cpu-decompose,cpu-fold-constants,cpu-remove-views,cpu-quantize-cells,cpu-fuse-kernels,cpu-choose-layouts,cpu-select-kernels,cpu-choose-storage,cpu-interleave-rows{min-bytes=0},cpu-assign-buffers' %s -o %t.mlir
// RUN: filecheck %s < %t.mlir
// CHECK:      %r1 = ov.relu %e1 {ov.name = "r1", cpu.fused = #cpu.fused<1>, cpu.channels_last, cpu.buffers = [#cpu.buffer<none>]}
// CHECK:      ov.group_convolution {{.*}}ov.name = "d1", cpu.kernel = #cpu.kernel<2, "convolution">, cpu.algorithm = #cpu<algorithm depthwise>, cpu.epilogue = #cpu.epilogue<clamp>, cpu.row_bands = #cpu.row_bands<rows 6, groups 1 to 2>
// CHECK-NOT:  cpu.row_bands
// The default pipeline: tensors of 7.5 KB, no band.
// RUN: opt-tool -p 'cpu-decompose,cpu-fold-constants,cpu-remove-views,cpu-quantize-cells,cpu-fuse-kernels,cpu-choose-layouts,cpu-select-kernels,cpu-choose-storage,cpu-interleave-rows,cpu-assign-buffers' %s | filecheck %s --check-prefix=SMALL
// SMALL-NOT:  cpu.row_bands
// The band compiles to one kernel over the depthwise convolution's rows.
// RUN: opt-tool %t.mlir -t cpu-llvm | filecheck %s --check-prefix=LLVM
// LLVM:       define internal {{.*}}@d1_bands(
// The reference interpreter gives the same outputs before and after the pass, and the CPU
// device, its band run, those of the reference.
// RUN: rm -rf %t.out && mkdir -p %t.out
// RUN: lowpass-run --device REFERENCE %s --random-inputs 5 --save-outputs %t.out/before > /dev/null
// RUN: lowpass-run --device REFERENCE %t.mlir --random-inputs 5 --save-outputs %t.out/after > /dev/null
// RUN: lowpass-run --device CPU %t.mlir --random-inputs 5 --save-outputs %t.out/cpu > /dev/null
// RUN: python3 %S/../../tools/lowpass-run/Inputs/compare_outputs.py %t.out/before %t.out/after 0 | filecheck %s --check-prefix=SAME
// RUN: python3 %S/../../tools/lowpass-run/Inputs/compare_outputs.py %t.out/before %t.out/cpu | filecheck %s --check-prefix=SAME
// SAME:       same e
// SAME-NEXT:  same y
// SAME-NEXT:  same z
// A bad option is a one-line error.
// RUN: not opt-tool -p 'cpu-interleave-rows{min-bytes=x}' %s 2>&1 | filecheck %s --check-prefix=OPTION
// OPTION:     opt-tool: error: pass 'cpu-interleave-rows': option 'min-bytes' expects <int>, got 'x'
// An edited band that the rules do not give is an error of the translation.
// RUN: sed -e 's/groups 1 to 2>/groups 0 to 2>/' %t.mlir > %t.bad.mlir
// RUN: not opt-tool %t.bad.mlir -t cpu-llvm 2>&1 | filecheck %s --check-prefix=BAD
// BAD: error: {{.*}}GroupConvolution 'd1': #cpu.row_bands<rows 6, groups 0 to 2> on group 2; expected groups 1 to 2
builtin.module {
  func.func @main(%x: tensor<1x8x6x10xf32> {ov.name = "x"}) -> (tensor<1x8x6x10xf32> {ov.name = "y"}, tensor<1x32x6x10xf32> {ov.name = "e"}, tensor<1x8x6x10xf32> {ov.name = "z"}) {
    %w0 = ov.constant dense<0.125> : tensor<8x8x1x1xf32> {ov.name = "w0"}
    %c0 = ov.convolution %x, %w0 {ov.name = "c0", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x8x6x10xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x6x10xf32>
    %w1 = ov.constant dense<0.25> : tensor<32x8x1x1xf32> {ov.name = "w1"}
    %e1 = ov.convolution %c0, %w1 {ov.name = "e1", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x8x6x10xf32>, tensor<32x8x1x1xf32>) -> tensor<1x32x6x10xf32>
    %r1 = ov.relu %e1 {ov.name = "r1"} : (tensor<1x32x6x10xf32>) -> tensor<1x32x6x10xf32>
    %wd = ov.constant dense<0.5> : tensor<32x1x1x3x3xf32> {ov.name = "wd"}
    %d1 = ov.group_convolution %r1, %wd {ov.name = "d1", strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x32x6x10xf32>, tensor<32x1x1x3x3xf32>) -> tensor<1x32x6x10xf32>
    %k1 = ov.clamp %d1 min = 0.000000e+00 max = 6.000000e+00 {ov.name = "k1"} : (tensor<1x32x6x10xf32>) -> tensor<1x32x6x10xf32>
    %w2 = ov.constant dense<0.0625> : tensor<8x32x1x1xf32> {ov.name = "w2"}
    %y = ov.convolution %k1, %w2 {ov.name = "p1", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x32x6x10xf32>, tensor<8x32x1x1xf32>) -> tensor<1x8x6x10xf32>
    %e = ov.convolution %c0, %w1 {ov.name = "e2", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x8x6x10xf32>, tensor<32x8x1x1xf32>) -> tensor<1x32x6x10xf32>
    %d2 = ov.group_convolution %e, %wd {ov.name = "d2", strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x32x6x10xf32>, tensor<32x1x1x3x3xf32>) -> tensor<1x32x6x10xf32>
    %z = ov.convolution %d2, %w2 {ov.name = "p2", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x32x6x10xf32>, tensor<8x32x1x1xf32>) -> tensor<1x8x6x10xf32>
    func.return %y, %e, %z : tensor<1x8x6x10xf32>, tensor<1x32x6x10xf32>, tensor<1x8x6x10xf32>
  }
}
