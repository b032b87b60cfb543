// cpu-decompose: ONNX MatMulInteger then Cast (onnxruntime's quantize_dynamic: u8 codes less
// a zero point known at run time, by constant integer weights), an i32 MatMul that ran on
// the reference fallback, runs on the int8 kernels where the weights fit int8 ("narrow":
// MatMul(codes, i8 weights) to f32 less zero point x column sums) and on the float ones
// where they do not ("wide": u8 weights less a zero point, -100..155), where every sum is
// an integer of at most 2^24; "big" (255 * 600 * 127 > 2^24) stays as it is. CPU equals
// REFERENCE.
// RUN: opt-tool -p cpu-decompose %s | filecheck %s
// RUN: python3 -c "import numpy as np; np.save('%t.x.npy', (np.arange(16, dtype=np.float32) * 17 %% 256).reshape(2, 8)); np.save('%t.z.npy', np.array(77, np.uint8)); np.save('%t.b.npy', np.full((1, 600), 200, np.float32))"
// RUN: lowpass-run %s -i x=%t.x.npy -i z=%t.z.npy -i xb=%t.b.npy --device CPU --full > %t.cpu
// RUN: lowpass-run %s -i x=%t.x.npy -i z=%t.z.npy -i xb=%t.b.npy --device REFERENCE --full > %t.ref
// RUN: diff %t.cpu %t.ref
// RUN: lowpass-run %s -i x=%t.x.npy -i z=%t.z.npy -i xb=%t.b.npy --device CPU -pcsort no_sort | filecheck %s --check-prefix=ROWS

// CHECK:      %[[P:.*]] = ov.mat_mul %q, %{{.*}} {ov.name = "narrow"} : (tensor<2x8xui8>, tensor<8x3xi8>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[Z:.*]] = ov.convert %z destination_type = f32 {ov.name = "narrow/zero_point"}
// CHECK-NEXT: %{{.*}} = ov.constant dense<{{\[\[}}1.840000e+02, 8.100000e+01, 2.410000e+02]]> : tensor<1x3xf32> {ov.name = "narrow/column_sums"}
// CHECK-NEXT: %[[S:.*]] = ov.multiply %[[Z]], %{{.*}} {ov.name = "narrow/zero_point_sums"} : (tensor<f32>, tensor<1x3xf32>) -> tensor<1x3xf32>
// CHECK-NEXT: %[[Y:.*]] = ov.subtract %[[P]], %[[S]] {ov.name = "y"}
// CHECK:      %[[F:.*]] = ov.convert %q destination_type = f32 {ov.name = "wide/float_input"}
// CHECK-NEXT: %[[WZ:.*]] = ov.convert %z destination_type = f32 {ov.name = "wide/zero_point"}
// CHECK-NEXT: %[[A:.*]] = ov.subtract %[[F]], %[[WZ]] {ov.name = "wide/shifted"}
// CHECK-NEXT: %{{.*}} = ov.constant dense<{{.*}}> : tensor<8x3xf32> {ov.name = "wide/weights"}
// CHECK:      %[[W:.*]] = ov.mat_mul %[[A]], %{{.*}} {ov.name = "w"} : (tensor<2x8xf32>, tensor<8x3xf32>) -> tensor<2x3xf32>
// CHECK:      %m = ov.mat_mul %qbi, %b127 {ov.name = "m"} : (tensor<1x600xi32>, tensor<600x2xi32>) -> tensor<1x2xi32>
// CHECK:      func.return %[[Y]], %[[W]], %big
// ROWS-DAG: narrow {{.*}} jit_{{[a-z0-9_]+}}_I8
// ROWS-DAG: w {{.*}} jit_{{[a-z0-9_]+}}_FP32
// ROWS-DAG: m {{.*}} ref_I32
// ROWS-NOT: narrow {{.*}} ref_

func.func @main(%x: tensor<2x8xf32> {ov.name = "x"}, %z: tensor<ui8> {ov.name = "z"}, %xb: tensor<1x600xf32> {ov.name = "xb"}) -> (tensor<2x3xf32> {ov.name = "y"}, tensor<2x3xf32> {ov.name = "w"}, tensor<1x2xf32> {ov.name = "big"}) {
  %il = ov.constant dense<0.0> : tensor<f32>
  %ih = ov.constant dense<255.0> : tensor<f32>
  %q = ov.fake_quantize %x, %il, %ih, %il, %ih levels = 256 {ov.name = "q"} : (tensor<2x8xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2x8xui8>
  %qi = ov.convert %q destination_type = i32 : (tensor<2x8xui8>) -> tensor<2x8xi32>
  %zi = ov.convert %z destination_type = i32 : (tensor<ui8>) -> tensor<i32>
  %a = ov.subtract %qi, %zi : (tensor<2x8xi32>, tensor<i32>) -> tensor<2x8xi32>
  %b8 = ov.constant dense<[[57, 113, 97], [2, 112, 121], [120, -108, -12], [27, -56, -32], [32, 77, 20], [-84, 45, 95], [-72, 11, -42], [102, -113, -6]]> : tensor<8x3xi32> {ov.name = "b8"}
  %narrow = ov.mat_mul %a, %b8 {ov.name = "narrow"} : (tensor<2x8xi32>, tensor<8x3xi32>) -> tensor<2x3xi32>
  %y = ov.convert %narrow destination_type = f32 {ov.name = "y"} : (tensor<2x3xi32>) -> tensor<2x3xf32>
  %bw = ov.constant dense<[[129, 10, -65], [101, 146, 151], [138, -6, 87], [148, 46, 137], [50, -55, 18], [55, -23, 80], [4, 141, -47], [70, -77, -66]]> : tensor<8x3xi32> {ov.name = "bw"}
  %wide = ov.mat_mul %a, %bw {ov.name = "wide"} : (tensor<2x8xi32>, tensor<8x3xi32>) -> tensor<2x3xi32>
  %w = ov.convert %wide destination_type = f32 {ov.name = "w"} : (tensor<2x3xi32>) -> tensor<2x3xf32>
  %qb = ov.fake_quantize %xb, %il, %ih, %il, %ih levels = 256 {ov.name = "qb"} : (tensor<1x600xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x600xui8>
  %qbi = ov.convert %qb destination_type = i32 : (tensor<1x600xui8>) -> tensor<1x600xi32>
  %b127 = ov.constant dense<127> : tensor<600x2xi32> {ov.name = "b127"}
  %m = ov.mat_mul %qbi, %b127 {ov.name = "m"} : (tensor<1x600xi32>, tensor<600x2xi32>) -> tensor<1x2xi32>
  %big = ov.convert %m destination_type = f32 {ov.name = "big"} : (tensor<1x2xi32>) -> tensor<1x2xf32>
  func.return %y, %w, %big : tensor<2x3xf32>, tensor<2x3xf32>, tensor<1x2xf32>
}
