// The conv net example on the CPU device prints the outputs of the REFERENCE device, and its
// profiling rows carry the execution types (jit_* kernels, ref_* fallbacks).
// RUN: rm -rf %t && mkdir -p %t
// RUN: lowpass-run --device REFERENCE %S/../../../examples/convnet.mlir --random-inputs 0 --save-outputs %t/ref
// RUN: lowpass-run %S/../../../examples/convnet.mlir --random-inputs 0 --device CPU --save-outputs %t/cpu -pcsort no_sort | filecheck %s
// RUN: python3 %S/Inputs/compare_outputs.py %t/ref %t/cpu | filecheck %s --check-prefix=SAME
// CHECK:      prob: f32[1, 10]
// CHECK:      3. execution time {{ *}}Stage
// CHECK:      conv1 {{ *}}Convolution {{ *}}{{(jit|ref)}}_{{[a-z0-9]+_FP32|FP32}} {{ *}}EXECUTED
// CHECK:      conv1/add_bias {{ *}}Add
// CHECK:      flatten {{ *}}Reshape {{ *}}unknown_FP32 {{ *}}EXECUTED
// CHECK:      Total time of the ops
// SAME:       same prob
