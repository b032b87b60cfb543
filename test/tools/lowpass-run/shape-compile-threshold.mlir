// LP_SHAPE_COMPILE_THRESHOLD: the CPU device runs a dynamic model's new input shapes on the
// reference interpreter until they are worth compiling (AUTO, its default); lowpass-run
// compiles them at their first inference (its counters and --emit-llvm are the native
// code's) unless -c gives the threshold.
// RUN: lowpass-run %s -data_shape 'x[2,4]' --random-inputs 0 --perf-counts | filecheck %s --check-prefix=NATIVE
// RUN: lowpass-run %s -data_shape 'x[2,4]' --random-inputs 0 --perf-counts -c LP_SHAPE_COMPILE_THRESHOLD=AUTO | filecheck %s --check-prefix=INTERPRETED
// RUN: not lowpass-run %s -data_shape 'x[2,4]' --random-inputs 0 --emit-llvm - -c LP_SHAPE_COMPILE_THRESHOLD=2 2>&1 | filecheck %s --check-prefix=NO-CODE
// RUN: not lowpass-run %s -data_shape 'x[2,4]' --random-inputs 0 -c LP_SHAPE_COMPILE_THRESHOLD=0 2>&1 | filecheck %s --check-prefix=BAD
// RUN: not lowpass-run %s -data_shape 'x[2,4]' --random-inputs 0 -c LP_SHAPE_COMPILE_THRESHOLD=soon 2>&1 | filecheck %s --check-prefix=BAD-TEXT

// NATIVE:      y: f32[2, 4]
// NATIVE-NOT:  ref_
// NATIVE:      {{^}}relu{{ +}}Relu
// NATIVE-NOT:  ref_
// INTERPRETED: y: f32[2, 4]
// INTERPRETED: {{^}}relu{{ +}}Relu{{ +}}ref_FP32{{ +}}EXECUTED
// NO-CODE:     lowpass-run: error: --emit-llvm: the CPU device ran the last inference's input shapes on the reference interpreter (not compiled yet: LP_SHAPE_COMPILE_THRESHOLD 2; or a dynamic rank, or shapes that native code cannot take)
// BAD:         lowpass-run: error: LP_SHAPE_COMPILE_THRESHOLD takes AUTO or an integer >= 1 (1: compile new input shapes at their first inference), got 0
// BAD-TEXT:    lowpass-run: error: LP_SHAPE_COMPILE_THRESHOLD takes AUTO or an integer >= 1 (1: compile new input shapes at their first inference), got 'soon'
// BAD-NOT:     Traceback

func.func @main(%x: tensor<?x4xf32> {ov.name = "x"}) -> (tensor<?x4xf32> {ov.name = "y"}) {
  %r = ov.relu %x {ov.name = "relu"} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  func.return %r : tensor<?x4xf32>
}
