// RUN: opt-tool %s -p test-lpt-split | filecheck %s
// SplitTransformation (split.cpp): one split of the u8 data, then Convert -> Subtract ->
// Multiply on every output; constants varying along the split axis are split too (channels
// [0, 1] and [2, 3]), otherwise every output gets a copy.

builtin.module {
  // CHECK-LABEL: func.func @channels
  // CHECK:         %[[OUT0:[^ ,]+]], %[[OUT1:[^ ,]+]] = ov.split %x, %a num_splits = 2 : (tensor<1x4x4x4xui8>, tensor<i64>) -> (tensor<1x2x4x4xui8>, tensor<1x2x4x4xui8>)
  // CHECK-NEXT:    %[[CV0:.*]] = ov.convert %[[OUT0]] destination_type = f32
  // CHECK-NEXT:    %[[ZP0:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}1.280000e+02]], {{\[}}{{\[}}1.270000e+02]]]]> : tensor<1x2x1x1xf32>
  // CHECK-NEXT:    %[[SUB0:.*]] = ov.subtract %[[CV0]], %[[ZP0]]
  // CHECK-NEXT:    %[[S0:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}1.000000e-02]], {{\[}}{{\[}}2.000000e-02]]]]> : tensor<1x2x1x1xf32>
  // CHECK-NEXT:    %[[Y0:.*]] = ov.multiply %[[SUB0]], %[[S0]] : {{.*}} -> tensor<1x2x4x4xf32>
  // CHECK-NEXT:    %[[CV1:.*]] = ov.convert %[[OUT1]] destination_type = f32
  // CHECK-NEXT:    %[[ZP1:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}1.260000e+02]], {{\[}}{{\[}}1.250000e+02]]]]> : tensor<1x2x1x1xf32>
  // CHECK-NEXT:    %[[SUB1:.*]] = ov.subtract %[[CV1]], %[[ZP1]]
  // CHECK-NEXT:    %[[S1:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}3.000000e-02]], {{\[}}{{\[}}4.000000e-02]]]]> : tensor<1x2x1x1xf32>
  // CHECK-NEXT:    %[[Y1:.*]] = ov.multiply %[[SUB1]], %[[S1]] : {{.*}} -> tensor<1x2x4x4xf32>
  // CHECK-NEXT:    func.return %[[Y0]], %[[Y1]]
  func.func @channels(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x2x4x4xf32> {ov.name = "r0"}, tensor<1x2x4x4xf32> {ov.name = "r1"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %zp = ov.constant dense<[[[[128.0]], [[127.0]], [[126.0]], [[125.0]]]]> : tensor<1x4x1x1xf32>
    %sb = ov.subtract %c, %zp : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<[[[[0.01]], [[0.02]], [[0.03]], [[0.04]]]]> : tensor<1x4x1x1xf32>
    %m = ov.multiply %sb, %s : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %a = ov.constant dense<1> : tensor<i64>
    %y0, %y1 = ov.split %m, %a num_splits = 2 : (tensor<1x4x4x4xf32>, tensor<i64>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>)
    func.return %y0, %y1 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
  }

  // CHECK-LABEL: func.func @spatial
  // CHECK:         %[[OUT0:[^ ,]+]], %[[OUT1:[^ ,]+]] = ov.split %x, %a num_splits = 2 : (tensor<1x4x4x4xui8>, tensor<i64>) -> (tensor<1x4x4x2xui8>, tensor<1x4x4x2xui8>)
  // CHECK-NEXT:    %[[CV0:.*]] = ov.convert %[[OUT0]] destination_type = f32
  // CHECK-NEXT:    %[[ZP0:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}1.280000e+02]], {{\[}}{{\[}}1.270000e+02]], {{\[}}{{\[}}1.260000e+02]], {{\[}}{{\[}}1.250000e+02]]]]> : tensor<1x4x1x1xf32>
  // CHECK-NEXT:    %[[SUB0:.*]] = ov.subtract %[[CV0]], %[[ZP0]]
  // CHECK-NEXT:    %[[S0:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}1.000000e-02]], {{\[}}{{\[}}2.000000e-02]], {{\[}}{{\[}}3.000000e-02]], {{\[}}{{\[}}4.000000e-02]]]]> : tensor<1x4x1x1xf32>
  // CHECK-NEXT:    %[[Y0:.*]] = ov.multiply %[[SUB0]], %[[S0]] : {{.*}} -> tensor<1x4x4x2xf32>
  // CHECK-NEXT:    %[[CV1:.*]] = ov.convert %[[OUT1]] destination_type = f32
  // CHECK-NEXT:    %[[ZP1:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}1.280000e+02]], {{\[}}{{\[}}1.270000e+02]], {{\[}}{{\[}}1.260000e+02]], {{\[}}{{\[}}1.250000e+02]]]]> : tensor<1x4x1x1xf32>
  // CHECK-NEXT:    %[[SUB1:.*]] = ov.subtract %[[CV1]], %[[ZP1]]
  // CHECK-NEXT:    %[[S1:.*]] = ov.constant dense<{{\[}}{{\[}}{{\[}}{{\[}}1.000000e-02]], {{\[}}{{\[}}2.000000e-02]], {{\[}}{{\[}}3.000000e-02]], {{\[}}{{\[}}4.000000e-02]]]]> : tensor<1x4x1x1xf32>
  // CHECK-NEXT:    %[[Y1:.*]] = ov.multiply %[[SUB1]], %[[S1]] : {{.*}} -> tensor<1x4x4x2xf32>
  // CHECK-NEXT:    func.return %[[Y0]], %[[Y1]]
  func.func @spatial(%x: tensor<1x4x4x4xui8> {ov.name = "x"}) -> (tensor<1x4x4x2xf32> {ov.name = "r0"}, tensor<1x4x4x2xf32> {ov.name = "r1"}) {
    %c = ov.convert %x destination_type = f32 : (tensor<1x4x4x4xui8>) -> tensor<1x4x4x4xf32>
    %zp = ov.constant dense<[[[[128.0]], [[127.0]], [[126.0]], [[125.0]]]]> : tensor<1x4x1x1xf32>
    %sb = ov.subtract %c, %zp : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %s = ov.constant dense<[[[[0.01]], [[0.02]], [[0.03]], [[0.04]]]]> : tensor<1x4x1x1xf32>
    %m = ov.multiply %sb, %s : (tensor<1x4x4x4xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x4xf32>
    %a = ov.constant dense<-1> : tensor<i64>
    %y0, %y1 = ov.split %m, %a num_splits = 2 : (tensor<1x4x4x4xf32>, tensor<i64>) -> (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>)
    func.return %y0, %y1 : tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>
  }
}
