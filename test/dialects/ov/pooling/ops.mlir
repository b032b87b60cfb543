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
