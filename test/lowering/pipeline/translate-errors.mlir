// The CPU device compiles a module that went through the pipeline as its cpu attributes say
// (here: assign-buffers.mlir after the pipeline) and checks them first: each mistake is a
// one-line error naming the op.
// RUN: opt-tool -p cpu-fold-constants,cpu-remove-views,cpu-quantize-cells,cpu-fuse-kernels,cpu-assign-buffers %S/assign-buffers.mlir -o %t.mlir
// RUN: lowpass-run %t.mlir --random-inputs 0 --device CPU > %t.out
// RUN: sed -e 's/arena 4096, 4096/arena 2048, 4096/' %t.mlir > %t.overlap.mlir
// RUN: not lowpass-run %t.overlap.mlir --random-inputs 0 --device CPU 2>&1 | filecheck %s --check-prefix=OVERLAP
// RUN: sed -e 's/cpu.kernel = #cpu.kernel<1, "index-map">, //' %t.mlir > %t.nokernel.mlir
// RUN: not lowpass-run %t.nokernel.mlir --random-inputs 0 --device CPU 2>&1 | filecheck %s --check-prefix=NOKERNEL
// RUN: sed -e 's/#cpu.kernel<1, "index-map">/#cpu.kernel<1, "convolution">/' %t.mlir > %t.kind.mlir
// RUN: not lowpass-run %t.kind.mlir --random-inputs 0 --device CPU 2>&1 | filecheck %s --check-prefix=KIND
// RUN: sed -e 's/#cpu.buffer<output 0, 4096>/#cpu.buffer<none>/' %t.mlir > %t.none.mlir
// RUN: not lowpass-run %t.none.mlir --random-inputs 0 --device CPU 2>&1 | filecheck %s --check-prefix=NONE
// RUN: sed -e 's/arena 4096, 4096/arena 4000, 4096/' %t.mlir > %t.align.mlir
// RUN: not opt-tool %t.align.mlir 2>&1 | filecheck %s --check-prefix=ALIGN
// RUN: sed -e 's/arena 4096, 4096/heap 4096, 4096/' %t.mlir > %t.heap.mlir
// RUN: not opt-tool %t.heap.mlir 2>&1 | filecheck %s --check-prefix=HEAP
// RUN: sed -e 's/#cpu.kernel<0, "index-map">/#cpu.kernel<0, "reference">/' -e 's/cpu.kernel = #cpu.kernel<1, "index-map">/cpu.fused = #cpu.fused<0>/' %t.mlir > %t.fallback.mlir
// RUN: not lowpass-run %t.fallback.mlir --random-inputs 0 --device CPU 2>&1 | filecheck %s --check-prefix=FALLBACK
// RUN: sed -e 's/{ov.name = "c", /{ov.name = "c", cpu.quantized = #cpu.quantized_cell<x 256, h 256, weights 127, gemms 1>, /' %t.mlir > %t.quantized.mlir
// RUN: not lowpass-run %t.quantized.mlir --random-inputs 0 --device CPU 2>&1 | filecheck %s --check-prefix=QUANTIZED
// RUN: sed -e 's/{ov.name = "b", /{ov.name = "b", cpu.channels_last, /' %t.mlir > %t.layout.mlir
// RUN: not lowpass-run %t.layout.mlir --random-inputs 0 --device CPU 2>&1 | filecheck %s --check-prefix=LAYOUT
// OVERLAP:  lowpass-run: error: {{.*}}overlap.mlir: Transpose 'a' and Transpose 'b' share arena bytes while both are live ([0, 4096) and [2048, 6144))
// NOKERNEL: lowpass-run: error: {{.*}}: Transpose 'b' is neither constant, view nor in a kernel; run the CPU pipeline first (opt-tool -p cpu-decompose,cpu-fold-constants,cpu-remove-views,cpu-quantize-cells,cpu-fuse-kernels,cpu-choose-layouts,cpu-select-kernels,cpu-choose-storage,cpu-interleave-rows,cpu-assign-buffers)
// KIND:     lowpass-run: error: {{.*}}: Transpose 'b': no lowering 'convolution' for this op (lowerings: recurrent, convolution,
// NONE:     lowpass-run: error: {{.*}}: Transpose 'f' result #0 is used outside its group but has no #cpu.buffer; run cpu-assign-buffers
// ALIGN:    #cpu.buffer: arena offset 4000 is not a multiple of 64
// HEAP:     unknown buffer kind 'heap'; expected one of arena, output, none
// FALLBACK: lowpass-run: error: {{.*}}: Transpose 'b': #cpu.fused<0> into a "reference" group (the fallback runs one op per group)
// QUANTIZED: lowpass-run: error: {{.*}}: Add 'c': only LSTMCell and RNNCell take cpu.quantized
// LAYOUT:   lowpass-run: error: {{.*}}: Transpose 'b': cpu.channels_last on a tensor that is not passed between convolutions (only cpu-choose-layouts' choices are valid)
