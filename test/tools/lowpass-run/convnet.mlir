// The README's example runs and reports one profiling row per op.
// RUN: lowpass-run --device REFERENCE %S/../../../examples/convnet.mlir --random-inputs 0 -pcsort no_sort | filecheck %s
// CHECK:      prob: f32[1, 10]
// CHECK:      conv1 {{ *}}Convolution {{ *}}ref_FP32 {{ *}}EXECUTED
// CHECK:      pool1 {{ *}}MaxPool
// CHECK:      flatten {{ *}}Reshape
// CHECK:      prob {{ *}}Softmax {{ *}}ref_FP32 {{ *}}EXECUTED
// CHECK:      Total time of the ops
