// Diagnostics come from the ops' own `location`s (FileLineColLoc, set by the parser), which
// clone() and every copy keep: a pass that works on a copy of the module (low-latency2,
// tfl-to-ov) leaves the later passes' errors at file:line:col.
// RUN: not opt-tool %s --reshape='inputs="X:1x1x16"' 2>&1 | filecheck %s
// RUN: not opt-tool %s --low-latency2 --reshape='inputs="X:1x1x16"' 2>&1 | filecheck %s
// RUN: not opt-tool %s --tfl-to-ov --reshape='inputs="X:1x1x16"' 2>&1 | filecheck %s
// RUN: not opt-tool %s --low-latency2 --tfl-to-ov --canonicalize --reshape='inputs="X:1x1x16"' 2>&1 | filecheck %s
// RUN: not opt-tool %s -p 'low-latency2,reshape{inputs="X:1x1x16"}' 2>&1 | filecheck %s
// A model read from OpenVINO IR: each op's location is a NameLoc of its layer at the .xml line.
// RUN: not opt-tool %S/../../../examples/qlstm.xml --low-latency2 --reshape='inputs="X:1x3x7"' 2>&1 | filecheck %s --check-prefix=XML
// XML:      qlstm.xml:348: 'lstm_cell': error: 'ov.lstm_cell' op "lstm_cell" W must have shape [4 * hidden_size, input_size] = [128, 7], got [128, 16]
// XML-NEXT: qlstm.xml:75: 'X_t/axis': note: operand #1 of 'ov.squeeze'
// Printing is unchanged by default (no loc(...)); --print-debuginfo prints the locations,
// and a printed file read back keeps them (its own loc(...) wins over where it was parsed).
// RUN: opt-tool %s --low-latency2 | filecheck %s --check-prefix=PLAIN
// RUN: opt-tool %s --low-latency2 --print-debuginfo -o %t.loc.mlir
// RUN: filecheck %s --check-prefix=DEBUGINFO < %t.loc.mlir
// RUN: opt-tool %t.loc.mlir --print-debuginfo | filecheck %s --check-prefix=DEBUGINFO
// RUN: not opt-tool %t.loc.mlir --reshape='inputs="X:1x1x16"' 2>&1 | filecheck %s

// CHECK:      locations.mlir:[[# @LINE + 10]]:3: error: 'ov.reshape' op "seq/squeeze" cannot reshape [1, 1, 16]
// CHECK-NEXT: locations.mlir:[[# @LINE + 8]]:3: note: the target shape of 'ov.reshape' "seq/squeeze" comes from ov.constant "seq/shape"
// CHECK-NOT:  Traceback
// PLAIN-NOT:  loc(
// DEBUGINFO:  func.func @hard_coded({{.*}} loc("{{.*}}locations.mlir":[[# @LINE + 4]]:23)) -> tensor<2x16xf32> {
// DEBUGINFO:    %s = ov.constant {{.*}} loc("{{.*}}locations.mlir":[[# @LINE + 4]]:3)
// DEBUGINFO:    %y = ov.reshape {{.*}} loc("{{.*}}locations.mlir":[[# @LINE + 4]]:3)
// DEBUGINFO:  } loc("{{.*}}locations.mlir":[[# @LINE + 1]]:1)
func.func @hard_coded(%x: tensor<2x1x16xf32> {ov.name = "X"}) -> tensor<2x16xf32> {
  %s = ov.constant dense<[2, 16]> : tensor<2xi64> {ov.name = "seq/shape"}
  %y = ov.reshape %x, %s special_zero = false {ov.name = "seq/squeeze"} : (tensor<2x1x16xf32>, tensor<2xi64>) -> tensor<2x16xf32>
  %r = ov.relu %y : (tensor<2x16xf32>) -> tensor<2x16xf32>
  func.return %r : tensor<2x16xf32>
}
