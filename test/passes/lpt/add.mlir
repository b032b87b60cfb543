// RUN: opt-tool %s -p test-lpt-add | filecheck %s
// RUN: opt-tool %s -p lpt | filecheck %s --check-prefix=BIAS
// RUN: opt-tool %s -p 'lpt{cpu-callbacks=false}' | filecheck %s --check-prefix=NOCB
// AddTransformation (add.cpp): Y = SC1*(X1-SH1) + SC2*(X2-SH2) = SC2*(SC1'*(X1-SH1') + X2)
// with SC1' = SC1/SC2 and SH1' = SH1 + SC2*SH2/SC1.

builtin.module {
  // SC1 = 0.02, SH1 = 10 (full path, input 0); SC2 = 0.04, SH2 = 5 (empty path, input 1):
  // SC1' = 0.5, SH1' = 10 + 0.04*5/0.02 = 20
  // CHECK-LABEL: func.func @two_branches
  // CHECK:         %[[C:.*]] = ov.convert %a destination_type = f32
  // CHECK:         %[[SH:.*]] = ov.constant dense<2.000000e+01> : tensor<f32>
  // CHECK:         %[[SUB:.*]] = ov.subtract %[[C]], %[[SH]]
  // CHECK:         %[[SC:.*]] = ov.constant dense<5.000000e-01> : tensor<f32>
  // CHECK:         %[[M:.*]] = ov.multiply %[[SUB]], %[[SC]]
  // CHECK:         %[[ADD:.*]] = ov.add %[[M]], %b {ov.name = "sum_original"} : (tensor<1x3x4x4xf32>, tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32>
  // CHECK:         %[[SC2:.*]] = ov.constant dense<4.000000e-02> : tensor<f32>
  // CHECK:         ov.multiply %[[ADD]], %[[SC2]] {ov.name = "sum"}
  func.func @two_branches(%a: tensor<1x3x4x4xui8>, %b: tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32> {
    %ca = ov.convert %a destination_type = f32 : (tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32>
    %sha = ov.constant dense<10.0> : tensor<f32>
    %sa = ov.subtract %ca, %sha : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    %sca = ov.constant dense<0.02> : tensor<f32>
    %ma = ov.multiply %sa, %sca : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    %cb = ov.convert %b destination_type = f32 : (tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32>
    %shb = ov.constant dense<5.0> : tensor<f32>
    %sb = ov.subtract %cb, %shb : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    %scb = ov.constant dense<0.04> : tensor<f32>
    %mb = ov.multiply %sb, %scb : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    %y = ov.add %ma, %mb {ov.name = "sum"} : (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
    func.return %y : tensor<1x3x4x4xf32>
  }

  // x*0.5 + 1 -> (x + 2)*0.5 -> Subtract(x, -2)*0.5
  // CHECK-LABEL: func.func @constant_branch
  // CHECK:         %[[C:.*]] = ov.convert %x destination_type = f32
  // CHECK:         %[[N:.*]] = ov.constant dense<-2.000000e+00> : tensor<f32>
  // CHECK:         %[[SUB:.*]] = ov.subtract %[[C]], %[[N]]
  // CHECK:         %[[S:.*]] = ov.constant dense<5.000000e-01> : tensor<f32>
  // CHECK:         ov.multiply %[[SUB]], %[[S]]
  // CHECK-NEXT:    func.return
  func.func @constant_branch(%x: tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32> {
    %c = ov.convert %x destination_type = f32 : (tensor<1x3x4x4xui8>) -> tensor<1x3x4x4xf32>
    %s = ov.constant dense<0.5> : tensor<f32>
    %m = ov.multiply %c, %s : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    %b = ov.constant dense<1.0> : tensor<f32>
    %y = ov.add %m, %b : (tensor<1x3x4x4xf32>, tensor<f32>) -> tensor<1x3x4x4xf32>
    func.return %y : tensor<1x3x4x4xf32>
  }

  // A bias Add after a quantized MatMul: the CPU plugin's callback leaves it alone; without it
  // x*s + b becomes (x + b/s)*s (0.0006 = 0.02*0.03; 0.3f/0.0006f = 500.000031), kept an Add (bias).
  // BIAS-LABEL: func.func @bias
  // BIAS:         %[[MM:.*]] = ov.mat_mul {{.*}} -> tensor<1x3xf32>
  // BIAS:         %[[S:.*]] = ov.constant dense<0.00059999997> : tensor<f32>
  // BIAS:         %[[M:.*]] = ov.multiply %[[MM]], %[[S]]
  // BIAS:         ov.add %[[M]], %{{.*}} {ov.name = "bias"}
  // NOCB-LABEL: func.func @bias
  // NOCB:         %[[MM:.*]] = ov.mat_mul {{.*}} -> tensor<1x3xf32>
  // NOCB:         %[[B:.*]] = ov.constant dense<500.000031> : tensor<f32>
  // NOCB:         %[[A:.*]] = ov.add %[[MM]], %[[B]]
  // NOCB:         %[[S:.*]] = ov.constant dense<0.00059999997> : tensor<f32>
  // NOCB:         ov.multiply %[[A]], %[[S]] {ov.name = "bias"}
  func.func @bias(%x: tensor<1x2xf32>) -> tensor<1x3xf32> {
    %l = ov.constant dense<0.0> : tensor<f32>
    %h = ov.constant dense<5.1> : tensor<f32>
    %fq = ov.fake_quantize %x, %l, %h, %l, %h levels = 256 : (tensor<1x2xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x2xf32>
    %w = ov.constant dense<[[0.1, -0.2, 0.3], [0.5, 0.2, -1.0]]> : tensor<2x3xf32>
    %wl = ov.constant dense<-3.84> : tensor<f32>
    %wh = ov.constant dense<3.81> : tensor<f32>
    %wfq = ov.fake_quantize %w, %wl, %wh, %wl, %wh levels = 256 : (tensor<2x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
    %mm = ov.mat_mul %fq, %wfq : (tensor<1x2xf32>, tensor<2x3xf32>) -> tensor<1x3xf32>
    %b = ov.constant dense<0.3> : tensor<f32>
    %y = ov.add %mm, %b {ov.name = "bias"} : (tensor<1x3xf32>, tensor<f32>) -> tensor<1x3xf32>
    func.return %y : tensor<1x3xf32>
  }
}
