// RUN: opt-tool %s | opt-tool | filecheck %s
// RUN: %roundtrip

// CHECK-LABEL: func.func @pooling
func.func @pooling(%x: tensor<1x3x7x6xf32>, %d: tensor<2x4x?x9xf32>) -> tensor<1x3x4x3xf32> {
  // CHECK: ov.avg_pool %{{.*}} {ov.name = "avg", strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>, exclude_pad = false} : (tensor<1x3x7x6xf32>) -> tensor<1x3x3x3xf32>
  %0 = ov.avg_pool %x {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>, exclude_pad = false, ov.name = "avg"} : (tensor<1x3x7x6xf32>) -> tensor<1x3x3x3xf32>
  // CHECK: ov.avg_pool %{{.*}} {strides = array<i64: 2, 2>, pads_begin = array<i64: 1, 0>, pads_end = array<i64: 0, 1>, kernel = array<i64: 3, 3>, rounding_type = #ov<rounding_type ceil>, exclude_pad = true} : (tensor<1x3x7x6xf32>) -> tensor<1x3x4x3xf32>
  %1 = ov.avg_pool %x {strides = array<i64: 2, 2>, pads_begin = array<i64: 1, 0>, pads_end = array<i64: 0, 1>, kernel = array<i64: 3, 3>, rounding_type = #ov<rounding_type ceil>, exclude_pad = true} : (tensor<1x3x7x6xf32>) -> tensor<1x3x4x3xf32>
  // CHECK: ov.max_pool %{{.*}} {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 3, 3>, auto_pad = #ov<auto_pad same_upper>} : (tensor<1x3x7x6xf32>) -> tensor<1x3x4x3xf32>
  %2 = ov.max_pool %x {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 3, 3>, auto_pad = #ov<auto_pad same_upper>} : (tensor<1x3x7x6xf32>) -> tensor<1x3x4x3xf32>
  // CHECK: ov.max_pool %{{.*}} {strides = array<i64: 1, 3>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>, rounding_type = #ov<rounding_type ceil>, auto_pad = #ov<auto_pad valid>} : (tensor<2x4x?x9xf32>) -> tensor<2x4x?x4xf32>
  %3 = ov.max_pool %d {strides = array<i64: 1, 3>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>, rounding_type = #ov<rounding_type ceil>, auto_pad = #ov<auto_pad valid>} : (tensor<2x4x?x9xf32>) -> tensor<2x4x?x4xf32>
  %4 = ov.add %1, %2 : (tensor<1x3x4x3xf32>, tensor<1x3x4x3xf32>) -> tensor<1x3x4x3xf32>
  func.return %4 : tensor<1x3x4x3xf32>
}

// CHECK-LABEL: func.func @max_pool8
func.func @max_pool8(%x: tensor<1x3x9x8xf32>) -> tensor<1x3x5x7xi32> {
  // CHECK: %{{.*}}, %{{.*}} = ov.max_pool8 %{{.*}} {strides = array<i64: 2, 1>, pads_begin = array<i64: 1, 0>, pads_end = array<i64: 0, 1>, kernel = array<i64: 3, 2>, rounding_type = #ov<rounding_type ceil>, dilations = array<i64: 1, 2>, index_element_type = i32, axis = 2 : i64} : (tensor<1x3x9x8xf32>) -> (tensor<1x3x5x7xf32>, tensor<1x3x5x7xi32>)
  %0, %1 = ov.max_pool8 %x {strides = array<i64: 2, 1>, pads_begin = array<i64: 1, 0>, pads_end = array<i64: 0, 1>, kernel = array<i64: 3, 2>, rounding_type = #ov<rounding_type ceil>, dilations = array<i64: 1, 2>, index_element_type = i32, axis = 2 : i64} : (tensor<1x3x9x8xf32>) -> (tensor<1x3x5x7xf32>, tensor<1x3x5x7xi32>)
  // CHECK: ov.max_pool8 %{{.*}} {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>, auto_pad = #ov<auto_pad same_upper>, dilations = array<i64: 2, 2>} : (tensor<1x3x9x8xf32>) -> (tensor<1x3x9x8xf32>, tensor<1x3x9x8xi64>)
  %2, %3 = ov.max_pool8 %x {strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>, auto_pad = #ov<auto_pad same_upper>, dilations = array<i64: 2, 2>} : (tensor<1x3x9x8xf32>) -> (tensor<1x3x9x8xf32>, tensor<1x3x9x8xi64>)
  func.return %1 : tensor<1x3x5x7xi32>
}
