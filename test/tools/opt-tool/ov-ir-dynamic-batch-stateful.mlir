// A dynamic-batch stateful model through OpenVINO IR: low-latency2 on the LSTM with batch ?,
// written as IR, read back (the initializer Broadcast(0, ShapeOf(H0)) keeps H0's static 32,
// so the tensor<?x32xf32> variables accept it), then reshaped to batch 2: the variables follow
// their initializers and the model runs on the CPU device (static shapes only).
// RUN: opt-tool %S/../../../examples/lstm.mlir --ov-reshape='inputs="X:?x1x16","H0:?x32","C0:?x32"' --low-latency2 --emit=ov-ir -o %t.xml
// RUN: opt-tool %t.xml | filecheck %s --check-prefix=BACK
// RUN: opt-tool %t.xml --ov-reshape='inputs="X:2x1x16","H0:2x32","C0:2x32"' -o %t.mlir
// RUN: filecheck %s --input-file=%t.mlir --check-prefix=STATIC
// RUN: lowpass-run %t.mlir --random-inputs 0 --iterations 2 --device CPU | filecheck %s --check-prefix=EXEC

// BACK:      ov.variable @"lstm/H_t/variable_1" : tensor<?x32xf32>
// BACK-NEXT: ov.variable @"lstm/C_t/variable_2" : tensor<?x32xf32>
// BACK:      %[[S:.*]] = ov.shape_of %H0 {{.*}} : (tensor<?x32xf32>) -> tensor<2xi64>
// BACK-NEXT: %[[B:.*]] = ov.broadcast %{{.*}}, %[[S]] {{.*}} -> tensor<?x32xf32>
// BACK-NEXT: ov.read_value @"lstm/H_t/variable_1" init(%[[B]] : tensor<?x32xf32>) {{.*}} : tensor<?x32xf32>

// STATIC:      ov.variable @"lstm/H_t/variable_1" : tensor<2x32xf32>
// STATIC-NEXT: ov.variable @"lstm/C_t/variable_2" : tensor<2x32xf32>
// STATIC:      ov.read_value @"lstm/H_t/variable_1" init(%{{.*}} : tensor<2x32xf32>) {{.*}} : tensor<2x32xf32>

// EXEC: Y: f32[2, 1, 32]
// EXEC: H: f32[2, 32]
// EXEC: C: f32[2, 32]
