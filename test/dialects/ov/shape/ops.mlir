// RUN: opt-tool %s | opt-tool | filecheck %s
// RUN: %roundtrip

// CHECK-LABEL: func.func @reshape
func.func @reshape(%x: tensor<2x3x4xf32>, %d: tensor<?x4x6xf32>, %t: tensor<3xi64>) -> (tensor<2x12xf32>, tensor<?x24xf32>, tensor<?x?x?xf32>) {
  %s = ov.constant dense<[0, -1]> : tensor<2xi64>
  // CHECK: ov.reshape %{{.*}}, %{{.*}} special_zero = true {ov.name = "r"} : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x12xf32>
  %0 = ov.reshape %x, %s special_zero = true {ov.name = "r"} : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x12xf32>
  // CHECK: ov.reshape %{{.*}}, %{{.*}} special_zero = true : (tensor<?x4x6xf32>, tensor<2xi64>) -> tensor<?x24xf32>
  %1 = ov.reshape %d, %s special_zero = true : (tensor<?x4x6xf32>, tensor<2xi64>) -> tensor<?x24xf32>
  // a target shape that is not a constant: known rank, dynamic dims
  // CHECK: ov.reshape %{{.*}}, %{{.*}} special_zero = false : (tensor<2x3x4xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  %2 = ov.reshape %x, %t special_zero = false : (tensor<2x3x4xf32>, tensor<3xi64>) -> tensor<?x?x?xf32>
  func.return %0, %1, %2 : tensor<2x12xf32>, tensor<?x24xf32>, tensor<?x?x?xf32>
}

// CHECK-LABEL: func.func @shape_of
func.func @shape_of(%x: tensor<2x3x4xf32>, %y: tensor<6x4xf32>, %d: tensor<?x3xf32>) -> (tensor<2x3x4xf32>, tensor<2xi32>) {
  // CHECK: ov.shape_of %{{.*}} : (tensor<2x3x4xf32>) -> tensor<3xi64>
  %s = ov.shape_of %x : (tensor<2x3x4xf32>) -> tensor<3xi64>
  // the shape of a static tensor is known: the reshape has a static result
  // CHECK: ov.reshape %{{.*}}, %{{.*}} special_zero = false : (tensor<6x4xf32>, tensor<3xi64>) -> tensor<2x3x4xf32>
  %0 = ov.reshape %y, %s special_zero = false : (tensor<6x4xf32>, tensor<3xi64>) -> tensor<2x3x4xf32>
  // CHECK: ov.shape_of %{{.*}} output_type = i32 : (tensor<?x3xf32>) -> tensor<2xi32>
  %1 = ov.shape_of %d output_type = i32 : (tensor<?x3xf32>) -> tensor<2xi32>
  // the default output_type (i64) is not printed
  // CHECK: ov.shape_of %{{.*}} : (tensor<?x3xf32>) -> tensor<2xi64>
  %2 = ov.shape_of %d output_type = i64 : (tensor<?x3xf32>) -> tensor<2xi64>
  func.return %0, %1 : tensor<2x3x4xf32>, tensor<2xi32>
}

// CHECK-LABEL: func.func @squeeze_unsqueeze
func.func @squeeze_unsqueeze(%x: tensor<1x3x1x2xf32>, %d: tensor<?x1x4xf32>) -> (tensor<3x2xf32>, tensor<3x1x2xf32>, tensor<?x4xf32>, tensor<1x?x4x1xf32>) {
  %axes = ov.constant dense<[0, 2]> : tensor<2xi64>
  %one = ov.constant dense<1> : tensor<i32>
  %u = ov.constant dense<[0, -1]> : tensor<2xi64>
  // CHECK: ov.squeeze %{{.*}} : (tensor<1x3x1x2xf32>) -> tensor<3x2xf32>
  %0 = ov.squeeze %x : (tensor<1x3x1x2xf32>) -> tensor<3x2xf32>
  // CHECK: ov.squeeze %{{.*}}, %{{.*}} {ov.name = "sq"} : (tensor<1x3x1x2xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  %1 = ov.squeeze %x, %axes {ov.name = "sq"} : (tensor<1x3x1x2xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  // CHECK: ov.unsqueeze %{{.*}}, %{{.*}} : (tensor<3x2xf32>, tensor<i32>) -> tensor<3x1x2xf32>
  %2 = ov.unsqueeze %1, %one : (tensor<3x2xf32>, tensor<i32>) -> tensor<3x1x2xf32>
  // CHECK: ov.squeeze %{{.*}}, %{{.*}} : (tensor<?x1x4xf32>, tensor<i32>) -> tensor<?x4xf32>
  %3 = ov.squeeze %d, %one : (tensor<?x1x4xf32>, tensor<i32>) -> tensor<?x4xf32>
  // CHECK: ov.unsqueeze %{{.*}}, %{{.*}} : (tensor<?x4xf32>, tensor<2xi64>) -> tensor<1x?x4x1xf32>
  %4 = ov.unsqueeze %3, %u : (tensor<?x4xf32>, tensor<2xi64>) -> tensor<1x?x4x1xf32>
  func.return %0, %2, %3, %4 : tensor<3x2xf32>, tensor<3x1x2xf32>, tensor<?x4xf32>, tensor<1x?x4x1xf32>
}

// CHECK-LABEL: func.func @non_zero
func.func @non_zero(%x: tensor<2x3xf32>, %s: tensor<f32>, %e: tensor<2x0xi1>) -> tensor<2x?xi32> {
  // CHECK: ov.non_zero %{{.*}} output_type = i32 : (tensor<2x3xf32>) -> tensor<2x?xi32>
  %0 = ov.non_zero %x output_type = i32 : (tensor<2x3xf32>) -> tensor<2x?xi32>
  // CHECK: ov.non_zero %{{.*}} : (tensor<f32>) -> tensor<1x?xi64>
  %1 = ov.non_zero %s : (tensor<f32>) -> tensor<1x?xi64>
  // CHECK: ov.non_zero %{{.*}} : (tensor<2x0xi1>) -> tensor<2x0xi64>
  %2 = ov.non_zero %e : (tensor<2x0xi1>) -> tensor<2x0xi64>
  func.return %0 : tensor<2x?xi32>
}
