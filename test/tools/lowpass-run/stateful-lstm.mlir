// The README's stateful flow: reshape the LSTM example to one step, make it stateful, run
// it step by step; the state is carried between iterations and profiled.
// RUN: opt-tool %S/../../../examples/lstm.mlir --ov-reshape='inputs=X:1x1x16' --low-latency2 -o %t.mlir
// RUN: filecheck %s --check-prefix=IR < %t.mlir
// RUN: lowpass-run --device REFERENCE %t.mlir --random-inputs 0 --iterations 3 -pcsort no_sort | filecheck %s
// IR:      ov.variable @"lstm/H_t/variable_1" : tensor<1x32xf32>
// IR:      ov.variable @"lstm/C_t/variable_2" : tensor<1x32xf32>
// IR-NOT:  ov.tensor_iterator
// IR:      ov.lstm_cell
// CHECK:      Y: f32[1, 1, 32]
// CHECK:      lstm/H_t/variable_1/read_value {{ *}}ReadValue {{ *}}ref_FP32 {{ *}}EXECUTED
// CHECK:      lstm_cell {{ *}}LSTMCell
// CHECK:      lstm/C_t/variable_2/assign {{ *}}Assign
