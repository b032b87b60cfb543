// lowpass-run reads OpenVINO IR and ONNX models as it reads .mlir.
// REQUIRES: onnx
// RUN: lowpass-run --device REFERENCE %S/../../../examples/qlstm.xml --random-inputs 0 | filecheck %s --check-prefix=IR
// RUN: lowpass-run %S/../../../examples/qconvnet_qdq.onnx --random-inputs 0 --device CPU | filecheck %s --check-prefix=ONNX

// IR:      Y: f32[1, 8, 32]
// IR:      H: f32[1, 32]
// IR:      C: f32[1, 32]

// ONNX:    prob: f32[1, 10]
