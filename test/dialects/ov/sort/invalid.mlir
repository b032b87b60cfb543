// RUN: opt-tool %s --split-input-file --verify-diagnostics --parsing-diagnostics | filecheck %s

func.func @topk_axis(%x: tensor<2x10xf32>, %k: tensor<i64>) -> (tensor<2x10xf32>, tensor<2x10xi32>) {
  %v, %i = ov.topk %x, %k {axis = 2 : i64, mode = #ov<topk_mode max>, sort = #ov<topk_sort value>} : (tensor<2x10xf32>, tensor<i64>) -> (tensor<2x10xf32>, tensor<2x10xi32>)
  func.return %v, %i : tensor<2x10xf32>, tensor<2x10xi32>
}
// CHECK: error: 'ov.topk' op axis 2 is out of range for rank 2, expected [-2, 1]

// -----

func.func @topk_k_shape(%x: tensor<2x10xf32>, %k: tensor<2xi64>) -> (tensor<2x?xf32>, tensor<2x?xi32>) {
  %v, %i = ov.topk %x, %k {axis = 1 : i64, mode = #ov<topk_mode max>, sort = #ov<topk_sort value>} : (tensor<2x10xf32>, tensor<2xi64>) -> (tensor<2x?xf32>, tensor<2x?xi32>)
  func.return %v, %i : tensor<2x?xf32>, tensor<2x?xi32>
}
// CHECK: error: 'ov.topk' op k must be a scalar or hold one element, got shape [2]

// -----

func.func @topk_negative_k(%x: tensor<2x10xf32>) -> (tensor<2x0xf32>, tensor<2x0xi32>) {
  %k = ov.constant dense<-1> : tensor<i64>
  %v, %i = ov.topk %x, %k {axis = 1 : i64, mode = #ov<topk_mode max>, sort = #ov<topk_sort value>} : (tensor<2x10xf32>, tensor<i64>) -> (tensor<2x0xf32>, tensor<2x0xi32>)
  func.return %v, %i : tensor<2x0xf32>, tensor<2x0xi32>
}
// CHECK: error: 'ov.topk' op k must be non-negative, got -1

// -----

func.func @topk_index_type(%x: tensor<2x10xf32>, %k: tensor<i64>) -> (tensor<2x?xf32>, tensor<2x?xi8>) {
  %v, %i = ov.topk %x, %k {axis = 1 : i64, mode = #ov<topk_mode max>, sort = #ov<topk_sort value>, index_element_type = i8} : (tensor<2x10xf32>, tensor<i64>) -> (tensor<2x?xf32>, tensor<2x?xi8>)
  func.return %v, %i : tensor<2x?xf32>, tensor<2x?xi8>
}
// CHECK: error: 'ov.topk' op index_element_type must be i64 or i32, got i8

// -----

func.func @topk_mode(%x: tensor<2x10xf32>, %k: tensor<i64>) -> (tensor<2x?xf32>, tensor<2x?xi32>) {
  %v, %i = ov.topk %x, %k {axis = 1 : i64, mode = #ov<topk_mode largest>, sort = #ov<topk_sort value>} : (tensor<2x10xf32>, tensor<i64>) -> (tensor<2x?xf32>, tensor<2x?xi32>)
  func.return %v, %i : tensor<2x?xf32>, tensor<2x?xi32>
}
// CHECK: Expected `max`, or `min`.
