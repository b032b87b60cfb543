// RUN: opt-tool %s | opt-tool | filecheck %s
// RUN: %roundtrip

// CHECK-LABEL: func.func @slice8
func.func @slice8(%x: tensor<4x6xf32>, %b: tensor<1xi64>) -> tensor<4x2xf32> {
  %start = ov.constant dense<5> : tensor<1xi64>
  %stop = ov.constant dense<-9223372036854775808> : tensor<1xi64>
  %step = ov.constant dense<-3> : tensor<1xi64>
  %axes = ov.constant dense<-1> : tensor<1xi64>
  // CHECK: ov.slice %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x6xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x2xf32>
  %y = ov.slice %x, %start, %stop, %step, %axes : (tensor<4x6xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x2xf32>
  // A start known only when running: the sliced dim is dynamic; without axes entry i slices axis i.
  // CHECK: ov.slice %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<4x6xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x6xf32>
  %z = ov.slice %x, %b, %stop, %step : (tensor<4x6xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x6xf32>
  func.return %y : tensor<4x2xf32>
}
