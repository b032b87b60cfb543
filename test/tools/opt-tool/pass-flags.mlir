// Pass flags run in command-line order, before -p; --print-between-passes shows the order.
// RUN: opt-tool %s --dce --canonicalize --print-between-passes | filecheck %s
// RUN: opt-tool %s --canonicalize -p dce --print-between-passes | filecheck %s --check-prefix=PIPE
// RUN: opt-tool %s --help | filecheck %s --check-prefix=HELP

// CHECK:       IR after dce:
// CHECK:         ov.multiply
// CHECK:       func.func @main
// CHECK-NOT:     ov.multiply
// PIPE:        IR after canonicalize:
// HELP:        --canonicalize {{.*}}run the 'canonicalize' pass

func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %c = ov.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %m = ov.multiply %c, %c : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %a = ov.add %x, %m : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  func.return %a : tensor<3xf32>
}
