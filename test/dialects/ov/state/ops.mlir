// RUN: opt-tool %s | opt-tool | filecheck %s
// RUN: %roundtrip
// RUN: opt-tool %s --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: opt-tool %s -p canonicalize,dce,cse | filecheck %s --check-prefix=OPT

// Variable ids contain `/` (LowLatency2 names them `<TI>/<param>/variable_<k>`): they print
// quoted. Types may have dynamic dimensions.
// CHECK:      ov.variable @"LSTMTensorIterator/H_t/variable_2" : tensor<1x4xf32>
// CHECK-NEXT: ov.variable @"LSTMTensorIterator/C_t/variable_0" : tensor<1x4xf32>
// CHECK-NEXT: ov.variable @plain : tensor<2xi64>
// CHECK-NEXT: ov.variable @"dyn/variable_0" : tensor<?x4xf16>
// GENERIC:    "ov.variable"() <{sym_name = "LSTMTensorIterator/H_t/variable_2", type = tensor<1x4xf32>}> : () -> ()
// GENERIC:    "ov.variable"() <{sym_name = "dyn/variable_0", type = tensor<?x4xf16>}> : () -> ()
ov.variable @"LSTMTensorIterator/H_t/variable_2" : tensor<1x4xf32>
ov.variable @"LSTMTensorIterator/C_t/variable_0" : tensor<1x4xf32>
ov.variable @plain : tensor<2xi64>
ov.variable @"dyn/variable_0" : tensor<?x4xf16>

// ReadValue-6 with an initializer, then Assign (a sink: no result).
// CHECK-LABEL: func.func @accumulate
// OPT-LABEL:   func.func @accumulate
func.func @accumulate(%x: tensor<1x4xf32>, %h0: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // CHECK: %[[R:.*]] = ov.read_value @"LSTMTensorIterator/H_t/variable_2" init(%{{.*}} : tensor<1x4xf32>) {ov.name = "rv"} : tensor<1x4xf32>
  // GENERIC: "ov.read_value"(%{{.*}}) <{variable_id = @"LSTMTensorIterator/H_t/variable_2"}> {ov.name = "rv"} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  // OPT:     ov.read_value @"LSTMTensorIterator/H_t/variable_2"
  %r = ov.read_value @"LSTMTensorIterator/H_t/variable_2" init(%h0 : tensor<1x4xf32>) {ov.name = "rv"} : tensor<1x4xf32>
  // CHECK: %[[S:.*]] = ov.add %[[R]], %{{.*}}
  %s = ov.add %r, %x : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  // CHECK: ov.assign @"LSTMTensorIterator/H_t/variable_2", %[[S]] {ov.name = "assign"} : tensor<1x4xf32>
  // GENERIC: "ov.assign"(%{{.*}}) <{variable_id = @"LSTMTensorIterator/H_t/variable_2"}> {ov.name = "assign"} : (tensor<1x4xf32>) -> ()
  // OPT:     ov.assign @"LSTMTensorIterator/H_t/variable_2"
  ov.assign @"LSTMTensorIterator/H_t/variable_2", %s {ov.name = "assign"} : tensor<1x4xf32>
  func.return %s : tensor<1x4xf32>
}

// ReadValue-6 without an initializer (zeros of the variable's shape when unset/reset).
// ReadValue-3 is the form with an initializer whose type is the variable's (C_t here).
// CHECK-LABEL: func.func @no_init
func.func @no_init() -> (tensor<2xi64>, tensor<1x4xf32>) {
  // CHECK: ov.read_value @plain : tensor<2xi64>
  %p = ov.read_value @plain : tensor<2xi64>
  // CHECK: ov.read_value @"LSTMTensorIterator/C_t/variable_0" : tensor<1x4xf32>
  %c = ov.read_value @"LSTMTensorIterator/C_t/variable_0" : tensor<1x4xf32>
  func.return %p, %c : tensor<2xi64>, tensor<1x4xf32>
}

// A dynamic variable relaxes a static init; the result has the variable's type.
// CHECK-LABEL: func.func @dynamic
func.func @dynamic(%x: tensor<3x4xf16>) -> tensor<?x4xf16> {
  // CHECK: ov.read_value @"dyn/variable_0" init(%{{.*}} : tensor<3x4xf16>) : tensor<?x4xf16>
  %r = ov.read_value @"dyn/variable_0" init(%x : tensor<3x4xf16>) : tensor<?x4xf16>
  // CHECK: ov.assign @"dyn/variable_0", %{{.*}} : tensor<3x4xf16>
  ov.assign @"dyn/variable_0", %x : tensor<3x4xf16>
  func.return %r : tensor<?x4xf16>
}

// Canonicalize/DCE/CSE keep the Assign (a write), do not fold a ReadValue of a constant init
// and do not merge two ReadValues of the same variable.
// OPT-LABEL: func.func @not_folded
// OPT:       %[[C:.*]] = ov.constant dense<1> : tensor<2xi64>
// OPT-NEXT:  %[[A:.*]] = ov.read_value @plain init(%[[C]] : tensor<2xi64>) : tensor<2xi64>
// OPT-NEXT:  %[[B:.*]] = ov.read_value @plain init(%[[C]] : tensor<2xi64>) : tensor<2xi64>
// OPT-NEXT:  ov.read_value @plain init(%[[C]] : tensor<2xi64>) : tensor<2xi64>
// OPT-NEXT:  %[[S:.*]] = ov.add %[[A]], %[[B]]
// OPT-NEXT:  ov.assign @plain, %[[S]] : tensor<2xi64>
// OPT-NEXT:  func.return %[[S]] : tensor<2xi64>
func.func @not_folded() -> tensor<2xi64> {
  %c = ov.constant dense<1> : tensor<2xi64>
  %a = ov.read_value @plain init(%c : tensor<2xi64>) : tensor<2xi64>
  %b = ov.read_value @plain init(%c : tensor<2xi64>) : tensor<2xi64>
  %unused = ov.read_value @plain init(%c : tensor<2xi64>) : tensor<2xi64>
  %s = ov.add %a, %b : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  ov.assign @plain, %s : tensor<2xi64>
  %dead = ov.add %c, %c : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  func.return %s : tensor<2xi64>
}
