// cpu-decompose: a 2-D ConvolutionBackpropData whose kernel is its stride (2x2, stride 2, no
// padding: a U-Net's or PP-OCR's DBNet head's upsampling) writes each input position's
// products into its own 2x2 output block: a 1x1 Convolution by the weights as [O*2*2, C]
// and a DepthToSpace (depth_first, block 2). A 3x3 one of stride 2 overlaps its blocks and is
// left as it is (the reference fallback). Small integers and power-of-two weights keep every
// sum exact: CPU equals REFERENCE, and so does REFERENCE after the pass.
// RUN: opt-tool -p cpu-decompose %s | filecheck %s
// RUN: python3 -c "import numpy as np; np.save('%t.x.npy', (np.arange(36, dtype=np.float32) %% 7 - 3).reshape(1, 3, 3, 4))"
// RUN: lowpass-run %s -i x=%t.x.npy --device CPU --full > %t.cpu
// RUN: lowpass-run %s -i x=%t.x.npy --device REFERENCE --full > %t.ref
// RUN: diff %t.cpu %t.ref
// RUN: opt-tool -p cpu-decompose %s -o %t.decomposed.mlir
// RUN: lowpass-run %t.decomposed.mlir -i x=%t.x.npy --device REFERENCE --full > %t.after
// RUN: diff %t.ref %t.after
// RUN: lowpass-run %s -i x=%t.x.npy --device CPU -pcsort no_sort | filecheck %s --check-prefix=ROWS
// CHECK:      %[[W:.*]] = ov.constant dense<{{\[\[\[\[}}1.000000e+00]], {{\[\[}}-2.000000e+00]], {{\[\[}}0.000000e+00]]], {{.*}}> : tensor<8x3x1x1xf32> {ov.name = "up/weights"}
// CHECK-NEXT: %[[B:.*]] = ov.convolution %x, %[[W]] {ov.name = "up/blocks", {{.*}}} : (tensor<1x3x3x4xf32>, tensor<8x3x1x1xf32>) -> tensor<1x8x3x4xf32>
// CHECK-NEXT: %{{.*}} = ov.depth_to_space %[[B]] mode = depth_first block_size = 2 {ov.name = "up"} : (tensor<1x8x3x4xf32>) -> tensor<1x2x6x8xf32>
// CHECK:      %overlap = ov.convolution_backprop_data %x, %w3
// ROWS: up/blocks {{.*}} jit_{{[a-z0-9_]+}}_FP32
// ROWS: up {{.*}} DepthToSpace {{.*}} jit_{{[a-z0-9_]+}}_FP32
// ROWS: overlap {{.*}} ref_FP32

func.func @main(%x: tensor<1x3x3x4xf32> {ov.name = "x"}) -> (tensor<1x2x6x8xf32> {ov.name = "y"}, tensor<1x2x7x9xf32> {ov.name = "z"}) {
  %w = ov.constant dense<[[[[1.0, 0.5], [-0.5, 2.0]], [[0.25, -1.0], [1.0, 0.0]]], [[[-2.0, 1.0], [0.5, 0.25]], [[1.0, 1.0], [-0.25, 0.5]]], [[[0.0, -0.5], [2.0, 1.0]], [[-1.0, 0.25], [0.5, -2.0]]]]> : tensor<3x2x2x2xf32> {ov.name = "w"}
  %w3 = ov.constant dense<0.5> : tensor<3x2x3x3xf32> {ov.name = "w3"}
  %up = ov.convolution_backprop_data %x, %w {ov.name = "up", strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x3x4xf32>, tensor<3x2x2x2xf32>) -> tensor<1x2x6x8xf32>
  %overlap = ov.convolution_backprop_data %x, %w3 {ov.name = "overlap", strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x3x3x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x2x7x9xf32>
  func.return %up, %overlap : tensor<1x2x6x8xf32>, tensor<1x2x7x9xf32>
}
