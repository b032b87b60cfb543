func.func @main(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %r: tensor<4x4xf32>, %rp: tensor<4x2xf32>, %v: tensor<4xf32>, %p: tensor<2x4xf32>, %pb: tensor<2xf32>, %h: tensor<2x4xf32>, %h2: tensor<2x2xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {

  %none = "tfl.no_value"() <{value}> : () -> none

  %0 = "tfl.lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %none, %none, %none, %v, %v, %v, %v, %none, %none, %h, %c, %none, %none, %none, %none) <{fused_activation_function = "TANH", cell_clip = 0.000000e+00 : f32, proj_clip = 0.000000e+00 : f32, kernel_type = "FULL"}> : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, none, none, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, none, none, none, none) -> tensor<2x4xf32>
  // defaults: TANH, no clipping, FULL

  %1 = "tfl.lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %v, %v, %v, %v, %v, %v, %v, %none, %none, %h, %c, %v, %v, %v, %v) : (tensor<2x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, none, none, tensor<2x4xf32>, tensor<2x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  // CIFG + peephole + projection + layer norm, clips, another activation

  %2 = "tfl.lstm"(%x, %none, %w, %w, %w, %none, %rp, %rp, %rp, %none, %v, %v, %none, %v, %v, %v, %p, %pb, %h2, %c, %none, %v, %v, %v) <{fused_activation_function = "RELU6", cell_clip = 1.000000e+01 : f32, proj_clip = 3.000000e+00 : f32, kernel_type = "FULL", asymmetric_quantize_inputs = false}> : (tensor<2x3xf32>, none, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, none, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, none, tensor<4xf32>, tensor<4xf32>, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2x4xf32>, tensor<2xf32>, tensor<2x2xf32>, tensor<2x4xf32>, none, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x4xf32>
}
