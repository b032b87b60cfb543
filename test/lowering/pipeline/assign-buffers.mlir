// cpu-assign-buffers: each tensor that leaves its group gets a 64-byte aligned place in the
// arena, reused once its last reader ran (first fit by liveness in group order); a returned
// tensor is computed in the request's output buffer (%d: through the view %flat); a value
// used only inside its group gets no memory (%c); a view shares its input's bytes. @main gets the arena's tensor bytes.
// The CPU device runs what the attributes say: its outputs equal REFERENCE's.
// RUN: opt-tool -p cpu-fold-constants,cpu-remove-views,cpu-quantize-cells,cpu-fuse-kernels,cpu-assign-buffers %s | filecheck %s
// RUN: lowpass-run %s --random-inputs 0 --device CPU --full > %t.cpu
// RUN: lowpass-run --device REFERENCE %s --random-inputs 0 --full > %t.ref
// RUN: diff %t.cpu %t.ref
// CHECK:      func.func @main(%x: tensor<4x256xf32>) -> (tensor<4x256xf32>, tensor<1024xf32>) attributes {cpu.arena = #cpu.arena<8192>}
// CHECK-NEXT:   %one = ov.constant
// CHECK-NEXT:   %shape = ov.constant
// CHECK-NEXT:   %order = ov.constant
// CHECK-NEXT:   %a = ov.transpose %x, %order {ov.name = "a", cpu.kernel = #cpu.kernel<0, "index-map">, cpu.buffers = [#cpu.buffer<arena 0, 4096>]}
// CHECK-NEXT:   %b = ov.transpose %a, %order {ov.name = "b", cpu.kernel = #cpu.kernel<1, "index-map">, cpu.buffers = [#cpu.buffer<arena 4096, 4096>]}
// CHECK-NEXT:   %c = ov.add %b, %one {ov.name = "c", cpu.kernel = #cpu.kernel<2, "elementwise">, cpu.buffers = [#cpu.buffer<none>]}
// CHECK-NEXT:   %d = ov.relu %c {ov.name = "d", cpu.fused = #cpu.fused<2>, cpu.buffers = [#cpu.buffer<output 1, 4096>]}
// CHECK-NEXT:   %e = ov.transpose %d, %order {ov.name = "e", cpu.kernel = #cpu.kernel<3, "index-map">, cpu.buffers = [#cpu.buffer<arena 0, 4096>]}
// CHECK-NEXT:   %f = ov.transpose %e, %order {ov.name = "f", cpu.kernel = #cpu.kernel<4, "index-map">, cpu.buffers = [#cpu.buffer<output 0, 4096>]}
// CHECK-NEXT:   %flat = ov.reshape %d, %shape special_zero = false {ov.name = "flat", cpu.view}
// CHECK-NEXT:   func.return %f, %flat
builtin.module {
  func.func @main(%x: tensor<4x256xf32>) -> (tensor<4x256xf32>, tensor<1024xf32>) {
    %one = ov.constant dense<1.0> : tensor<f32>
    %shape = ov.constant dense<[1024]> : tensor<1xi64>
    %order = ov.constant dense<[1, 0]> : tensor<2xi64>
    %a = ov.transpose %x, %order {ov.name = "a"} : (tensor<4x256xf32>, tensor<2xi64>) -> tensor<256x4xf32>
    %b = ov.transpose %a, %order {ov.name = "b"} : (tensor<256x4xf32>, tensor<2xi64>) -> tensor<4x256xf32>
    %c = ov.add %b, %one {ov.name = "c"} : (tensor<4x256xf32>, tensor<f32>) -> tensor<4x256xf32>
    %d = ov.relu %c {ov.name = "d"} : (tensor<4x256xf32>) -> tensor<4x256xf32>
    %e = ov.transpose %d, %order {ov.name = "e"} : (tensor<4x256xf32>, tensor<2xi64>) -> tensor<256x4xf32>
    %f = ov.transpose %e, %order {ov.name = "f"} : (tensor<256x4xf32>, tensor<2xi64>) -> tensor<4x256xf32>
    %flat = ov.reshape %d, %shape special_zero = false {ov.name = "flat"} : (tensor<4x256xf32>, tensor<1xi64>) -> tensor<1024xf32>
    func.return %f, %flat : tensor<4x256xf32>, tensor<1024xf32>
  }
}
