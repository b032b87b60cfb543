// What mlir-opt --mlir-print-debuginfo prints: the ops' locations (and, in newer MLIR, the
// arguments') as `#loc` aliases defined after the module (argument-locations.mlir reads it).
#loc = loc("model.mlir":1:1)
module {
  func.func @main(%arg0: tensor<2xf32> loc(#loc1), %arg1: tensor<2xf32> loc("model.mlir":1:40)) -> tensor<2xf32> {
    %0 = ov.add %arg0, %arg1 : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32> loc(#loc2)
    return %0 : tensor<2xf32> loc(#loc3)
  } loc(#loc)
} loc(#loc)
#loc1 = loc("model.mlir":1:17)
#loc2 = loc("model.mlir":2:8)
#loc3 = loc(callsite(#loc1 at #loc2))
