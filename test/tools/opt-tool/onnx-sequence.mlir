// opt-tool reads ONNX sequences (written by Inputs/make_onnx_models.py) as OpenVINO's
// frontends do (frontends/onnx/sequence.py): `ov` has no sequence type, so a list that a Loop
// body appends to (SequenceEmpty, SequenceInsert, then ConcatFromSequence: what
// torch.onnx.export writes for a scripted `outs.append(h)` and `torch.stack(outs, 1)`)
// becomes a concatenated output of the loop, the appended tensor unsqueezed in the body, and
// the stack on axis 1 a transpose of it. The loop has no input for the sequence, and the CPU
// device compiles it. A body that reads its carried sequence otherwise than appending to it
// is refused with one line naming the node and the Loop whose body it is in.
// REQUIRES: onnx
// RUN: python3 %S/Inputs/make_onnx_models.py %t
// RUN: opt-tool %t/list-in-loop.onnx | filecheck %s
// RUN: lowpass-run %t/list-in-loop.onnx --random-inputs 0 --device CPU -pcsort no_sort | filecheck %s --check-prefix=ROWS
// RUN: not opt-tool %t/carried-sequence-read.onnx 2>&1 | filecheck %s --check-prefix=BAD

// CHECK:      %[[LOOP:.*]] = ov.loop(%{{.*}}, %{{.*}}, %x) attributes {ov.name = "loop", input_descriptions = [#ov.invariant<input = 2, param = 1>], output_descriptions = [#ov.concat_output<result = 1, output = 0, axis = 0>], special_body_ports = array<i64: 0, 0>} : (tensor<i64>, tensor<i1>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32> {
// CHECK:        %[[H:.*]] = ov.relu %{{.*}} {ov.name = "h"}
// CHECK:        %[[U:.*]] = ov.unsqueeze %[[H]], %{{.*}} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<1x2x3xf32>
// CHECK-NEXT:   ov.yield %{{.*}}, %[[U]] : tensor<i1>, tensor<1x2x3xf32>
// CHECK:      %[[PERM:.*]] = ov.constant dense<[1, 0, 2]> : tensor<3xi64> {ov.name = "stack/Constant"}
// CHECK-NEXT: %[[Y:.*]] = ov.transpose %[[LOOP]], %[[PERM]] {ov.name = "y"} : (tensor<4x2x3xf32>, tensor<3xi64>) -> tensor<2x4x3xf32>
// CHECK-NEXT: func.return %[[Y]]

// ROWS: loop Loop jit_{{.*}}_FP32 EXECUTED
// ROWS: y Transpose jit_{{.*}}_FP32 EXECUTED

// BAD: carried-sequence-read.onnx: error: node 'length' (#0, SequenceLength) in the body of node 'loop' (#1, Loop): input 0 is the body's loop-carried sequence #0 ('s_in'): lowpass reads it in the Loop body only to append to it (SequenceInsert at its end), and after the Loop
