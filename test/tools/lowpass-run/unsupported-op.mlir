// An op that no device implements (here xDSL's arith.addf on tensors) is refused when the
// model is compiled, in one line with OpenVINO's CPU plugin's message, exit 1, no output:
// not at the first inference.
// RUN: not lowpass-run %s --random-inputs 0 --device CPU 2>&1 | filecheck %s --check-prefix=CPU
// RUN: not lowpass-run %s --random-inputs 0 --device REFERENCE 2>&1 | filecheck %s --check-prefix=REF

// CPU: lowpass-run: error: {{.*}}unsupported-op.mlir: Unsupported operation of type: Addf name: Addf_0 (arith.addf: the CPU device has no implementation of it; lowpass.dialects.interpret.register_implementation adds one)
// CPU-NOT: {{.}}
// REF: lowpass-run: error: {{.*}}unsupported-op.mlir: Unsupported operation of type: Addf name: Addf_0 (arith.addf: the REFERENCE device has no implementation of it; lowpass.dialects.interpret.register_implementation adds one)
// REF-NOT: {{.}}
func.func @main(%x: tensor<2xf32> {ov.name = "x"}) -> (tensor<2xf32> {ov.name = "y"}) {
  %y = arith.addf %x, %x : tensor<2xf32>
  func.return %y : tensor<2xf32>
}
