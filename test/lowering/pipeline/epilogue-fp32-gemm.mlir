// cpu-select-kernels on fp32 GEMMs: ONNX's Clip as OpenVINO reads it, Maximum(0, .) then
// Minimum(6, .) with the constants first (MobileNetV2's ReLU6), is the GEMM epilogue's clamp
// (`gemm_prefix`: the clamp's own operations, NaN -> 0), so a MatMul, whose GEMM runs only
// the epilogue's own steps, runs it with no pass after; an fp32 1x1 convolution whose output
// stays NHWC (the next convolution reads it) runs its whole program in the GEMM's
// micro-kernels (`runs_whole_program`, fp32 as int8): the clip, and HSwish after Multiply,
// Add and Relu. Every group edited to run its last steps in a pass gives the same bits.
// RUN: opt-tool -p cpu-decompose,cpu-fold-constants,cpu-remove-views,cpu-quantize-cells,cpu-fuse-kernels,cpu-choose-layouts,cpu-select-kernels,cpu-assign-buffers %s -o %t.mlir
// RUN: filecheck %s < %t.mlir
// CHECK:      ov.convolution {{.*}}"a", cpu.kernel = #cpu.kernel<0, "convolution">, {{.*}}cpu.epilogue = #cpu.epilogue<add, rmax, rmin>,
// CHECK:      ov.convolution {{.*}}"b", cpu.kernel = #cpu.kernel<1, "convolution">, {{.*}}cpu.epilogue = #cpu.epilogue<mul, add, relu, hswish>,
// CHECK:      ov.mat_mul {{.*}}"mm", cpu.kernel = #cpu.kernel<3, "mat-mul">, {{.*}}cpu.epilogue = #cpu.epilogue<rmax, rmin>,
// RUN: sed -e 's/#cpu.epilogue<add, rmax, rmin>/#cpu.epilogue<add | rmax, rmin>/' -e 's/#cpu.epilogue<mul, add, relu, hswish>/#cpu.epilogue<mul, add, relu | hswish>/' -e 's/#cpu.epilogue<rmax, rmin>/#cpu.epilogue<| rmax, rmin>/' %t.mlir > %t.pass.mlir
// RUN: opt-tool %t.mlir -t 'cpu-llvm{optimized=false}' -o %t.ll
// RUN: opt-tool %t.pass.mlir -t 'cpu-llvm{optimized=false}' -o %t.pass.ll
// RUN: not cmp -s %t.ll %t.pass.ll
// RUN: lowpass-run %t.mlir --random-inputs 0 --save-outputs %t.out
// RUN: lowpass-run %t.pass.mlir --random-inputs 0 --save-outputs %t.pass.out
// RUN: cmp %t.out/y.npy %t.pass.out/y.npy
// RUN: cmp %t.out/z.npy %t.pass.out/z.npy
builtin.module {
  func.func @main(%x: tensor<1x4x6x6xf32> {ov.name = "x"}, %m: tensor<8x4xf32> {ov.name = "m"}) -> (tensor<1x4x6x6xf32> {ov.name = "y"}, tensor<8x4xf32> {ov.name = "z"}) {
    %wa = ov.constant dense<[[[[-0.6158325   ]],  [[ 0.13355948  ]],  [[-0.0034630618]],  [[ 0.25076765  ]]], [[[-0.6633642   ]],  [[ 0.5538841   ]],  [[ 0.04687744  ]],  [[-0.58540905  ]]], [[[-0.6791202   ]],  [[-0.653282    ]],  [[-0.35880765  ]],  [[ 0.5928107   ]]], [[[ 0.44726688  ]],  [[-0.27202392  ]],  [[-0.27329397  ]],  [[ 0.96479386  ]]]]> : tensor<4x4x1x1xf32> {ov.name = "wa"}
    %wb = ov.constant dense<[[[[ 0.4513943  ]],  [[-0.40169528 ]],  [[-0.07485598 ]],  [[-0.2151458  ]]], [[[ 0.07577073 ]],  [[ 0.43957493 ]],  [[-0.13744573 ]],  [[ 0.18464051 ]]], [[[ 0.28413272 ]],  [[ 0.39175382 ]],  [[-0.31521705 ]],  [[-0.11089823 ]]], [[[ 0.9861767  ]],  [[-0.09298403 ]],  [[ 0.014956547]],  [[ 0.22047412 ]]]]> : tensor<4x4x1x1xf32> {ov.name = "wb"}
    %wc = ov.constant dense<[[[[-0.28863028  ]],  [[-0.1948738   ]],  [[ 0.839114    ]],  [[ 0.648228    ]]], [[[-0.5517187   ]],  [[ 0.032582898 ]],  [[-0.64471483  ]],  [[-0.7658738   ]]], [[[ 0.0013682363]],  [[ 0.7622771   ]],  [[-0.040913068 ]],  [[ 0.7351005   ]]], [[[-0.5284252   ]],  [[ 0.068134144 ]],  [[ 0.040472973 ]],  [[ 0.043097984 ]]]]> : tensor<4x4x1x1xf32> {ov.name = "wc"}
    %ba = ov.constant dense<[[[[ 0.49670005]],  [[ 0.28668937]],  [[-0.2745103 ]],  [[-0.67563856]]]]> : tensor<1x4x1x1xf32> {ov.name = "ba"}
    %bb = ov.constant dense<[[[[-0.27690515 ]],  [[-0.010292729]],  [[-0.27533534 ]],  [[-0.7625402  ]]]]> : tensor<1x4x1x1xf32> {ov.name = "bb"}
    %sb = ov.constant dense<[[[[1.5838425 ]],  [[0.93512285]],  [[1.0899125 ]],  [[1.7481054 ]]]]> : tensor<1x4x1x1xf32> {ov.name = "sb"}
    %wm = ov.constant dense<[[1.5, -2.0, 0.25, 3.0], [-0.5, 4.0, 1.0, -1.25], [2.0, 0.5, -3.0, 0.75], [-1.0, 1.0, 2.5, -2.0]]> : tensor<4x4xf32> {ov.name = "wm"}
    %zero = ov.constant dense<0.0> : tensor<f32>
    %six = ov.constant dense<6.0> : tensor<f32>
    %a = ov.convolution %x, %wa {ov.name = "a", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x6xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x6x6xf32>
    %a1 = ov.add %a, %ba {ov.name = "a/bias"} : (tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x6x6xf32>
    %a2 = ov.maximum %zero, %a1 {ov.name = "a/max"} : (tensor<f32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
    %a3 = ov.minimum %six, %a2 {ov.name = "a/min"} : (tensor<f32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
    %b = ov.convolution %a3, %wb {ov.name = "b", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x6xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x6x6xf32>
    %b1 = ov.multiply %b, %sb {ov.name = "b/scale"} : (tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x6x6xf32>
    %b2 = ov.add %b1, %bb {ov.name = "b/bias"} : (tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x6x6xf32>
    %b3 = ov.relu %b2 {ov.name = "b/relu"} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
    %b4 = ov.hswish %b3 {ov.name = "b/hswish"} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
    %y = ov.convolution %b4, %wc {ov.name = "c", strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x6xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x6x6xf32>
    %mm = ov.mat_mul %m, %wm {ov.name = "mm"} : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
    %z1 = ov.maximum %zero, %mm {ov.name = "mm/max"} : (tensor<f32>, tensor<8x4xf32>) -> tensor<8x4xf32>
    %z = ov.minimum %six, %z1 {ov.name = "mm/min"} : (tensor<f32>, tensor<8x4xf32>) -> tensor<8x4xf32>
    func.return %y, %z : tensor<1x4x6x6xf32>, tensor<8x4xf32>
  }
}
