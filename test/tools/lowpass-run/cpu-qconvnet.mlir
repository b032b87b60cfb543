// The quantized conv net after LPT (u8/i8 convolutions) on the CPU device prints the outputs
// of the REFERENCE device.
// RUN: rm -rf %t && mkdir -p %t
// RUN: opt-tool --lpt %S/../../../examples/qconvnet.mlir -o %t/q.mlir
// RUN: lowpass-run --device REFERENCE %t/q.mlir --random-inputs 0 --save-outputs %t/ref
// RUN: lowpass-run %t/q.mlir --random-inputs 0 --device CPU --save-outputs %t/cpu -pcsort no_sort | filecheck %s
// RUN: python3 %S/Inputs/compare_outputs.py %t/ref %t/cpu | filecheck %s --check-prefix=SAME
// CHECK:      conv1 {{ *}}Convolution {{ *}}jit_{{[a-z0-9_]+}}_I8 {{ *}}EXECUTED
// CHECK:      conv2 {{ *}}Convolution {{ *}}jit_{{[a-z0-9_]+}}_I8 {{ *}}EXECUTED
// CHECK:      fc {{ *}}MatMul {{ *}}jit_{{[a-z0-9_]+}}_I8 {{ *}}EXECUTED
// CHECK-NOT:  ref_
// CHECK:      Total time of the ops
// SAME:       same
// SAME-NOT:   DIFFERENT
