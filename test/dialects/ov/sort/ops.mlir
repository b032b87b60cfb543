// RUN: opt-tool %s | opt-tool | filecheck %s
// RUN: %roundtrip

// CHECK-LABEL: func.func @topk
func.func @topk(%x: tensor<2x10xf32>, %n: tensor<1xi32>) -> (tensor<2x3xf32>, tensor<2x3xi32>, tensor<?x10xf16>, tensor<?x10xi64>) {
  %k = ov.constant dense<3> : tensor<i64>
  // CHECK: %{{.*}}, %{{.*}} = ov.topk %{{.*}}, %{{.*}} {ov.name = "top3", axis = 1 : i64, mode = #ov<topk_mode max>, sort = #ov<topk_sort value>} : (tensor<2x10xf32>, tensor<i64>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  %v, %i = ov.topk %x, %k {axis = 1 : i64, mode = #ov<topk_mode max>, sort = #ov<topk_sort value>, ov.name = "top3"} : (tensor<2x10xf32>, tensor<i64>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
  %h = ov.convert %x destination_type = f16 : (tensor<2x10xf32>) -> tensor<2x10xf16>
  // CHECK: ov.topk %{{.*}}, %{{.*}} {axis = 0 : i64, mode = #ov<topk_mode min>, sort = #ov<topk_sort index>, index_element_type = i64, stable = true} : (tensor<2x10xf16>, tensor<1xi32>) -> (tensor<?x10xf16>, tensor<?x10xi64>)
  %w, %j = ov.topk %h, %n {axis = 0 : i64, mode = #ov<topk_mode min>, sort = #ov<topk_sort index>, index_element_type = i64, stable = true} : (tensor<2x10xf16>, tensor<1xi32>) -> (tensor<?x10xf16>, tensor<?x10xi64>)
  func.return %v, %i, %w, %j : tensor<2x3xf32>, tensor<2x3xi32>, tensor<?x10xf16>, tensor<?x10xi64>
}
