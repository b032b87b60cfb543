// The stateful LSTM step (examples/make_lstm.py with input 3 and hidden 5, reshaped to one
// step, low-latency2): ReadValue -> LSTMCell -> Assign. The cell is one jit_<isa>_FP32 kernel
// (the [x, h] x [W; R]^T GEMM, then the gates with a masked partial vector: 5 < 8 lanes), no
// fallback call; over three requests the state carries over exactly as on the REFERENCE device.
// RUN: rm -rf %t && mkdir -p %t
// RUN: lowpass-run --device REFERENCE %s --random-inputs 3 --iterations 3 --save-outputs %t/ref
// RUN: lowpass-run --threads 1 %s --random-inputs 3 --iterations 3 --device CPU --save-outputs %t/cpu --emit-llvm %t/lstm.ll -pcsort no_sort | filecheck %s --check-prefix=ROWS
// RUN: filecheck %s < %t/lstm.ll
// RUN: python3 %S/../tools/lowpass-run/Inputs/compare_outputs.py %t/ref %t/cpu | filecheck %s --check-prefix=SAME
// CHECK:      define {{.*}}i32 @lowpass_main(
// CHECK-NOT:  %fallback(
// CHECK-DAG:  @llvm.masked.load.v8f32
// CHECK-DAG:  @llvm.masked.store.v8f32
// ROWS:       lstm_cell {{ *}}LSTMCell {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// SAME-DAG:   same C
// SAME-DAG:   same H
// SAME-DAG:   same Y
builtin.module {
  ov.variable @"lstm/H_t/variable_1" : tensor<1x5xf32>
  ov.variable @"lstm/C_t/variable_2" : tensor<1x5xf32>
  func.func @main(%X: tensor<1x1x3xf32> {ov.name = "X"}, %H0: tensor<1x5xf32> {ov.name = "H0"}, %C0: tensor<1x5xf32> {ov.name = "C0"}) -> (tensor<1x1x5xf32> {ov.name = "Y"}, tensor<1x5xf32> {ov.name = "H"}, tensor<1x5xf32> {ov.name = "C"}) {
    %0 = ov.constant dense<0.000000e+00> : tensor<f32>
    %1 = ov.shape_of %H0 : (tensor<1x5xf32>) -> tensor<2xi64>
    %2 = ov.broadcast %0, %1 : (tensor<f32>, tensor<2xi64>) -> tensor<1x5xf32>
    %H_t = ov.read_value @"lstm/H_t/variable_1" init(%2 : tensor<1x5xf32>) {ov.name = "lstm/H_t/variable_1/read_value"} : tensor<1x5xf32>
    %3 = ov.constant dense<0.000000e+00> : tensor<f32>
    %4 = ov.shape_of %C0 : (tensor<1x5xf32>) -> tensor<2xi64>
    %5 = ov.broadcast %3, %4 : (tensor<f32>, tensor<2xi64>) -> tensor<1x5xf32>
    %C_t = ov.read_value @"lstm/C_t/variable_2" init(%5 : tensor<1x5xf32>) {ov.name = "lstm/C_t/variable_2/read_value"} : tensor<1x5xf32>
    %6 = ov.constant dense<1> : tensor<1xi64> {ov.name = "X_t/axis"}
    %7 = ov.squeeze %X, %6 {ov.name = "X_t/squeeze"} : (tensor<1x1x3xf32>, tensor<1xi64>) -> tensor<1x3xf32>
    %8 = ov.constant dense<[[0.12250226, -0.205909029, -0.410565764], [-0.432430834, 0.280197412, 0.369179815], [0.095377937, 0.205267966, 0.0390193798], [0.389140606, 0.282508016, -0.444764197], [0.319672108, -0.417173743, 0.205410078], [-0.290102422, 0.324837089, 0.037084043], [-0.179143131, -0.069150649, -0.421883702], [-0.336051255, 0.152611122, 0.131650299], [0.10320358, -0.104041956, 0.444718093], [0.430072188, 0.1659538, 0.134574875], [0.168551877, -9.935170e-02, -0.326379597], [0.198105201, 0.0226775948, -0.169724822], [-0.0126692401, 0.348368496, 0.38822031], [-0.127191842, 0.063978225, -0.159324855], [0.0843445137, -0.144976601, -0.0969389156], [0.34907198, -0.244037673, 0.110181935], [-3.720680e-01, 0.297525972, 0.256788522], [-0.233115062, 0.336737722, -0.394828767], [-0.146581352, -0.312799543, -0.0444178209], [0.265040487, -0.240920931, -0.400684327]]> : tensor<20x3xf32> {ov.name = "lstm_cell/W"}
    %9 = ov.constant dense<[[-0.0853714272, -0.269658118, -0.366041601, 0.0718514696, -0.180051655], [0.153836891, -0.268761545, 3.954380e-01, -0.120649137, -0.352855742], [0.115477838, 0.38205865, -0.0533282943, 0.406598091, -9.31870673e-05], [-0.0668775514, 0.107522182, 0.442827791, 0.401547432, -0.0357367136], [0.230519682, -0.00230521127, 0.0262175929, 0.255614489, -0.0763341263], [0.209728479, 0.188851938, 0.38644594, -0.344414711, 0.204837352], [0.382299572, 0.418525904, -0.434059888, 0.325249583, 0.430393934], [0.408941209, -3.141550e-01, 0.422732055, 0.34876895, 0.288339913], [-0.0178993456, -0.239372939, 0.270010203, 0.378816903, -0.209179446], [0.0348239914, -0.051203426, 0.385513604, -0.410979718, 0.207512647], [0.102298543, -0.421842843, 0.196076125, -0.432910144, 0.230718389], [0.0114117488, 0.383802474, -0.388107628, 0.305283457, -0.387564242], [-0.139253393, -0.0623427108, 0.416858584, 0.0556618534, -0.215678066], [-0.231052265, 0.34714359, -0.245189831, -0.335808486, -0.189322725], [0.0770308077, 0.0483800173, 0.277013749, 0.0540913343, -0.189241812], [-0.0779078826, 0.284536034, 0.11315082, 0.41061154, -0.116808243], [0.0470571667, 0.0840083584, 0.311521113, -0.317098111, -8.361970e-02], [0.366678447, -0.408693403, 0.28863728, -0.0756828189, 0.294985652], [-0.438309968, -0.120706387, -0.376884758, 0.136502624, -0.202275515], [0.181257516, 0.396948069, -0.333784938, 0.32626763, -0.394027233]]> : tensor<20x5xf32> {ov.name = "lstm_cell/R"}
    %10 = ov.constant dense<[-0.106642097, -0.0628119856, -0.00997326896, 0.426160842, 0.246585697, -0.170963168, -0.205864236, 0.324784577, 0.341051489, 0.00957618933, -0.139266133, 0.442667544, -0.164625093, -0.283790678, 0.339970082, 0.279361278, 0.150164843, 0.41001761, 0.380770683, 0.222040206]> : tensor<20xf32> {ov.name = "lstm_cell/B"}
    %11, %12 = ov.lstm_cell %7, %H_t, %C_t, %8, %9, %10 {ov.name = "lstm_cell", hidden_size = 5 : i64} : (tensor<1x3xf32>, tensor<1x5xf32>, tensor<1x5xf32>, tensor<20x3xf32>, tensor<20x5xf32>, tensor<20xf32>) -> (tensor<1x5xf32>, tensor<1x5xf32>)
    %13 = ov.constant dense<1> : tensor<1xi64> {ov.name = "Y_t/axis"}
    %14 = ov.unsqueeze %11, %13 {ov.name = "Y_t"} : (tensor<1x5xf32>, tensor<1xi64>) -> tensor<1x1x5xf32>
    ov.assign @"lstm/H_t/variable_1", %11 {ov.name = "lstm/H_t/variable_1/assign"} : tensor<1x5xf32>
    ov.assign @"lstm/C_t/variable_2", %12 {ov.name = "lstm/C_t/variable_2/assign"} : tensor<1x5xf32>
    func.return %14, %11, %12 : tensor<1x1x5xf32>, tensor<1x5xf32>, tensor<1x5xf32>
  }
}
