// Dimensions live in int64 (as in MLIR): a larger one is a verifier error naming the op,
// and a tensor that no machine can hold is refused by the CPU device before any work.
// RUN: opt-tool %s --split-input-file --verify-diagnostics
// RUN: not lowpass-run %S/Inputs/huge-tensor.mlir --random-inputs 0 --device CPU 2>&1 | filecheck %s --check-prefix=CPU

// expected-error @+1 {{'func.func' op dimension 18446744073709551616 of tensor<18446744073709551616xf32> is out of the int64 range}}
func.func @above_int64(%x: tensor<18446744073709551616xf32>) -> tensor<18446744073709551616xf32> {
  func.return %x : tensor<18446744073709551616xf32>
}

// -----

func.func @result_above_int64(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'tensor.empty' op dimension 9223372036854775808 of tensor<9223372036854775808xf32> is out of the int64 range}}
  %y = tensor.empty() : tensor<9223372036854775808xf32>
  func.return %x : tensor<4xf32>
}

// CPU: lowpass-run: error: {{.*}}huge-tensor.mlir: tensor too large: Relu 'relu' has result #0 of ov.relu of type tensor<100000x100000x1000xf32> (40000000000000 bytes); the CPU device takes tensors of at most 1099511627776 bytes (1 TiB)

// A tfl program with `none` operands is refused by the CPU device with a diagnostic, not an
// internal error (it runs on REFERENCE, or on CPU after --convert-tfl-to-ov).
// RUN: not lowpass-run %S/Inputs/tfl-lstm-cell.mlir --random-inputs 0 --device CPU 2>&1 | filecheck %s --check-prefix=TFL
// TFL: lowpass-run: error: {{.*}}tfl-lstm-cell.mlir: the CPU device computes on tensors: tfl.no_value 'NoValue_0' has result #0 of tfl.no_value of type none; convert TensorFlow Lite ops to ov first (opt-tool --convert-tfl-to-ov)
