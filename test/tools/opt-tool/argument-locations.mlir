// Block arguments have locations, as in MLIR: the parser puts a function's argument and a
// `^bb0(...)` argument where its name is written, unless the text gives a `loc(...)` of its own
// (after the argument's attributes: `%x: tensor<2xf32> {ov.name = "X"} loc("x.mlir":3:12)`);
// the OpenVINO IR reader puts an input at its Parameter layer (a NameLoc of the layer's name
// at its line of the .xml), as it puts the ops. --mlir-print-debuginfo prints them in the
// argument list, inline, after the attributes (as MLIR's printRegionArgument), and the
// printed text reads back to the same locations; without it nothing is printed.
// RUN: opt-tool %s --mlir-print-debuginfo | filecheck %s --check-prefix=DEBUGINFO
// RUN: opt-tool %s --mlir-print-debuginfo | opt-tool --mlir-print-debuginfo | filecheck %s --check-prefix=DEBUGINFO
// RUN: opt-tool %s --mlir-print-debuginfo --mlir-print-op-generic | opt-tool --mlir-print-debuginfo | filecheck %s --check-prefix=DEBUGINFO
// RUN: opt-tool %s --mlir-print-debuginfo --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: opt-tool %s | filecheck %s --check-prefix=PLAIN
// RUN: opt-tool %s --split-input-file --mlir-print-debuginfo | filecheck %s --check-prefix=SPLIT
// RUN: opt-tool %S/../../../examples/qlstm.xml --mlir-print-debuginfo | filecheck %s --check-prefix=XML
// mlir-opt's own output names locations by `#loc` aliases that the file defines after the
// module: they are read as MLIR's parser reads them (deferred), for ops and arguments.
// RUN: opt-tool %S/Inputs/mlir-opt-debuginfo.mlir --mlir-print-debuginfo | filecheck %s --check-prefix=ALIASES

// DEBUGINFO:      func.func @main(%x: tensor<1x8x16xf32> {ov.name = "X"} loc("{{.*}}argument-locations.mlir":[[# @LINE + 15]]:17), %h: tensor<1x16xf32> loc("given.mlir":3:12)) -> tensor<1x16xf32> {
// DEBUGINFO:      ^bb0(%x_t: tensor<1x1x16xf32> loc("{{.*}}argument-locations.mlir":[[# @LINE + 21]]:10), %h_t: tensor<1x16xf32> loc("body.mlir":7:5)):
// GENERIC:        ^bb0(%x: tensor<1x8x16xf32> loc("{{.*}}argument-locations.mlir":[[# @LINE + 13]]:17), %h: tensor<1x16xf32> loc("given.mlir":3:12)):
// PLAIN-NOT:      loc(
// SPLIT:          {{^}}{{//}} -----
// SPLIT-NEXT:     builtin.module {
// SPLIT-NEXT:       func.func @second(%y: tensor<2xf32> loc("{{.*}}argument-locations.mlir":[[# @LINE + 27]]:19)) -> tensor<2xf32> {
// XML:            func.func @main(%X: tensor<1x8x16xf32> {ov.name = "X"} loc("X"("{{.*}}qlstm.xml":4:0)), %H0: {{.*}} loc("H0"("{{.*}}qlstm.xml":14:0)), %C0: {{.*}} loc("C0"("{{.*}}qlstm.xml":23:0)))
// XML:            ^bb0(%X_t: tensor<1x1x16xf32> loc("X_t"("{{.*}}qlstm.xml":47:0)),
// ALIASES:        func.func @main(%arg0: tensor<2xf32> loc("model.mlir":1:17), %arg1: tensor<2xf32> loc("model.mlir":1:40)) -> tensor<2xf32> {
// ALIASES-NEXT:     %0 = ov.add %arg0, %arg1 : {{.*}} loc("model.mlir":2:8)
// ALIASES-NEXT:     func.return %0 : tensor<2xf32> loc(callsite("model.mlir":1:17 at "model.mlir":2:8))
// ALIASES-NEXT:   } loc("model.mlir":1:1)
// ALIASES-NEXT: } loc("model.mlir":1:1)

func.func @main(%x: tensor<1x8x16xf32> {ov.name = "X"},
                %h: tensor<1x16xf32> loc("given.mlir":3:12)) -> tensor<1x16xf32> {
  %0 = ov.tensor_iterator(%x, %h) attributes {
      input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>,
                            #ov.merged<input = 1, param = 1, result = 0>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>]}
      : (tensor<1x8x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32> {
    ^bb0(%x_t: tensor<1x1x16xf32>, %h_t: tensor<1x16xf32> loc("body.mlir":7:5)):
      %a = ov.constant dense<1> : tensor<1xi64>
      %s = ov.squeeze %x_t, %a : (tensor<1x1x16xf32>, tensor<1xi64>) -> tensor<1x16xf32>
      %n = ov.add %s, %h_t : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
      ov.yield %n : tensor<1x16xf32>
  }
  func.return %0 : tensor<1x16xf32>
}

// -----

func.func @second(%y: tensor<2xf32>) -> tensor<2xf32> {
  func.return %y : tensor<2xf32>
}
