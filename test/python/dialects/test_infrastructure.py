"""Tests of ov.tensor_iterator, ov.loop, ov.yield and the port description attributes."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, FunctionType, ModuleOp, i64
from xdsl.ir import SSAValue
from xdsl.utils.exceptions import ParseError, VerifyException

from lowpass.dialects import ov as ovd
from lowpass.dialects.interpret import run_region
from lowpass.dialects.ov import (
    DYNAMIC,
    AddOp,
    BodyOutputAttr,
    ConcatOutputAttr,
    ConstantOp,
    InvariantInputAttr,
    LoopOp,
    MatMulOp,
    MergedInputAttr,
    MultiplyOp,
    SliceInputAttr,
    TensorIteratorOp,
    YieldOp,
    build_body,
    get_name,
    shape_of,
    tensor,
    to_dtype,
)
from lowpass.ir import make_context, parse_module, print_module, read_module
from lowpass.runtime.interpreter import run_reference

RNG = np.random.default_rng(4321)


def rand(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def ty(shape, et="f32") -> str:
    dims = "x".join("?" if d == DYNAMIC else str(d) for d in shape)
    return f"tensor<{dims}x{et}>" if dims else f"tensor<{et}>"


def main(args: list[tuple[str, str]], body: str, results: list[tuple[str, str]]) -> str:
    """A @main function text: `args` and `results` are (ssa name, type) pairs."""
    sig = ", ".join(f"%{n}: {t}" for n, t in args)
    rts = ", ".join(t for _, t in results)
    ret = ", ".join(v for v, _ in results)
    return f"func.func @main({sig}) -> ({rts}) {{\n{body}\n  func.return {ret} : {rts}\n}}\n"


def subgraph_op(module) -> TensorIteratorOp | LoopOp:
    return next(op for op in module.walk() if isinstance(op, TensorIteratorOp | LoopOp))


# ------------------------------------------------------------------------------------------
# Models used by several tests (text) and their independent numpy references
# ------------------------------------------------------------------------------------------


def accumulate_text(t=5, slice_attrs="", concat_attrs="", part=1, n_out=None) -> str:
    """acc <- acc + x_t over X[2, t, 3] sliced on axis 1; last value and concat outputs."""
    xt, acc, x = ty([2, part, 3]), ty([2, part, 3]), ty([2, t, 3])
    cat = ty([2, t if n_out is None else n_out, 3])
    body = f"""  %r:2 = ov.tensor_iterator(%x, %a0) attributes {{
      input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1{slice_attrs}>,
                            #ov.merged<input = 1, param = 1, result = 0>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>,
                             #ov.concat_output<result = 0, output = 1, axis = 1{concat_attrs}>],
      ov.name = "acc"}} : ({x}, {acc}) -> ({acc}, {cat}) {{
  ^bb0(%xt: {xt}, %at: {acc}):
    %s = ov.add %at, %xt : ({acc}, {xt}) -> {acc}
    ov.yield %s : {acc}
  }}"""
    return main([("x", x), ("a0", acc)], body, [("%r#0", acc), ("%r#1", cat)])


def ref_accumulate(x, a0, part=1, reverse=False, concat_reverse=False):
    n = x.shape[1] // part
    order = range(n - 1, -1, -1) if reverse else range(n)
    acc, values = a0.copy(), []
    for i in order:
        acc = acc + x[:, i * part : (i + 1) * part]
        values.append(acc)
    if concat_reverse:
        values = values[::-1]
    return acc, np.concatenate(values, axis=1)


LSTM_LIKE = main(
    [("x", ty([1, 4, 3])), ("h0", ty([1, 1, 3])), ("c0", ty([1, 1, 3])), ("w", ty([3, 3])),
     ("r", ty([3, 3]))],
    f"""  %o:3 = ov.tensor_iterator(%x, %c0, %h0, %w, %r) attributes {{
      input_descriptions = [#ov.merged<input = 1, param = 2, result = 1>,
                            #ov.slice<input = 0, param = 0, axis = 1>,
                            #ov.merged<input = 2, param = 1, result = 0>,
                            #ov.invariant<input = 3, param = 3>,
                            #ov.invariant<input = 4, param = 4>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>,
                             #ov.concat_output<result = 0, output = 1, axis = 1>,
                             #ov.body_output<result = 1, output = 2>],
      parameter_names = ["X_t", "H_t", "C_t", "W", "R"], ov.name = "LSTMTensorIterator"}}
      : ({ty([1, 4, 3])}, {ty([1, 1, 3])}, {ty([1, 1, 3])}, {ty([3, 3])}, {ty([3, 3])})
      -> ({ty([1, 1, 3])}, {ty([1, 4, 3])}, {ty([1, 1, 3])}) {{
  ^bb0(%xt: {ty([1, 1, 3])}, %ht: {ty([1, 1, 3])}, %ct: {ty([1, 1, 3])}, %wt: {ty([3, 3])},
       %rt: {ty([3, 3])}):
    %a = ov.mat_mul %xt, %wt : ({ty([1, 1, 3])}, {ty([3, 3])}) -> {ty([1, 1, 3])}
    %b = ov.mat_mul %ht, %rt : ({ty([1, 1, 3])}, {ty([3, 3])}) -> {ty([1, 1, 3])}
    %g = ov.add %a, %b : ({ty([1, 1, 3])}, {ty([1, 1, 3])}) -> {ty([1, 1, 3])}
    %cg = ov.multiply %ct, %g : ({ty([1, 1, 3])}, {ty([1, 1, 3])}) -> {ty([1, 1, 3])}
    %c = ov.add %cg, %g : ({ty([1, 1, 3])}, {ty([1, 1, 3])}) -> {ty([1, 1, 3])}
    %h = ov.multiply %g, %c : ({ty([1, 1, 3])}, {ty([1, 1, 3])}) -> {ty([1, 1, 3])}
    ov.yield %h, %c : {ty([1, 1, 3])}, {ty([1, 1, 3])}
  }}""",
    [("%o#0", ty([1, 1, 3])), ("%o#1", ty([1, 4, 3])), ("%o#2", ty([1, 1, 3]))],
)


def ref_lstm_like(x, h0, c0, w, r):
    h, c, hs = h0.astype(np.float64), c0.astype(np.float64), []
    for t in range(x.shape[1]):
        g = x[:, t : t + 1] @ w + h @ r
        c = c * g + g
        h = g * c
        hs.append(h)
    return h, np.concatenate(hs, axis=1), c


def loop_text(trip, cond, t=5, body_cond: str | None = "%k = ov.constant dense<true> : tensor<i1>"
              ) -> str:
    """
    Loop over X[t, 3] sliced on axis 0: acc += x_i * (i + 1) (i from current_iteration, i64,
    carried as an i64 counter too), body condition `%k` defined by `body_cond`, or the sliced
    i1 flag `%f` if `body_cond` is None.
    Operands: trip count and execution condition are arguments of @main.
    """
    f, row = ty([1, 3]), ty([1], "i64")
    body = f"""  %r:4 = ov.loop(%trip, %cond, %x, %a0, %flags, %n0) attributes {{
      input_descriptions = [#ov.slice<input = 2, param = 1, axis = 0>,
                            #ov.merged<input = 3, param = 2, result = 0>,
                            #ov.slice<input = 4, param = 3, axis = 0>,
                            #ov.merged<input = 5, param = 4, result = 2>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>,
                             #ov.concat_output<result = 1, output = 1, axis = 0>,
                             #ov.body_output<result = 2, output = 2>,
                             #ov.concat_output<result = 2, output = 3, axis = 0>],
      special_body_ports = array<i64: 0, 3>, ov.name = "loop"}}
      : ({ty([], trip)}, {ty([], "i1")}, {ty([t, 3])}, {f}, {ty([t], "i1")}, {row})
      -> ({f}, {ty([DYNAMIC, 3])}, {row}, {ty([DYNAMIC], "i64")}) {{
  ^bb0(%i: {row}, %xi: {f}, %acc: {f}, %f: {ty([1], "i1")}, %n: {row}):
    %one = ov.constant dense<1> : {row}
    %i1 = ov.add %i, %one : ({row}, {row}) -> {row}
    %n1 = ov.add %n, %i1 : ({row}, {row}) -> {row}
    %w = ov.multiply %xi, %xi : ({f}, {f}) -> {f}
    %s = ov.add %acc, %w : ({f}, {f}) -> {f}
    {body_cond or ""}
    ov.yield %s, %w, %n1, {"%k" if body_cond else "%f"} : {f}, {f}, {row}, {
        ty([], "i1") if body_cond else ty([1], "i1")}
  }}"""
    args = [("trip", ty([], trip)), ("cond", ty([], "i1")), ("x", ty([t, 3])), ("a0", f),
            ("flags", ty([t], "i1")), ("n0", row)]
    return main(args, body, [("%r#0", f), ("%r#1", ty([DYNAMIC, 3])), ("%r#2", row),
                             ("%r#3", ty([DYNAMIC], "i64"))])


def ref_loop(trip, cond, x, a0, flags, n0, use_flags):
    acc, n, squares, counters, i = a0.copy(), n0.copy(), [], [], 0
    while (trip < 0 or i < trip) and cond:
        w = x[i : i + 1] * x[i : i + 1]
        acc = acc + w
        n = n + (i + 1)
        squares.append(w)
        counters.append(n)
        cond = bool(flags[i]) if use_flags else True
        i += 1
    cat = np.concatenate(squares) if squares else np.zeros((0, 3), np.float32)
    cnt = np.concatenate(counters) if counters else np.zeros((0,), np.int64)
    return acc, cat, n, cnt, i


# ------------------------------------------------------------------------------------------
# Reference semantics against numpy loops
# ------------------------------------------------------------------------------------------


def test_accumulator_tensor_iterator():
    x, a0 = rand(2, 5, 3), rand(2, 1, 3)
    got = run_reference(read_module(accumulate_text()), [x, a0])
    last, cat = ref_accumulate(x, a0)
    np.testing.assert_allclose(got[0], last, rtol=1e-6)
    np.testing.assert_allclose(got[1], cat, rtol=1e-6)


def test_several_back_edges_and_invariant_inputs():
    args = [rand(1, 4, 3), rand(1, 1, 3), rand(1, 1, 3), rand(3, 3) / 2, rand(3, 3) / 2]
    module = read_module(LSTM_LIKE)
    got = run_reference(module, args)
    for g, e in zip(got, ref_lstm_like(*args), strict=True):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)


def test_part_size_two():
    x, a0 = rand(2, 6, 3), rand(2, 2, 3)
    text = accumulate_text(6, ", stride = 2, part_size = 2", ", stride = 2, part_size = 2", 2)
    module = read_module(text)
    assert subgraph_op(module).num_iterations() == 3
    got = run_reference(module, [x, a0])
    last, cat = ref_accumulate(x, a0, part=2)
    np.testing.assert_allclose(got[0], last, rtol=1e-6)
    np.testing.assert_allclose(got[1], cat, rtol=1e-6)


@pytest.mark.parametrize(
    ("slice_attrs", "concat_attrs", "concat_reverse"),
    [
        (", start = -1, stride = -1, end = 0", "", False),
        (", stride = -1", "", False),
        (", stride = -1", ", stride = -1", True),
        (", start = -1, stride = -1, end = 0", ", start = -1, stride = -1, end = 0", True),
    ],
)
def test_reverse_slicing(slice_attrs, concat_attrs, concat_reverse):
    x, a0 = rand(2, 5, 3), rand(2, 1, 3)
    got = run_reference(read_module(accumulate_text(5, slice_attrs, concat_attrs)), [x, a0])
    last, cat = ref_accumulate(x, a0, reverse=True, concat_reverse=concat_reverse)
    np.testing.assert_allclose(got[0], last, rtol=1e-6)
    np.testing.assert_allclose(got[1], cat, rtol=1e-6)


def test_sub_range_slicing():
    """start/end select a sub-range of the axis: elements 1..3 of 5."""
    x, a0 = rand(2, 5, 3), rand(2, 1, 3)
    text = accumulate_text(5, ", start = 1, end = 3", n_out=3)
    module = read_module(text)
    assert subgraph_op(module).num_iterations() == 3
    got = run_reference(module, [x, a0])
    last, cat = ref_accumulate(x[:, 1:4], a0)
    np.testing.assert_allclose(got[1], cat, rtol=1e-6)
    np.testing.assert_allclose(got[0], last, rtol=1e-6)


def test_dynamic_sequence_length():
    module = read_module(accumulate_text(DYNAMIC))
    assert subgraph_op(module).num_iterations() == -1
    for t in (1, 4):
        x, a0 = rand(2, t, 3), rand(2, 1, 3)
        got = run_reference(module, [x, a0])
        last, cat = ref_accumulate(x, a0)
        np.testing.assert_allclose(got[0], last, rtol=1e-6)
        np.testing.assert_allclose(got[1], cat, rtol=1e-6)


def test_body_output_of_a_given_iteration():
    text = accumulate_text().replace(
        "#ov.body_output<result = 0, output = 0>",
        "#ov.body_output<result = 0, output = 0, iteration = 1>",
    )
    x, a0 = rand(2, 5, 3), rand(2, 1, 3)
    got = run_reference(read_module(text), [x, a0])
    np.testing.assert_allclose(got[0], a0 + x[:, 0:1] + x[:, 1:2], rtol=1e-6)


def test_no_sliced_input_uses_concat_end():
    """OpenVINO's rule: without sliced inputs, |end - start| / part_size iterations."""
    f = ty([1, 2])
    text = main(
        [("a0", f)],
        f"""  %r = ov.tensor_iterator(%a0) attributes {{
      input_descriptions = [#ov.merged<input = 0, param = 0, result = 0>],
      output_descriptions = [#ov.concat_output<result = 0, output = 0, axis = 0, end = 4>]}}
      : ({f}) -> {ty([4, 2])} {{
  ^bb0(%a: {f}):
    %s = ov.add %a, %a : ({f}, {f}) -> {f}
    ov.yield %s : {f}
  }}""",
        [("%r", ty([4, 2]))],
    )
    module = read_module(text)
    assert subgraph_op(module).num_iterations() == 4
    a0 = rand(1, 2)
    got = run_reference(module, [a0])[0]
    np.testing.assert_allclose(got, np.concatenate([a0 * 2, a0 * 4, a0 * 8, a0 * 16]))


@pytest.mark.parametrize("trip", [0, 1, 3, 5])
def test_loop_trip_count_and_current_iteration(trip):
    module = read_module(loop_text("i64", True))
    x, a0, flags, n0 = rand(5, 3), rand(1, 3), np.ones(5, bool), np.array([7], np.int64)
    got = run_reference(module, [np.array(trip), np.array(True), x, a0, flags, n0])
    acc, cat, n, cnt, _ = ref_loop(trip, True, x, a0, flags, n0, False)
    np.testing.assert_allclose(got[0], acc, rtol=1e-6)
    np.testing.assert_allclose(got[1], cat, rtol=1e-6)
    np.testing.assert_array_equal(got[2], n)
    np.testing.assert_array_equal(got[3], cnt)
    assert got[1].shape == (trip, 3)


@pytest.mark.parametrize(("trip", "stop_after"), [(-1, 2), (5, 3), (2, 4), (-1, 5)])
def test_loop_condition_becomes_false(trip, stop_after):
    module = read_module(loop_text("i32", True, body_cond=None))
    x, a0, n0 = rand(5, 3), rand(1, 3), np.array([0], np.int64)
    flags = np.arange(5) < stop_after - 1  # false at iteration stop_after - 1
    got = run_reference(module, [np.array(trip, np.int32), np.array(True), x, a0, flags, n0])
    acc, cat, n, cnt, iterations = ref_loop(trip, True, x, a0, flags, n0, True)
    assert iterations == (min(trip, stop_after) if trip >= 0 else stop_after)
    np.testing.assert_allclose(got[0], acc, rtol=1e-6)
    np.testing.assert_allclose(got[1], cat, rtol=1e-6)
    np.testing.assert_array_equal(got[2], n)
    np.testing.assert_array_equal(got[3], cnt)


def test_loop_execution_condition_false_runs_no_iteration():
    """Documented choice: outputs are the initial back-edge values and empty concatenations."""
    module = read_module(loop_text("i64", False))
    x, a0, n0 = rand(5, 3), rand(1, 3), np.array([3], np.int64)
    got = run_reference(module, [np.array(5), np.array(False), x, a0, np.ones(5, bool), n0])
    np.testing.assert_array_equal(got[0], a0)
    assert got[1].shape == (0, 3) and got[1].dtype == np.float32
    np.testing.assert_array_equal(got[2], n0)
    assert got[3].shape == (0,) and got[3].dtype == np.int64


def test_loop_do_while():
    module = read_module(
        loop_text("i64", True, body_cond="%k = ov.constant dense<false> : tensor<i1>")
    )
    # -1: the execution condition is a graph input (see test_loop_num_iterations for 1)
    assert subgraph_op(module).num_iterations() == -1
    x, a0, n0 = rand(5, 3), rand(1, 3), np.array([0], np.int64)
    got = run_reference(module, [np.array(5), np.array(True), x, a0, np.ones(5, bool), n0])
    np.testing.assert_allclose(got[0], a0 + x[:1] * x[:1], rtol=1e-6)
    assert got[1].shape == (1, 3)


def test_loop_running_out_of_slices_is_an_error():
    module = read_module(loop_text("i64", True))
    x, a0, n0 = rand(5, 3), rand(1, 3), np.array([0], np.int64)
    with pytest.raises(ValueError, match=r"iteration 5 needs part 5 .* only 5 parts"):
        run_reference(module, [np.array(6), np.array(True), x, a0, np.ones(5, bool), n0])


def test_evaluate_runs_without_an_interpreter():
    module = read_module(accumulate_text())
    x, a0 = rand(2, 5, 3), rand(2, 1, 3)
    last, cat = subgraph_op(module).evaluate([x, a0])
    np.testing.assert_allclose(last, ref_accumulate(x, a0)[0], rtol=1e-6)
    np.testing.assert_allclose(cat, ref_accumulate(x, a0)[1], rtol=1e-6)


def test_evaluate_runs_the_body_with_the_given_runner():
    module = read_module(accumulate_text())
    op = subgraph_op(module)
    x, a0 = rand(2, 5, 3), rand(2, 1, 3)
    calls: list[tuple[tuple[int, ...], ...]] = []

    def run_body(region, args, name):
        assert region is op.body and name == op.name
        calls.append(tuple(np.shape(a) for a in args))
        return run_region(region, args, name)

    last, cat = op.evaluate([x, a0], run_body)
    assert len(calls) == 5  # one call per iteration, on the slice and the merged value
    assert all(c == ((2, 1, 3), (2, 1, 3)) for c in calls)
    np.testing.assert_allclose(last, ref_accumulate(x, a0)[0], rtol=1e-6)
    np.testing.assert_allclose(cat, ref_accumulate(x, a0)[1], rtol=1e-6)


def test_the_dialect_runs_bodies_without_the_runtime():
    # layering (docs/development.md): evaluating a TensorIterator imports no runtime module
    code = (
        "import sys\n"
        "import numpy as np\n"
        "from lowpass.ir import parse_module\n"
        "from lowpass.dialects.ov import TensorIteratorOp\n"
        f"module, _ = parse_module({accumulate_text()!r})\n"
        "op = next(o for o in module.walk() if isinstance(o, TensorIteratorOp))\n"
        "x, a0 = np.ones((2, 5, 3), np.float32), np.ones((2, 1, 3), np.float32)\n"
        "last, cat = op.evaluate([x, a0])\n"
        "assert float(last.max()) == 6.0, last\n"
        "print(sorted(m for m in sys.modules if m.startswith('lowpass.runtime')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


# ------------------------------------------------------------------------------------------
# num_iterations
# ------------------------------------------------------------------------------------------


def loop_num_iterations(trip_def: str, cond_def: str, body_cond: str, body_args="") -> int:
    f = ty([1, 3])
    text = main(
        [("x", ty([4, 7])), ("a0", f), ("t", ty([], "i64")), ("c", ty([], "i1"))],
        f"""{trip_def}
  {cond_def}
  %r = ov.loop(%trip, %cond, %a0{body_args}) attributes {{
      input_descriptions = [#ov.merged<input = 2, param = 0, result = 0>{
            ", #ov.invariant<input = 3, param = 1>" if body_args else ""}],
      output_descriptions = [#ov.body_output<result = 0, output = 0>],
      special_body_ports = array<i64: -1, 1>}} : (tensor<i64>, tensor<i1>, {f}{
            ", tensor<i1>" if body_args else ""}) -> {f} {{
  ^bb0(%a: {f}{", %p: tensor<i1>" if body_args else ""}):
    %s = ov.add %a, %a : ({f}, {f}) -> {f}
    {body_cond}
    ov.yield %s, %k : {f}, tensor<i1>
  }}""",
        [("%r", f)],
    )
    return subgraph_op(read_module(text)).num_iterations()


CONST_TRIP = "  %trip = ov.constant dense<6> : tensor<i64>"
TRUE = "%cond = ov.constant dense<true> : tensor<i1>"
BODY_TRUE = "%k = ov.constant dense<true> : tensor<i1>"


@pytest.mark.parametrize(
    ("trip_def", "cond_def", "body_cond", "body_args", "expected"),
    [
        (CONST_TRIP, TRUE, BODY_TRUE, "", 6),
        (CONST_TRIP, TRUE, "%k = ov.constant dense<false> : tensor<i1>", "", 1),
        (CONST_TRIP, "%cond = ov.constant dense<false> : tensor<i1>", BODY_TRUE, "", 0),
        ("  %trip = ov.add %t, %t : (tensor<i64>, tensor<i64>) -> tensor<i64>", TRUE,
         BODY_TRUE, "", -1),
        ("  %trip = ov.constant dense<-1> : tensor<i64>", TRUE, BODY_TRUE, "", -1),
        (CONST_TRIP, "%cond = ov.add %c, %c : (tensor<i1>, tensor<i1>) -> tensor<i1>",
         BODY_TRUE, "", -1),
        # body condition = a parameter fed by a constant (invariant input)
        (CONST_TRIP, TRUE, "%k = ov.add %p, %p : (tensor<i1>, tensor<i1>) -> tensor<i1>",
         ", %cond", -1),
        # trip count Gather(ShapeOf(X), 1) of a static X: 7
        ("  %shape = ov.shape_of %x : (tensor<4x7xf32>) -> tensor<2xi64>\n"
         "  %idx = ov.constant dense<1> : tensor<i64>\n"
         "  %ax = ov.constant dense<0> : tensor<i64>\n"
         "  %trip = ov.gather %shape, %idx, %ax : (tensor<2xi64>, tensor<i64>, tensor<i64>) "
         "-> tensor<i64>", TRUE, BODY_TRUE, "", 7),
    ],
)
def test_loop_num_iterations(trip_def, cond_def, body_cond, body_args, expected):
    if "shape_of" in trip_def and not hasattr(ovd, "ShapeOfOp"):
        pytest.skip("ov.shape_of is not available")
    assert loop_num_iterations(trip_def, cond_def, body_cond, body_args) == expected


def test_loop_num_iterations_condition_parameter_fed_by_constant():
    f = ty([1, 3])
    text = main(
        [("a0", f)],
        f"""  %trip = ov.constant dense<3> : tensor<i64>
  %true = ov.constant dense<true> : tensor<i1>
  %r = ov.loop(%trip, %true, %a0, %true) attributes {{
      input_descriptions = [#ov.merged<input = 2, param = 0, result = 0>,
                            #ov.invariant<input = 3, param = 1>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>],
      special_body_ports = array<i64: -1, 1>}}
      : (tensor<i64>, tensor<i1>, {f}, tensor<i1>) -> {f} {{
  ^bb0(%a: {f}, %p: tensor<i1>):
    %s = ov.add %a, %a : ({f}, {f}) -> {f}
    ov.yield %s, %p : {f}, tensor<i1>
  }}""",
        [("%r", f)],
    )
    module = read_module(text)
    loop = subgraph_op(module)
    assert isinstance(loop, LoopOp)
    assert loop.body_condition_value() is True
    assert loop.num_iterations() == 3
    got = run_reference(module, [np.ones((1, 3), np.float32)])[0]
    np.testing.assert_array_equal(got, np.full((1, 3), 8.0))


def test_tensor_iterator_num_iterations():
    assert subgraph_op(read_module(accumulate_text(5))).num_iterations() == 5
    assert subgraph_op(read_module(accumulate_text(DYNAMIC))).num_iterations() == -1
    assert subgraph_op(read_module(LSTM_LIKE)).num_iterations() == 4


def test_loop_concat_shape_follows_num_iterations():
    f = ty([1, 3])
    text = main(
        [("x", ty([4, 3]))],
        f"""  %trip = ov.constant dense<3> : tensor<i64>
  %true = ov.constant dense<true> : tensor<i1>
  %r = ov.loop(%trip, %true, %x) attributes {{
      input_descriptions = [#ov.slice<input = 2, param = 0, axis = 0>],
      output_descriptions = [#ov.concat_output<result = 0, output = 0, axis = 0>],
      special_body_ports = array<i64: -1, 1>}}
      : (tensor<i64>, tensor<i1>, {ty([4, 3])}) -> {ty([3, 3])} {{
  ^bb0(%a: {f}):
    %k = ov.constant dense<true> : tensor<i1>
    ov.yield %a, %k : {f}, tensor<i1>
  }}""",
        [("%r", ty([3, 3]))],
    )
    module = read_module(text)
    x = rand(4, 3)
    np.testing.assert_array_equal(run_reference(module, [x])[0], x[:3])
    with pytest.raises(VerifyException, match=r"expected tensor<3x3xf32> \(the body result type"):
        read_module(text.replace(ty([3, 3]), ty([4, 3])))


# ------------------------------------------------------------------------------------------
# Builders, accessors, attributes
# ------------------------------------------------------------------------------------------


def build_accumulate_ti(parameter_names=None, **kwargs) -> tuple[func.FuncOp, TensorIteratorOp]:
    x_t, a_t = tensor([2, 5, 3], ovd.f32), tensor([2, 1, 3], ovd.f32)
    fn = func.FuncOp("main", ((x_t, a_t), ()))
    x, a0 = fn.body.block.args
    body = build_body(
        [tensor([2, 1, 3], ovd.f32), a_t],
        lambda xt, at: AddOp(at, xt),
        parameter_names=["x_t", "acc_t"],
    )
    ti = TensorIteratorOp(
        [x, a0],
        body,
        [SliceInputAttr(0, 0, axis=1), MergedInputAttr(1, 1, 0)],
        [BodyOutputAttr(0, 0), ConcatOutputAttr(0, 1, axis=1)],
        parameter_names=parameter_names,
        name="acc",
        **kwargs,
    )
    fn.body.block.add_op(ti)
    fn.body.block.add_op(func.ReturnOp())
    return fn, ti


def test_builder_infers_result_types_and_accessors():
    fn, ti = build_accumulate_ti()
    ti.verify()
    assert [shape_of(r) for r in ti.results] == [(2, 1, 3), (2, 5, 3)]
    assert get_name(ti) == "acc"
    assert ti.num_iterations() == 5
    assert ti.slice_inputs() == [SliceInputAttr(0, 0, 1)]
    [merged] = ti.merged_inputs()
    assert ti.body_parameter(merged) is ti.body_block.args[1]
    assert ti.outer_input(merged) is fn.body.block.args[1]
    assert isinstance(ti.body_result(merged).owner, AddOp)
    assert ti.outer_output(ti.output_descriptions[1]) is ti.results[1]
    assert [ti.parameter_name(i) for i in range(2)] == ["x_t", "acc_t"]
    assert isinstance(ti.body_block.last_op, YieldOp)


def test_parameter_names_property_and_fallback():
    _, ti = build_accumulate_ti(parameter_names=["X", "H"])
    assert [ti.parameter_name(i) for i in range(2)] == ["X", "H"]
    _, ti = build_accumulate_ti()
    ti.body_block.args[0].name_hint = None
    assert ti.parameter_name(0) == "Parameter_0"


def test_builder_runs_in_the_interpreter():
    fn, ti = build_accumulate_ti()
    last = fn.body.block.last_op
    assert last is not None
    last.detach()
    fn.body.block.add_op(func.ReturnOp(*ti.results))
    fn.function_type = FunctionType.from_lists(
        [a.type for a in fn.body.block.args], [r.type for r in ti.results]
    )
    mod = ModuleOp([fn])
    mod.verify()
    x, a0 = rand(2, 5, 3), rand(2, 1, 3)
    got = run_reference(mod, [x, a0])
    last, cat = ref_accumulate(x, a0)
    np.testing.assert_allclose(got[0], last, rtol=1e-6)
    np.testing.assert_allclose(got[1], cat, rtol=1e-6)
    # the built op prints and parses back to the same text
    text = print_module(mod)
    assert print_module(read_module(text)) == text


def test_loop_builder():
    f = tensor([1, 3], ovd.f32)
    fn = func.FuncOp("main", ((f,), ()))
    (a0,) = fn.body.block.args
    trip = ConstantOp.from_array(np.array(4, np.int64))
    true = ConstantOp.from_array(np.array(True))
    fn.body.block.add_ops([trip, true])

    def body(i, a):
        k = ConstantOp.from_array(np.array(True))
        s = MultiplyOp(a, a)
        return s, k

    block = build_body([tensor([], i64), f], body)
    loop = LoopOp(
        trip.result,
        true.result,
        [a0],
        block,
        [MergedInputAttr(2, 1, 0)],
        [BodyOutputAttr(0, 0)],
        special_body_ports=(0, 1),
        name="loop",
    )
    fn.body.block.add_ops([loop, func.ReturnOp()])
    loop.verify()
    assert loop.num_iterations() == 4
    assert loop.current_iteration_parameter() is block.args[0]
    assert isinstance(loop.condition_result().owner, ConstantOp)
    assert loop.special_parameters() == {0: "current_iteration"}
    a = np.full((1, 3), 1.5, np.float32)
    np.testing.assert_allclose(loop.evaluate([np.array(4), np.array(True), a])[0], a**16)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: {"inputs": [SliceInputAttr(0, 0, axis=3), d["inputs"][1]]},
         r"input description #0 .*axis 3 is out of range"),
        (lambda d: {"inputs": [SliceInputAttr(0, 0, axis=1, part_size=2), d["inputs"][1]]},
         r"the 5 sliced elements of axis 1 are not a multiple of part_size 2"),
        (lambda d: {"inputs": [d["inputs"][0], MergedInputAttr(1, 1, 1)]},
         r"input description #1 .*result 1 is out of range, the body has 1 results"),
        (lambda d: {"outputs": [BodyOutputAttr(0, 0), ConcatOutputAttr(0, 0, axis=1)]},
         r"result #0 is already described by output description #0"),
    ],
)
def test_builder_verify_errors(change, message):
    x_t, a_t = tensor([2, 5, 3], ovd.f32), tensor([2, 1, 3], ovd.f32)
    fn = func.FuncOp("main", ((x_t, a_t), ()))
    x, a0 = fn.body.block.args
    d = {
        "inputs": [SliceInputAttr(0, 0, axis=1), MergedInputAttr(1, 1, 0)],
        "outputs": [BodyOutputAttr(0, 0), ConcatOutputAttr(0, 1, axis=1)],
    }
    d.update(change(d))
    body = build_body([tensor([2, 1, 3], ovd.f32), a_t], lambda xt, at: AddOp(at, xt))
    types = [a_t, x_t][: len({o.output_index for o in d["outputs"]})]
    with pytest.raises(VerifyException, match=message):
        ti = TensorIteratorOp([x, a0], body, d["inputs"], d["outputs"], result_types=types)
        ti.verify()


def test_attribute_syntax():
    s = SliceInputAttr(0, 1, axis=2, stride=-1)
    assert str(s) == "#ov.slice<input = 0, param = 1, axis = 2, stride = -1>"
    assert s.slicing().stride == -1 and s.input_index == 0 and s.parameter_index == 1
    assert str(ConcatOutputAttr(1, 0, axis=0, part_size=2)) == (
        "#ov.concat_output<result = 1, output = 0, axis = 0, part_size = 2>"
    )
    assert str(BodyOutputAttr(3, 1, iteration=2)) == (
        "#ov.body_output<result = 3, output = 1, iteration = 2>"
    )
    assert str(MergedInputAttr(4, 2, 1)) == "#ov.merged<input = 4, param = 2, result = 1>"
    assert str(InvariantInputAttr(4, 2)) == "#ov.invariant<input = 4, param = 2>"
    assert BodyOutputAttr(3, 1).values() == {"result": 3, "output": 1, "iteration": -1}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("#ov.merged<input = 1, param = 1, back_edge = 0>", "unknown #ov.merged key 'back_edge'"),
        ("#ov.slice<input = 0, param = 0>", "#ov.slice needs axis"),
        ("#ov.invariant<input = 0, input = 1, param = 0>", "key 'input' given twice"),
    ],
)
def test_attribute_parse_errors(text, message):
    from xdsl.parser import Parser

    with pytest.raises(ParseError, match=message):
        Parser(make_context(), text).parse_attribute()


def test_descriptions_keep_their_order():
    module = read_module(LSTM_LIKE)
    ti = subgraph_op(module)
    kinds = [type(d).__name__ for d in ti.input_descriptions]
    assert kinds == ["MergedInputAttr", "SliceInputAttr", "MergedInputAttr",
                     "InvariantInputAttr", "InvariantInputAttr"]
    assert [ti.parameter_name(d.parameter_index) for d in ti.merged_inputs()] == ["C_t", "H_t"]
    assert isinstance(ti.properties["input_descriptions"], ArrayAttr)


def test_not_pure_when_the_body_has_effects():
    from xdsl.traits import RecursiveMemoryEffect

    assert TensorIteratorOp.has_trait(RecursiveMemoryEffect)
    assert LoopOp.has_trait(RecursiveMemoryEffect)


def test_generic_round_trip():
    module = read_module(LSTM_LIKE)
    generic = print_module(module, generic=True)
    assert '"ov.tensor_iterator"' in generic
    assert "#ov.slice<input = 0, param = 0, axis = 1>" in generic
    module2, _ = parse_module(generic)
    assert print_module(module2) == print_module(module)


# ------------------------------------------------------------------------------------------
# OpenVINO comparisons: the same graph built with openvino.opset13, compiled on CPU
# ------------------------------------------------------------------------------------------


def to_openvino(module):
    """Translate @main (ov.add/multiply/mat_mul/constant/tensor_iterator/loop) to OpenVINO."""
    ov = pytest.importorskip("openvino")
    ops = pytest.importorskip("openvino.opset13")
    fn = next(op for op in module.ops if isinstance(op, func.FuncOp))

    def param(value):
        return ops.parameter(list(shape_of(value)), to_dtype(ovd.element_type_of(value)))

    def convert(block, values):
        for op in block.ops:
            args = [values[v] for v in op.operands]
            if isinstance(op, ConstantOp):
                values[op.result] = ops.constant(np.array(op.array())).output(0)
            elif isinstance(op, AddOp):
                values[op.result] = ops.add(*args).output(0)
            elif isinstance(op, MultiplyOp):
                values[op.result] = ops.multiply(*args).output(0)
            elif isinstance(op, MatMulOp):
                values[op.result] = ops.matmul(*args, False, False).output(0)
            elif isinstance(op, TensorIteratorOp | LoopOp):
                params = [param(a) for a in op.body_block.args]
                inner: dict[SSAValue, object] = {
                    a: p.output(0) for a, p in zip(op.body_block.args, params, strict=True)
                }
                convert(op.body_block, inner)
                results = [inner[v] for v in op.body_results()]
                body = ov.Model(results, params)
                if isinstance(op, LoopOp):
                    node = ops.loop(args[0], args[1])
                    node.set_function(body)
                    node.set_special_body_ports(list(ovd.ints(op.special_body_ports)))
                else:
                    node = ops.tensor_iterator()
                    node.set_body(body)
                for d in op.input_descriptions:
                    p, outer = params[d.parameter_index], args[d.input_index]
                    if isinstance(d, SliceInputAttr):
                        s = d.slicing()
                        node.set_sliced_input(p, outer, s.start, s.stride, s.part_size, s.end,
                                              s.axis)
                    elif isinstance(d, MergedInputAttr):
                        node.set_merged_input(p, outer, results[d.result_index])
                    else:
                        node.set_invariant_input(p, outer)
                outs = {}
                for d in sorted(op.output_descriptions, key=lambda d: d.output_index):
                    r = results[d.result_index]
                    if isinstance(d, ConcatOutputAttr):
                        s = d.slicing()
                        outs[d.output_index] = node.get_concatenated_slices(
                            r, s.start, s.stride, s.part_size, s.end, s.axis)
                    else:
                        outs[d.output_index] = node.get_iter_value(r, d.get("iteration"))
                for i, result in enumerate(op.results):
                    values[result] = outs[i]
            elif isinstance(op, func.ReturnOp):
                return args
            elif not isinstance(op, YieldOp):
                raise NotImplementedError(op.name)
        return None

    params = [param(a) for a in fn.body.block.args]
    values = {a: p.output(0) for a, p in zip(fn.body.block.args, params, strict=True)}
    outputs = convert(fn.body.block, values)
    model = ov.Model(outputs, params)
    return ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})


def compare_with_openvino(text, inputs, rtol=1e-5, atol=1e-5):
    module = read_module(text)
    compiled = to_openvino(module)
    expected = compiled(inputs)
    got = run_reference(module, inputs)
    assert len(got) == len(expected)
    for i, g in enumerate(got):
        e = expected[i]
        assert g.shape == e.shape, (i, g.shape, e.shape)
        np.testing.assert_allclose(g, e, rtol=rtol, atol=atol)
    return got


def test_openvino_accumulator():
    compare_with_openvino(accumulate_text(), [rand(2, 5, 3), rand(2, 1, 3)])


def test_openvino_lstm_like():
    args = [rand(1, 4, 3), rand(1, 1, 3), rand(1, 1, 3), rand(3, 3) / 2, rand(3, 3) / 2]
    compare_with_openvino(LSTM_LIKE, args)


@pytest.mark.parametrize(
    ("slice_attrs", "concat_attrs"),
    [(", start = -1, stride = -1, end = 0", ""),
     (", start = -1, stride = -1, end = 0", ", start = -1, stride = -1, end = 0")],
)
def test_openvino_reverse(slice_attrs, concat_attrs):
    # The CPU plugin rejects stride -1 with start 0, end -1 ("Invalid start, stride, end");
    # the reference semantics accept both spellings of a reversed axis.
    compare_with_openvino(accumulate_text(5, slice_attrs, concat_attrs),
                          [rand(2, 5, 3), rand(2, 1, 3)])


def test_openvino_part_size_two():
    text = accumulate_text(6, ", stride = 2, part_size = 2", ", stride = 2, part_size = 2", 2)
    compare_with_openvino(text, [rand(2, 6, 3), rand(2, 2, 3)])


def test_openvino_body_output_iteration():
    """
    Divergence: OpenVINO (CPU and reference) returns the last iteration whatever
    `iteration` says; the reference semantics here honour it.
    """
    text = accumulate_text().replace(
        "#ov.body_output<result = 0, output = 0>",
        "#ov.body_output<result = 0, output = 0, iteration = 1>",
    )
    x, a0 = rand(2, 5, 3), rand(2, 1, 3)
    expected = to_openvino(read_module(text))([x, a0])
    got = run_reference(read_module(text), [x, a0])
    last = run_reference(read_module(accumulate_text()), [x, a0])
    np.testing.assert_allclose(expected[0], last[0], rtol=1e-5)
    np.testing.assert_allclose(got[0], a0 + x[:, 0:1] + x[:, 1:2], rtol=1e-6)
    np.testing.assert_allclose(expected[1], got[1], rtol=1e-5)


@pytest.mark.parametrize("trip", [1, 3, 5])
def test_openvino_loop_trip_count(trip):
    compare_with_openvino(
        loop_text("i64", True),
        [np.array(trip), np.array(True), rand(5, 3), rand(1, 3), np.ones(5, bool),
         np.array([2], np.int64)],
    )


@pytest.mark.parametrize(("trip", "stop_after"), [(-1, 2), (5, 3), (2, 4)])
def test_openvino_loop_condition(trip, stop_after):
    text = loop_text("i32", True, body_cond=None)
    flags = np.arange(5) < stop_after - 1
    compare_with_openvino(
        text,
        [np.array(trip, np.int32), np.array(True), rand(5, 3), rand(1, 3), flags,
         np.array([0], np.int64)],
    )


def test_openvino_loop_do_while():
    text = loop_text("i64", True, body_cond="%k = ov.constant dense<false> : tensor<i1>")
    compare_with_openvino(
        text,
        [np.array(5), np.array(True), rand(5, 3), rand(1, 3), np.ones(5, bool),
         np.array([0], np.int64)],
    )


def test_yield_op_is_registered():
    assert YieldOp in ovd.ALL_OPS
    assert {SliceInputAttr, MergedInputAttr, InvariantInputAttr, BodyOutputAttr,
            ConcatOutputAttr} <= set(ovd.ALL_ATTRS)
