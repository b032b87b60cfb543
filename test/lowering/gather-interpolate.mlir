// A Gather of indices known only when running (an embedding lookup: negative indices count
// from the end, out of range gives zeros) and a nearest-mode Interpolate (an index map) run
// on jit kernels, equal to REFERENCE bit for bit.
// RUN: python3 -c "import numpy as np; np.save('%t.t.npy', np.arange(40, dtype=np.float32).reshape(10, 4)); np.save('%t.i.npy', np.array([[0, 9, -1, 12, -11]], np.int64)); np.save('%t.x.npy', np.arange(24, dtype=np.uint8).reshape(1, 2, 3, 4))"
// RUN: lowpass-run %s -i t=%t.t.npy -i i=%t.i.npy -i x=%t.x.npy --device CPU --full > %t.cpu
// RUN: lowpass-run %s -i t=%t.t.npy -i i=%t.i.npy -i x=%t.x.npy --device REFERENCE --full > %t.ref
// RUN: diff %t.cpu %t.ref
// RUN: lowpass-run %s -i t=%t.t.npy -i i=%t.i.npy -i x=%t.x.npy --device CPU -pcsort no_sort | filecheck %s
// CHECK-DAG: emb {{ *}}Gather {{ *}}jit_{{[a-z0-9_]+}}_FP32
// CHECK-DAG: up {{ *}}Interpolate {{ *}}jit_{{[a-z0-9_]+}}_I8
// CHECK-NOT: ref_
func.func @main(%t: tensor<10x4xf32> {ov.name = "t"}, %i: tensor<1x5xi64> {ov.name = "i"}, %x: tensor<1x2x3x4xui8> {ov.name = "x"}) -> (tensor<1x5x4xf32> {ov.name = "e"}, tensor<1x2x6x8xui8> {ov.name = "u"}) {
  %ax = ov.constant dense<0> : tensor<i64>
  %e = ov.gather %t, %i, %ax {ov.name = "emb"} : (tensor<10x4xf32>, tensor<1x5xi64>, tensor<i64>) -> tensor<1x5x4xf32>
  %s = ov.constant dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>
  %u = ov.interpolate %x, %s {ov.name = "up", mode = #ov<interpolate_mode nearest>, shape_calculation_mode = #ov<shape_calculation_mode scales>} : (tensor<1x2x3x4xui8>, tensor<4xf32>) -> tensor<1x2x6x8xui8>
  func.return %e, %u : tensor<1x5x4xf32>, tensor<1x2x6x8xui8>
}
