// RUN: opt-tool %s --split-input-file --canonicalize | filecheck %s
// RUN: opt-tool %s --split-input-file -p 'lpt{only=fold-fake-quantize}' | filecheck %s
// RUN: opt-tool %s --split-input-file --canonicalize --print-debuginfo | filecheck %s --check-prefix=LOC
// canonicalize and LPT's ConstantFolding fold through the same folder (dialects/ov/folding.py):
// the same constants, named after the folded op, at its location.

// Compressed weights: i8 -> f32, minus the zero point, times the scale, transposed.
// CHECK-LABEL: func.func @weights
// CHECK-NEXT:    %[[W:.*]] = ov.constant dense<{{\[}}[0.000000e+00, 1.000000e+00], [-1.500000e+00, 1.500000e+00]]> : tensor<2x2xf32> {ov.name = "w/t"}
// CHECK-NEXT:    %[[Y:.*]] = ov.mat_mul %x, %[[W]]
// CHECK-NEXT:    func.return %[[Y]]
// LOC-LABEL: func.func @weights
// LOC-NEXT:    ov.constant {{.*}} {ov.name = "w/t"} loc("{{.*}}folding.mlir":22:3)
func.func @weights(%x: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %w = ov.constant dense<[[1, -2], [3, 4]]> : tensor<2x2xi8>
  %zp = ov.constant dense<[1.0]> : tensor<1xf32>
  %s = ov.constant dense<[0.5]> : tensor<1xf32>
  %o = ov.constant dense<[1, 0]> : tensor<2xi64>
  %f = ov.convert %w destination_type = f32 : (tensor<2x2xi8>) -> tensor<2x2xf32>
  %z = ov.subtract %f, %zp : (tensor<2x2xf32>, tensor<1xf32>) -> tensor<2x2xf32>
  %m = ov.multiply %z, %s : (tensor<2x2xf32>, tensor<1xf32>) -> tensor<2x2xf32>
  %t = ov.transpose %m, %o {ov.name = "w/t"} : (tensor<2x2xf32>, tensor<2xi64>) -> tensor<2x2xf32>
  %y = ov.mat_mul %x, %t : (tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
  func.return %y : tensor<3x2xf32>
}

// -----

// Each result of a multi-result op is a constant named `name.i`.
// CHECK-LABEL: func.func @split
// CHECK-NEXT:    ov.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32> {ov.name = "parts.0"}
// CHECK-NEXT:    ov.constant dense<[3.000000e+00, 4.000000e+00]> : tensor<2xf32> {ov.name = "parts.1"}
// CHECK-NEXT:    func.return
func.func @split() -> (tensor<2xf32>, tensor<2xf32>) {
  %d = ov.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %a = ov.constant dense<0> : tensor<i64>
  %p:2 = ov.split %d, %a num_splits = 2 {ov.name = "parts"} : (tensor<4xf32>, tensor<i64>) -> (tensor<2xf32>, tensor<2xf32>)
  func.return %p#0, %p#1 : tensor<2xf32>, tensor<2xf32>
}

// -----

// The shape of a graph input is not baked into a constant (the model stays reshapeable), and
// an integer division by zero is left to the run, which reports it.
// CHECK-LABEL: func.func @not_folded
// CHECK:         ov.shape_of %x
// CHECK:         ov.divide
func.func @not_folded(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2xi32>) {
  %s = ov.shape_of %x : (tensor<2x3xf32>) -> tensor<2xi64>
  %r = ov.reshape %x, %s special_zero = false : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  %a = ov.constant dense<[1, 2]> : tensor<2xi32>
  %b = ov.constant dense<[0, 1]> : tensor<2xi32>
  %c = ov.divide %a, %b : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  func.return %r, %c : tensor<2x3xf32>, tensor<2xi32>
}
