// The quantized stateful LSTM (examples/qlstm.mlir: FakeQuantize on X, H, W and R; reshape to
// one step + LowLatency2) on the CPU device over 5 requests: the cell runs in int8
// (jit_<isa>_I8) and gives the REFERENCE device's outputs (which fake-quantize in float).
// RUN: rm -rf %t && mkdir -p %t
// RUN: opt-tool %S/../../../examples/qlstm.mlir --ov-reshape='inputs=X:1x1x16' --low-latency2 -o %t/step.mlir
// RUN: lowpass-run --device REFERENCE %t/step.mlir --random-inputs 0 --iterations 5 --save-outputs %t/ref
// RUN: lowpass-run %t/step.mlir --random-inputs 0 --iterations 5 --device CPU --save-outputs %t/cpu -pcsort no_sort | filecheck %s
// RUN: python3 %S/Inputs/compare_outputs.py %t/ref %t/cpu | filecheck %s --check-prefix=SAME
// CHECK:      X_t/fq {{ *}}FakeQuantize {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// CHECK:      H_t/fq {{ *}}FakeQuantize {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// CHECK:      lstm_cell {{ *}}LSTMCell {{ *}}jit_{{[a-z0-9]+}}_I8 {{ *}}EXECUTED
// CHECK:      lstm/C_t/variable_2/assign {{ *}}Assign {{ *}}unknown_FP32 {{ *}}EXECUTED
// SAME-DAG:   same C
// SAME-DAG:   same H
// SAME-DAG:   same Y
