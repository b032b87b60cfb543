"""The reference interpreter's block programs (`lowpass.runtime.interpreter.OpProgram`):
the same values as xDSL's interpreter running the function op by op, bodies and variables
included; tensors freed after their last use; an op with a body timed around it."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from lowpass.dialects.ov.infrastructure import TensorIteratorOp
from lowpass.ir import read_module
from lowpass.runtime.interpreter import OpTiming, ReferenceExecutor

# `do { acc = acc + m } while (++i < n)`: a Loop whose body computes its own condition
WHILE = """
func.func @main(%a0: tensor<1x3xf32>, %m: tensor<1x3xf32>, %n: tensor<i64>) -> tensor<1x3xf32> {
  %trips = ov.constant dense<-1> : tensor<i64>
  %go = ov.constant dense<true> : tensor<i1>
  %0 = ov.loop(%trips, %go, %a0, %m, %n) attributes {
      input_descriptions = [#ov.merged<input = 2, param = 1, result = 0>,
                            #ov.invariant<input = 3, param = 2>,
                            #ov.invariant<input = 4, param = 3>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>],
      special_body_ports = array<i64: 0, 1>, parameter_names = ["i", "acc", "m", "n"]}
      : (tensor<i64>, tensor<i1>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<i64>)
      -> tensor<1x3xf32> {
  ^bb0(%i: tensor<i64>, %acc: tensor<1x3xf32>, %mb: tensor<1x3xf32>, %nb: tensor<i64>):
    %s = ov.add %acc, %mb : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
    %one = ov.constant dense<1> : tensor<i64>
    %next = ov.add %i, %one : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %more = ov.less %next, %nb : (tensor<i64>, tensor<i64>) -> tensor<i1>
    ov.yield %s, %more : tensor<1x3xf32>, tensor<i1>
  }
  func.return %0 : tensor<1x3xf32>
}
"""

IF = """
func.func @main(%x: tensor<?x?xf32>, %c: tensor<i1>) -> tensor<?x?xf32> {
  %y = ov.if(%c, %x) attributes {
      then_inputs = [#ov.invariant<input = 1, param = 0>],
      else_inputs = [#ov.invariant<input = 1, param = 0>],
      then_outputs = [#ov.body_output<result = 0, output = 0>],
      else_outputs = [#ov.body_output<result = 0, output = 0>]}
      : (tensor<i1>, tensor<?x?xf32>) -> tensor<?x?xf32> {
  ^bb0(%a: tensor<?x?xf32>):
    %r = ov.relu %a : (tensor<?x?xf32>) -> tensor<?x?xf32>
    ov.yield %r : tensor<?x?xf32>
  } else {
  ^bb0(%a: tensor<?x?xf32>):
    %n = ov.negative %a : (tensor<?x?xf32>) -> tensor<?x?xf32>
    ov.yield %n : tensor<?x?xf32>
  }
  func.return %y : tensor<?x?xf32>
}
"""

# an RNN cell over 5 steps whose initial state is a variable (what LowLatency2 makes): the
# state carries over runs
STATEFUL_TI = """
ov.variable @"ti/h/variable_0" : tensor<1x2xf32>
func.func @main(%x: tensor<1x5x2xf32>, %h0: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %h = ov.read_value @"ti/h/variable_0" init(%h0 : tensor<1x2xf32>) : tensor<1x2xf32>
  %0 = ov.tensor_iterator(%x, %h) attributes {
      input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>,
                            #ov.merged<input = 1, param = 1, result = 0>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>],
      parameter_names = ["X_t", "H_t"]}
      : (tensor<1x5x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32> {
  ^bb0(%xt: tensor<1x1x2xf32>, %ht: tensor<1x2xf32>):
    %w = ov.constant dense<[[0.5, -0.25], [0.125, 0.75]]> : tensor<2x2xf32>
    %axis = ov.constant dense<[1]> : tensor<1xi64>
    %xs = ov.squeeze %xt, %axis : (tensor<1x1x2xf32>, tensor<1xi64>) -> tensor<1x2xf32>
    %hw = ov.mat_mul %ht, %w : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
    %s = ov.add %xs, %hw : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
    %t = ov.tanh %s : (tensor<1x2xf32>) -> tensor<1x2xf32>
    ov.yield %t : tensor<1x2xf32>
  }
  ov.assign @"ti/h/variable_0", %0 : tensor<1x2xf32>
  func.return %0 : tensor<1x2xf32>
}
"""


def _inputs(rng: np.random.Generator, case: str) -> list[np.ndarray]:
    match case:
        case "while":
            f = rng.standard_normal((2, 1, 3)).astype(np.float32)
            return [f[0], f[1], np.array(int(rng.integers(1, 6)), np.int64)]
        case "if":
            return [rng.standard_normal((2, 4)).astype(np.float32), np.array(rng.random() < 0.5)]
        case _:
            return [rng.standard_normal(s).astype(np.float32) for s in ((1, 5, 2), (1, 2))]


@pytest.mark.parametrize(("case", "text"), [
    ("while", WHILE), ("if", IF), ("stateful_ti", STATEFUL_TI),
])
def test_program_gives_the_interpreters_values(case: str, text: str) -> None:
    program = ReferenceExecutor(read_module(text))
    interpreted = ReferenceExecutor(read_module(text))
    rng = np.random.default_rng(7)
    for _ in range(4):  # (the stateful model's variable carries over the runs)
        inputs = _inputs(rng, case)
        expected = interpreted.interpreter.call_op(interpreted.function, tuple(inputs))
        got = program.run(inputs)
        assert len(got) == len(expected) == 1
        np.testing.assert_array_equal(got[0], expected[0], strict=True)


def test_tensors_are_freed_after_their_last_use() -> None:
    # eight ops of 4 MiB results in a chain: the program holds two or three of them at a
    # time; xDSL's interpreter keeps every value in its scope until the function returns
    adds = "\n".join(
        f"  %v{i + 1} = ov.add %v{i}, %x : (tensor<1024x1024xf32>, tensor<1024x1024xf32>)"
        " -> tensor<1024x1024xf32>" for i in range(8)
    )
    text = (
        "func.func @main(%x: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {\n"
        "  %v0 = ov.relu %x : (tensor<1024x1024xf32>) -> tensor<1024x1024xf32>\n"
        f"{adds}\n  func.return %v8 : tensor<1024x1024xf32>\n}}\n"
    )
    executor = ReferenceExecutor(read_module(text))
    x = np.ones((1024, 1024), np.float32)
    tensor = x.nbytes

    def peak(run: object) -> int:
        tracemalloc.start()
        try:
            assert callable(run)
            run()
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    by_program = peak(lambda: executor.run([x]))
    by_interpreter = peak(lambda: executor.interpreter.call_op(executor.function, (x,)))
    assert by_program <= 3.5 * tensor < 8 * tensor <= by_interpreter


def test_an_op_with_a_body_is_timed_around_it() -> None:
    timing = OpTiming()
    module = read_module(STATEFUL_TI)
    executor = ReferenceExecutor(module, timing=timing)
    executor.run(_inputs(np.random.default_rng(0), "stateful_ti"))
    (ti,) = [op for op in module.walk() if isinstance(op, TensorIteratorOp)]
    body = [op for op in ti.body.block.ops if op in timing.times]
    assert len(body) == 6 and all(timing.counts[op] == 5 for op in body)  # 5 iterations
    assert timing.counts[ti] == 1
    assert timing.times[ti] >= sum(timing.times[op] for op in body)
