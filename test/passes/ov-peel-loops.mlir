// ov-peel-loops runs the first iteration of a Loop in front of it where the body gives a
// carried value back in another shape than it takes: TensorFlow's while loop as OpenVINO
// converts it (Inputs/tensor-array-loop.mlir: a TensorArray that starts as a 4x1x1
// placeholder and that the first iteration broadcasts to 4x1x3, so its parameter is 4x1x?).
// The copy's ops are named <name>/peeled; the Loop takes the copy's results as its initial
// values and its condition as its execution condition (the trip count -1 stays -1), and its
// parameter the copy's static type. REFERENCE computes the same before and after; the CPU
// device, which peels it itself, runs the Loop and its ScatterUpdate (indices computed at run
// time, checked in range) in native code, as REFERENCE computes it (within 1e-5: its Tanh).
// RUN: opt-tool --ov-peel-loops %S/Inputs/tensor-array-loop.mlir | filecheck %s
// RUN: opt-tool --ov-peel-loops %S/Inputs/tensor-array-loop.mlir | opt-tool | filecheck %s
// RUN: opt-tool --ov-peel-loops %s --split-input-file | filecheck %s --check-prefix=KEPT
// RUN: rm -rf %t && mkdir -p %t
// RUN: lowpass-run %S/Inputs/tensor-array-loop.mlir --random-inputs 1 --device REFERENCE --save-outputs %t/before
// RUN: opt-tool --ov-peel-loops %S/Inputs/tensor-array-loop.mlir -o %t/peeled.mlir
// RUN: lowpass-run %t/peeled.mlir --random-inputs 1 --device REFERENCE --save-outputs %t/after
// RUN: python3 %S/../tools/lowpass-run/Inputs/compare_outputs.py %t/before %t/after | filecheck %s --check-prefix=SAME
// RUN: lowpass-run %S/Inputs/tensor-array-loop.mlir --random-inputs 1 --device CPU --save-outputs %t/cpu -pcsort no_sort | filecheck %s --check-prefix=ROWS
// RUN: python3 %S/../tools/lowpass-run/Inputs/compare_outputs.py %t/before %t/cpu | filecheck %s --check-prefix=SAME

// CHECK:      %[[T1:.*]] = ov.add %t0, %{{.*}} {ov.name = "t1/peeled"}
// CHECK:      %[[B:.*]] = ov.broadcast %ta, %{{.*}} {ov.name = "b/peeled"} : (tensor<4x1x1xf32>, tensor<3xi64>) -> tensor<4x1x3xf32>
// CHECK:      %[[W:.*]] = ov.scatter_update %[[B]], {{.*}} {ov.name = "write/peeled"}
// CHECK:      %[[C:.*]] = ov.less %[[T1]], %{{.*}} {ov.name = "c/peeled"}
// CHECK-NEXT: ov.loop(%trip, %[[C]], %[[T1]], %[[W]], %{{.*}}, %x) attributes {ov.name = "while"
// CHECK-NEXT: ^bb0(%{{.*}}: tensor<i32>, %{{.*}}: tensor<4x1x3xf32>, %{{.*}}: tensor<1x3xf32>, %{{.*}}: tensor<4x1x3xf32>):

// SAME: same y

// ROWS-DAG: write/peeled {{ *}}ScatterUpdate {{ *}}jit_{{.*}}_FP32 EXECUTED
// ROWS-DAG: while {{ *}}Loop {{ *}}jit_{{.*}} EXECUTED

// The execution condition is computed: the first iteration may not run, so nothing is peeled.
// KEPT-LABEL: func.func @computed_condition
// KEPT-NOT:   peeled
// KEPT:       ov.loop
func.func @computed_condition(%go: tensor<i1>, %x: tensor<2xf32>) -> tensor<?xf32> {
  %trip = ov.constant dense<3> : tensor<i64>
  %0 = ov.loop(%trip, %go, %x) attributes {input_descriptions = [#ov.merged<input = 2, param = 0, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>], special_body_ports = array<i64: -1, 1>} : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> tensor<?xf32> {
  ^bb0(%s: tensor<?xf32>):
    %c = ov.constant dense<true> : tensor<i1>
    %g = ov.concat %s, %s axis = 0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    ov.yield %g, %c : tensor<?xf32>, tensor<i1>
  }
  func.return %0 : tensor<?xf32>
}

// -----

// A value that grows each iteration: once peeled, the parameter is still dynamic (4, then
// 8...), so the peel is undone.
// KEPT-LABEL: func.func @growing
// KEPT-NOT:   peeled
// KEPT:       ov.loop
func.func @growing(%x: tensor<2xf32>) -> tensor<?xf32> {
  %trip = ov.constant dense<3> : tensor<i64>
  %go = ov.constant dense<true> : tensor<i1>
  %0 = ov.loop(%trip, %go, %x) attributes {input_descriptions = [#ov.merged<input = 2, param = 0, result = 0>], output_descriptions = [#ov.body_output<result = 0, output = 0>], special_body_ports = array<i64: -1, 1>} : (tensor<i64>, tensor<i1>, tensor<2xf32>) -> tensor<?xf32> {
  ^bb0(%s: tensor<?xf32>):
    %c = ov.constant dense<true> : tensor<i1>
    %g = ov.concat %s, %s axis = 0 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    ov.yield %g, %c : tensor<?xf32>, tensor<i1>
  }
  func.return %0 : tensor<?xf32>
}
