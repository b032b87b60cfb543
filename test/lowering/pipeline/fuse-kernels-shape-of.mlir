// cpu-fuse-kernels: a convolution's bias Add whose constant is reshaped by the ShapeOf of the
// convolution's output (OpenVINO IR converted from ONNX writes each bias so) joins the
// convolution's group with the ReLU6 after it: the ShapeOf of a static shape folds and reads
// no element of the tensor (`data_uses`). Before, that use kept the Add, the Maximum and the
// Minimum out of the epilogue, a pass over the tensor each (MobileNetV2's IR: 52 of them,
// 5.20 -> 4.11 ms at 1 thread). The results are the reference's (lowpass-run compares).
// RUN: opt-tool -p 'cpu-decompose,cpu-fold-constants,cpu-remove-views,cpu-quantize-cells,cpu-fuse-kernels' %s | filecheck %s
// CHECK:      %c = ov.convolution {{.*}}cpu.kernel = #cpu.kernel<0, "convolution">
// CHECK:      %s = ov.shape_of %c {ov.name = "s", cpu.constant}
// CHECK:      %y = ov.add %c, %b4 {ov.name = "bias", cpu.fused = #cpu.fused<0>}
// CHECK:      %lo = ov.maximum %zero, %y {ov.name = "max", cpu.fused = #cpu.fused<0>}
// CHECK:      %hi = ov.minimum %six, %lo {ov.name = "min", cpu.fused = #cpu.fused<0>}
// CHECK-NOT:  cpu.kernel
// RUN: rm -rf %t && mkdir -p %t
// RUN: lowpass-run --device REFERENCE %s --random-inputs 3 --save-outputs %t/ref > /dev/null
// RUN: lowpass-run --device CPU %s --random-inputs 3 --save-outputs %t/cpu -pcsort no_sort | filecheck %s --check-prefix=ROWS
// RUN: python3 %S/../../tools/lowpass-run/Inputs/compare_outputs.py %t/ref %t/cpu | filecheck %s --check-prefix=SAME
// ROWS:       conv {{ *}}Convolution {{ *}}jit_{{.*}}EXECUTED
// ROWS:       bias {{ *}}Add {{ *}}undef {{ *}}NOT_RUN
// ROWS:       Summary by op type:
// ROWS-NEXT:  type
// ROWS-NEXT:  Convolution {{ *}}1 
// SAME:       same y
builtin.module {
  func.func @main(%x: tensor<1x3x12x10xf32> {ov.name = "x"}) -> (tensor<1x8x12x10xf32> {ov.name = "y"}) {
    %w = ov.constant dense<0.125> : tensor<8x3x3x3xf32> {ov.name = "w"}
    %c = ov.convolution %x, %w {ov.name = "conv", strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>} : (tensor<1x3x12x10xf32>, tensor<8x3x3x3xf32>) -> tensor<1x8x12x10xf32>
    %b = ov.constant dense<[0.5, -0.25, 1.0, 2.0, -3.0, 0.75, 4.0, -1.5]> : tensor<8xf32> {ov.name = "b"}
    %one = ov.constant dense<1> : tensor<1xi64> {ov.name = "one"}
    %bs = ov.shape_of %b {ov.name = "bs"} : (tensor<8xf32>) -> tensor<1xi64>
    %s = ov.shape_of %c {ov.name = "s"} : (tensor<1x8x12x10xf32>) -> tensor<4xi64>
    %rank = ov.shape_of %s {ov.name = "rank"} : (tensor<4xi64>) -> tensor<1xi64>
    %two = ov.constant dense<2> : tensor<1xi64> {ov.name = "two"}
    %rest = ov.subtract %rank, %two {ov.name = "rest"} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
    %ones = ov.broadcast %one, %rest {ov.name = "ones"} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
    %shape = ov.concat %one, %bs, %ones axis = 0 {ov.name = "shape"} : (tensor<1xi64>, tensor<1xi64>, tensor<2xi64>) -> tensor<4xi64>
    %b4 = ov.reshape %b, %shape special_zero = false {ov.name = "b4"} : (tensor<8xf32>, tensor<4xi64>) -> tensor<1x8x1x1xf32>
    %y = ov.add %c, %b4 {ov.name = "bias"} : (tensor<1x8x12x10xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x12x10xf32>
    %zero = ov.constant dense<0.0> : tensor<f32> {ov.name = "zero"}
    %six = ov.constant dense<6.0> : tensor<f32> {ov.name = "six"}
    %lo = ov.maximum %zero, %y {ov.name = "max"} : (tensor<f32>, tensor<1x8x12x10xf32>) -> tensor<1x8x12x10xf32>
    %hi = ov.minimum %six, %lo {ov.name = "min"} : (tensor<f32>, tensor<1x8x12x10xf32>) -> tensor<1x8x12x10xf32>
    func.return %hi : tensor<1x8x12x10xf32>
  }
}
