// cpu-select-kernels states each fused group's post-op program (`cpu.epilogue`, one step per
// fused op) and where its steps run: before the `|` in the kernel of the group's first op (the
// GEMM micro-kernel of a convolution or MatMul, the window loop of a pooling), after it in an
// element-wise pass over that kernel's result; a FakeQuantize or Convert group runs its
// program in its one loop (no `|`). The int8 convolution's GEMM runs Multiply and Add (the
// Relu before a FakeQuantize whose range starts at 0 changes nothing: the pass drops it), the
// MatMul's its whole program, the pooling loop its whole program.
// RUN: opt-tool -p cpu-decompose,cpu-fold-constants,cpu-remove-views,cpu-quantize-cells,cpu-fuse-kernels,cpu-choose-layouts,cpu-select-kernels,cpu-assign-buffers %s -o %t.mlir
// RUN: filecheck %s < %t.mlir
// CHECK:      ov.convolution {{.*}}"conv", cpu.kernel = #cpu.kernel<0, "convolution">, {{.*}}cpu.epilogue = #cpu.epilogue<mul, add | relu, fq>,
// CHECK:      ov.max_pool {{.*}}"pool", cpu.kernel = #cpu.kernel<1, "pooling">, cpu.epilogue = #cpu.epilogue<mul, add, fq>,
// CHECK:      ov.fake_quantize {{.*}}"fq", cpu.kernel = #cpu.kernel<2, "fake-quantize">, cpu.epilogue = #cpu.epilogue<cast, mul>,
// CHECK:      ov.convert {{.*}}"dq", cpu.kernel = #cpu.kernel<3, "convert">, cpu.epilogue = #cpu.epilogue<sub, mul>,
// CHECK:      ov.mat_mul {{.*}}"mm", cpu.kernel = #cpu.kernel<4, "mat-mul">, {{.*}}cpu.epilogue = #cpu.epilogue<mul, add>,
// The translation runs the split the IR states: each edit below changes the code (its LLVM IR
// differs from the pipeline's choice; the pooling gets a pass of its own) and every output
// stays the REFERENCE device's, bit for bit.
// RUN: lowpass-run %s --random-inputs 0 --device REFERENCE --save-outputs %t.ref
// RUN: opt-tool %t.mlir -t 'cpu-llvm{optimized=false}' -o %t.ll
// RUN: filecheck %s --check-prefix=NOPASS < %t.ll
// NOPASS-NOT: define {{.*}}@"pool_post"(
// RUN: sed -e 's/#cpu.epilogue<mul, add | relu, fq>/#cpu.epilogue<| mul, add, relu, fq>/' %t.mlir > %t.conv.mlir
// RUN: sed -e 's/#cpu.epilogue<mul, add, fq>/#cpu.epilogue<mul | add, fq>/' %t.mlir > %t.pool.mlir
// RUN: sed -e 's/#cpu.epilogue<mul, add>,/#cpu.epilogue<mul | add>,/' %t.mlir > %t.mm.mlir
// RUN: opt-tool %t.conv.mlir -t 'cpu-llvm{optimized=false}' -o %t.conv.ll
// RUN: opt-tool %t.pool.mlir -t 'cpu-llvm{optimized=false}' -o %t.pool.ll
// RUN: opt-tool %t.mm.mlir -t 'cpu-llvm{optimized=false}' -o %t.mm.ll
// RUN: not cmp -s %t.ll %t.conv.ll
// RUN: not cmp -s %t.ll %t.pool.ll
// RUN: not cmp -s %t.ll %t.mm.ll
// RUN: filecheck %s --check-prefix=POOLPASS < %t.pool.ll
// POOLPASS:   define {{.*}}@"pool_post"(
// RUN: sed -e 's/#cpu.epilogue<mul, add | relu, fq>/#cpu.epilogue<mul | add, relu, fq>/' -e 's/#cpu.epilogue<mul, add, fq>/#cpu.epilogue<| mul, add, fq>/' -e 's/#cpu.epilogue<mul, add>,/#cpu.epilogue<| mul, add>,/' %t.mlir > %t.all.mlir
// RUN: lowpass-run %t.conv.mlir --random-inputs 0 --save-outputs %t.conv.out
// RUN: lowpass-run %t.pool.mlir --random-inputs 0 --save-outputs %t.pool.out
// RUN: lowpass-run %t.mm.mlir --random-inputs 0 --save-outputs %t.mm.out
// RUN: lowpass-run %t.all.mlir --random-inputs 0 --save-outputs %t.all.out
// RUN: cmp %t.ref/y.npy %t.conv.out/y.npy
// RUN: cmp %t.ref/p.npy %t.pool.out/p.npy
// RUN: cmp %t.ref/m.npy %t.mm.out/m.npy
// RUN: cmp %t.ref/y.npy %t.all.out/y.npy
// RUN: cmp %t.ref/p.npy %t.all.out/p.npy
// RUN: cmp %t.ref/f.npy %t.all.out/f.npy
// RUN: cmp %t.ref/d.npy %t.all.out/d.npy
// RUN: cmp %t.ref/m.npy %t.all.out/m.npy
// A split the kernel cannot make, a split of a one-loop group and an epilogue that is not its
// group's program: each a one-line error at the op, naming what it takes.
// RUN: sed -e 's/#cpu.epilogue<mul, add | relu, fq>/#cpu.epilogue<mul, add, relu, fq>/' %t.mlir > %t.bad-conv.mlir
// RUN: not opt-tool %t.bad-conv.mlir -t cpu-llvm 2>&1 | filecheck %s --check-prefix=BADCONV
// BADCONV:    epilogue.mlir.tmp.bad-conv.mlir:{{[0-9]+}}:{{[0-9]+}}: error: Convolution 'conv': #cpu.epilogue<mul, add, relu, fq> cannot split its program there: its kernel takes #cpu.epilogue<mul, add | relu, fq>, #cpu.epilogue<mul | add, relu, fq> or #cpu.epilogue<| mul, add, relu, fq>
// RUN: sed -e 's/#cpu.epilogue<cast, mul>/#cpu.epilogue<cast | mul>/' %t.mlir > %t.bad-fq.mlir
// RUN: not opt-tool %t.bad-fq.mlir -t cpu-llvm 2>&1 | filecheck %s --check-prefix=BADFQ
// BADFQ:      error: FakeQuantize 'fq': #cpu.epilogue<cast | mul> cannot split its program there: its kernel takes #cpu.epilogue<cast, mul>
// RUN: sed -e 's/#cpu.epilogue<sub, mul>/#cpu.epilogue<sub>/' %t.mlir > %t.bad-dq.mlir
// RUN: not opt-tool %t.bad-dq.mlir -t cpu-llvm 2>&1 | filecheck %s --check-prefix=BADDQ
// BADDQ:      error: Convert 'dq': #cpu.epilogue<sub> is not the program of the ops fused into its group (#cpu.epilogue<sub, mul>)
// RUN: sed -e 's/cpu.epilogue = #cpu.epilogue<mul, add, fq>, //' %t.mlir > %t.none.mlir
// RUN: not opt-tool %t.none.mlir -t cpu-llvm 2>&1 | filecheck %s --check-prefix=NONE
// NONE:       error: MaxPool 'pool' has no #cpu.epilogue<...>; run cpu-select-kernels
builtin.module {
  func.func @main(%q: tensor<1x4x6x6xui8> {ov.name = "q"}, %x: tensor<1x4x6x6xf32> {ov.name = "x"}, %a: tensor<2x8xui8> {ov.name = "a"}) -> (tensor<1x4x6x6xf32> {ov.name = "y"}, tensor<1x4x3x3xf32> {ov.name = "p"}, tensor<1x4x6x6xf32> {ov.name = "f"}, tensor<1x4x6x6xf32> {ov.name = "d"}, tensor<2x4xf32> {ov.name = "m"}) {
    %w = ov.constant dense<[[[[88, 25, 36], [79, 15, 55], [66, -55, -89]], [[-40, -43, 74], [82, -99, -1], [64, -74, 59]], [[-77, -7, 63], [-40, -32, -45], [43, -50, 98]], [[-11, -5, 0], [16, 10, 1], [99, 61, 58]]], [[[40, 24, -32], [97, -7, -57], [69, -68, 71]], [[22, -78, -92], [-12, -93, -72], [2, 94, -7]], [[61, 83, 64], [25, -12, 2], [-47, -1, -25]], [[-51, 98, -98], [-81, -62, 93], [38, 76, -60]]], [[[44, -27, -3], [-100, 23, 66], [32, -70, 6]], [[-47, 92, 76], [-63, 1, 87], [69, 41, 27]], [[-92, 48, -6], [-82, -52, 8], [45, 1, 22]], [[74, 37, -28], [28, 19, -79], [-89, 32, -23]]], [[[19, -36, -55], [-70, -24, 63], [-20, -25, 15]], [[95, -22, 17], [-13, 21, -11], [27, 9, 35]], [[91, -70, 12], [-12, -29, -53], [-90, -20, 65]], [[-81, -19, 93], [90, -57, -99], [34, -98, -40]]]]> : tensor<4x4x3x3xi8> {ov.name = "w"}
    %scale = ov.constant dense<[[[[9.7407705e-05]], [[7.6221477e-05]], [[2.3161581e-05]], [[9.4507435e-05]]]]> : tensor<1x4x1x1xf32> {ov.name = "scale"}
    %bias = ov.constant dense<[[[[0.34470195]], [[-0.1636067]], [[-0.18428795]], [[-0.1250977]]]]> : tensor<1x4x1x1xf32> {ov.name = "bias"}
    %zero = ov.constant dense<0.0> : tensor<f32>
    %eight = ov.constant dense<8.0> : tensor<f32>
    %c = ov.convolution %q, %w {ov.name = "conv", strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x4x6x6xui8>, tensor<4x4x3x3xi8>) -> tensor<1x4x6x6xf32>
    %cs = ov.multiply %c, %scale {ov.name = "conv/scale"} : (tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x6x6xf32>
    %cb = ov.add %cs, %bias {ov.name = "conv/bias"} : (tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x6x6xf32>
    %cr = ov.relu %cb {ov.name = "conv/relu"} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
    %y = ov.fake_quantize %cr, %zero, %eight, %zero, %eight levels = 256 {ov.name = "conv/fq"} : (tensor<1x4x6x6xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x4x6x6xf32>
    %pool = ov.max_pool %x {ov.name = "pool", strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>} : (tensor<1x4x6x6xf32>) -> tensor<1x4x3x3xf32>
    %pscale = ov.constant dense<[[[[0.6924635]], [[1.4279057]], [[1.0523264]], [[0.6805525]]]]> : tensor<1x4x1x1xf32> {ov.name = "pool/scale"}
    %pbias = ov.constant dense<[[[[-0.12077045]], [[-0.19728422]], [[-1.1140672]], [[-0.011521468]]]]> : tensor<1x4x1x1xf32> {ov.name = "pool/bias"}
    %ps = ov.multiply %pool, %pscale {ov.name = "pool/mul"} : (tensor<1x4x3x3xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x3x3xf32>
    %pb = ov.add %ps, %pbias {ov.name = "pool/add"} : (tensor<1x4x3x3xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x3x3xf32>
    %lo = ov.constant dense<-1.0> : tensor<f32>
    %hi = ov.constant dense<1.0> : tensor<f32>
    %p = ov.fake_quantize %pb, %lo, %hi, %lo, %hi levels = 17 {ov.name = "pool/fq"} : (tensor<1x4x3x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x4x3x3xf32>
    %ol = ov.constant dense<0.0> : tensor<f32>
    %oh = ov.constant dense<255.0> : tensor<f32>
    %fq = ov.fake_quantize %x, %lo, %hi, %ol, %oh levels = 256 {ov.name = "fq"} : (tensor<1x4x6x6xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x4x6x6xui8>
    %back = ov.convert %fq destination_type = f32 {ov.name = "fq/back"} : (tensor<1x4x6x6xui8>) -> tensor<1x4x6x6xf32>
    %step = ov.constant dense<0.0078125> : tensor<f32>
    %f = ov.multiply %back, %step {ov.name = "fq/mul"} : (tensor<1x4x6x6xf32>, tensor<f32>) -> tensor<1x4x6x6xf32>
    %dq = ov.convert %q destination_type = f32 {ov.name = "dq"} : (tensor<1x4x6x6xui8>) -> tensor<1x4x6x6xf32>
    %zp = ov.constant dense<128.0> : tensor<f32>
    %dz = ov.subtract %dq, %zp {ov.name = "dq/sub"} : (tensor<1x4x6x6xf32>, tensor<f32>) -> tensor<1x4x6x6xf32>
    %d = ov.multiply %dz, %step {ov.name = "dq/mul"} : (tensor<1x4x6x6xf32>, tensor<f32>) -> tensor<1x4x6x6xf32>
    %wm = ov.constant dense<[[57, -11, -35, -32], [25, -56, 56, 45], [8, -4, 31, 5], [-3, -22, -7, 30], [-54, -57, 26, -16], [36, -57, 48, -46], [-11, 56, -47, 18], [27, -9, -51, 2]]> : tensor<8x4xi8> {ov.name = "wm"}
    %mscale = ov.constant dense<[[0.008728093 , 0.0034421068, 0.0059029097, 0.0068368437]]> : tensor<1x4xf32> {ov.name = "mm/scale"}
    %mbias = ov.constant dense<[[0.4930133 , -0.17640607, -0.20593034, 0.702463]]> : tensor<1x4xf32> {ov.name = "mm/bias"}
    %mm = ov.mat_mul %a, %wm {ov.name = "mm"} : (tensor<2x8xui8>, tensor<8x4xi8>) -> tensor<2x4xf32>
    %ms = ov.multiply %mm, %mscale {ov.name = "mm/mul"} : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
    %m = ov.add %ms, %mbias {ov.name = "mm/add"} : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
    func.return %y, %p, %f, %d, %m : tensor<1x4x6x6xf32>, tensor<1x4x3x3xf32>, tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<2x4xf32>
  }
}
