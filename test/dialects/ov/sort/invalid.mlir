// RUN: opt-tool %s --split-input-file --verify-diagnostics

func.func @topk_axis(%x: tensor<2x10xf32>, %k: tensor<i64>) -> (tensor<2x10xf32>, tensor<2x10xi32>) {
  // expected-error @+1 {{'ov.topk' op axis 2 is out of range for rank 2, expected [-2, 1]}}
  %v, %i = ov.topk %x, %k {axis = 2 : i64, mode = #ov<topk_mode max>, sort = #ov<topk_sort value>} : (tensor<2x10xf32>, tensor<i64>) -> (tensor<2x10xf32>, tensor<2x10xi32>)
  func.return %v, %i : tensor<2x10xf32>, tensor<2x10xi32>
}

// -----

func.func @topk_k_shape(%x: tensor<2x10xf32>, %k: tensor<2xi64>) -> (tensor<2x?xf32>, tensor<2x?xi32>) {
  // expected-error @+1 {{'ov.topk' op k must be a scalar or hold one element, got shape [2]}}
  %v, %i = ov.topk %x, %k {axis = 1 : i64, mode = #ov<topk_mode max>, sort = #ov<topk_sort value>} : (tensor<2x10xf32>, tensor<2xi64>) -> (tensor<2x?xf32>, tensor<2x?xi32>)
  func.return %v, %i : tensor<2x?xf32>, tensor<2x?xi32>
}

// -----

func.func @topk_negative_k(%x: tensor<2x10xf32>) -> (tensor<2x0xf32>, tensor<2x0xi32>) {
  %k = ov.constant dense<-1> : tensor<i64>
  // expected-error @+1 {{'ov.topk' op k must be non-negative, got -1}}
  %v, %i = ov.topk %x, %k {axis = 1 : i64, mode = #ov<topk_mode max>, sort = #ov<topk_sort value>} : (tensor<2x10xf32>, tensor<i64>) -> (tensor<2x0xf32>, tensor<2x0xi32>)
  func.return %v, %i : tensor<2x0xf32>, tensor<2x0xi32>
}

// -----

func.func @topk_index_type(%x: tensor<2x10xf32>, %k: tensor<i64>) -> (tensor<2x?xf32>, tensor<2x?xi8>) {
  // expected-error @+1 {{'ov.topk' op index_element_type must be i64 or i32, got i8}}
  %v, %i = ov.topk %x, %k {axis = 1 : i64, mode = #ov<topk_mode max>, sort = #ov<topk_sort value>, index_element_type = i8} : (tensor<2x10xf32>, tensor<i64>) -> (tensor<2x?xf32>, tensor<2x?xi8>)
  func.return %v, %i : tensor<2x?xf32>, tensor<2x?xi8>
}

// -----

func.func @topk_mode(%x: tensor<2x10xf32>, %k: tensor<i64>) -> (tensor<2x?xf32>, tensor<2x?xi32>) {
  // expected-error @+1 {{Expected `max`, or `min`.}}
  %v, %i = ov.topk %x, %k {axis = 1 : i64, mode = #ov<topk_mode largest>, sort = #ov<topk_sort value>} : (tensor<2x10xf32>, tensor<i64>) -> (tensor<2x?xf32>, tensor<2x?xi32>)
  func.return %v, %i : tensor<2x?xf32>, tensor<2x?xi32>
}
