// The ONNX reader puts a graph input where it puts the nodes: a NameLoc of its name in the
// .onnx file (which has no lines: line 0), printed with --mlir-print-debuginfo.
// REQUIRES: onnx
// RUN: opt-tool %S/../../../examples/qconvnet_qdq.onnx --mlir-print-debuginfo | filecheck %s
// RUN: opt-tool %S/../../../examples/qconvnet_qdq.onnx | filecheck %s --check-prefix=PLAIN

// CHECK: func.func @main(%data: tensor<1x3x16x16xf32> {ov.name = "data"} loc("data"("{{.*}}qconvnet_qdq.onnx":0:0))) ->
// PLAIN-NOT: loc(
