// ov-decompose-einsum (OpenVINO's EinsumDecomposition): ov.einsum becomes MatMul (batch labels
// first, summed labels last; transpose_a/transpose_b where only the last two axes swap),
// Multiply of Unsqueezed operands (no label summed), ReduceSum (a label of one input only),
// Transpose, Reshape (several or no labels in M, K or N), a diagonal as Reshape and Gather, a
// broadcast size-1 axis as Squeeze; dynamic dimensions through ShapeOf. The last op keeps the
// Einsum's name, the others are named after it. A diagonal of dynamic size, and element types
// MatMul does not take, stay ov.einsum.
// RUN: opt-tool %s --split-input-file -p ov-decompose-einsum | filecheck %s
// RUN: opt-tool %s --split-input-file --ov-decompose-einsum | filecheck %s

// CHECK-LABEL: func.func @scores
// CHECK-NEXT:    %0 = ov.mat_mul %q, %k transpose_b = true {ov.name = "scores"} : (tensor<2x3x4x5xf32>, tensor<2x3x6x5xf32>) -> tensor<2x3x4x6xf32>
// CHECK-NEXT:    func.return %0
func.func @scores(%q: tensor<2x3x4x5xf32>, %k: tensor<2x3x6x5xf32>) -> tensor<2x3x4x6xf32> {
  %0 = ov.einsum %q, %k equation = "bhid,bhjd->bhij" {ov.name = "scores"} : (tensor<2x3x4x5xf32>, tensor<2x3x6x5xf32>) -> tensor<2x3x4x6xf32>
  func.return %0 : tensor<2x3x4x6xf32>
}

// -----

// CHECK-LABEL: func.func @batched
// CHECK-NEXT:    %0 = ov.mat_mul %a, %b : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NEXT:    func.return %0
func.func @batched(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = ov.einsum %a, %b equation = "bij,bjk->bik" : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  func.return %0 : tensor<2x3x5xf32>
}

// -----

// CHECK-LABEL: func.func @implicit
// CHECK-NEXT:    %0 = ov.mat_mul %a, %b transpose_b = true : (tensor<3x4xf32>, tensor<5x4xf32>) -> tensor<3x5xf32>
// CHECK-NEXT:    func.return %0
func.func @implicit(%a: tensor<3x4xf32>, %b: tensor<5x4xf32>) -> tensor<3x5xf32> {
  %0 = ov.einsum %a, %b equation = "ij,kj" : (tensor<3x4xf32>, tensor<5x4xf32>) -> tensor<3x5xf32>
  func.return %0 : tensor<3x5xf32>
}

// -----

// CHECK-LABEL: func.func @outer
// CHECK-NEXT:    %0 = ov.constant dense<1> : tensor<1xi64> {ov.name = "outer/axes"}
// CHECK-NEXT:    %1 = ov.unsqueeze %i, %0 {ov.name = "outer/unsqueeze"} : (tensor<3xf32>, tensor<1xi64>) -> tensor<3x1xf32>
// CHECK-NEXT:    %2 = ov.constant dense<0> : tensor<1xi64> {ov.name = "outer/axes"}
// CHECK-NEXT:    %3 = ov.unsqueeze %j, %2 {ov.name = "outer/unsqueeze"} : (tensor<4xf32>, tensor<1xi64>) -> tensor<1x4xf32>
// CHECK-NEXT:    %4 = ov.multiply %1, %3 {ov.name = "outer"} : (tensor<3x1xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT:    func.return %4
func.func @outer(%i: tensor<3xf32>, %j: tensor<4xf32>) -> tensor<3x4xf32> {
  %0 = ov.einsum %i, %j equation = "i,j->ij" {ov.name = "outer"} : (tensor<3xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  func.return %0 : tensor<3x4xf32>
}

// -----

// CHECK-LABEL: func.func @diagonal
// CHECK-NEXT:    %0 = ov.constant dense<9> : tensor<1xi64> {ov.name = "diag/shape"}
// CHECK-NEXT:    %1 = ov.reshape %s, %0 special_zero = false {ov.name = "diag/reshape"} : (tensor<3x3xf32>, tensor<1xi64>) -> tensor<9xf32>
// CHECK-NEXT:    %2 = ov.constant dense<[0, 4, 8]> : tensor<3xi64> {ov.name = "diag/diagonal"}
// CHECK-NEXT:    %3 = ov.constant dense<0> : tensor<i64> {ov.name = "diag/axis"}
// CHECK-NEXT:    %4 = ov.gather %1, %2, %3 {ov.name = "diag"} : (tensor<9xf32>, tensor<3xi64>, tensor<i64>) -> tensor<3xf32>
// CHECK-NEXT:    func.return %4
func.func @diagonal(%s: tensor<3x3xf32>) -> tensor<3xf32> {
  %0 = ov.einsum %s equation = "ii->i" {ov.name = "diag"} : (tensor<3x3xf32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

// Operand 0's axis under '...' of size 1 meets operand 1's 5: squeezed (its values do not
// vary along the label); '...' stands for two labels, one in each input only.
// CHECK-LABEL: func.func @ellipsis
// CHECK-NEXT:    %0 = ov.constant dense<1> : tensor<1xi64>
// CHECK-NEXT:    %1 = ov.squeeze %a, %0 : (tensor<2x1x3x4xf32>, tensor<1xi64>) -> tensor<2x3x4xf32>
// CHECK-NEXT:    %2 = ov.constant dense<[1, 0, 2]> : tensor<3xi64>
// CHECK-NEXT:    %3 = ov.transpose %b, %2 : (tensor<5x4x2xf32>, tensor<3xi64>) -> tensor<4x5x2xf32>
// CHECK-NEXT:    %4 = ov.constant dense<[6, 4]> : tensor<2xi64>
// CHECK-NEXT:    %5 = ov.reshape %1, %4 special_zero = false : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
// CHECK-NEXT:    %6 = ov.constant dense<[4, 10]> : tensor<2xi64>
// CHECK-NEXT:    %7 = ov.reshape %3, %6 special_zero = false : (tensor<4x5x2xf32>, tensor<2xi64>) -> tensor<4x10xf32>
// CHECK-NEXT:    %8 = ov.mat_mul %5, %7 : (tensor<6x4xf32>, tensor<4x10xf32>) -> tensor<6x10xf32>
// CHECK-NEXT:    %9 = ov.constant dense<[2, 3, 5, 2]> : tensor<4xi64>
// CHECK-NEXT:    %10 = ov.reshape %8, %9 special_zero = false : (tensor<6x10xf32>, tensor<4xi64>) -> tensor<2x3x5x2xf32>
// CHECK-NEXT:    %11 = ov.constant dense<[0, 2, 1, 3]> : tensor<4xi64>
// CHECK-NEXT:    %12 = ov.transpose %10, %11 : (tensor<2x3x5x2xf32>, tensor<4xi64>) -> tensor<2x5x3x2xf32>
// CHECK-NEXT:    func.return %12
func.func @ellipsis(%a: tensor<2x1x3x4xf32>, %b: tensor<5x4x2xf32>) -> tensor<2x5x3x2xf32> {
  %0 = ov.einsum %a, %b equation = "...ij,...jk->...ik" : (tensor<2x1x3x4xf32>, tensor<5x4x2xf32>) -> tensor<2x5x3x2xf32>
  func.return %0 : tensor<2x5x3x2xf32>
}

// -----

// Three inputs: 'b' is summed in the first alone, then two MatMuls, the pair sharing a label
// first.
// CHECK-LABEL: func.func @three
// CHECK-NEXT:    %0 = ov.constant dense<1> : tensor<1xi64>
// CHECK-NEXT:    %1 = ov.reduce_sum %a, %0 : (tensor<2x3x4xf32>, tensor<1xi64>) -> tensor<2x4xf32>
// CHECK-NEXT:    %2 = ov.mat_mul %1, %b : (tensor<2x4xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
// CHECK-NEXT:    %3 = ov.mat_mul %2, %c : (tensor<2x5xf32>, tensor<5x6xf32>) -> tensor<2x6xf32>
// CHECK-NEXT:    func.return %3
func.func @three(%a: tensor<2x3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<5x6xf32>) -> tensor<2x6xf32> {
  %0 = ov.einsum %a, %b, %c equation = "abc,cd,de->ae" : (tensor<2x3x4xf32>, tensor<4x5xf32>, tensor<5x6xf32>) -> tensor<2x6xf32>
  func.return %0 : tensor<2x6xf32>
}

// -----

// A trace: the diagonal, summed.
// CHECK-LABEL: func.func @trace
// CHECK:         %[[D:.*]] = ov.gather
// CHECK:         ov.reduce_sum %[[D]], %{{.*}} : (tensor<4xf16>, tensor<1xi64>) -> tensor<f16>
func.func @trace(%s: tensor<4x4xf16>) -> tensor<f16> {
  %0 = ov.einsum %s equation = "ii->" : (tensor<4x4xf16>) -> tensor<f16>
  func.return %0 : tensor<f16>
}

// -----

// A dynamic batch and sequence: M and the shape back computed when running.
// CHECK-LABEL: func.func @dynamic
// CHECK-NEXT:    %0 = ov.shape_of %x : (tensor<?x?x4xf32>) -> tensor<3xi64>
// CHECK-NEXT:    %1 = ov.constant dense<[0, 1]> : tensor<2xi64>
// CHECK-NEXT:    %2 = ov.constant dense<0> : tensor<i64>
// CHECK-NEXT:    %3 = ov.gather %0, %1, %2 : (tensor<3xi64>, tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
// CHECK-NEXT:    %4 = ov.constant dense<0> : tensor<1xi64>
// CHECK-NEXT:    %5 = ov.reduce_prod %3, %4 keep_dims = true : (tensor<2xi64>, tensor<1xi64>) -> tensor<1xi64>
// CHECK-NEXT:    %6 = ov.constant dense<4> : tensor<1xi64>
// CHECK-NEXT:    %7 = ov.concat %5, %6 axis = 0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
// CHECK-NEXT:    %8 = ov.reshape %x, %7 special_zero = false : (tensor<?x?x4xf32>, tensor<2xi64>) -> tensor<?x4xf32>
// CHECK-NEXT:    %9 = ov.mat_mul %8, %w : (tensor<?x4xf32>, tensor<4x5xf32>) -> tensor<?x5xf32>
// CHECK:         %[[SHAPE:.*]] = ov.concat %{{.*}}, %{{.*}}, %{{.*}} axis = 0 : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3xi64>
// CHECK-NEXT:    %[[Y:.*]] = ov.reshape %9, %[[SHAPE]] special_zero = false : (tensor<?x5xf32>, tensor<3xi64>) -> tensor<?x?x5xf32>
// CHECK-NEXT:    func.return %[[Y]]
func.func @dynamic(%x: tensor<?x?x4xf32>, %w: tensor<4x5xf32>) -> tensor<?x?x5xf32> {
  %0 = ov.einsum %x, %w equation = "bsd,de->bse" : (tensor<?x?x4xf32>, tensor<4x5xf32>) -> tensor<?x?x5xf32>
  func.return %0 : tensor<?x?x5xf32>
}

// -----

// Relabelling only: the input itself.
// CHECK-LABEL: func.func @identity
// CHECK-NEXT:    func.return %x
func.func @identity(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = ov.einsum %x equation = "ij" : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// Kept: a diagonal of dynamic size (its Gather indices need it), an i64 Einsum (MatMul takes
// f32, f16 and i32).
// CHECK-LABEL: func.func @kept
// CHECK-NEXT:    %0 = ov.einsum %s equation = "ii->i" : (tensor<?x?xf32>) -> tensor<?xf32>
// CHECK-NEXT:    %1 = ov.einsum %t equation = "ij->ji" : (tensor<2x3xi64>) -> tensor<3x2xi64>
func.func @kept(%s: tensor<?x?xf32>, %t: tensor<2x3xi64>) -> (tensor<?xf32>, tensor<3x2xi64>) {
  %0 = ov.einsum %s equation = "ii->i" : (tensor<?x?xf32>) -> tensor<?xf32>
  %1 = ov.einsum %t equation = "ij->ji" : (tensor<2x3xi64>) -> tensor<3x2xi64>
  func.return %0, %1 : tensor<?xf32>, tensor<3x2xi64>
}
