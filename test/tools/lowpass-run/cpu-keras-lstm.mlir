// The README's Keras chain (prepare-composite-functions, tfl-to-ov, reshape, low-latency2) on
// the CPU device over 4 requests gives the REFERENCE device's outputs.
// RUN: rm -rf %t && mkdir -p %t
// RUN: opt-tool --allow-unregistered-dialect --prepare-composite-functions --convert-tfl-to-ov --ov-reshape='inputs="x:1x1x16"' --low-latency2 %S/../../../examples/keras_lstm.mlir -o %t/step.mlir
// RUN: lowpass-run --device REFERENCE %t/step.mlir --random-inputs 0 --iterations 4 --save-outputs %t/ref
// RUN: lowpass-run %t/step.mlir --random-inputs 0 --iterations 4 --device CPU --save-outputs %t/cpu | filecheck %s
// RUN: python3 %S/Inputs/compare_outputs.py %t/ref %t/cpu | filecheck %s --check-prefix=SAME
// CHECK:      h: f32[1, 32]
// SAME:       same h
// SAME-NOT:   DIFFERENT
