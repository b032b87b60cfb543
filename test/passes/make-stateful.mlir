// make-stateful: OpenVINO's MakeStateful. Variable ids are the input name followed by the
// output name (`state` + `stateN`), the pairs are taken in the order of their input names.
// RUN: opt-tool %s --split-input-file -p 'make-stateful{pairs="state:stateN"}' | filecheck %s
// RUN: opt-tool %s --split-input-file -p 'make-stateful{rule="*->*N"}' | filecheck %s
// RUN: opt-tool %s --split-input-file --make-stateful='pairs="state:stateN"' | opt-tool --split-input-file | filecheck %s
// Invalid pairs: one line naming the port, nothing printed.
// RUN: not opt-tool %s --split-input-file -p 'make-stateful{pairs="stat:stateN"}' 2>&1 | filecheck %s --check-prefix=NOIN
// RUN: not opt-tool %s --split-input-file -p 'make-stateful{pairs="state:y2"}' 2>&1 | filecheck %s --check-prefix=NOOUT
// RUN: not opt-tool %s --split-input-file -p 'make-stateful{pairs="state:y,x:y"}' 2>&1 | filecheck %s --check-prefix=TWICE
// RUN: not opt-tool %s --split-input-file -p 'make-stateful{pairs="x:wide"}' 2>&1 | filecheck %s --check-prefix=TYPE
// RUN: not opt-tool %s --split-input-file -p 'make-stateful{pairs="state"}' 2>&1 | filecheck %s --check-prefix=SYNTAX
// RUN: not opt-tool %s --split-input-file -p 'make-stateful{rule="state->stateN"}' 2>&1 | filecheck %s --check-prefix=RULE
// RUN: not opt-tool %s --split-input-file -p 'make-stateful' 2>&1 | filecheck %s --check-prefix=NONE
// RUN: not opt-tool %s --split-input-file -p 'make-stateful{rule="*->*Next"}' 2>&1 | filecheck %s --check-prefix=UNMATCHED

// NOIN: make-stateful: error: pair 'stat' -> 'stateN': 'stat' is not the name of a graph input (the inputs: 'x', 'state')
// NOIN-NOT: builtin.module
// NOOUT: make-stateful: error: pair 'state' -> 'y2': 'y2' is not the name of a graph output (the outputs: 'y', 'stateN', 'wide')
// TWICE: make-stateful: error: pair 'x' -> 'y': output 'y' is already paired ('state' -> 'y')
// TYPE: make-stateful: error: pair 'x' -> 'wide': output 'wide' of type tensor<2x4xf32> cannot be stored in the state of input 'x' of type tensor<1x4xf32> (same element type and rank, each input dimension dynamic or equal)
// SYNTAX: make-stateful: error: bad pairs entry 'state': expected INPUT:OUTPUT such as state:stateN (quote it in the pass options: pairs="state:stateN")
// RULE: make-stateful: error: bad rule 'state->stateN': expected IN->OUT with one '*' on each side, such as *->*N
// NONE: make-stateful: error: no pairs: give pairs="INPUT:OUTPUT" or a rule such as rule="*->*N"
// UNMATCHED: make-stateful: error: rule="*->*Next" pairs no graph input with a graph output: the inputs are 'x', 'state', the outputs 'y', 'stateN', 'wide'

// CHECK:       ov.variable @statestateN : tensor<1x4xf32>
// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%x: tensor<1x4xf32> {ov.name = "x"}) -> (tensor<1x4xf32> {ov.name = "y"}, tensor<2x4xf32> {ov.name = "wide"})
// CHECK-NEXT:    %h = ov.read_value @statestateN : tensor<1x4xf32>
// CHECK-NEXT:    %s = ov.add %x, %h {ov.name = "add"}
// CHECK-NEXT:    %y = ov.relu %s {ov.name = "y"}
// CHECK-NEXT:    %w = ov.concat
// CHECK-NEXT:    ov.assign @statestateN, %s : tensor<1x4xf32>
// CHECK-NEXT:    func.return %y, %w : tensor<1x4xf32>, tensor<2x4xf32>
func.func @main(%x: tensor<1x4xf32> {ov.name = "x"}, %h: tensor<1x4xf32> {ov.name = "state"}) -> (tensor<1x4xf32> {ov.name = "y"}, tensor<1x4xf32> {ov.name = "stateN"}, tensor<2x4xf32> {ov.name = "wide"}) {
  %s = ov.add %x, %h {ov.name = "add"} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %y = ov.relu %s {ov.name = "y"} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %w = ov.concat %x, %s axis = 0 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  func.return %y, %s, %w : tensor<1x4xf32>, tensor<1x4xf32>, tensor<2x4xf32>
}
