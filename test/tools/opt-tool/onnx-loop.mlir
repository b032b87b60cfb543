// opt-tool reads ONNX Loop (written by Inputs/make_onnx_models.py) as ov.loop, as OpenVINO's
// ONNX frontend does (frontends/onnx/control.py): the body's inputs are its first parameters
// (iteration_num the current_iteration port), each loop-carried value a merged input, a
// scan output unsqueezed in the body and concatenated along axis 0, an outer value the body
// reads an invariant input. A body that passes its condition through yields `true`, so the
// five iterations of the for loop are known and the CPU device compiles it; the while loop's
// carried value grows, so its parameter is dynamic there (?x2) and the CPU device runs it on
// the reference interpreter. Bad input is one line naming the node.
// REQUIRES: onnx
// RUN: python3 %S/Inputs/make_onnx_models.py %t
// RUN: opt-tool %t/for-loop.onnx | filecheck %s
// RUN: opt-tool %t/while-loop.onnx | filecheck %s --check-prefix=WHILE
// RUN: lowpass-run %t/for-loop.onnx --random-inputs 0 --device CPU -pcsort no_sort | filecheck %s --check-prefix=FOR-ROWS
// RUN: lowpass-run %t/while-loop.onnx --random-inputs 0 --device CPU -pcsort no_sort | filecheck %s --check-prefix=WHILE-ROWS
// RUN: not opt-tool %t/loop-body-inputs.onnx 2>&1 | filecheck %s --check-prefix=BAD

// CHECK:      %[[M:.*]] = ov.constant dense<5> : tensor<i64> {ov.name = "M"}
// CHECK-NEXT: %[[T:.*]] = ov.constant dense<true> : tensor<i1>
// CHECK-NEXT: %{{.*}}, %{{.*}} = ov.loop(%[[M]], %[[T]], %y0, %x) attributes {ov.name = "y", input_descriptions = [#ov.merged<input = 2, param = 1, result = 1>, #ov.invariant<input = 3, param = 2>], output_descriptions = [#ov.body_output<result = 1, output = 0>, #ov.concat_output<result = 2, output = 1, axis = 0>], special_body_ports = array<i64: 0, 0>} : (tensor<i64>, tensor<i1>, tensor<3xf32>, tensor<5x3xf32>) -> (tensor<3xf32>, tensor<5x3xf32>) {
// CHECK-NEXT: ^bb0(%i: tensor<i64>, %y_in: tensor<3xf32>, %x_1: tensor<5x3xf32>):
// CHECK-NEXT:   %[[TRUE:.*]] = ov.constant dense<true> : tensor<i1>
// CHECK:        %[[Y:.*]] = ov.add %y_in, %{{.*}} {ov.name = "y_out"}
// CHECK:        %[[S:.*]] = ov.multiply %[[Y]], %{{.*}} {ov.name = "scan"}
// CHECK:        %[[U:.*]] = ov.unsqueeze %[[S]], %{{.*}} : (tensor<3xf32>, tensor<1xi64>) -> tensor<1x3xf32>
// CHECK-NEXT:   ov.yield %[[TRUE]], %[[Y]], %[[U]] : tensor<i1>, tensor<3xf32>, tensor<1x3xf32>

// WHILE:      ov.constant dense<-1> : tensor<i64>
// WHILE:      ov.loop({{.*}}) attributes {ov.name = "y", input_descriptions = [#ov.merged<input = 2, param = 1, result = 0>, #ov.merged<input = 3, param = 2, result = 1>, #ov.invariant<input = 4, param = 3>]{{.*}} -> tensor<?x2xf32> {
// WHILE-NEXT: ^bb0(%i: tensor<i64>, %c_in: tensor<i1>, %s_in: tensor<?x2xf32>, %r_1: tensor<1x2xf32>):
// WHILE:      %[[C:.*]] = ov.less %{{.*}}, %{{.*}} {ov.name = "c_out"}
// WHILE-NEXT: ov.yield %[[C]], %{{.*}} : tensor<i1>, tensor<?x2xf32>

// FOR-ROWS:   y Loop jit_{{.*}}_FP32 EXECUTED
// WHILE-ROWS: y Loop ref_FP32 EXECUTED

// BAD: loop-body-inputs.onnx: error: node 'loop' (#0, Loop): the body has 2 inputs, expected 3 (iteration_num, cond and the 1 loop-carried values)
