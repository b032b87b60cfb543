// --view-graph draws the graph after the passes: after --lpt the convolution reads u8 data
// (drawn in the int8 colour, its input edge bold green), the dequantization Multiply after it
// (which takes the name "conv") is drawn in the quantization colour, and the MLIR is written.
// RUN: opt-tool %s --lpt --view-graph %t.dot -o %t.mlir
// RUN: filecheck %s < %t.dot
// RUN: filecheck %s --check-prefix=MLIR < %t.mlir
// RUN: not opt-tool %s --view-graph %t.pdf 2>&1 | filecheck %s --check-prefix=BAD

// CHECK:      digraph lowpass {
// CHECK-DAG:  [label="conv_original\nConvolution\n1x4x6x6 f32\nfilter 4x3x3x3 i8", fillcolor="#7fc97f"
// CHECK-DAG:  [label="conv\nMultiply\n1x4x6x6 f32\nrhs scalar f32 = 0.0001", fillcolor="#f768a1"
// CHECK-DAG:  [label="1x3x8x8 u8", color="#1b7837"
// MLIR:       ov.convolution {{.*}} : (tensor<1x3x8x8xui8>, tensor<4x3x3x3xi8>)
// BAD:        view-graph.mlir.tmp.pdf: error: unknown picture format '.pdf', expected one of .dot, .svg, .png
builtin.module {
  func.func @main(%x: tensor<1x3x8x8xf32> {ov.name = "x"}) -> (tensor<1x4x6x6xf32> {ov.name = "y"}) {
    %lo = ov.constant dense<0.0> : tensor<f32>
    %hi = ov.constant dense<2.55> : tensor<f32>
    %q = ov.fake_quantize %x, %lo, %hi, %lo, %hi levels = 256 {ov.name = "fq"} : (tensor<1x3x8x8xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3x8x8xf32>
    %w = ov.constant dense<0.5> : tensor<4x3x3x3xf32> {ov.name = "w"}
    %wl = ov.constant dense<-1.27> : tensor<f32>
    %wh = ov.constant dense<1.27> : tensor<f32>
    %wq = ov.fake_quantize %w, %wl, %wh, %wl, %wh levels = 255 {ov.name = "wfq"} : (tensor<4x3x3x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4x3x3x3xf32>
    %y = ov.convolution %q, %wq {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>, ov.name = "conv"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
    func.return %y : tensor<1x4x6x6xf32>
  }
}
