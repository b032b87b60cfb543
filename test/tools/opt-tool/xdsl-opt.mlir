// The xdsl.universe entry point makes plain xdsl-opt see the ov dialect.
// RUN: xdsl-opt %s | filecheck %s
// CHECK: ov.add %{{.*}}, %{{.*}} {ov.name = "a"}
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %a = ov.add %x, %x {ov.name = "a"} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %a : tensor<3xf32>
}
