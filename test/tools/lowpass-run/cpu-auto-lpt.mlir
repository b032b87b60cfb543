// A quantized model runs in int8 on the CPU device without opt-tool --lpt first: the device
// runs lpt while compiling it, as OpenVINO's CPU plugin does (issue 38). The ONNX QDQ model,
// and the OpenVINO IR that lowpass writes after lpt (which ran in f32 before), give int8
// convolutions and matmuls.
// REQUIRES: onnx
// RUN: rm -rf %t && mkdir -p %t
// RUN: lowpass-run %S/../../../examples/qconvnet_qdq.onnx --random-inputs 0 --device CPU -pc > %t/qdq.txt
// RUN: filecheck %s < %t/qdq.txt
// RUN: filecheck %s --check-prefix=NOFP32 < %t/qdq.txt
// RUN: opt-tool --lpt %S/../../../examples/qconvnet_qdq.onnx --emit=ov-ir -o %t/q.xml
// RUN: lowpass-run %t/q.xml --random-inputs 0 --device CPU -pc > %t/ir.txt
// RUN: filecheck %s < %t/ir.txt
// RUN: filecheck %s --check-prefix=NOFP32 < %t/ir.txt
// (-pc lists the ops by time: conv2 and fc, 4-5 us each, in either order)
// CHECK:      prob: f32[1, 10]
// CHECK-DAG:  conv2/WithoutBiases {{ *}}Convolution {{ *}}jit_{{[a-z0-9_]+}}_I8 {{ *}}EXECUTED
// CHECK-DAG:  fc/WithoutBiases {{ *}}MatMul {{ *}}jit_{{[a-z0-9_]+}}_I8 {{ *}}EXECUTED
// NOFP32-NOT: {{(Convolution|MatMul) +jit_[a-z0-9_]+_FP32}}
