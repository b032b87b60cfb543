// The LSTM example (a TensorIterator over 8 steps) on the CPU device: the body is compiled as
// a loop (one jit row), the outputs are the REFERENCE device's.
// RUN: rm -rf %t && mkdir -p %t
// RUN: lowpass-run --device REFERENCE %S/../../../examples/lstm.mlir --random-inputs 0 --save-outputs %t/ref
// RUN: lowpass-run %S/../../../examples/lstm.mlir --random-inputs 0 --device CPU --threads 1 --save-outputs %t/cpu -pcsort no_sort | filecheck %s
// RUN: python3 %S/Inputs/compare_outputs.py %t/ref %t/cpu | filecheck %s --check-prefix=SAME
// CHECK:      Y: f32[1, 8, 32]
// CHECK:      lstm {{ *}}TensorIterator {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// SAME-DAG:   same C
// SAME-DAG:   same H
// SAME-DAG:   same Y
