// cpu-decompose: MVN (a transformer's LayerNormalization, as OpenVINO's ONNX frontend reads
// it) -> ReduceMean, Subtract, Multiply, ReduceMean, Add/Sqrt, Divide, which have kernels:
// MVN had none and ran on the reference fallback. Both eps modes; without normalize_variance
// only the centering. On CPU every group is jit (test_mvn.py compares with REFERENCE).
// RUN: opt-tool -p cpu-decompose %s | filecheck %s
// RUN: lowpass-run %s --random-inputs 0 --device CPU -pcsort no_sort | filecheck %s --check-prefix=ROWS
// CHECK:      %[[A:.*]] = ov.constant dense<2> : tensor<1xi64> {ov.name = "ln/axes"}
// CHECK-NEXT: %[[M:.*]] = ov.reduce_mean %x, %[[A]] keep_dims = true {ov.name = "ln/mean"}
// CHECK-NEXT: %[[C:.*]] = ov.subtract %x, %[[M]] {ov.name = "ln/centered"}
// CHECK-NEXT: %[[E:.*]] = ov.constant dense<1.000000e-12> : tensor<f32> {ov.name = "ln/eps"}
// CHECK-NEXT: %[[S:.*]] = ov.multiply %[[C]], %[[C]] {ov.name = "ln/square"}
// CHECK-NEXT: %[[V:.*]] = ov.reduce_mean %[[S]], %[[A]] keep_dims = true {ov.name = "ln/variance"}
// CHECK-NEXT: %[[P:.*]] = ov.add %[[V]], %[[E]] {ov.name = "ln/add"}
// CHECK-NEXT: %[[R:.*]] = ov.sqrt %[[P]] {ov.name = "ln/sqrt"}
// CHECK-NEXT: %[[LN:.*]] = ov.divide %[[C]], %[[R]] {ov.name = "ln"}
// CHECK:      %[[R2:.*]] = ov.sqrt %{{.*}} {ov.name = "out/sqrt"}
// CHECK-NEXT: %[[P2:.*]] = ov.add %[[R2]], %{{.*}} {ov.name = "out/add"}
// CHECK-NEXT: %[[OUT:.*]] = ov.divide %{{.*}}, %[[P2]] {ov.name = "out"}
// CHECK:      %[[CE:.*]] = ov.subtract %x, %{{.*}} {ov.name = "centered"}
// CHECK-NEXT: func.return %[[LN]], %[[OUT]], %[[CE]]
// ROWS-NOT:   ref_
builtin.module {
  func.func @main(%x: tensor<2x5x16xf32> {ov.name = "x"}) -> (tensor<2x5x16xf32> {ov.name = "a"}, tensor<2x5x16xf32> {ov.name = "b"}, tensor<2x5x16xf32> {ov.name = "c"}) {
    %ax = ov.constant dense<[2]> : tensor<1xi64> {ov.name = "ax"}
    %ax2 = ov.constant dense<[1, 2]> : tensor<2xi64> {ov.name = "ax2"}
    %ln = ov.mvn %x, %ax {eps = 1.000000e-12 : f32, eps_mode = #ov<mvn_eps_mode inside_sqrt>, ov.name = "ln"} : (tensor<2x5x16xf32>, tensor<1xi64>) -> tensor<2x5x16xf32>
    %out = ov.mvn %x, %ax2 {eps = 1.000000e-05 : f32, eps_mode = #ov<mvn_eps_mode outside_sqrt>, ov.name = "out"} : (tensor<2x5x16xf32>, tensor<2xi64>) -> tensor<2x5x16xf32>
    %centered = ov.mvn %x, %ax {normalize_variance = false, eps = 1.000000e-05 : f32, eps_mode = #ov<mvn_eps_mode inside_sqrt>, ov.name = "centered"} : (tensor<2x5x16xf32>, tensor<1xi64>) -> tensor<2x5x16xf32>
    func.return %ln, %out, %centered : tensor<2x5x16xf32>, tensor<2x5x16xf32>, tensor<2x5x16xf32>
  }
}
