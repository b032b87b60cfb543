// RUN: lowpass-run --device REFERENCE %s --random-inputs 0 -pcsort no_sort | filecheck %s
// RUN: not lowpass-run --device REFERENCE %s 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: not lowpass-run --device REFERENCE %s --input nope=%s 2>&1 | filecheck %s --check-prefix=BADNPY

// CHECK:      out: f32[2]
// CHECK:      1. input preprocessing {{.*}} Stage
// CHECK:      3. execution time
// CHECK:      twice {{ *}}Add {{ *}}ref_FP32 {{ *}}EXECUTED
// MISSING: lowpass-run: error: missing input(s) 'x': give them with --input NAME=FILE.npy or use --random-inputs SEED (to benchmark as benchmark_app does, on random inputs: -t SECONDS or -niter N)
// BADNPY: lowpass-run: error: --input nope={{.*}}run.mlir: {{.*}}is not a .npy file

func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32> {ov.name = "out"}) {
  %a = ov.add %x, %x {ov.name = "twice"} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %a : tensor<2xf32>
}
