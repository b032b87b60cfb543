// RUN: opt-tool %s | opt-tool | filecheck %s
// RUN: %roundtrip

// CHECK-LABEL: func.func @interpolate
func.func @interpolate(%x: tensor<1x3x4x?xf32>, %s: tensor<2xf32>) -> tensor<1x3x8x8xf32> {
  %sizes = ov.constant dense<[8, 8]> : tensor<2xi64>
  %axes = ov.constant dense<[2, 3]> : tensor<2xi64>
  // CHECK: ov.interpolate %{{.*}}, %{{.*}}, %{{.*}} {ov.name = "resize", mode = #ov<interpolate_mode linear_onnx>, shape_calculation_mode = #ov<shape_calculation_mode sizes>} : (tensor<1x3x4x?xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x3x8x8xf32>
  %0 = ov.interpolate %x, %sizes, %axes {mode = #ov<interpolate_mode linear_onnx>, shape_calculation_mode = #ov<shape_calculation_mode sizes>, ov.name = "resize"} : (tensor<1x3x4x?xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x3x8x8xf32>
  %scales = ov.constant dense<[1.0, 1.0, 1.5, 0.5]> : tensor<4xf32>
  // CHECK: ov.interpolate %{{.*}}, %{{.*}} {mode = #ov<interpolate_mode nearest>, shape_calculation_mode = #ov<shape_calculation_mode scales>, coordinate_transformation_mode = #ov<coordinate_transformation_mode asymmetric>, nearest_mode = #ov<nearest_mode floor>, pads_begin = array<i64: 0, 0, 1, 0>, pads_end = array<i64: 0, 0, 1, 0>} : (tensor<1x3x8x8xf32>, tensor<4xf32>) -> tensor<1x3x15x4xf32>
  %1 = ov.interpolate %0, %scales {mode = #ov<interpolate_mode nearest>, shape_calculation_mode = #ov<shape_calculation_mode scales>, coordinate_transformation_mode = #ov<coordinate_transformation_mode asymmetric>, nearest_mode = #ov<nearest_mode floor>, pads_begin = array<i64: 0, 0, 1, 0>, pads_end = array<i64: 0, 0, 1, 0>} : (tensor<1x3x8x8xf32>, tensor<4xf32>) -> tensor<1x3x15x4xf32>
  // CHECK: ov.interpolate %{{.*}}, %{{.*}}, %{{.*}} {mode = #ov<interpolate_mode cubic>, shape_calculation_mode = #ov<shape_calculation_mode scales>, coordinate_transformation_mode = #ov<coordinate_transformation_mode align_corners>, cube_coeff = -5.000000e-01 : f32} : (tensor<1x3x15x4xf32>, tensor<2xf32>, tensor<2xi64>) -> tensor<1x3x?x?xf32>
  %2 = ov.interpolate %1, %s, %axes {mode = #ov<interpolate_mode cubic>, shape_calculation_mode = #ov<shape_calculation_mode scales>, coordinate_transformation_mode = #ov<coordinate_transformation_mode align_corners>, cube_coeff = -5.000000e-01 : f32} : (tensor<1x3x15x4xf32>, tensor<2xf32>, tensor<2xi64>) -> tensor<1x3x?x?xf32>
  // CHECK: ov.interpolate %{{.*}}, %{{.*}}, %{{.*}} {mode = #ov<interpolate_mode linear>, shape_calculation_mode = #ov<shape_calculation_mode sizes>, coordinate_transformation_mode = #ov<coordinate_transformation_mode pytorch_half_pixel>} : (tensor<1x3x?x?xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x3x8x8xf32>
  %3 = ov.interpolate %2, %sizes, %axes {mode = #ov<interpolate_mode linear>, shape_calculation_mode = #ov<shape_calculation_mode sizes>, coordinate_transformation_mode = #ov<coordinate_transformation_mode pytorch_half_pixel>} : (tensor<1x3x?x?xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x3x8x8xf32>
  func.return %3 : tensor<1x3x8x8xf32>
}
