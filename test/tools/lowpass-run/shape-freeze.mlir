// --shape sets the shapes of dynamic inputs, --freeze makes an input a constant (silero-vad's
// `sr`): the model then runs without editing the file, on both devices.
// RUN: lowpass-run %s --shape x=2x3 --freeze scale=2 --random-inputs 0 | filecheck %s
// RUN: lowpass-run %s -shape 'x[2,3]' --freeze 'scale->2' --random-inputs 0 --device CPU | filecheck %s
// RUN: lowpass-run %s --shape '[2,3]' --freeze scale=2.0 --random-inputs 0 | filecheck %s
// RUN: lowpass-run %s --shape 'x[2,3],scale[]' --random-inputs 0 | filecheck %s --check-prefix=BOTH
// RUN: not lowpass-run %s --random-inputs 0 2>&1 | filecheck %s --check-prefix=DYNAMIC
// RUN: lowpass-run %s -data_shape 'x[2,3]' --freeze scale=2 --random-inputs 0 | filecheck %s
// RUN: not lowpass-run %s -data_shape 'x[2,4]' --freeze scale=2 --random-inputs 0 2>&1 | filecheck %s --check-prefix=DATA-FIT
// RUN: not lowpass-run %s -data_shape 'y[2,3]' --freeze scale=2 --random-inputs 0 2>&1 | filecheck %s --check-prefix=DATA-NAME
// RUN: not lowpass-run %s --shape y=2x3 --random-inputs 0 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not lowpass-run %s --shape x=2xz --random-inputs 0 2>&1 | filecheck %s --check-prefix=SYNTAX
// RUN: not lowpass-run %s --shape 2x3 --random-inputs 0 2>&1 | filecheck %s --check-prefix=UNNAMED
// RUN: not lowpass-run %s --freeze scale --random-inputs 0 2>&1 | filecheck %s --check-prefix=NOVALUE
// RUN: not lowpass-run %s --freeze nope=1 --random-inputs 0 2>&1 | filecheck %s --check-prefix=NOINPUT
// RUN: not lowpass-run %s --freeze scale=abc --random-inputs 0 2>&1 | filecheck %s --check-prefix=NAN
// RUN: not lowpass-run %s --freeze scale=2 --shape scale=1 --random-inputs 0 2>&1 | filecheck %s --check-prefix=FROZEN

// CHECK:      out: f32[2, 3]
// CHECK-NOT:  scale
// BOTH:       out: f32[2, 3]
// DYNAMIC:    lowpass-run: error: input 'x' has a dynamic shape: give it with --input, or its random data's shape with -data_shape x[...]
// DATA-FIT:   lowpass-run: error: -data_shape x[2,4]: expected static dimensions that fit input 'x' [?,3]
// DATA-NAME:  lowpass-run: error: -data_shape: the model has no input named 'y': its inputs are 'x'
// UNKNOWN:    lowpass-run: error: --shape: the model has no input named 'y': its inputs are 'x', 'scale'
// UNKNOWN-NOT: Traceback
// SYNTAX:     lowpass-run: error: --shape x=2xz: '2xz' is not a shape such as 1x512 or [1,512]: 'z' is not a dimension
// UNNAMED:    lowpass-run: error: --shape 2x3: name the input (NAME=SHAPE or NAME[dims]); inputs are x, scale
// NOVALUE:    lowpass-run: error: --freeze scale: expected NAME=VALUE such as sr=16000 (or NAME->VALUE)
// NOINPUT:    lowpass-run: error: --freeze: the model has no input named 'nope': its inputs are 'x', 'scale'
// NAN:        lowpass-run: error: --freeze scale=abc: 'abc' is not a number
// FROZEN:     lowpass-run: error: --shape: the model has no input named 'scale': its inputs are 'x' ('scale' is frozen by --freeze)

func.func @main(%x: tensor<?x3xf32> {ov.name = "x"}, %s: tensor<f32> {ov.name = "scale"})
    -> (tensor<?x3xf32> {ov.name = "out"}) {
  %y = ov.multiply %x, %s {ov.name = "scaled"} : (tensor<?x3xf32>, tensor<f32>) -> tensor<?x3xf32>
  func.return %y : tensor<?x3xf32>
}
