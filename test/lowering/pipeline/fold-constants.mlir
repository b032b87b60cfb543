// cpu-fold-constants marks the ops whose results the CPU compiler knows: a ShapeOf of a static
// shape, a Convert of constant weights, an op of those; ov.constant needs no mark, computed ops
// get none. A dynamic shape is a one-line error (of every cpu pass: each may run alone).
// RUN: opt-tool -p cpu-fold-constants %s | filecheck %s
// RUN: not opt-tool -p cpu-fold-constants %S/Inputs/dynamic.mlir 2>&1 | filecheck %s --check-prefix=ERR
// RUN: not opt-tool -p cpu-fuse-kernels %S/Inputs/dynamic.mlir 2>&1 | filecheck %s --check-prefix=ERR
// RUN: not opt-tool -p cpu-choose-layouts %S/Inputs/dynamic.mlir 2>&1 | filecheck %s --check-prefix=ERR
// CHECK:      %w = ov.constant dense<{{.*}}> : tensor<2x3xf16>
// CHECK-NEXT: %one = ov.constant dense<1> : tensor<i64>{{$}}
// CHECK-NEXT: %wf = ov.convert %w destination_type = f32 {ov.name = "decompress", cpu.constant} :
// CHECK-NEXT: %s = ov.shape_of %x {ov.name = "shape", cpu.constant} :
// CHECK-NEXT: %s1 = ov.add %s, %one {ov.name = "shape+1", cpu.constant} :
// CHECK-NEXT: %y = ov.mat_mul %x, %wf {ov.name = "fc"} :
// ERR:        dynamic.mlir: cpu-{{fold-constants|fuse-kernels|choose-layouts}}: error: the CPU device needs static shapes: input #0 ('x') has type tensor<?x3xf32>
builtin.module {
  func.func @main(%x: tensor<4x2xf32>) -> (tensor<4x3xf32>, tensor<2xi64>) {
    %w = ov.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf16>
    %one = ov.constant dense<1> : tensor<i64>
    %wf = ov.convert %w destination_type = f32 {ov.name = "decompress"} : (tensor<2x3xf16>) -> tensor<2x3xf32>
    %s = ov.shape_of %x {ov.name = "shape"} : (tensor<4x2xf32>) -> tensor<2xi64>
    %s1 = ov.add %s, %one {ov.name = "shape+1"} : (tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
    %y = ov.mat_mul %x, %wf {ov.name = "fc"} : (tensor<4x2xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
    func.return %y, %s1 : tensor<4x3xf32>, tensor<2xi64>
  }
}
