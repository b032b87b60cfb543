// xDSL targets: -t ov-ir writes OpenVINO IR (.xml on -o, .bin beside it) from opt-tool and from
// plain xdsl-opt (the xdsl.universe entry point), the same bytes as --emit=ov-ir (its alias);
// -t dot writes the graph as DOT text. Without -o, ov-ir is a one-line error.
// RUN: rm -f %t.emit.xml %t.emit.bin %t.t.xml %t.t.bin %t.x.xml %t.x.bin %t.w.bin
// RUN: opt-tool %s --emit=ov-ir -o %t.emit.xml
// RUN: opt-tool %s -t ov-ir -o %t.t.xml
// RUN: xdsl-opt %s -t ov-ir -o %t.x.xml
// RUN: cmp %t.emit.xml %t.t.xml && cmp %t.emit.bin %t.t.bin
// RUN: cmp %t.emit.xml %t.x.xml && cmp %t.emit.bin %t.x.bin
// RUN: opt-tool %t.x.xml | filecheck %s --check-prefix=BACK
// The weights' file named by the target's option:
// RUN: xdsl-opt %s -t 'ov-ir{bin="%t.w.bin"}' > %t.w.xml && cmp %t.emit.bin %t.w.bin
// RUN: cmp %t.emit.xml %t.w.xml
// RUN: opt-tool %s -t dot | filecheck %s --check-prefix=DOT
// RUN: xdsl-opt %s -t dot | filecheck %s --check-prefix=DOT
// RUN: xdsl-opt %s -t 'dot{show-constants=true}' | filecheck %s --check-prefix=CONST
// RUN: not opt-tool %s -t ov-ir 2>&1 | filecheck %s --check-prefix=NOOUT
// RUN: not xdsl-opt %s -t ov-ir 2>&1 | filecheck %s --check-prefix=XNOOUT
// A target's options are checked before the input is read, worded as a pass's.
// RUN: not opt-tool %s -t 'ov-ir{bni=x.bin}' -o %t.bad.xml 2>&1 | filecheck %s --check-prefix=OPTION
// RUN: not opt-tool %s -t 'dot{show-constants=maybe}' 2>&1 | filecheck %s --check-prefix=VALUE

// BACK:      func.func @main(%x: tensor<1x4xf32> {ov.name = "x"}) -> (tensor<1x4xf32> {ov.name = "y"})
// BACK:        ov.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32> {ov.name = "w"}
// BACK:        ov.multiply %x, %{{.*}} {ov.name = "y"}

// DOT:       digraph lowpass {
// DOT:       [label="y\nMultiply\n1x4 f32\nrhs 4 f32 = [1, 2, 3, 4]"
// CONST:     [label="w\nConstant
// NOOUT:     opt-tool: error: -t ov-ir (--emit=ov-ir) writes two files (.xml and .bin): give the .xml with -o out.xml
// OPTION:    opt-tool: error: target 'ov-ir': unknown option 'bni' (did you mean 'bin'?) (options: bin)
// VALUE:     opt-tool: error: target 'dot': option 'show-constants' expects <bool>, got 'maybe'
// XNOOUT:    ov-ir target: error: OpenVINO IR is two files (.xml and .bin): give the .xml with -o out.xml
func.func @main(%x: tensor<1x4xf32> {ov.name = "x"}) -> (tensor<1x4xf32> {ov.name = "y"}) {
  %w = ov.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32> {ov.name = "w"}
  %y = ov.multiply %x, %w {ov.name = "y"} : (tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  func.return %y : tensor<1x4xf32>
}
