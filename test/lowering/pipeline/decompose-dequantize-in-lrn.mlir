// cpu-decompose: a FakeQuantize with a float32 result that only an LRN reads (GoogLeNet's
// second LRN, after LPT) becomes a FakeQuantize onto its u8 levels, a Convert and a
// FakeQuantize that dequantizes the levels, where every level gives the same bits: the
// group before then writes bytes, and the LRN's group starts at the Convert (its kernel
// dequantizes what it reads). Not split: output limits whose top level is not `oh` in
// float32 (fl(fl(2.9 + 1.7) - 1.7) != 2.9), limits that vary along H (the LRN's kernel
// indexes them by channel), and a FakeQuantize of converted u8 levels (the first LRN's:
// the LRN's group reads those as they are). Running it again changes nothing.
// RUN: opt-tool -p cpu-decompose %s | filecheck %s
// RUN: opt-tool -p cpu-decompose,cpu-decompose %s | filecheck %s
// RUN: opt-tool -p cpu-decompose,cpu-fold-constants,cpu-remove-views,cpu-quantize-cells,cpu-fuse-kernels %s | filecheck %s --check-prefix=GROUPS
// The split keeps the program's meaning: REFERENCE before and after it, bit for bit.
// RUN: opt-tool -p cpu-decompose %s -o %t.split.mlir
// RUN: python -c "import numpy as np; np.save('%t.x.npy', (np.arange(100, dtype=np.float32) / 23 - 1.1).reshape(1, 4, 5, 5))"
// RUN: python -c "import numpy as np; np.save('%t.u.npy', (np.arange(100) * 7 %% 256).astype(np.uint8).reshape(1, 4, 5, 5))"
// RUN: lowpass-run --device REFERENCE %s -i x=%t.x.npy -i u=%t.u.npy --full > %t.before
// RUN: lowpass-run --device REFERENCE %t.split.mlir -i x=%t.x.npy -i u=%t.u.npy --full > %t.after
// RUN: diff %t.before %t.after
// CHECK:      %[[LOW:.*]] = ov.constant dense<0.000000e+00> : tensor<f32> {ov.name = "dq/levels/low"}
// CHECK-NEXT: %[[TOP:.*]] = ov.constant dense<2.550000e+02> : tensor<f32> {ov.name = "dq/levels/high"}
// CHECK-NEXT: %[[Q:.*]] = ov.fake_quantize %x, %low, %high, %[[LOW]], %[[TOP]] levels = 256 {ov.name = "dq/levels"} : ({{.*}}) -> tensor<1x4x5x5xui8>
// CHECK-NEXT: %[[F:.*]] = ov.convert %[[Q]] destination_type = f32 {ov.name = "dq/convert"}
// CHECK-NEXT: %[[D:.*]] = ov.fake_quantize %[[F]], %[[LOW]], %[[TOP]], %low, %high levels = 256 {ov.name = "dq"} : ({{.*}}) -> tensor<1x4x5x5xf32>
// CHECK-NEXT: %{{.*}} = ov.lrn %[[D]], %axes
// CHECK:      %kept = ov.fake_quantize %x, %low2, %high2, %low2, %high2 levels = 256 {ov.name = "kept"}
// CHECK-NEXT: %{{.*}} = ov.lrn %kept, %axes
// CHECK:      %rows = ov.fake_quantize %x, %low, %high_h, %low, %high_h levels = 256 {ov.name = "rows"}
// CHECK-NEXT: %{{.*}} = ov.lrn %rows, %axes
// CHECK:      %u_float = ov.convert %u destination_type = f32
// CHECK-NEXT: %u_dq = ov.fake_quantize %u_float, %zero, %top, %low, %high levels = 256 {ov.name = "u_dq"}
// GROUPS:      ov.fake_quantize %x, %low, %high, %{{.*}}, %{{.*}} levels = 256 {ov.name = "dq/levels", cpu.kernel = #cpu.kernel<0, "fake-quantize">
// GROUPS:      ov.convert %{{.*}} destination_type = f32 {ov.name = "dq/convert", cpu.kernel = #cpu.kernel<1, "l-r-n">
// GROUPS-NEXT: ov.fake_quantize {{.*}} {ov.name = "dq", cpu.fused = #cpu.fused<1>
// GROUPS-NEXT: ov.lrn {{.*}} {ov.name = "lrn", cpu.fused = #cpu.fused<1>
// GROUPS:      ov.lrn %kept, %axes {ov.name = "kept_lrn", cpu.kernel = #cpu.kernel<3, "l-r-n">
// GROUPS:      ov.lrn %rows, %axes {ov.name = "rows_lrn", cpu.kernel = #cpu.kernel<5, "l-r-n">
// GROUPS:      ov.convert %u destination_type = f32 {cpu.kernel = #cpu.kernel<6, "l-r-n">
// GROUPS-NEXT: ov.fake_quantize {{.*}} {ov.name = "u_dq", cpu.fused = #cpu.fused<6>
// GROUPS-NEXT: ov.lrn {{.*}} {ov.name = "u_lrn", cpu.fused = #cpu.fused<6>
builtin.module {
  func.func @main(%x: tensor<1x4x5x5xf32>, %u: tensor<1x4x5x5xui8>) -> (tensor<1x4x5x5xf32>, tensor<1x4x5x5xf32>, tensor<1x4x5x5xf32>, tensor<1x4x5x5xf32>) {
    %low = ov.constant dense<0.0> : tensor<f32>
    %high = ov.constant dense<3.0> : tensor<f32>
    %low2 = ov.constant dense<-1.7> : tensor<f32>
    %high2 = ov.constant dense<2.9> : tensor<f32>
    %zero = ov.constant dense<0.0> : tensor<f32>
    %top = ov.constant dense<255.0> : tensor<f32>
    %axes = ov.constant dense<1> : tensor<1xi64>
    %dq = ov.fake_quantize %x, %low, %high, %low, %high levels = 256 {ov.name = "dq"} : (tensor<1x4x5x5xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x4x5x5xf32>
    %y = ov.lrn %dq, %axes {ov.name = "lrn", alpha = 1.0e-04 : f64, beta = 7.5e-01 : f64, bias = 1.0 : f64, size = 3 : i64} : (tensor<1x4x5x5xf32>, tensor<1xi64>) -> tensor<1x4x5x5xf32>
    %kept = ov.fake_quantize %x, %low2, %high2, %low2, %high2 levels = 256 {ov.name = "kept"} : (tensor<1x4x5x5xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x4x5x5xf32>
    %z = ov.lrn %kept, %axes {ov.name = "kept_lrn", alpha = 1.0e-04 : f64, beta = 7.5e-01 : f64, bias = 1.0 : f64, size = 3 : i64} : (tensor<1x4x5x5xf32>, tensor<1xi64>) -> tensor<1x4x5x5xf32>
    %high_h = ov.constant dense<[[[[1.0], [2.0], [3.0], [4.0], [5.0]]]]> : tensor<1x1x5x1xf32>
    %rows = ov.fake_quantize %x, %low, %high_h, %low, %high_h levels = 256 {ov.name = "rows"} : (tensor<1x4x5x5xf32>, tensor<f32>, tensor<1x1x5x1xf32>, tensor<f32>, tensor<1x1x5x1xf32>) -> tensor<1x4x5x5xf32>
    %v = ov.lrn %rows, %axes {ov.name = "rows_lrn", alpha = 1.0e-04 : f64, beta = 7.5e-01 : f64, bias = 1.0 : f64, size = 3 : i64} : (tensor<1x4x5x5xf32>, tensor<1xi64>) -> tensor<1x4x5x5xf32>
    %u_float = ov.convert %u destination_type = f32 : (tensor<1x4x5x5xui8>) -> tensor<1x4x5x5xf32>
    %u_dq = ov.fake_quantize %u_float, %zero, %top, %low, %high levels = 256 {ov.name = "u_dq"} : (tensor<1x4x5x5xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x4x5x5xf32>
    %w = ov.lrn %u_dq, %axes {ov.name = "u_lrn", alpha = 1.0e-04 : f64, beta = 7.5e-01 : f64, bias = 1.0 : f64, size = 3 : i64} : (tensor<1x4x5x5xf32>, tensor<1xi64>) -> tensor<1x4x5x5xf32>
    func.return %y, %z, %v, %w : tensor<1x4x5x5xf32>, tensor<1x4x5x5xf32>, tensor<1x4x5x5xf32>, tensor<1x4x5x5xf32>
  }
}
