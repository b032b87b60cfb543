// RUN: opt-tool %s | opt-tool | filecheck %s
// RUN: %roundtrip

// CHECK:      func.func @main(%x: tensor<4x16xf32>) -> tensor<4x16xf32> attributes {cpu.arena = #cpu.arena<256>} {
// CHECK-NEXT:   %c = ov.constant dense<5.000000e-01> : tensor<f32>
// CHECK-NEXT:   %s = ov.shape_of %x {cpu.constant} :
// CHECK-NEXT:   %a = ov.add %x, %c {cpu.kernel = #cpu.kernel<0, "elementwise">, cpu.buffers = [#cpu.buffer<none>]} :
// CHECK-NEXT:   %r = ov.relu %a {cpu.fused = #cpu.fused<0>, cpu.buffers = [#cpu.buffer<arena 0, 256>]} :
// CHECK-NEXT:   %v = ov.reshape %r, %s special_zero = false {cpu.view} :
// CHECK-NEXT:   %t = ov.tanh %v {cpu.kernel = #cpu.kernel<1, "elementwise">, cpu.buffers = [#cpu.buffer<output 0, 256>]} :
// CHECK-NEXT:   %q = ov.relu %t {cpu.quantized = #cpu.quantized_cell<x 256, h 255, weights 63, gemms 2>, cpu.cell_step = #cpu<cell_step fused>} :
// CHECK-NEXT:   %e = ov.relu %q {cpu.int8 = #cpu<int8 vpdpbusd>, cpu.epilogue = #cpu.epilogue<mul, add_tensor, relu, fq>} :
// CHECK-NEXT:   %n = ov.relu %e {cpu.epilogue = #cpu.epilogue<>} :
// CHECK-NEXT:   %k = ov.relu %n {cpu.epilogue = #cpu.epilogue<mul, add | relu, fq>} :
// CHECK-NEXT:   %p = ov.relu %k {cpu.epilogue = #cpu.epilogue<| add>} :
// CHECK-NEXT:   %b = ov.relu %p {cpu.row_bands = #cpu.row_bands<rows 3, groups 4 to 5>} :
func.func @main(%x: tensor<4x16xf32>) -> tensor<4x16xf32> attributes {cpu.arena = #cpu.arena<256>} {
  %c = ov.constant dense<0.5> : tensor<f32>
  %s = ov.shape_of %x {cpu.constant} : (tensor<4x16xf32>) -> tensor<2xi64>
  %a = ov.add %x, %c {cpu.kernel = #cpu.kernel<0, "elementwise">, cpu.buffers = [#cpu.buffer<none>]} : (tensor<4x16xf32>, tensor<f32>) -> tensor<4x16xf32>
  %r = ov.relu %a {cpu.fused = #cpu.fused<0>, cpu.buffers = [#cpu.buffer<arena 0, 256>]} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %v = ov.reshape %r, %s special_zero = false {cpu.view} : (tensor<4x16xf32>, tensor<2xi64>) -> tensor<4x16xf32>
  %t = ov.tanh %v {cpu.kernel = #cpu.kernel<1, "elementwise">, cpu.buffers = [#cpu.buffer<output 0, 256>]} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %q = ov.relu %t {cpu.quantized = #cpu.quantized_cell<x 256, h 255, weights 63, gemms 2>, cpu.cell_step = #cpu<cell_step fused>} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %e = ov.relu %q {cpu.int8 = #cpu<int8 vpdpbusd>, cpu.epilogue = #cpu.epilogue<mul, add_tensor, relu, fq>} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %n = ov.relu %e {cpu.epilogue = #cpu.epilogue<>} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %k = ov.relu %n {cpu.epilogue = #cpu.epilogue<mul,add|relu,fq>} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %p = ov.relu %k {cpu.epilogue = #cpu.epilogue<| add>} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %b = ov.relu %p {cpu.row_bands = #cpu.row_bands<rows 3, groups 4 to 5>} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  func.return %t : tensor<4x16xf32>
}
