// The kernel choices as IR a user can read and edit (issue 41): cpu-select-kernels writes each
// convolution's post-op program (`cpu.epilogue`, one step per fused op) and the int8
// instructions of its GEMM (`cpu.int8`: vpmaddwd for s16, vpmaddubsw for u8s8, vpdpbusd or amx
// for vnni: this host's), and the translation takes any valid grouping the IR states: here the
// Relu and the FakeQuantize of conv + bias + relu + FakeQuantize edited into groups of their own
// (the convolution keeps its bias Add) compile and give the REFERENCE device's values. An
// epilogue that is not its group's program and an int8 kernel that does not run the GEMM kind
// are errors at the op (a kernel the host lacks: test_edit_groups.py; invalid groupings:
// edit-groups-invalid.mlir; bad attribute values: test/dialects/cpu/invalid.mlir).
// RUN: opt-tool -p cpu-decompose,cpu-fold-constants,cpu-remove-views,cpu-quantize-cells,cpu-fuse-kernels,cpu-choose-layouts,cpu-select-kernels,cpu-assign-buffers %s -o %t.mlir
// RUN: filecheck %s < %t.mlir
// CHECK:      ov.convolution {{.*}}"conv", cpu.kernel = #cpu.kernel<0, "convolution">, cpu.algorithm = #cpu<algorithm im2col>, cpu.gemm = #cpu<gemm f32>, cpu.epilogue = #cpu.epilogue<add | relu, fq>,
// CHECK:      ov.add {{.*}}"biased", cpu.fused = #cpu.fused<0>,
// CHECK-NEXT: ov.relu {{.*}}"relu", cpu.fused = #cpu.fused<0>,
// CHECK:      ov.fake_quantize {{.*}}"fq", cpu.fused = #cpu.fused<0>,
// CHECK:      ov.subtract {{.*}}"sub", cpu.kernel = #cpu.kernel<1, "convolution">,
// CHECK:      ov.convolution {{.*}}"conv_q", cpu.fused = #cpu.fused<1>, cpu.algorithm = #cpu<algorithm im2col>, cpu.gemm = #cpu<gemm {{s16|vnni}}>, cpu.int8 = #cpu<int8 {{vpmaddwd|amx|vpdpbusd}}>, cpu.epilogue = #cpu.epilogue<mul>,
// The Relu and the FakeQuantize made groups of their own after cpu-fuse-kernels, the later
// groups renumbered; the rest of the pipeline and the translation take the edit.
// RUN: opt-tool -p cpu-decompose,cpu-fold-constants,cpu-remove-views,cpu-quantize-cells,cpu-fuse-kernels %s -o %t.fused.mlir
// RUN: sed -e '/"relu"/s/cpu.fused = #cpu.fused<0>/cpu.kernel = #cpu.kernel<1, "elementwise">/' -e '/"fq"/s/cpu.fused = #cpu.fused<0>/cpu.kernel = #cpu.kernel<2, "fake-quantize">/' -e '/"sub"/s/#cpu.kernel<1,/#cpu.kernel<3,/' -e '/"conv_q"\|"scale"/s/#cpu.fused<1>/#cpu.fused<3>/' %t.fused.mlir > %t.edit.mlir
// RUN: opt-tool -p cpu-choose-layouts,cpu-select-kernels,cpu-assign-buffers %t.edit.mlir -o %t.edited.mlir
// RUN: filecheck %s --check-prefix=EDITED < %t.edited.mlir
// RUN: python -c "import numpy as np; np.save('%t.x.npy', (np.arange(72, dtype=np.float32) %% 7 - 3).reshape(1, 2, 6, 6)); np.save('%t.q.npy', (np.arange(288) %% 11).astype(np.uint8).reshape(1, 8, 6, 6))"
// RUN: lowpass-run %t.edited.mlir -i x=%t.x.npy -i q=%t.q.npy --device CPU --full > %t.cpu
// RUN: lowpass-run %s -i x=%t.x.npy -i q=%t.q.npy --device REFERENCE --full > %t.ref
// RUN: diff %t.cpu %t.ref
// RUN: lowpass-run %t.edited.mlir -i x=%t.x.npy -i q=%t.q.npy --device CPU -pc -pcsort no_sort | filecheck %s --check-prefix=ROWS
// EDITED:      ov.convolution {{.*}}"conv", cpu.kernel = #cpu.kernel<0, "convolution">, {{.*}}cpu.epilogue = #cpu.epilogue<add>,
// EDITED:      ov.add {{.*}}"biased", cpu.fused = #cpu.fused<0>, cpu.buffers = [#cpu.buffer<arena 0, 576>]}
// EDITED-NEXT: ov.relu {{.*}}"relu", cpu.kernel = #cpu.kernel<1, "elementwise">,
// EDITED:      ov.fake_quantize {{.*}}"fq", cpu.kernel = #cpu.kernel<2, "fake-quantize">,
// ROWS:        conv {{ *}}Convolution {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// ROWS:        biased {{ *}}Add {{ *}}undef {{ *}}NOT_RUN
// ROWS-NEXT:   relu {{ *}}Relu {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// ROWS:        fq {{ *}}FakeQuantize {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// An epilogue edited to another program than its group's, an int8 kernel that does not run
// the GEMM kind: each an error at the op.
// RUN: sed -e 's/cpu.epilogue = #cpu.epilogue<add>/cpu.epilogue = #cpu.epilogue<add, relu>/' %t.edited.mlir > %t.epilogue.mlir
// RUN: not opt-tool %t.epilogue.mlir -t cpu-llvm 2>&1 | filecheck %s --check-prefix=EPILOGUE
// RUN: sed -e 's/#cpu<gemm [a-z0-9]*>, cpu.int8 = #cpu<int8 [a-z0-9]*>/#cpu<gemm s16>, cpu.int8 = #cpu<int8 amx>/' %t.mlir > %t.int8.mlir
// RUN: not opt-tool %t.int8.mlir -t cpu-llvm 2>&1 | filecheck %s --check-prefix=INT8
// EPILOGUE:    edit-groups.mlir.tmp.epilogue.mlir:{{[0-9]+}}:{{[0-9]+}}: error: Convolution 'conv': #cpu.epilogue<add, relu> is not the program of the ops fused into its group (#cpu.epilogue<add>)
// INT8:        error: Convolution 'conv_q': #cpu<int8 amx> does not run #cpu<gemm s16> (it takes vpmaddwd)
// On an AMX host, vpdpbusd written over amx is honoured: no tile instructions (elsewhere the
// edit changes nothing).
// RUN: sed -e 's/#cpu<int8 amx>/#cpu<int8 vpdpbusd>/' %t.mlir > %t.noamx.mlir
// RUN: opt-tool %t.noamx.mlir -t cpu-llvm | filecheck %s --check-prefix=NOAMX
// NOAMX:       define {{.*}}i32 @lowpass_main(
// NOAMX-NOT:   tdpbusd
builtin.module {
  func.func @main(%x: tensor<1x2x6x6xf32> {ov.name = "x"}, %q: tensor<1x8x6x6xui8> {ov.name = "q"}) -> (tensor<1x4x6x6xf32> {ov.name = "y"}, tensor<1x4x6x6xf32> {ov.name = "z"}) {
    %w = ov.constant dense<[[[[0.25, -0.5, 0.125], [0.5, 1.0, -0.25], [0.0, 0.75, -1.0]], [[-0.125, 0.25, 0.5], [1.0, -0.5, 0.25], [0.5, 0.5, -0.75]]], [[[1.0, 0.5, 0.25], [-0.25, 0.5, 0.125], [0.5, -1.0, 0.0]], [[0.25, 0.25, 0.25], [-0.5, 0.5, -0.5], [1.0, 0.0, -1.0]]], [[[0.5, 0.0, -0.5], [0.25, -0.25, 0.75], [0.125, 0.5, 1.0]], [[-1.0, 0.5, 0.25], [0.0, 0.25, -0.5], [0.75, 0.5, 0.25]]], [[[-0.25, 0.5, 1.0], [0.5, 0.25, 0.0], [-0.5, 0.125, 0.25]], [[0.5, -0.75, 0.25], [0.25, 1.0, 0.5], [0.0, -0.25, 0.5]]]]> : tensor<4x2x3x3xf32> {ov.name = "w"}
    %conv = ov.convolution %x, %w {ov.name = "conv", strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x2x6x6xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
    %b = ov.constant dense<[[[[0.5]], [[-0.25]], [[0.125]], [[-1.0]]]]> : tensor<1x4x1x1xf32> {ov.name = "b"}
    %biased = ov.add %conv, %b {ov.name = "biased"} : (tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x6x6xf32>
    %relu = ov.relu %biased {ov.name = "relu"} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
    %lo = ov.constant dense<0.0> : tensor<f32> {ov.name = "lo"}
    %hi = ov.constant dense<2.55> : tensor<f32> {ov.name = "hi"}
    %y = ov.fake_quantize %relu, %lo, %hi, %lo, %hi levels = 256 {ov.name = "fq"} : (tensor<1x4x6x6xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x4x6x6xf32>
    %zp = ov.constant dense<3> : tensor<ui8> {ov.name = "zp"}
    %sub = ov.subtract %q, %zp {ov.name = "sub"} : (tensor<1x8x6x6xui8>, tensor<ui8>) -> tensor<1x8x6x6xf32>
    %wq = ov.constant dense<-100> : tensor<4x8x3x3xi8> {ov.name = "wq"}
    %cq = ov.convolution %sub, %wq {ov.name = "conv_q", strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x8x6x6xf32>, tensor<4x8x3x3xi8>) -> tensor<1x4x6x6xf32>
    %s = ov.constant dense<0.01> : tensor<f32> {ov.name = "s"}
    %z = ov.multiply %cq, %s {ov.name = "scale"} : (tensor<1x4x6x6xf32>, tensor<f32>) -> tensor<1x4x6x6xf32>
    func.return %y, %z : tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>
  }
}
