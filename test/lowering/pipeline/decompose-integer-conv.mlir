// cpu-decompose: ONNX ConvInteger then Cast (onnxruntime's quantize_dynamic: u8 codes less a
// zero point known at run time, by int8 weights) becomes the int8 kernels' convolution of
// the codes padded by their zero point (padded positions then add zx - zx = 0, as in the
// i32 form), less the zero point times each output channel's weight sum: exact where every
// sum is an integer of at most 2^24. CPU equals REFERENCE.
// RUN: opt-tool -p cpu-decompose %s | filecheck %s
// RUN: python3 -c "import numpy as np; np.save('%t.x.npy', (np.arange(50) * 37 %% 256).astype(np.uint8).reshape(1, 2, 5, 5)); np.save('%t.z.npy', np.array(131, np.uint8))"
// RUN: lowpass-run %s -i x=%t.x.npy -i z=%t.z.npy --device CPU --full > %t.cpu
// RUN: lowpass-run %s -i x=%t.x.npy -i z=%t.z.npy --device REFERENCE --full > %t.ref
// RUN: diff %t.cpu %t.ref
// RUN: lowpass-run %s -i x=%t.x.npy -i z=%t.z.npy --device CPU -pcsort no_sort | filecheck %s --check-prefix=ROWS
// CHECK:      %[[PV:.*]] = ov.reshape %z, %{{.*}} special_zero = false {ov.name = "conv/pad_value"}
// CHECK-NEXT: %[[P:.*]] = ov.pad %x, %{{.*}}, %{{.*}}, %[[PV]] {ov.name = "conv/padded"} : {{.*}} -> tensor<1x2x7x7xui8>
// CHECK:      %[[C:.*]] = ov.convolution %[[P]], %{{.*}} {ov.name = "conv", {{.*}}pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>{{.*}} : (tensor<1x2x7x7xui8>, tensor<3x2x3x3xi8>) -> tensor<1x3x5x5xf32>
// CHECK-NEXT: %[[Z:.*]] = ov.convert %z destination_type = f32 {ov.name = "conv/zero_point"}
// CHECK:      %[[S:.*]] = ov.multiply %[[Z]], %{{.*}} {ov.name = "conv/zero_point_sums"}
// CHECK-NEXT: %[[Y:.*]] = ov.subtract %[[C]], %[[S]] {ov.name = "y"}
// CHECK-NEXT: func.return %[[Y]]
// ROWS:       conv {{ *}}Convolution {{ *}}jit_{{[a-z0-9_]+}}_I8
// ROWS-NOT:   ref_
func.func @main(%x: tensor<1x2x5x5xui8> {ov.name = "x"}, %z: tensor<ui8> {ov.name = "z"}) -> (tensor<1x3x5x5xf32> {ov.name = "y"}) {
  %xi = ov.convert %x destination_type = i32 : (tensor<1x2x5x5xui8>) -> tensor<1x2x5x5xi32>
  %zi = ov.convert %z destination_type = i32 : (tensor<ui8>) -> tensor<i32>
  %a = ov.subtract %xi, %zi : (tensor<1x2x5x5xi32>, tensor<i32>) -> tensor<1x2x5x5xi32>
  %w = ov.constant dense<[[[[-15, 9, 4], [-41, 114, -34], [40, -33, -13]], [[124, -81, 33], [-19, 44, 65], [-44, 44, 46]]], [[[-13, -97, 30], [-115, 98, 89], [88, -126, 120]], [[122, 21, 83], [68, 73, -89], [-116, -61, -75]]], [[[12, 89, 63], [-18, 11, 32], [68, -97, 71]], [[-81, 19, -1], [91, 66, -85], [10, -116, -101]]]]> : tensor<3x2x3x3xi32>
  %c = ov.convolution %a, %w {ov.name = "conv", strides = array<i64: 1, 1>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>} : (tensor<1x2x5x5xi32>, tensor<3x2x3x3xi32>) -> tensor<1x3x5x5xi32>
  %y = ov.convert %c destination_type = f32 {ov.name = "y"} : (tensor<1x3x5x5xi32>) -> tensor<1x3x5x5xf32>
  func.return %y : tensor<1x3x5x5xf32>
}
