// cpu-quantize-cells: the LSTMCell of examples/make_qlstm.py (input 4, hidden 2, reshaped to one
// step, low-latency2) has X and H from per-tensor FakeQuantizes (256 levels) and W, R on int8
// grids (8-bit per-row weights: levels up to 127), with different scales for x and h (two
// GEMMs): it runs in int8. The decision is the attribute: the same IR without it runs the
// cell in fp32 (on the FakeQuantized floats); a fp32 LSTM (lstm-cell-stateful.mlir) is not
// marked.
// RUN: opt-tool -p cpu-fold-constants,cpu-remove-views,cpu-quantize-cells %s | filecheck %s
// RUN: lowpass-run %s --random-inputs 0 --device CPU -pcsort no_sort | filecheck %s --check-prefix=INT8
// RUN: opt-tool -p cpu-fold-constants,cpu-remove-views,cpu-quantize-cells,cpu-fuse-kernels,cpu-select-kernels,cpu-assign-buffers %s -o %t.mlir
// RUN: sed -e 's/cpu.quantized = #cpu.quantized_cell<[^>]*>, //' -e 's/cpu.gemm = #cpu<gemm [a-z0-9]*>, cpu.cell_step = #cpu<cell_step [a-z]*>, cpu.int8 = #cpu<int8 [a-z0-9]*>, //' %t.mlir > %t.fp32.mlir
// RUN: sed -e 's/cpu.quantized = #cpu.quantized_cell<[^>]*>, //' %t.mlir > %t.leftover.mlir
// RUN: not lowpass-run %t.leftover.mlir --random-inputs 0 --device CPU 2>&1 | filecheck %s --check-prefix=LEFTOVER
// RUN: lowpass-run %t.fp32.mlir --random-inputs 0 --device CPU -pcsort no_sort | filecheck %s --check-prefix=FP32
// RUN: opt-tool -p cpu-fold-constants,cpu-quantize-cells %S/../lstm-cell-stateful.mlir | filecheck %s --check-prefix=PLAIN
// RUN: opt-tool -p cpu-fold-constants,cpu-remove-views,cpu-quantize-cells,cpu-fuse-kernels,cpu-choose-layouts,cpu-select-kernels %s | filecheck %s --check-prefix=KERNELS
// CHECK:     ov.lstm_cell {{.*}}cpu.quantized = #cpu.quantized_cell<x 256, h 256, weights 127, gemms 2>
// INT8:      lstm_cell {{ *}}LSTMCell {{ *}}jit_{{[a-z0-9]+}}_I8 {{ *}}EXECUTED
// FP32:      lstm_cell {{ *}}LSTMCell {{ *}}jit_{{[a-z0-9]+}}_FP32 {{ *}}EXECUTED
// LEFTOVER:  LSTMCell 'lstm_cell': #cpu<gemm {{vnni|s16}}> names an int8 kernel of a cell that runs in fp32 (it has no cpu.quantized)
// PLAIN:     ov.lstm_cell
// PLAIN-NOT: cpu.quantized
// cpu-select-kernels then writes the cell's GEMM kind and instructions (the host's: `vnni` on
// a VNNI host, else `s16` for these 8-bit weights) and its step: `gemms` (a hidden size of 2
// is no multiple of 16, so never one job, `#cpu<cell_step fused>`).
// KERNELS:   ov.lstm_cell {{.*}}cpu.gemm = #cpu<gemm {{vnni|s16}}>, cpu.cell_step = #cpu<cell_step gemms>, cpu.int8 = #cpu<int8 {{vpdpbusd|amx|vpmaddwd}}>
builtin.module {
  ov.variable @"lstm/H_t/variable_1" : tensor<1x2xf32>
  ov.variable @"lstm/C_t/variable_2" : tensor<1x2xf32>
  func.func @main(%X: tensor<1x1x4xf32> {ov.name = "X"}, %H0: tensor<1x2xf32> {ov.name = "H0"}, %C0: tensor<1x2xf32> {ov.name = "C0"}) -> (tensor<1x1x2xf32> {ov.name = "Y"}, tensor<1x2xf32> {ov.name = "H"}, tensor<1x2xf32> {ov.name = "C"}) {
    %0 = ov.constant dense<0.000000e+00> : tensor<f32>
    %1 = ov.shape_of %H0 : (tensor<1x2xf32>) -> tensor<2xi64>
    %2 = ov.broadcast %0, %1 : (tensor<f32>, tensor<2xi64>) -> tensor<1x2xf32>
    %H_t = ov.read_value @"lstm/H_t/variable_1" init(%2 : tensor<1x2xf32>) {ov.name = "lstm/H_t/variable_1/read_value"} : tensor<1x2xf32>
    %3 = ov.constant dense<0.000000e+00> : tensor<f32>
    %4 = ov.shape_of %C0 : (tensor<1x2xf32>) -> tensor<2xi64>
    %5 = ov.broadcast %3, %4 : (tensor<f32>, tensor<2xi64>) -> tensor<1x2xf32>
    %C_t = ov.read_value @"lstm/C_t/variable_2" init(%5 : tensor<1x2xf32>) {ov.name = "lstm/C_t/variable_2/read_value"} : tensor<1x2xf32>
    %6 = ov.constant dense<1> : tensor<1xi64> {ov.name = "X_t/axis"}
    %7 = ov.squeeze %X, %6 {ov.name = "X_t/squeeze"} : (tensor<1x1x4xf32>, tensor<1xi64>) -> tensor<1x4xf32>
    %8 = ov.constant dense<-4.000000e+00> : tensor<f32> {ov.name = "X_t/fq/il"}
    %9 = ov.constant dense<3.968750e+00> : tensor<f32> {ov.name = "X_t/fq/ih"}
    %10 = ov.constant dense<-4.000000e+00> : tensor<f32> {ov.name = "X_t/fq/ol"}
    %11 = ov.constant dense<3.968750e+00> : tensor<f32> {ov.name = "X_t/fq/oh"}
    %12 = ov.fake_quantize %7, %8, %9, %10, %11 levels = 256 {ov.name = "X_t/fq"} : (tensor<1x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x4xf32>
    %13 = ov.constant dense<-1.000000e+00> : tensor<f32> {ov.name = "H_t/fq/il"}
    %14 = ov.constant dense<0.9921875> : tensor<f32> {ov.name = "H_t/fq/ih"}
    %15 = ov.constant dense<-1.000000e+00> : tensor<f32> {ov.name = "H_t/fq/ol"}
    %16 = ov.constant dense<0.9921875> : tensor<f32> {ov.name = "H_t/fq/oh"}
    %17 = ov.fake_quantize %H_t, %13, %14, %15, %16 levels = 256 {ov.name = "H_t/fq"} : (tensor<1x2xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x2xf32>
    %18 = ov.constant dense<[[0.193693072, -0.325570762, -0.649161458, -0.683733165], [4.430310e-01, 0.583724558, 0.150805756, 0.324557155], [0.0616950542, 0.615285337, 0.44668439, -0.703233957], [0.505445957, -0.659609616, 0.324781835, -0.458692223], [0.513612568, 0.0586350188, -0.283250153, -0.109336779], [-0.667056739, -0.531343699, 0.241299361, 0.208157405], [0.163179189, -0.164504781, 0.703161061, 0.680003881], [0.262395978, 0.212781549, 0.26650393, -0.157088831]]> : tensor<8x4xf32> {ov.name = "lstm_cell/W"}
    %19 = ov.constant dense<[[-0.683733165], [-0.583724558], [-0.703233957], [-0.659609616], [-0.513612568], [-0.667056739], [-0.703161061], [-0.26650393]]> : tensor<8x1xf32> {ov.name = "lstm_cell/W/fq/il"}
    %20 = ov.constant dense<[[0.683733165], [0.583724558], [0.703233957], [0.659609616], [0.513612568], [0.667056739], [0.703161061], [0.26650393]]> : tensor<8x1xf32> {ov.name = "lstm_cell/W/fq/ih"}
    %21 = ov.constant dense<[[-0.683733165], [-0.583724558], [-0.703233957], [-0.659609616], [-0.513612568], [-0.667056739], [-0.703161061], [-0.26650393]]> : tensor<8x1xf32> {ov.name = "lstm_cell/W/fq/ol"}
    %22 = ov.constant dense<[[0.683733165], [0.583724558], [0.703233957], [0.659609616], [0.513612568], [0.667056739], [0.703161061], [0.26650393]]> : tensor<8x1xf32> {ov.name = "lstm_cell/W/fq/oh"}
    %23 = ov.fake_quantize %18, %19, %20, %21, %22 levels = 255 {ov.name = "lstm_cell/W/fq"} : (tensor<8x4xf32>, tensor<8x1xf32>, tensor<8x1xf32>, tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x4xf32>
    %24 = ov.constant dense<[[-0.516051471, 0.313231826], [0.0358564258, -0.268358499], [-0.0200318284, 5.508190e-01], [0.613830209, -0.201107964], [0.101158455, -0.25191471], [0.133360386, -0.229228139], [-0.15327388, 0.551931262], [-0.385857433, 0.174212933]]> : tensor<8x2xf32> {ov.name = "lstm_cell/R"}
    %25 = ov.constant dense<[[-0.516051471], [-0.268358499], [-5.508190e-01], [-0.613830209], [-0.25191471], [-0.229228139], [-0.551931262], [-0.385857433]]> : tensor<8x1xf32> {ov.name = "lstm_cell/R/fq/il"}
    %26 = ov.constant dense<[[0.516051471], [0.268358499], [5.508190e-01], [0.613830209], [0.25191471], [0.229228139], [0.551931262], [0.385857433]]> : tensor<8x1xf32> {ov.name = "lstm_cell/R/fq/ih"}
    %27 = ov.constant dense<[[-0.516051471], [-0.268358499], [-5.508190e-01], [-0.613830209], [-0.25191471], [-0.229228139], [-0.551931262], [-0.385857433]]> : tensor<8x1xf32> {ov.name = "lstm_cell/R/fq/ol"}
    %28 = ov.constant dense<[[0.516051471], [0.268358499], [5.508190e-01], [0.613830209], [0.25191471], [0.229228139], [0.551931262], [0.385857433]]> : tensor<8x1xf32> {ov.name = "lstm_cell/R/fq/oh"}
    %29 = ov.fake_quantize %24, %25, %26, %27, %28 levels = 255 {ov.name = "lstm_cell/R/fq"} : (tensor<8x2xf32>, tensor<8x1xf32>, tensor<8x1xf32>, tensor<8x1xf32>, tensor<8x1xf32>) -> tensor<8x2xf32>
    %30 = ov.constant dense<[-0.588291168, 0.470429868, 0.406018317, -0.368587255, 0.532429099, -0.624279082, -0.231765479, -0.494579524]> : tensor<8xf32> {ov.name = "lstm_cell/B"}
    %31, %32 = ov.lstm_cell %12, %17, %C_t, %23, %29, %30 {ov.name = "lstm_cell", hidden_size = 2 : i64} : (tensor<1x4xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<8x4xf32>, tensor<8x2xf32>, tensor<8xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>)
    %33 = ov.constant dense<1> : tensor<1xi64> {ov.name = "Y_t/axis"}
    %34 = ov.unsqueeze %31, %33 {ov.name = "Y_t"} : (tensor<1x2xf32>, tensor<1xi64>) -> tensor<1x1x2xf32>
    ov.assign @"lstm/H_t/variable_1", %31 {ov.name = "lstm/H_t/variable_1/assign"} : tensor<1x2xf32>
    ov.assign @"lstm/C_t/variable_2", %32 {ov.name = "lstm/C_t/variable_2/assign"} : tensor<1x2xf32>
    func.return %34, %31, %32 : tensor<1x1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>
  }
}

