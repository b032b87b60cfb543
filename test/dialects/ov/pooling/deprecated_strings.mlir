// RUN: opt-tool %s 2>%t.err | filecheck %s
// RUN: filecheck %s --check-prefix=WARN < %t.err

// Enum properties written as strings (the IR before the ov enums) are read as the enum's
// value, with one deprecation warning each: the custom form's attribute dictionary, the
// generic form's properties, an array of strings (activations).

// CHECK-LABEL: func.func @old_strings
func.func @old_strings(%x: tensor<1x1x4x4xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) {
  // CHECK: ov.max_pool %{{.*}} {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>, rounding_type = #ov<rounding_type ceil>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  // WARN: deprecated_strings.mlir:[[# @LINE + 1]]:3: warning: 'ov.max_pool' op rounding_type = "ceil" (a string) is deprecated, read as #ov<rounding_type ceil>; write rounding_type = #ov<rounding_type ceil>
  %0 = ov.max_pool %x {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>, rounding_type = "ceil"} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  // CHECK: ov.avg_pool %{{.*}} {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>, exclude_pad = true, auto_pad = #ov<auto_pad same_upper>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  // WARN: deprecated_strings.mlir:[[# @LINE + 1]]:3: warning: 'ov.avg_pool' op auto_pad = "same_upper" (a string) is deprecated
  %1 = "ov.avg_pool"(%x) <{strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>, exclude_pad = true, rounding_type = #ov<rounding_type floor>, auto_pad = "same_upper"}> : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  func.return %0, %1 : tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>
}

// CHECK-LABEL: func.func @old_activations
func.func @old_activations(%x: tensor<2x3xf32>, %h: tensor<2x4xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  // CHECK: activations = [#ov<activation relu>]
  // WARN: deprecated_strings.mlir:[[# @LINE + 1]]:3: warning: 'ov.rnn_cell' op activations = ["relu"] (strings) is deprecated
  %0 = ov.rnn_cell %x, %h, %w, %r, %b {hidden_size = 4 : i64, activations = ["relu"]} : (tensor<2x3xf32>, tensor<2x4xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}
// WARN-NOT: warning
