"""
`convert-tfl-to-ov`: every conversion keeps the values (the `tfl` graph and the converted `ov` graph
in the reference interpreter, random weights and inputs), refusals leave the module unchanged,
calls are inlined, and the converted Keras LSTM becomes a stateful one-step model.

Tolerance: both graphs compute in float64 and round to f32 (the `tfl` kernels and OpenVINO's
reference implementations), so they agree to float32 rounding: rtol 1e-5, atol 1e-6.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest
from xdsl.builder import ImplicitBuilder
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import ModuleOp, TensorType, f32, i32
from xdsl.ir import Block, Region, SSAValue

import lowpass
from lowpass.dialects import ov, tfl
from lowpass.dialects.guards import is_dense
from lowpass.dialects.ov.base import dense_from_array
from lowpass.ir import make_context, parse_module, print_module
from lowpass.passes.conversion.tfl_to_ov import TflToOvError, TflToOvPass, clean_function_name
from lowpass.passes.low_latency2 import LowLatency2Pass
from lowpass.passes.reshape import reshape_module

RTOL, ATOL = 1e-5, 1e-6
EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------


def graph(
    arg_shapes: Sequence[Sequence[int]],
    build: Callable[..., Sequence[SSAValue]],
    arg_types: Sequence[TensorType] | None = None,
) -> ModuleOp:
    types = list(arg_types) if arg_types is not None else [TensorType(f32, s) for s in arg_shapes]
    block = Block(arg_types=types)
    with ImplicitBuilder(block) as args:
        results = list(build(*args))
        func.ReturnOp(*results)
    function = func.FuncOp("main", (types, [r.type for r in results]), Region(block))
    module = ModuleOp([function])
    module.verify()
    return module


def const(array: np.ndarray, dtype: type = np.float32) -> SSAValue:
    return arith.ConstantOp(dense_from_array(np.asarray(array, dtype))).result


def none() -> SSAValue:
    return tfl.NoValueOp().results[0]


def t(*shape: int) -> TensorType:
    return TensorType(f32, list(shape))


def run(module: ModuleOp, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    compiled = lowpass.Core().compile_model(module.clone(), "REFERENCE")
    return list(compiled.create_infer_request().infer(list(inputs)).to_tuple())


def convert(module: ModuleOp) -> ModuleOp:
    out = module.clone()
    TflToOvPass().apply(make_context(allow_unregistered=True), out)
    out.verify()
    leftover = [op.name for op in out.walk() if op.name.startswith(("tfl.", "arith."))]
    assert not leftover, leftover
    return out


def ops_named(module: ModuleOp, name: str) -> list:
    return [op for op in module.walk() if op.name == name]


def check_equivalent(module: ModuleOp, inputs: Sequence[np.ndarray]) -> ModuleOp:
    want = run(module, inputs)
    converted = convert(module)
    got = run(converted, inputs)
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL)
    return converted


class Weights:
    """Random weights, as constants or as extra graph inputs (then nothing folds)."""

    def __init__(self, rng: np.random.Generator, as_inputs: bool) -> None:
        self.rng = rng
        self.as_inputs = as_inputs
        self.shapes: list[tuple[int, ...]] = []
        self.values: list[np.ndarray] = []

    def make(self, *shape: int) -> np.ndarray:
        v = (self.rng.standard_normal(shape) * 0.5).astype(np.float32)
        self.shapes.append(shape)
        self.values.append(v)
        return v


# --------------------------------------------------------------------------------------------
# LSTM sequence
# --------------------------------------------------------------------------------------------


def lstm_module(
    rng: np.random.Generator,
    *,
    time_major: bool,
    weights_as_inputs: bool,
    final_states: bool,
    act: str = "TANH",
    b: int = 2,
    steps: int = 5,
    n_in: int = 3,
    h: int = 4,
) -> tuple[ModuleOp, list[np.ndarray]]:
    x_shape = (steps, b, n_in) if time_major else (b, steps, n_in)
    w = Weights(rng, weights_as_inputs)
    values = [w.make(h, n_in) for _ in range(4)] + [w.make(h, h) for _ in range(4)]
    values += [w.make(h) for _ in range(4)] + [w.make(b, h), w.make(b, h)]
    extra = [v.shape for v in values] if weights_as_inputs else []

    def build(x: SSAValue, *args: SSAValue) -> list[SSAValue]:
        vs = list(args) if weights_as_inputs else [const(v) for v in values]
        n = none()
        operands = [x, *vs[0:8], n, n, n, *vs[8:12], n, n, vs[12], vs[13], n, n, n, n]
        y_shape = (steps, b, h) if time_major else (b, steps, h)
        types = [t(*y_shape)] + ([t(b, h), t(b, h)] if final_states else [])
        op = tfl.UnidirectionalSequenceLSTMOp(
            operands, types, time_major=time_major, fused_activation_function=act
        )
        return list(op.results)

    module = graph([x_shape, *extra], build)
    x = rng.standard_normal(x_shape).astype(np.float32)
    return module, [x, *(values if weights_as_inputs else [])]


@pytest.mark.parametrize(
    ("time_major", "weights_as_inputs", "final_states", "act"),
    [
        (False, False, False, "TANH"),
        (True, False, True, "TANH"),
        (False, True, True, "TANH"),
        (True, True, False, "RELU"),
        (False, False, True, "RELU"),
    ],
)
def test_unidirectional_lstm(
    rng: np.random.Generator,
    time_major: bool,
    weights_as_inputs: bool,
    final_states: bool,
    act: str,
) -> None:
    module, inputs = lstm_module(
        rng,
        time_major=time_major,
        weights_as_inputs=weights_as_inputs,
        final_states=final_states,
        act=act,
    )
    converted = check_equivalent(module, inputs)
    (seq,) = ops_named(converted, "ov.lstm_sequence")
    assert ov.get_name(seq) == "lstm"
    assert seq.activation_names() == ["sigmoid", act.lower(), act.lower()]
    consts = {ov.get_name(c) for c in ops_named(converted, "ov.constant")}
    if weights_as_inputs:
        assert ops_named(converted, "ov.concat")
    else:
        # the weights are folded into one W, R and B in OpenVINO's layout
        assert {"lstm/W", "lstm/R", "lstm/B"} <= consts
        assert not ops_named(converted, "ov.concat")
        float_consts = {
            ov.get_name(c)
            for c in ops_named(converted, "ov.constant")
            if c.result.type.get_element_type() == f32
        }
        assert float_consts == {"lstm/W", "lstm/R", "lstm/B", "lstm/H0", "lstm/C0"}


def test_lstm_weights_are_reordered_to_fico(rng: np.random.Generator) -> None:
    module, _ = lstm_module(rng, time_major=False, weights_as_inputs=False, final_states=False)
    tfl_op = next(op for op in module.walk() if op.name == "tfl.unidirectional_sequence_lstm")
    weights = []
    for v in tfl_op.operands[1:5]:
        owner = v.owner
        assert isinstance(owner, arith.ConstantOp) and is_dense(owner.value)
        weights.append(owner.value)
    w_i, w_f, w_c, w_o = weights
    converted = convert(module)
    w = next(c for c in ops_named(converted, "ov.constant") if ov.get_name(c) == "lstm/W")
    want = np.concatenate([ov.array_from_dense(a) for a in (w_f, w_i, w_c, w_o)], axis=0)[None]
    np.testing.assert_array_equal(w.array(), want)


# --------------------------------------------------------------------------------------------
# Bidirectional LSTM
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("merge", "time_major", "final_states"),
    [(False, False, False), (True, False, True), (False, True, True), (True, True, False)],
)
def test_bidirectional_lstm(
    rng: np.random.Generator, merge: bool, time_major: bool, final_states: bool
) -> None:
    b, steps, n_in, h = 2, 4, 3, 5
    x_shape = (steps, b, n_in) if time_major else (b, steps, n_in)
    w = Weights(rng, False)

    def cell() -> list[np.ndarray]:
        return (
            [w.make(h, n_in) for _ in range(4)]
            + [w.make(h, h) for _ in range(4)]
            + [w.make(h) for _ in range(4)]
        )

    fw, bw = cell(), cell()
    states = [w.make(b, h) for _ in range(4)]

    def build(x: SSAValue) -> list[SSAValue]:
        n = none()
        f = [const(v) for v in fw]
        k = [const(v) for v in bw]
        s = [const(v) for v in states]
        operands = [x, *f[0:8], n, n, n, *f[8:12], n, n]
        operands += [*k[0:8], n, n, n, *k[8:12], n, n, *s] + [n] * 9
        seq = (steps, b) if time_major else (b, steps)
        types = [t(*seq, 2 * h), t(*seq, 0)] if merge else [t(*seq, h), t(*seq, h)]
        if final_states:
            types += [t(b, h)] * 4
        op = tfl.BidirectionalSequenceLSTMOp(
            operands, types, time_major=time_major, merge_outputs=merge
        )
        # merged: bw_output is empty ([.., .., 0]), returned too
        return list(op.results)

    module = graph([x_shape], build)
    x = rng.standard_normal(x_shape).astype(np.float32)
    converted = check_equivalent(module, [x])
    (seq_op,) = ops_named(converted, "ov.lstm_sequence")
    assert seq_op.direction_value() == "bidirectional"
    assert ov.get_name(seq_op) == "bidirectional_lstm"


# --------------------------------------------------------------------------------------------
# GRU, RNN, LSTM step
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reset_after", "recurrent_bias", "time_major", "final_state"),
    [
        (True, True, False, True),
        (True, False, True, False),
        (False, True, False, False),
        (False, False, True, True),
    ],
)
def test_gru(
    rng: np.random.Generator,
    reset_after: bool,
    recurrent_bias: bool,
    time_major: bool,
    final_state: bool,
) -> None:
    b, steps, n_in, h = 3, 4, 2, 5
    x_shape = (steps, b, n_in) if time_major else (b, steps, n_in)
    w = Weights(rng, False)
    ws = [w.make(h, n_in) for _ in range(3)] + [w.make(h, h) for _ in range(3)]
    bs = [w.make(h) for _ in range(6)]
    h0 = w.make(b, h)

    def build(x: SSAValue) -> list[SSAValue]:
        n = none()
        rec = [const(v) for v in bs[3:]] if recurrent_bias else [n, n, n]
        operands = [x, *(const(v) for v in ws), *(const(v) for v in bs[:3]), *rec, const(h0)]
        seq = (steps, b) if time_major else (b, steps)
        types = [t(*seq, h)] + ([t(b, h)] if final_state else [])
        op = tfl.UnidirectionalSequenceGRUOp(
            operands, types, time_major=time_major, reset_after=reset_after
        )
        return list(op.results)

    module = graph([x_shape], build)
    x = rng.standard_normal(x_shape).astype(np.float32)
    converted = check_equivalent(module, [x])
    (seq_op,) = ops_named(converted, "ov.gru_sequence")
    assert seq_op.lbr() == reset_after


@pytest.mark.parametrize(("time_major", "act"), [(False, "TANH"), (True, "RELU")])
def test_rnn(rng: np.random.Generator, time_major: bool, act: str) -> None:
    b, steps, n_in, h = 2, 6, 3, 4
    x_shape = (steps, b, n_in) if time_major else (b, steps, n_in)
    w = Weights(rng, False)
    vs = [w.make(h, n_in), w.make(h, h), w.make(h), w.make(b, h)]

    def build(x: SSAValue) -> list[SSAValue]:
        seq = (steps, b) if time_major else (b, steps)
        op = tfl.UnidirectionalSequenceRNNOp(
            [x, *(const(v) for v in vs)],
            t(*seq, h),
            time_major=time_major,
            fused_activation_function=act,
        )
        return [op.results[0]]

    module = graph([x_shape], build)
    converted = check_equivalent(module, [rng.standard_normal(x_shape).astype(np.float32)])
    (seq_op,) = ops_named(converted, "ov.rnn_sequence")
    assert seq_op.activation_names() == [act.lower()]


def test_lstm_step(rng: np.random.Generator) -> None:
    b, n_in, h = 2, 3, 4
    w = Weights(rng, False)
    vs = [w.make(h, n_in) for _ in range(4)] + [w.make(h, h) for _ in range(4)]
    vs += [w.make(h) for _ in range(4)]

    def build(x: SSAValue, h0: SSAValue, c0: SSAValue) -> list[SSAValue]:
        n = none()
        c = [const(v) for v in vs]
        operands = [x, *c[0:8], n, n, n, *c[8:12], n, n, h0, c0, n, n, n, n]
        return [tfl.LSTMOp(operands, t(b, h)).results[0]]

    module = graph([(b, n_in), (b, h), (b, h)], build)
    inputs = [rng.standard_normal(s).astype(np.float32) for s in ((b, n_in), (b, h), (b, h))]
    converted = check_equivalent(module, inputs)
    assert len(ops_named(converted, "ov.lstm_cell")) == 1


# --------------------------------------------------------------------------------------------
# Data movement: converted (variable input) and folded (constant input)
# --------------------------------------------------------------------------------------------


def i32c(values: Sequence[int] | int) -> SSAValue:
    return const(np.asarray(values), np.int32)


DATA_MOVEMENT_OPS = {
    "transpose": {"ov.transpose"},
    "slice": {"ov.strided_slice"},
    "reshape": {"ov.reshape"},
    "reverse_v2": {"ov.strided_slice"},
    "strided_slice_keras_last": {"ov.strided_slice"},
    "strided_slice_offset": {"ov.strided_slice"},
    "concatenation_relu6": {"ov.concat", "ov.clamp", "ov.transpose", "ov.reshape"},
}

DATA_MOVEMENT: dict[str, tuple[tuple[int, ...], Callable[[SSAValue], SSAValue]]] = {
    "transpose": ((2, 3, 4), lambda x: tfl.TransposeOp(x, i32c([2, 0, 1]), t(4, 2, 3)).results[0]),
    "slice": ((4, 5), lambda x: tfl.SliceOp(x, i32c([1, 2]), i32c([2, -1]), t(2, 3)).results[0]),
    "reshape": ((2, 6), lambda x: tfl.ReshapeOp(x, i32c([3, -1]), t(3, 4)).results[0]),
    "reverse_v2": ((3, 4), lambda x: tfl.ReverseV2Op(x, i32c([1]), t(3, 4)).results[0]),
    "strided_slice_keras_last": (
        (2, 5, 3),
        lambda x: tfl.StridedSliceOp(
            x,
            i32c([0, -1, 0]),
            i32c([0, 0, 0]),
            i32c([1, 1, 1]),
            t(2, 3),
            begin_mask=5,
            end_mask=5,
            shrink_axis_mask=2,
        ).results[0],
    ),
    "strided_slice_offset": (
        (6, 4),
        lambda x: tfl.StridedSliceOp(
            x, i32c([1, 0]), i32c([4, 2]), i32c([2, 1]), t(2, 2), offset=True
        ).results[0],
    ),
    "concatenation_relu6": (
        (2, 3),
        lambda x: tfl.ConcatenationOp(
            [
                x,
                tfl.TransposeOp(
                    tfl.ReshapeOp(x, i32c([3, 2]), t(3, 2)).results[0], i32c([1, 0]), t(2, 3)
                ).results[0],
            ],
            t(4, 3),
            axis=0,
            fused_activation_function="RELU6",
        ).results[0],
    ),
}


@pytest.mark.parametrize("case", sorted(DATA_MOVEMENT))
def test_data_movement_converted(rng: np.random.Generator, case: str) -> None:
    shape, build = DATA_MOVEMENT[case]
    module = graph([shape], lambda x: [build(x)])
    converted = check_equivalent(module, [(rng.standard_normal(shape) * 5).astype(np.float32)])
    kinds = {op.name for op in converted.walk() if op.name.startswith("ov.")} - {"ov.constant"}
    assert kinds == DATA_MOVEMENT_OPS[case]


@pytest.mark.parametrize("case", sorted(DATA_MOVEMENT))
def test_data_movement_folded(rng: np.random.Generator, case: str) -> None:
    shape, build = DATA_MOVEMENT[case]
    value = (rng.standard_normal(shape) * 5).astype(np.float32)
    module = graph([], lambda: [build(const(value))])
    (want,) = run(module, [])
    converted = convert(module)
    body = [op.name for op in converted.walk() if op.name.startswith("ov.")]
    assert body == ["ov.constant"]
    (got,) = run(converted, [])
    np.testing.assert_array_equal(got, want)


def test_split_v_and_embedding_lookup(rng: np.random.Generator) -> None:
    table = rng.standard_normal((10, 4)).astype(np.float32)

    def build(x: SSAValue, ids: SSAValue) -> list[SSAValue]:
        parts = tfl.SplitVOp(x, i32c([1, -1, 2]), i32c(1), [t(3, 1), t(3, 3), t(3, 2)]).results
        emb = tfl.EmbeddingLookupOp(ids, const(table), t(2, 3, 4)).results[0]
        return [*parts, emb]

    module = graph([], build, arg_types=[t(3, 6), TensorType(i32, [2, 3])])
    x = rng.standard_normal((3, 6)).astype(np.float32)
    ids = rng.integers(0, 10, (2, 3)).astype(np.int32)
    converted = check_equivalent(module, [x, ids])
    assert ops_named(converted, "ov.variadic_split") and ops_named(converted, "ov.gather")


# --------------------------------------------------------------------------------------------
# Refusals
# --------------------------------------------------------------------------------------------


def _lstm_text(
    operands_override: dict[int, str] | None = None,
    props: str = "",
    extra: str = "",
) -> str:
    """A tfl.unidirectional_sequence_lstm with B=1, T=2, I=3, H=4 (weights are arguments)."""
    names = ["%x"] + [f"%w{k}" for k in range(4)] + [f"%r{k}" for k in range(4)]
    names += ["%none"] * 3 + [f"%b{k}" for k in range(4)] + ["%none"] * 2
    names += ["%h0", "%c0"] + ["%none"] * 4
    for i, v in (operands_override or {}).items():
        names[i] = v
    types = {
        "%x": "tensor<1x2x3xf32>",
        "%none": "none",
        "%h0": "tensor<1x4xf32>",
        "%c0": "tensor<1x4xf32>",
        "%p": "tensor<4xf32>",
        "%ln": "tensor<4xf32>",
        "%proj": "tensor<4x4xf32>",
    }
    for k in range(4):
        types[f"%w{k}"] = "tensor<4x3xf32>"
        types[f"%r{k}"] = "tensor<4x4xf32>"
        types[f"%b{k}"] = "tensor<4xf32>"
    args = ", ".join(
        f"{n}: {types[n]}"
        for n in [
            "%x",
            *(f"%w{k}" for k in range(4)),
            *(f"%r{k}" for k in range(4)),
            *(f"%b{k}" for k in range(4)),
            "%h0",
            "%c0",
            "%p",
            "%ln",
            "%proj",
        ]
    )
    operand_types = ", ".join(types[n] for n in names)
    properties = props or (
        'cell_clip = 0.000000e+00 : f32, fused_activation_function = "TANH", '
        "proj_clip = 0.000000e+00 : f32, time_major = false"
    )
    return (
        f"func.func @main({args}) -> tensor<1x2x4xf32> {{\n"
        '  %none = "tfl.no_value"() <{value}> : () -> none\n'
        f"{extra}"
        f'  %y = "tfl.unidirectional_sequence_lstm"({", ".join(names)}) <{{{properties}}}> : '
        f"({operand_types}) -> tensor<1x2x4xf32>\n"
        "  func.return %y : tensor<1x2x4xf32>\n"
        "}\n"
    )


def test_the_refusal_fixture_converts() -> None:
    module, _ = parse_module(_lstm_text(), make_context(allow_unregistered=True))
    module.verify()
    assert ops_named(convert(module), "ov.lstm_sequence")


REFUSALS = {
    "peephole": (_lstm_text({10: "%p"}), "peephole connections"),
    "projection": (_lstm_text({16: "%proj"}), "a projection"),
    "layer_norm": (_lstm_text({21: "%ln"}), "layer normalization"),
    "cifg": (_lstm_text({1: "%none", 5: "%none", 12: "%none"}), "CIFG"),
    "cell_clip": (
        _lstm_text(
            props='cell_clip = 1.000000e+01 : f32, fused_activation_function = "TANH", '
            "proj_clip = 0.000000e+00 : f32, time_major = false"
        ),
        "cell_clip = 10 clips the cell state",
    ),
    "activation": (
        _lstm_text(
            props='cell_clip = 0.000000e+00 : f32, fused_activation_function = "RELU6", '
            "proj_clip = 0.000000e+00 : f32, time_major = false"
        ),
        "fused_activation_function RELU6 has no OpenVINO equivalent",
    ),
    "unknown_op": (
        _lstm_text(extra='  %q = "tf.Foo"(%x) : (tensor<1x2x3xf32>) -> tensor<1x2x3xf32>\n'),
        "no conversion for 'tf.Foo'",
    ),
}


@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_refusals_leave_the_module_unchanged(case: str) -> None:
    text, message = REFUSALS[case]
    module, _ = parse_module(text, make_context(allow_unregistered=True), "refused.mlir")
    before = print_module(module)
    with pytest.raises(TflToOvError) as info:
        TflToOvPass().apply(make_context(allow_unregistered=True), module)
    assert message in str(info.value)
    assert "cannot be converted to OpenVINO" in str(info.value)
    assert str(info.value).startswith("refused.mlir:")
    assert print_module(module) == before


# --------------------------------------------------------------------------------------------
# Inlining
# --------------------------------------------------------------------------------------------


CALLS = {
    "tf.PartitionedCall": '"tf.PartitionedCall"(%x) {{config = "", f = @{f}}}',
    "tf.StatefulPartitionedCall": '"tf.StatefulPartitionedCall"(%x) {{config = "", f = @{f}}}',
    "func.call": '"func.call"(%x) <{{callee = @{f}}}>',
}


@pytest.mark.parametrize("call", sorted(CALLS))
def test_calls_are_inlined_and_callees_erased(rng: np.random.Generator, call: str) -> None:
    outer = CALLS[call].format(f="__inference_outer_12")
    inner = CALLS[call].format(f="__inference_inner_7").replace("%x", "%a")
    text = f"""
    func.func @main(%x: tensor<2x3xf32> {{ov.name = "x"}}) -> tensor<3x2xf32> {{
      %r:2 = {outer} : (tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<f32>)
      func.return %r#0 : tensor<3x2xf32>
    }}
    func.func private @__inference_outer_12(%a: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<f32>) {{
      %0 = {inner} : (tensor<2x3xf32>) -> tensor<3x2xf32>
      %z = "tf.Const"() {{value = dense<0.0> : tensor<1xf32>}} : () -> tensor<f32>
      func.return %0, %z : tensor<3x2xf32>, tensor<f32>
    }}
    func.func private @__inference_inner_7(%b: tensor<2x3xf32>) -> tensor<3x2xf32> {{
      %perm = arith.constant dense<[1, 0]> : tensor<2xi32>
      %0 = "tfl.transpose"(%b, %perm) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
      func.return %0 : tensor<3x2xf32>
    }}
    func.func private @dead_while_body(%b: tensor<i32>) -> tensor<i32> {{
      %0 = "tf.Foo"(%b) : (tensor<i32>) -> tensor<i32>
      func.return %0 : tensor<i32>
    }}
    """  # noqa: E501
    module, _ = parse_module(text, make_context(allow_unregistered=True))
    out = module.clone()
    TflToOvPass().apply(make_context(allow_unregistered=True), out)
    out.verify()
    assert [f.sym_name.data for f in out.ops if isinstance(f, func.FuncOp)] == ["main"]
    assert len(out.ops) == 1
    (transpose,) = ops_named(out, "ov.transpose")
    assert ov.get_name(transpose) == "outer/inner/transpose"
    x = rng.standard_normal((2, 3)).astype(np.float32)
    (got,) = run(out, [x])
    np.testing.assert_array_equal(got, x.T)


def test_recursion_is_refused() -> None:
    text = """
    func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
      %0 = "func.call"(%x) <{callee = @f}> : (tensor<2xf32>) -> tensor<2xf32>
      func.return %0 : tensor<2xf32>
    }
    func.func private @f(%x: tensor<2xf32>) -> tensor<2xf32> {
      %0 = "func.call"(%x) <{callee = @f}> : (tensor<2xf32>) -> tensor<2xf32>
      func.return %0 : tensor<2xf32>
    }
    """
    module, _ = parse_module(text, make_context(allow_unregistered=True))
    with pytest.raises(TflToOvError, match="calls @f recursively"):
        TflToOvPass().apply(make_context(allow_unregistered=True), module)


def test_clean_function_name() -> None:
    assert clean_function_name("__inference_standard_lstm_417") == "standard_lstm"
    assert clean_function_name("lstm") == "lstm"
    assert clean_function_name("__inference_gru_3_91") == "gru_3"


# --------------------------------------------------------------------------------------------
# The Keras LSTM chain: prepare-composite-functions' output -> tfl-to-ov -> reshape to one
# step -> low-latency2, run one step per request
# --------------------------------------------------------------------------------------------


def keras_lstm_numpy(
    x: np.ndarray, kernel: np.ndarray, recurrent: np.ndarray, bias: np.ndarray
) -> np.ndarray:
    """Keras' LSTM (standard_lstm's step), independently of lowpass: h of every step."""
    x = x.astype(np.float64)
    units = recurrent.shape[0]
    h = np.zeros((x.shape[0], units))
    c = np.zeros((x.shape[0], units))
    out = []
    for step in range(x.shape[1]):
        z = x[:, step] @ kernel + h @ recurrent + bias
        i, f, g, o = (z[:, k * units : (k + 1) * units] for k in range(4))
        i, f, o = (1.0 / (1.0 + np.exp(-v)) for v in (i, f, o))
        c = f * c + i * np.tanh(g)
        h = o * np.tanh(c)
        out.append(h)
    return np.stack(out, axis=1)


def _hex(a: np.ndarray) -> str:
    return '"0x' + np.ascontiguousarray(a, "<f4").tobytes().hex().upper() + '"'


def prepared_keras_lstm(
    kernel: np.ndarray, recurrent: np.ndarray, bias: np.ndarray, steps: int
) -> str:
    """What prepare-composite-functions makes of a Keras LSTM (spec 3.3, tfl ops), by hand."""
    n_in, units = kernel.shape[0], recurrent.shape[0]
    g = 4 * units
    x_t, h_t = f"tensor<1x{steps}x{n_in}xf32>", f"tensor<1x{units}xf32>"
    y_t = f"tensor<1x{steps}x{units}xf32>"
    k_t, r_t, b_t = f"tensor<{n_in}x{g}xf32>", f"tensor<{units}x{g}xf32>", f"tensor<{g}xf32>"
    res = f"{h_t}, {y_t}, {h_t}, {h_t}, tensor<f32>"
    w4 = ", ".join([f"tensor<{units}x{n_in}xf32>"] * 4)
    r4 = ", ".join([f"tensor<{units}x{units}xf32>"] * 4)
    b4 = ", ".join([f"tensor<{units}xf32>"] * 4)
    ops = ", ".join(
        ["%inputs", *(f"%w#{k}" for k in range(4)), *(f"%r#{k}" for k in range(4))]
        + ["%none"] * 3
        + [f"%b#{k}" for k in range(4)]
        + ["%none"] * 2
        + ["%init_h", "%init_c"]
        + ["%none"] * 4
    )
    op_types = ", ".join(
        [x_t, w4, r4, "none, none, none", b4, "none, none", h_t, h_t, "none, none, none, none"]
    )
    return f"""
func.func @main(%x: {x_t} {{ov.name = "x"}}) -> ({h_t} {{ov.name = "h"}}) {{
  %kernel = "tf.Const"() {{value = dense<{_hex(kernel)}> : {k_t}}} : () -> {k_t}
  %recurrent_kernel = "tf.Const"() {{value = dense<{_hex(recurrent)}> : {r_t}}} : () -> {r_t}
  %bias = "tf.Const"() {{value = dense<{_hex(bias)}> : {b_t}}} : () -> {b_t}
  %zeros = "tf.Const"() {{value = dense<0.0> : {h_t}}} : () -> {h_t}
  %lstm:5 = "tf.PartitionedCall"(%x, %zeros, %zeros, %kernel, %recurrent_kernel, %bias) {{config = "", f = @__inference_standard_lstm_417}} : ({x_t}, {h_t}, {h_t}, {k_t}, {r_t}, {b_t}) -> ({res})
  func.return %lstm#0 : {h_t}
}}
func.func private @__inference_standard_lstm_417(%inputs: {x_t}, %init_h: {h_t}, %init_c: {h_t}, %kernel: {k_t}, %recurrent_kernel: {r_t}, %bias: {b_t}) -> ({res}) attributes {{tf.api_implements = "lstm_0f8fad5b-d9cb-469f-a165-70867728950e", tf.go_backwards = false, tf.time_major = false}} {{
  %perm = arith.constant dense<[1, 0]> : tensor<2xi32>
  %kt = "tfl.transpose"(%kernel, %perm) : ({k_t}, tensor<2xi32>) -> tensor<{g}x{n_in}xf32>
  %rt = "tfl.transpose"(%recurrent_kernel, %perm) : ({r_t}, tensor<2xi32>) -> tensor<{g}x{units}xf32>
  %sizes = arith.constant dense<{units}> : tensor<4xi32>
  %axis = arith.constant dense<0> : tensor<i32>
  %w:4 = "tfl.split_v"(%kt, %sizes, %axis) <{{num_splits = 4 : i32}}> : (tensor<{g}x{n_in}xf32>, tensor<4xi32>, tensor<i32>) -> ({w4})
  %r:4 = "tfl.split_v"(%rt, %sizes, %axis) <{{num_splits = 4 : i32}}> : (tensor<{g}x{units}xf32>, tensor<4xi32>, tensor<i32>) -> ({r4})
  %b:4 = "tfl.split_v"(%bias, %sizes, %axis) <{{num_splits = 4 : i32}}> : ({b_t}, tensor<4xi32>, tensor<i32>) -> ({b4})
  %none = "tfl.no_value"() <{{value}}> : () -> none
  %y = "tfl.unidirectional_sequence_lstm"({ops}) <{{cell_clip = 0.000000e+00 : f32, fused_activation_function = "TANH", proj_clip = 0.000000e+00 : f32, time_major = false}}> : ({op_types}) -> {y_t}
  %begin = arith.constant dense<[0, -1, 0]> : tensor<3xi32>
  %end = arith.constant dense<0> : tensor<3xi32>
  %strides = arith.constant dense<1> : tensor<3xi32>
  %last = "tfl.strided_slice"(%y, %begin, %end, %strides) <{{begin_mask = 5 : i32, ellipsis_mask = 0 : i32, end_mask = 5 : i32, new_axis_mask = 0 : i32, offset = false, shrink_axis_mask = 2 : i32}}> : ({y_t}, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> {h_t}
  %z = "tf.Const"() {{value = dense<0.000000e+00> : tensor<1xf32>}} : () -> {h_t}
  %s = "tf.Const"() {{value = dense<0.000000e+00> : tensor<1xf32>}} : () -> tensor<f32>
  func.return %last, %y, %z, %z, %s : {res}
}}
"""  # noqa: E501


def _stateful(module: ModuleOp, n_in: int) -> ModuleOp:
    ctx = make_context(allow_unregistered=True)
    TflToOvPass().apply(ctx, module)
    reshape_module(module, {"x": [1, 1, n_in]})
    LowLatency2Pass().apply(ctx, module)
    module.verify()
    return module


def test_prepared_keras_lstm_becomes_stateful(rng: np.random.Generator) -> None:
    SEQ, INPUT, UNITS = 8, 16, 32
    w = {
        "kernel": rng.uniform(-0.3, 0.3, (INPUT, 4 * UNITS)).astype(np.float32),
        "recurrent_kernel": rng.uniform(-0.3, 0.3, (UNITS, 4 * UNITS)).astype(np.float32),
        "bias": rng.uniform(-0.3, 0.3, 4 * UNITS).astype(np.float32),
    }
    text = prepared_keras_lstm(w["kernel"], w["recurrent_kernel"], w["bias"], SEQ)
    module, _ = parse_module(text, make_context(allow_unregistered=True))
    converted = convert(module)
    x = rng.standard_normal((1, SEQ, INPUT)).astype(np.float32)
    want = keras_lstm_numpy(x, w["kernel"], w["recurrent_kernel"], w["bias"])
    (whole,) = run(converted, [x])
    np.testing.assert_allclose(whole, want[:, -1], rtol=RTOL, atol=ATOL)

    stateful = _stateful(module, INPUT)
    assert ops_named(stateful, "ov.lstm_cell") and not ops_named(stateful, "ov.lstm_sequence")
    request = lowpass.Core().compile_model(stateful, "REFERENCE").create_infer_request()
    names = [s.name for s in request.query_state()]
    assert names == ["standard_lstm/variable_0", "standard_lstm/variable_1"]
    for step in range(SEQ):
        h = request.infer({"x": x[:, step : step + 1]})["h"]
        np.testing.assert_allclose(h, want[:, step], rtol=RTOL, atol=ATOL)
    request.reset_state()
    h = request.infer({"x": x[:, :1]})["h"]
    np.testing.assert_allclose(h, want[:, 0], rtol=RTOL, atol=ATOL)


def _chain(module: ModuleOp, input_name: str, step_shape: Sequence[int]) -> ModuleOp:
    """prepare-composite-functions -> tfl-to-ov -> reshape to one step -> low-latency2."""
    from lowpass.passes.prepare_composite_functions import PrepareCompositeFunctionsPass

    ctx = make_context(allow_unregistered=True)
    PrepareCompositeFunctionsPass().apply(ctx, module)
    TflToOvPass().apply(ctx, module)
    module.verify()
    reshape_module(module, {input_name: list(step_shape)})
    LowLatency2Pass().apply(ctx, module)
    module.verify()
    return module


def _only_ov(module: ModuleOp, entry: str = "main") -> None:
    functions = [op for op in module.ops if isinstance(op, func.FuncOp)]
    assert [f.sym_name.data for f in functions] == [entry]
    foreign = {
        op.name for op in module.walk() if not op.name.startswith(("ov.", "func.", "builtin."))
    }
    assert not foreign, foreign


def test_keras_lstm_example_chain() -> None:
    """THE CHAIN: examples/keras_lstm.mlir, stateful, one step per request, == Keras."""
    # TensorFlow's own output for a Keras LSTM(32) and, in the .npz, Keras' predictions for
    # an input x: y (return_sequences=False) and the output of every step (`steps`).
    text = (EXAMPLES / "keras_lstm.mlir").read_text()
    data = np.load(EXAMPLES / "keras_lstm.npz")
    x, steps = data["x"], data["steps"]
    seq, n_in = x.shape[1], x.shape[2]

    # The whole sequence in one inference (before reshape): Keras' prediction.
    from lowpass.passes.prepare_composite_functions import PrepareCompositeFunctionsPass

    whole, _ = parse_module(text, make_context(allow_unregistered=True))
    PrepareCompositeFunctionsPass().apply(make_context(allow_unregistered=True), whole)
    TflToOvPass().apply(make_context(allow_unregistered=True), whole)
    _only_ov(whole, "serving_default")
    (last,) = run(whole, [x])
    np.testing.assert_allclose(last, data["y"], rtol=RTOL, atol=ATOL)

    module, _ = parse_module(text, make_context(allow_unregistered=True))
    stateful = _chain(module, "x", [1, 1, n_in])
    _only_ov(stateful, "serving_default")
    assert ops_named(stateful, "ov.lstm_cell") and not ops_named(stateful, "ov.lstm_sequence")
    request = lowpass.Core().compile_model(stateful, "REFERENCE").create_infer_request()
    states = request.query_state()
    # Named after the functions the LSTM was inlined from: TensorFlow's signature wrapper,
    # the Keras model, Keras' standard_lstm.
    prefix = "signature_wrapper/_wrapped_model/standard_lstm"
    assert [s.name for s in states] == [f"{prefix}/variable_0", f"{prefix}/variable_1"]
    for step in range(seq):
        h = request.infer({"x": x[:, step : step + 1]})["h"]
        np.testing.assert_allclose(h, steps[:, step], rtol=RTOL, atol=ATOL)
        # the H state is the output of the step
        np.testing.assert_allclose(states[0].state.reshape(h.shape), h, rtol=0, atol=0)
    # A new sequence: reset, and the first step is computed from zero states again.
    request.reset_state()
    h = request.infer({"x": x[:, :1]})["h"]
    np.testing.assert_allclose(h, steps[:, 0], rtol=RTOL, atol=ATOL)
    # Resetting one state at a time through the query_state API does the same.
    request.infer({"x": x[:, 1:2]})
    for state in request.query_state():
        state.reset()
    h = request.infer({"x": x[:, :1]})["h"]
    np.testing.assert_allclose(h, steps[:, 0], rtol=RTOL, atol=ATOL)


def keras_gru_numpy(
    x: np.ndarray, kernel: np.ndarray, recurrent: np.ndarray, bias: np.ndarray
) -> np.ndarray:
    """Keras' GRU (reset_after=True, Keras v2's default), independently of lowpass."""
    x = x.astype(np.float64)
    units = recurrent.shape[0]
    h = np.zeros((x.shape[0], units))
    out = []

    def sigmoid(v: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-v))

    for step in range(x.shape[1]):
        xz = x[:, step] @ kernel + bias[0]
        hz = h @ recurrent + bias[1]
        z = sigmoid(xz[:, :units] + hz[:, :units])
        r = sigmoid(xz[:, units : 2 * units] + hz[:, units : 2 * units])
        candidate = np.tanh(xz[:, 2 * units :] + r * hz[:, 2 * units :])
        h = z * h + (1.0 - z) * candidate
        out.append(h)
    return np.stack(out, axis=1)


def keras_gru_text(kernel: np.ndarray, recurrent: np.ndarray, bias: np.ndarray, steps: int) -> str:
    """A Keras GRU layer as TensorFlow imports it: @main calls `standard_gru` (gru_<uuid>)."""
    n_in, units = kernel.shape[0], recurrent.shape[0]
    x_t, h_t = f"tensor<1x{steps}x{n_in}xf32>", f"tensor<1x{units}xf32>"
    y_t = f"tensor<1x{steps}x{units}xf32>"
    k_t, r_t = f"tensor<{n_in}x{3 * units}xf32>", f"tensor<{units}x{3 * units}xf32>"
    b_t = f"tensor<2x{3 * units}xf32>"
    res = f"{h_t}, {y_t}, {h_t}, tensor<f32>"
    return f"""
func.func @main(%x: {x_t} {{ov.name = "x"}}) -> ({y_t} {{ov.name = "y"}}) {{
  %kernel = "tf.Const"() {{value = dense<{_hex(kernel)}> : {k_t}}} : () -> {k_t}
  %recurrent_kernel = "tf.Const"() {{value = dense<{_hex(recurrent)}> : {r_t}}} : () -> {r_t}
  %bias = "tf.Const"() {{value = dense<{_hex(bias)}> : {b_t}}} : () -> {b_t}
  %zeros = "tf.Const"() {{value = dense<0.0> : {h_t}}} : () -> {h_t}
  %gru:4 = "tf.PartitionedCall"(%x, %zeros, %kernel, %recurrent_kernel, %bias) {{config = "", f = @__inference_standard_gru_88}} : ({x_t}, {h_t}, {k_t}, {r_t}, {b_t}) -> ({res})
  func.return %gru#1 : {y_t}
}}
func.func private @__inference_standard_gru_88(%inputs: {x_t}, %init_h: {h_t}, %kernel: {k_t}, %recurrent_kernel: {r_t}, %bias: {b_t}) -> ({res}) attributes {{tf.api_implements = "gru_7c9e6679-7425-40de-944b-e07fc1f90ae7", tf.api_preferred_device = "CPU", tf.go_backwards = false, tf.time_major = false}} {{
  %0 = "tf.BatchMatMulV2"(%inputs, %kernel) {{adj_x = false, adj_y = false}} : ({x_t}, {k_t}) -> tensor<1x{steps}x{3 * units}xf32>
  %1 = "tf.BatchMatMulV2"(%0, %recurrent_kernel) {{adj_x = false, adj_y = true}} : (tensor<1x{steps}x{3 * units}xf32>, {r_t}) -> {y_t}
  %2 = "tf.Const"() {{value = dense<1.000000e+00> : tensor<f32>}} : () -> tensor<f32>
  func.return %init_h, %1, %init_h, %2 : {res}
}}
"""  # noqa: E501


def test_keras_gru_chain(rng: np.random.Generator) -> None:
    steps, n_in, units = 6, 3, 4
    kernel = (rng.standard_normal((n_in, 3 * units)) * 0.5).astype(np.float32)
    recurrent = (rng.standard_normal((units, 3 * units)) * 0.5).astype(np.float32)
    bias = (rng.standard_normal((2, 3 * units)) * 0.3).astype(np.float32)
    x = rng.standard_normal((1, steps, n_in)).astype(np.float32)
    want = keras_gru_numpy(x, kernel, recurrent, bias)
    text = keras_gru_text(kernel, recurrent, bias, steps)
    module, _ = parse_module(text, make_context(allow_unregistered=True))
    stateful = _chain(module, "x", [1, 1, n_in])
    _only_ov(stateful)
    assert ops_named(stateful, "ov.gru_cell") and not ops_named(stateful, "ov.gru_sequence")
    request = lowpass.Core().compile_model(stateful, "REFERENCE").create_infer_request()
    assert [s.name for s in request.query_state()] == ["standard_gru/variable_0"]
    for step in range(steps):
        y = request.infer({"x": x[:, step : step + 1]})["y"]
        np.testing.assert_allclose(y[:, 0], want[:, step], rtol=RTOL, atol=ATOL)
    request.reset_state()
    y = request.infer({"x": x[:, :1]})["y"]
    np.testing.assert_allclose(y[:, 0], want[:, 0], rtol=RTOL, atol=ATOL)


def keras_bidirectional_text(
    fw: Sequence[np.ndarray], bw: Sequence[np.ndarray], steps: int, batch: int
) -> str:
    """
    Keras `Bidirectional(LSTM(units, return_sequences=True))` as TensorFlow imports it: two
    standard_lstm calls on the same input (the second with go_backwards), the backward outputs
    reversed back to input order (tf.ReverseV2) and concatenated (tf.ConcatV2).
    """
    n_in, units = fw[0].shape[0], fw[1].shape[0]
    x_t, h_t = f"tensor<{batch}x{steps}x{n_in}xf32>", f"tensor<{batch}x{units}xf32>"
    y_t = f"tensor<{batch}x{steps}x{units}xf32>"
    o_t = f"tensor<{batch}x{steps}x{2 * units}xf32>"
    k_t, r_t, b_t = (
        f"tensor<{n_in}x{4 * units}xf32>",
        f"tensor<{units}x{4 * units}xf32>",
        f"tensor<{4 * units}xf32>",
    )
    args = f"{x_t}, {h_t}, {h_t}, {k_t}, {r_t}, {b_t}"
    res = f"{h_t}, {y_t}, {h_t}, {h_t}, tensor<f32>"

    def consts(prefix: str, w: Sequence[np.ndarray]) -> str:
        return "\n".join(
            f'  %{prefix}{n} = "tf.Const"() {{value = dense<{_hex(a)}> : {t}}} : () -> {t}'
            for n, a, t in zip(("k", "r", "b"), w, (k_t, r_t, b_t), strict=True)
        )

    def function(name: str, backwards: bool, uuid: str) -> str:
        return f"""
func.func private @{name}(%inputs: {x_t}, %init_h: {h_t}, %init_c: {h_t}, %kernel: {k_t}, %recurrent_kernel: {r_t}, %bias: {b_t}) -> ({res}) attributes {{tf.api_implements = "lstm_{uuid}", tf.go_backwards = {str(backwards).lower()}, tf.time_major = false}} {{
  %0:5 = "tf.StandardLstm"(%inputs, %init_h, %init_c, %kernel, %recurrent_kernel, %bias) : ({args}) -> ({res})
  func.return %0#0, %0#1, %0#2, %0#3, %0#4 : {res}
}}"""  # noqa: E501

    return f"""
func.func @main(%x: {x_t} {{ov.name = "x"}}) -> ({o_t} {{ov.name = "y"}}) {{
{consts("f", fw)}
{consts("g", bw)}
  %zeros = "tf.Const"() {{value = dense<0.0> : {h_t}}} : () -> {h_t}
  %fw:5 = "tf.PartitionedCall"(%x, %zeros, %zeros, %fk, %fr, %fb) {{config = "", f = @__inference_forward_lstm_10}} : ({args}) -> ({res})
  %bw:5 = "tf.PartitionedCall"(%x, %zeros, %zeros, %gk, %gr, %gb) {{config = "", f = @__inference_backward_lstm_11}} : ({args}) -> ({res})
  %time = "tf.Const"() {{value = dense<1> : tensor<1xi32>}} : () -> tensor<1xi32>
  %rev = "tf.ReverseV2"(%bw#1, %time) : ({y_t}, tensor<1xi32>) -> {y_t}
  %axis = "tf.Const"() {{value = dense<-1> : tensor<i32>}} : () -> tensor<i32>
  %y = "tf.ConcatV2"(%fw#1, %rev, %axis) : ({y_t}, {y_t}, tensor<i32>) -> {o_t}
  func.return %y : {o_t}
}}
{function("__inference_forward_lstm_10", False, "6fa459ea-ee8a-3ca4-894e-db77e160355e")}
{function("__inference_backward_lstm_11", True, "886313e1-3b8a-5372-9b90-0c9aee199e5d")}
"""  # noqa: E501


def test_keras_bidirectional_lstm_chain(rng: np.random.Generator) -> None:
    """prepare-composite-functions fuses the pair, tfl-to-ov makes one bidirectional sequence."""
    from lowpass.passes.prepare_composite_functions import PrepareCompositeFunctionsPass

    batch, steps, n_in, units = 2, 5, 3, 4

    def weights() -> list[np.ndarray]:
        return [
            (rng.standard_normal(s) * 0.5).astype(np.float32)
            for s in ((n_in, 4 * units), (units, 4 * units), (4 * units,))
        ]

    fw, bw = weights(), weights()
    x = rng.standard_normal((batch, steps, n_in)).astype(np.float32)
    forward = keras_lstm_numpy(x, *fw)
    backward = keras_lstm_numpy(x[:, ::-1], *bw)[:, ::-1]  # Keras reverses it back
    want = np.concatenate([forward, backward], axis=-1)

    module, _ = parse_module(
        keras_bidirectional_text(fw, bw, steps, batch), make_context(allow_unregistered=True)
    )
    ctx = make_context(allow_unregistered=True)
    PrepareCompositeFunctionsPass().apply(ctx, module)
    assert any(op.name == "tfl.bidirectional_sequence_lstm" for op in module.walk())
    TflToOvPass().apply(ctx, module)
    module.verify()
    _only_ov(module)
    (seq,) = ops_named(module, "ov.lstm_sequence")
    assert seq.direction_value() == "bidirectional"
    (got,) = run(module, [x])
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL)
