// The stateful LSTM (reshape to one step + LowLatency2) on the CPU device over 5 requests:
// the state carried in the request's variable buffers gives the REFERENCE device's outputs.
// RUN: rm -rf %t && mkdir -p %t
// RUN: opt-tool %S/../../../examples/lstm.mlir --ov-reshape='inputs=X:1x1x16' --low-latency2 -o %t/step.mlir
// RUN: lowpass-run --device REFERENCE %t/step.mlir --random-inputs 0 --iterations 5 --save-outputs %t/ref
// RUN: lowpass-run %t/step.mlir --random-inputs 0 --iterations 5 --device CPU --save-outputs %t/cpu -pcsort no_sort | filecheck %s
// RUN: python3 %S/Inputs/compare_outputs.py %t/ref %t/cpu | filecheck %s --check-prefix=SAME
// CHECK:      lstm/H_t/variable_1/read_value {{ *}}ReadValue {{ *}}unknown_FP32 {{ *}}EXECUTED
// CHECK:      lstm_cell {{ *}}LSTMCell {{ *}}{{(jit|ref)}}_
// CHECK:      lstm/C_t/variable_2/assign {{ *}}Assign {{ *}}unknown_FP32 {{ *}}EXECUTED
// SAME-DAG:   same C
// SAME-DAG:   same H
// SAME-DAG:   same Y
