// ConcatTransformation alone (-p test-lpt-concat: markup + this transformation), on inputs that
// already carry dequantizations: Concat(DQ_i(x_i)) -> DQ(Concat(x_i)), the DQ constants
// broadcast to [1, .., C_i (axis), .., 1] and concatenated, scalars when all equal (spec 5.7).
// RUN: opt-tool %s --split-input-file -p test-lpt-concat | filecheck %s

// Different per-tensor scales and one zero point: per-channel constants [1, C, 1, 1].
func.func @per_channel(%a: tensor<1x2x4x4xui8>, %b: tensor<1x3x4x4xui8>) -> tensor<1x5x4x4xf32> {
  %ca = ov.convert %a destination_type = f32 : (tensor<1x2x4x4xui8>) -> tensor<1x2x4x4xf32>
  %sa = ov.constant dense<0.01> : tensor<f32>
  %ma = ov.multiply %ca, %sa : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %cb = ov.convert %b destination_type = f32 : (tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32>
  %zb = ov.constant dense<128.0> : tensor<f32>
  %db = ov.subtract %cb, %zb : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
  %sb = ov.constant dense<0.02> : tensor<f32>
  %mb = ov.multiply %db, %sb : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
  %cat = ov.concat %ma, %mb axis = 1 {ov.name = "concat"} : (tensor<1x2x4x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x5x4x4xf32>
  func.return %cat : tensor<1x5x4x4xf32>
}
// CHECK-LABEL: func.func @per_channel
// CHECK:      %[[CAT:.*]] = ov.concat %a, %b axis = 1 {ov.name = "concat_original"} : (tensor<1x2x4x4xui8>, tensor<1x3x4x4xui8>) -> tensor<1x5x4x4xui8>
// CHECK-NEXT: %[[CVT:.*]] = ov.convert %[[CAT]] destination_type = f32 {ov.name = "concat/DequantizationConvert"}
// CHECK-NEXT: %[[ZP:.*]] = ov.constant dense<{{\[\[\[\[}}0.000000e+00]], {{\[\[}}0.000000e+00]], {{\[\[}}1.280000e+02]], {{\[\[}}1.280000e+02]], {{\[\[}}1.280000e+02]]]]> : tensor<1x5x1x1xf32>
// CHECK-NEXT: %[[SUB:.*]] = ov.subtract %[[CVT]], %[[ZP]] {ov.name = "concat/DequantizationSubtract"}
// CHECK-NEXT: %[[S:.*]] = ov.constant dense<{{\[\[\[\[}}1.000000e-02]], {{\[\[}}1.000000e-02]], {{\[\[}}2.000000e-02]], {{\[\[}}2.000000e-02]], {{\[\[}}2.000000e-02]]]]> : tensor<1x5x1x1xf32>
// CHECK-NEXT: %cat = ov.multiply %[[SUB]], %[[S]] {ov.name = "concat"} : (tensor<1x5x4x4xf32>, tensor<1x5x1x1xf32>) -> tensor<1x5x4x4xf32>
// CHECK-NEXT: func.return %cat

// -----

// Identical dequantizations: scalar constants.
func.func @same(%a: tensor<1x2x4x4xui8>, %b: tensor<1x3x4x4xui8>) -> tensor<1x5x4x4xf32> {
  %z = ov.constant dense<85.0> : tensor<f32>
  %s = ov.constant dense<0.0150196077> : tensor<f32>
  %ca = ov.convert %a destination_type = f32 : (tensor<1x2x4x4xui8>) -> tensor<1x2x4x4xf32>
  %da = ov.subtract %ca, %z : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %ma = ov.multiply %da, %s : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %cb = ov.convert %b destination_type = f32 : (tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32>
  %db = ov.subtract %cb, %z : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
  %mb = ov.multiply %db, %s : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
  %cat = ov.concat %ma, %mb axis = 1 {ov.name = "concat"} : (tensor<1x2x4x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x5x4x4xf32>
  func.return %cat : tensor<1x5x4x4xf32>
}
// CHECK-LABEL: func.func @same
// CHECK:      %[[CAT:.*]] = ov.concat %a, %b axis = 1 {{.*}} -> tensor<1x5x4x4xui8>
// CHECK-NEXT: %[[CVT:.*]] = ov.convert %[[CAT]] destination_type = f32
// CHECK-NEXT: %[[ZP:.*]] = ov.constant dense<8.500000e+01> : tensor<f32>
// CHECK-NEXT: %[[SUB:.*]] = ov.subtract %[[CVT]], %[[ZP]]
// CHECK-NEXT: %[[S:.*]] = ov.constant dense<0.0150196077> : tensor<f32>
// CHECK-NEXT: %cat = ov.multiply %[[SUB]], %[[S]] {ov.name = "concat"} : (tensor<1x5x4x4xf32>, tensor<f32>) -> tensor<1x5x4x4xf32>

// -----

// Zero points stored as u8 (Convert on the constant) on every input: the Convert is kept.
func.func @subtract_convert(%a: tensor<1x2x4x4xui8>, %b: tensor<1x1x4x4xui8>) -> tensor<1x3x4x4xf32> {
  %ca = ov.convert %a destination_type = f32 : (tensor<1x2x4x4xui8>) -> tensor<1x2x4x4xf32>
  %za = ov.constant dense<[[[[10]], [[20]]]]> : tensor<1x2x1x1xui8>
  %zca = ov.convert %za destination_type = f32 : (tensor<1x2x1x1xui8>) -> tensor<1x2x1x1xf32>
  %da = ov.subtract %ca, %zca : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %sa = ov.constant dense<0.1> : tensor<f32>
  %ma = ov.multiply %da, %sa : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %cb = ov.convert %b destination_type = f32 : (tensor<1x1x4x4xui8>) -> tensor<1x1x4x4xf32>
  %zb = ov.constant dense<30> : tensor<ui8>
  %zcb = ov.convert %zb destination_type = f32 : (tensor<ui8>) -> tensor<f32>
  %db = ov.subtract %cb, %zcb : (tensor<1x1x4x4xf32>, tensor<f32>) -> tensor<1x1x4x4xf32>
  %mb = ov.multiply %db, %sa : (tensor<1x1x4x4xf32>, tensor<f32>) -> tensor<1x1x4x4xf32>
  %cat = ov.concat %ma, %mb axis = 1 {ov.name = "concat"} : (tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x3x4x4xf32>
  func.return %cat : tensor<1x3x4x4xf32>
}
// CHECK-LABEL: func.func @subtract_convert
// CHECK:      %[[CAT:.*]] = ov.concat %a, %b axis = 1 {{.*}} -> tensor<1x3x4x4xui8>
// CHECK-NEXT: %[[CVT:.*]] = ov.convert %[[CAT]] destination_type = f32
// CHECK-NEXT: %[[ZP:.*]] = ov.constant dense<{{\[\[\[\[}}10]], {{\[\[}}20]], {{\[\[}}30]]]]> : tensor<1x3x1x1xui8>
// CHECK-NEXT: %[[ZPF:.*]] = ov.convert %[[ZP]] destination_type = f32 : (tensor<1x3x1x1xui8>) -> tensor<1x3x1x1xf32>
// CHECK-NEXT: %[[SUB:.*]] = ov.subtract %[[CVT]], %[[ZPF]]
// CHECK-NEXT: %[[S:.*]] = ov.constant dense<1.000000e-01> : tensor<f32>
// CHECK-NEXT: %cat = ov.multiply %[[SUB]], %[[S]]

// -----

// A u8 zero point on one input, none on the other: that one gets a u8 0, the Convert stays.
func.func @subtract_convert_missing(%a: tensor<1x2x4x4xui8>, %b: tensor<1x1x4x4xui8>) -> tensor<1x3x4x4xf32> {
  %ca = ov.convert %a destination_type = f32 : (tensor<1x2x4x4xui8>) -> tensor<1x2x4x4xf32>
  %za = ov.constant dense<7> : tensor<ui8>
  %zca = ov.convert %za destination_type = f32 : (tensor<ui8>) -> tensor<f32>
  %da = ov.subtract %ca, %zca : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %sa = ov.constant dense<0.1> : tensor<f32>
  %ma = ov.multiply %da, %sa : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %cb = ov.convert %b destination_type = f32 : (tensor<1x1x4x4xui8>) -> tensor<1x1x4x4xf32>
  %mb = ov.multiply %cb, %sa : (tensor<1x1x4x4xf32>, tensor<f32>) -> tensor<1x1x4x4xf32>
  %cat = ov.concat %ma, %mb axis = 1 {ov.name = "concat"} : (tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x3x4x4xf32>
  func.return %cat : tensor<1x3x4x4xf32>
}

// A u8 zero point on one input and an f32 one on the other: the u8 one is folded to f32.
func.func @subtract_convert_mixed(%a: tensor<1x2x4x4xui8>, %b: tensor<1x1x4x4xui8>) -> tensor<1x3x4x4xf32> {
  %ca = ov.convert %a destination_type = f32 : (tensor<1x2x4x4xui8>) -> tensor<1x2x4x4xf32>
  %za = ov.constant dense<7> : tensor<ui8>
  %zca = ov.convert %za destination_type = f32 : (tensor<ui8>) -> tensor<f32>
  %da = ov.subtract %ca, %zca : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %sa = ov.constant dense<0.1> : tensor<f32>
  %ma = ov.multiply %da, %sa : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %cb = ov.convert %b destination_type = f32 : (tensor<1x1x4x4xui8>) -> tensor<1x1x4x4xf32>
  %zb = ov.constant dense<3.5> : tensor<f32>
  %db = ov.subtract %cb, %zb : (tensor<1x1x4x4xf32>, tensor<f32>) -> tensor<1x1x4x4xf32>
  %mb = ov.multiply %db, %sa : (tensor<1x1x4x4xf32>, tensor<f32>) -> tensor<1x1x4x4xf32>
  %cat = ov.concat %ma, %mb axis = 1 {ov.name = "concat"} : (tensor<1x2x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x3x4x4xf32>
  func.return %cat : tensor<1x3x4x4xf32>
}
// CHECK-LABEL: func.func @subtract_convert_missing
// CHECK:      %[[ZP:.*]] = ov.constant dense<{{\[\[\[\[}}7]], {{\[\[}}7]], {{\[\[}}0]]]]> : tensor<1x3x1x1xui8>
// CHECK-NEXT: %[[ZPF:.*]] = ov.convert %[[ZP]] destination_type = f32
// CHECK-NEXT: ov.subtract %{{.*}}, %[[ZPF]]

// -----

// Concatenation along a spatial axis: the constants vary along axis 2.
func.func @spatial_axis(%a: tensor<1x2x1x4xi8>, %b: tensor<1x2x3x4xi8>) -> tensor<1x2x4x4xf32> {
  %ca = ov.convert %a destination_type = f32 : (tensor<1x2x1x4xi8>) -> tensor<1x2x1x4xf32>
  %sa = ov.constant dense<0.5> : tensor<1x1x1x1xf32>
  %ma = ov.multiply %ca, %sa : (tensor<1x2x1x4xf32>, tensor<1x1x1x1xf32>) -> tensor<1x2x1x4xf32>
  %cb = ov.convert %b destination_type = f32 : (tensor<1x2x3x4xi8>) -> tensor<1x2x3x4xf32>
  %sb = ov.constant dense<0.25> : tensor<f32>
  %mb = ov.multiply %cb, %sb : (tensor<1x2x3x4xf32>, tensor<f32>) -> tensor<1x2x3x4xf32>
  %cat = ov.concat %ma, %mb axis = -2 {ov.name = "concat"} : (tensor<1x2x1x4xf32>, tensor<1x2x3x4xf32>) -> tensor<1x2x4x4xf32>
  func.return %cat : tensor<1x2x4x4xf32>
}
// CHECK-LABEL: func.func @spatial_axis
// CHECK:      %[[CAT:.*]] = ov.concat %a, %b axis = -2 {{.*}} : (tensor<1x2x1x4xi8>, tensor<1x2x3x4xi8>) -> tensor<1x2x4x4xi8>
// CHECK-NEXT: %[[CVT:.*]] = ov.convert %[[CAT]] destination_type = f32
// CHECK-NEXT: %[[S:.*]] = ov.constant dense<{{\[\[\[\[}}5.000000e-01], [2.500000e-01], [2.500000e-01], [2.500000e-01]]]]> : tensor<1x1x4x1xf32>
// CHECK-NEXT: %cat = ov.multiply %[[CVT]], %[[S]] {ov.name = "concat"} : (tensor<1x2x4x4xf32>, tensor<1x1x4x1xf32>)

// -----

// A dynamic concatenated dim: identical per-tensor dequantizations move as scalars.
func.func @dynamic_axis(%a: tensor<1x?x4xui8>, %b: tensor<1x?x4xui8>) -> tensor<1x?x4xf32> {
  %z = ov.constant dense<[[[2.0]]]> : tensor<1x1x1xf32>
  %s = ov.constant dense<0.5> : tensor<f32>
  %ca = ov.convert %a destination_type = f32 : (tensor<1x?x4xui8>) -> tensor<1x?x4xf32>
  %da = ov.subtract %ca, %z : (tensor<1x?x4xf32>, tensor<1x1x1xf32>) -> tensor<1x?x4xf32>
  %ma = ov.multiply %da, %s : (tensor<1x?x4xf32>, tensor<f32>) -> tensor<1x?x4xf32>
  %cb = ov.convert %b destination_type = f32 : (tensor<1x?x4xui8>) -> tensor<1x?x4xf32>
  %db = ov.subtract %cb, %z : (tensor<1x?x4xf32>, tensor<1x1x1xf32>) -> tensor<1x?x4xf32>
  %mb = ov.multiply %db, %s : (tensor<1x?x4xf32>, tensor<f32>) -> tensor<1x?x4xf32>
  %cat = ov.concat %ma, %mb axis = 1 {ov.name = "concat"} : (tensor<1x?x4xf32>, tensor<1x?x4xf32>) -> tensor<1x?x4xf32>
  func.return %cat : tensor<1x?x4xf32>
}
// CHECK-LABEL: func.func @dynamic_axis(
// CHECK:      %[[CAT:.*]] = ov.concat %a, %b axis = 1 {{.*}} : (tensor<1x?x4xui8>, tensor<1x?x4xui8>) -> tensor<1x?x4xui8>
// CHECK-NEXT: %[[CVT:.*]] = ov.convert %[[CAT]] destination_type = f32
// CHECK-NEXT: %[[ZP:.*]] = ov.constant dense<2.000000e+00> : tensor<f32>
// CHECK-NEXT: %[[SUB:.*]] = ov.subtract %[[CVT]], %[[ZP]]
// CHECK-NEXT: %[[S:.*]] = ov.constant dense<5.000000e-01> : tensor<f32>
// CHECK-NEXT: %cat = ov.multiply %[[SUB]], %[[S]]

// -----

// A dequantization with another user stays for it; the Concat gets its own.
func.func @shared_dq(%a: tensor<1x2x4x4xui8>, %b: tensor<1x2x4x4xui8>) -> (tensor<1x4x4x4xf32>, tensor<1x2x4x4xf32>) {
  %s = ov.constant dense<0.1> : tensor<f32>
  %ca = ov.convert %a destination_type = f32 : (tensor<1x2x4x4xui8>) -> tensor<1x2x4x4xf32>
  %ma = ov.multiply %ca, %s : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %cb = ov.convert %b destination_type = f32 : (tensor<1x2x4x4xui8>) -> tensor<1x2x4x4xf32>
  %mb = ov.multiply %cb, %s : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %cat = ov.concat %ma, %mb axis = 1 {ov.name = "concat"} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  func.return %cat, %ma : tensor<1x4x4x4xf32>, tensor<1x2x4x4xf32>
}
// CHECK-LABEL: func.func @shared_dq
// CHECK:      %ma = ov.multiply %ca, %s
// CHECK-NEXT: %[[CAT:.*]] = ov.concat %a, %b axis = 1 {{.*}} -> tensor<1x4x4x4xui8>
// CHECK-NEXT: %[[CVT:.*]] = ov.convert %[[CAT]] destination_type = f32
// CHECK-NEXT: %[[S:.*]] = ov.constant dense<1.000000e-01> : tensor<f32>
// CHECK-NEXT: %cat = ov.multiply %[[CVT]], %[[S]]
// CHECK-NEXT: func.return %cat, %ma

// -----

// Not transformed: a dynamic concatenated dim with different scales.
func.func @dynamic_axis_differ(%a: tensor<1x?x4xui8>, %b: tensor<1x?x4xui8>) -> tensor<1x?x4xf32> {
  %sa = ov.constant dense<0.5> : tensor<f32>
  %sb = ov.constant dense<0.25> : tensor<f32>
  %ca = ov.convert %a destination_type = f32 : (tensor<1x?x4xui8>) -> tensor<1x?x4xf32>
  %ma = ov.multiply %ca, %sa : (tensor<1x?x4xf32>, tensor<f32>) -> tensor<1x?x4xf32>
  %cb = ov.convert %b destination_type = f32 : (tensor<1x?x4xui8>) -> tensor<1x?x4xf32>
  %mb = ov.multiply %cb, %sb : (tensor<1x?x4xf32>, tensor<f32>) -> tensor<1x?x4xf32>
  %cat = ov.concat %ma, %mb axis = 1 {ov.name = "concat"} : (tensor<1x?x4xf32>, tensor<1x?x4xf32>) -> tensor<1x?x4xf32>
  func.return %cat : tensor<1x?x4xf32>
}
// CHECK-LABEL: func.func @dynamic_axis_differ
// CHECK:      %cat = ov.concat %ma, %mb axis = 1 {ov.name = "concat"} : (tensor<1x?x4xf32>, tensor<1x?x4xf32>) -> tensor<1x?x4xf32>

// -----

// Not transformed: an input without dequantization; u8 and i8 data; a per-channel constant
// that varies along a dim other than the concatenation axis.
func.func @not_transformed(%a: tensor<1x2x4x4xui8>, %b: tensor<1x2x4x4xf32>, %c: tensor<1x2x4x4xi8>) -> (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x2x8x4xf32>) {
  %ca = ov.convert %a destination_type = f32 : (tensor<1x2x4x4xui8>) -> tensor<1x2x4x4xf32>
  %s = ov.constant dense<0.1> : tensor<f32>
  %ma = ov.multiply %ca, %s : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %cat1 = ov.concat %ma, %b axis = 1 {ov.name = "float_input"} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %cc = ov.convert %c destination_type = f32 : (tensor<1x2x4x4xi8>) -> tensor<1x2x4x4xf32>
  %mc = ov.multiply %cc, %s : (tensor<1x2x4x4xf32>, tensor<f32>) -> tensor<1x2x4x4xf32>
  %cat2 = ov.concat %ma, %mc axis = 1 {ov.name = "u8_i8"} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x4x4x4xf32>
  %sc = ov.constant dense<[[[[0.1]], [[0.2]]]]> : tensor<1x2x1x1xf32>
  %ma2 = ov.multiply %ca, %sc : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %cat3 = ov.concat %ma2, %ma axis = 2 {ov.name = "channel_vs_axis"} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x8x4xf32>
  func.return %cat1, %cat2, %cat3 : tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x2x8x4xf32>
}
// CHECK-LABEL: func.func @not_transformed
// CHECK:      %cat1 = ov.concat %ma, %b axis = 1 {ov.name = "float_input"} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>)
// CHECK:      %cat2 = ov.concat %ma, %mc axis = 1 {ov.name = "u8_i8"} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>)
// CHECK:      %cat3 = ov.concat %ma2, %ma axis = 2 {ov.name = "channel_vs_axis"} : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>)
