// A bidirectional GRU sequence (linear_before_reset, sequence_lengths [3, 1]) is one
// jit_<isa>_FP32 kernel: the input projection of both directions in one GEMM, then per step
// the recurrent GEMM and the gates; entry 1 stops after its first step (zeros in Y past it,
// its reverse direction starts at step 0) as on the REFERENCE device.
// RUN: rm -rf %t && mkdir -p %t
// RUN: lowpass-run --device REFERENCE %s --random-inputs 4 --save-outputs %t/ref
// RUN: lowpass-run --threads 1 %s --random-inputs 4 --device CPU --save-outputs %t/cpu --emit-llvm %t/gru.ll -pcsort no_sort | filecheck %s --check-prefix=ROWS
// RUN: filecheck %s < %t/gru.ll
// RUN: python3 %S/../tools/lowpass-run/Inputs/compare_outputs.py %t/ref %t/cpu | filecheck %s --check-prefix=SAME
// CHECK:      define {{.*}}i32 @lowpass_main(
// CHECK-NOT:  %fallback(
// ROWS:       rnn {{ *}}GRUSequence {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// SAME-DAG:   same out0
// SAME-DAG:   same out1
builtin.module {
  func.func @main(%X: tensor<2x3x2xf32> {ov.name = "X"}, %H: tensor<2x2x3xf32> {ov.name = "H"}) -> (tensor<2x2x3x3xf32> {ov.name = "out0"}, tensor<2x2x3xf32> {ov.name = "out1"}) {
    %0 = ov.constant dense<[3, 1]> : tensor<2xi64>
    %1 = ov.constant dense<[[[0.138462141, -0.13958694], [0.596651912, 0.577002406], [0.222650379, 0.180551127], [0.226136073, -0.133294284], [-0.437884182, 0.265786022], [0.0304251872, -0.227709755], [-0.0169975702, 0.467385411], [0.520852208, -0.170645759], [8.583580e-02, -0.213756725]], [[0.113160037, -0.194506526], [-0.130057201, 0.468329221], [-0.327410877, 0.147824571], [-0.499181598, 3.991730e-01], [0.344517976, -0.312756658], [0.451781064, -0.529718339], [-0.19665952, -0.419664651], [-0.0595927611, 0.355589122], [-0.323229343, -0.53757441]]]> : tensor<2x9x2xf32>
    %2 = ov.constant dense<[[[-0.11453779, -0.361784339, -0.491096348], [0.0963988602, -0.241564646, 0.206393853], [-0.360581458, 0.530535758, -0.161867797], [-0.473405659, 0.154929787, 0.512585461], [-0.0715474114, 0.545508564, -0.00012502358], [-0.0897256508, 0.144256145, 0.594115794], [0.538732409, -0.047945831, 0.309274614], [-0.00309276534, 0.0351745933, 0.342942834], [-0.102412984, 0.281380296, 0.253371447]], [[0.518471599, -0.462080836, 0.274818152], [0.512908697, 0.561511457, -0.582352459], [0.436368108, 0.577434063, 0.548652232], [-0.421483189, 0.567154586, 0.467922658], [0.386848599, -0.0240144916, -0.321152508], [0.362256706, 0.50823617, -0.280643672], [0.0467212908, -6.869660e-02, 0.517220795], [-0.551387131, 0.278407425, 0.13724789], [-0.56596154, 0.263063729, -0.580809951]]]> : tensor<2x9x3xf32>
    %3 = ov.constant dense<[[0.309541196, 0.0153104682, 0.514925063, -5.207010e-01, 0.409580737, -0.519971967, -0.186828032, -0.0836415216, 0.559274495, 0.0746782124, -0.28936249, -0.309989154], [4.657420e-01, -0.328956693, -0.450534344, -0.254003078, 0.103347681, 6.490860e-02, 0.371652931, 0.0725711435, -0.253894538, -0.104524389, 0.38174516, 0.151807755]]> : tensor<2x12xf32>
    %4, %5 = ov.gru_sequence %X, %H, %0, %1, %2, %3 {ov.name = "rnn", hidden_size = 3 : i64, direction = #ov<direction bidirectional>, linear_before_reset = true} : (tensor<2x3x2xf32>, tensor<2x2x3xf32>, tensor<2xi64>, tensor<2x9x2xf32>, tensor<2x9x3xf32>, tensor<2x12xf32>) -> (tensor<2x2x3x3xf32>, tensor<2x2x3xf32>)
    func.return %4, %5 : tensor<2x2x3x3xf32>, tensor<2x2x3xf32>
  }
}
