// RUN: opt-tool %s | opt-tool | filecheck %s
// RUN: %roundtrip

// CHECK-LABEL: func.func @convert
func.func @convert(%x: tensor<2x?xf32>, %b: tensor<4xi1>) -> (tensor<2x?xui8>, tensor<4xf16>) {
  // CHECK: ov.convert %{{.*}} destination_type = i32 {ov.name = "to_int"} : (tensor<2x?xf32>) -> tensor<2x?xi32>
  %0 = ov.convert %x destination_type = i32 {ov.name = "to_int"} : (tensor<2x?xf32>) -> tensor<2x?xi32>
  // CHECK: ov.convert %{{.*}} destination_type = ui8 : (tensor<2x?xi32>) -> tensor<2x?xui8>
  %1 = ov.convert %0 destination_type = ui8 : (tensor<2x?xi32>) -> tensor<2x?xui8>
  // CHECK: ov.convert %{{.*}} destination_type = i64 : (tensor<4xi1>) -> tensor<4xi64>
  %2 = ov.convert %b destination_type = i64 : (tensor<4xi1>) -> tensor<4xi64>
  // CHECK: ov.convert %{{.*}} destination_type = f16 : (tensor<4xi64>) -> tensor<4xf16>
  %3 = ov.convert %2 destination_type = f16 : (tensor<4xi64>) -> tensor<4xf16>
  // CHECK: ov.convert %{{.*}} destination_type = i1 : (tensor<4xf16>) -> tensor<4xi1>
  %4 = ov.convert %3 destination_type = i1 : (tensor<4xf16>) -> tensor<4xi1>
  // CHECK: ov.convert %{{.*}} destination_type = i8 : (tensor<4xi1>) -> tensor<4xi8>
  %5 = ov.convert %4 destination_type = i8 : (tensor<4xi1>) -> tensor<4xi8>
  func.return %1, %3 : tensor<2x?xui8>, tensor<4xf16>
}
