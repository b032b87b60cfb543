"""
prepare-composite-functions keeps the meaning of each composite function: the fused body, run
alone as `@main` in the reference interpreter, equals an independent numpy implementation of
the composite function's own maths (Keras' `standard_lstm` / `standard_gru`, Lingvo's
`LSTMCellSimple` / `LayerNormalizedLSTMCellSimple`, Keras' Bidirectional = forward +
go_backwards LSTM) on random inputs. Tolerance: rtol = atol = 1e-5 (the interpreter computes
in float64 and rounds to f32; the references compute in float64 from the same f32 inputs).

Also: errors leave the module unchanged, warnings are returned (and printed by the pass),
the pass is idempotent, and the Python API and opt-tool agree.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr, TensorType
from xdsl.ir import Operation

import lowpass
from lowpass.ir import parse_module, print_module
from lowpass.passes.composite.common import op_name
from lowpass.passes.conversion.tfl_to_ov import TflToOvPass
from lowpass.passes.prepare_composite_functions import (
    CompositeFunctionError,
    PrepareCompositeFunctionsPass,
    prepare_composite_functions,
)

if TYPE_CHECKING:
    from lowpass.test.python.typing_helpers import Tolerance

TOL: Tolerance = {"rtol": 1e-5, "atol": 1e-5}
F32 = np.float32


# --------------------------------------------------------------------------------------------
# Independent references (the composite functions' own maths, float64)
# --------------------------------------------------------------------------------------------


def sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def keras_lstm(
    x: np.ndarray,
    h0: np.ndarray,
    c0: np.ndarray,
    kernel: np.ndarray,
    recurrent: np.ndarray,
    bias: np.ndarray,
    *,
    time_major: bool,
    go_backwards: bool,
    indy: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.floating]:
    """Keras `standard_lstm`: gates i, f, c, o; returns (last, outputs, h, c, runtime)."""
    x, h, c = (np.asarray(a, np.float64) for a in (x, h0, c0))
    steps = x if time_major else x.swapaxes(0, 1)
    if go_backwards:
        steps = steps[::-1]
    outputs = []
    for xt in steps:
        if indy:
            # IndyLSTM: column g of the [units, 4] recurrent kernel is gate g's diagonal.
            rec = np.concatenate([h * recurrent[:, g] for g in range(4)], axis=1)
        else:
            rec = h @ recurrent
        z = xt @ kernel + rec + bias
        i, f, g, o = np.split(z, 4, axis=1)
        c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
        h = sigmoid(o) * np.tanh(c)
        outputs.append(h)
    seq = np.stack(outputs)  # processed order, like Keras' backend.rnn
    last = seq[-1]
    if not time_major:
        seq = seq.swapaxes(0, 1)
    return last, seq, h, c, np.float64(1.0)


def keras_gru(
    x: np.ndarray,
    h0: np.ndarray,
    kernel: np.ndarray,
    recurrent: np.ndarray,
    bias: np.ndarray,
    *,
    time_major: bool,
    go_backwards: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.floating]:
    """Keras `standard_gru` (reset_after): gates z, r, h; returns (last, outputs, h, runtime)."""
    x, h = np.asarray(x, np.float64), np.asarray(h0, np.float64)
    input_bias, recurrent_bias = bias
    steps = x if time_major else x.swapaxes(0, 1)
    if go_backwards:
        steps = steps[::-1]
    outputs = []
    for xt in steps:
        x_z, x_r, x_h = np.split(xt @ kernel + input_bias, 3, axis=1)
        r_z, r_r, r_h = np.split(h @ recurrent + recurrent_bias, 3, axis=1)
        z = sigmoid(x_z + r_z)
        r = sigmoid(x_r + r_r)
        hh = np.tanh(x_h + r * r_h)
        h = z * h + (1 - z) * hh
        outputs.append(h)
    seq = np.stack(outputs)
    last = seq[-1]
    if not time_major:
        seq = seq.swapaxes(0, 1)
    return last, seq, h, np.float64(1.0)


def lingvo_lstm_cell_simple(
    x: np.ndarray,
    wm: np.ndarray,
    b: np.ndarray,
    w_proj: np.ndarray,
    ln_scale: np.ndarray | None = None,
    *,
    cifg: bool = False,
    cell_value_cap: float = 10.0,
) -> np.ndarray:
    """
    Lingvo's `LSTMCellSimple._Mix` + `_Gates` (and `LayerNormalizedLSTMCellSimple._Mix`), one
    step from the zero state: per-gate layer norm (epsilon 1e-8) before the bias, gates
    i_i (cell), i_g (input), f_g (forget), o_g (output), cell cap, projection.
    """
    x = np.asarray(x, np.float64)
    batch, n_output = x.shape[0], w_proj.shape[1]
    gates = 3 if cifg else 4
    n_cell = wm.shape[1] // gates
    m0, c0 = np.zeros((batch, n_output)), np.zeros((batch, n_cell))
    xmw = np.concatenate([x, m0], axis=1) @ wm
    if ln_scale is not None:
        r = xmw.reshape(batch, gates, n_cell)
        mean = r.mean(axis=-1, keepdims=True)
        var = ((r - mean) ** 2).mean(axis=-1, keepdims=True)
        xmw = ((r - mean) / np.sqrt(var + 1e-8)).reshape(batch, -1) * ln_scale
    xmw = xmw + b
    if cifg:
        i_i, f_g, o_g = np.split(xmw, 3, axis=1)
        input_gate = np.tanh(i_i) - np.tanh(i_i) * sigmoid(f_g)
    else:
        i_i, i_g, f_g, o_g = np.split(xmw, 4, axis=1)
        input_gate = sigmoid(i_g) * np.tanh(i_i)
    new_c = np.clip(sigmoid(f_g) * c0 + input_gate, -cell_value_cap, cell_value_cap)
    new_m = sigmoid(o_g) * np.tanh(new_c)
    return new_m @ w_proj


# --------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------


def t(shape: Sequence[int], element: str = "f32") -> str:
    return "tensor<" + "".join(f"{'?' if d < 0 else d}x" for d in shape) + element + ">"


def composite(name: str, attrs: str, args: Sequence[str], results: Sequence[str]) -> str:
    """A composite function whose TensorFlow body is one opaque op (only its type matters)."""
    params = ", ".join(f"%arg{i}: {a}" for i, a in enumerate(args))
    n = len(results)
    res = ", ".join(results)
    head = f"%0:{n}" if n > 1 else "%0"
    outs = ", ".join(f"%0#{i}" for i in range(n)) if n > 1 else "%0"
    return (
        f"func.func @{name}({params}) -> ({res}) attributes {{{attrs}}} {{\n"
        f'  {head} = "tf.Composite"(%arg0) : ({args[0]}) -> ({res})\n'
        f"  func.return {outs} : {res}\n}}\n"
    )


def parse(text: str) -> ModuleOp:
    module, _ = parse_module(text, lowpass.make_context(allow_unregistered=True))
    return module


def function(module: ModuleOp, name: str) -> func.FuncOp:
    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == name:
            return op
    raise KeyError(name)


def run_alone(module: ModuleOp, name: str, inputs: Sequence[np.ndarray]) -> tuple[np.ndarray, ...]:
    """Run function `name` of `module` as `@main`, alone in a module, on the reference device."""
    main = function(module, name).clone()
    main.sym_name = StringAttr("main")
    main.sym_visibility = None
    alone = ModuleOp([main])
    lowpass.verify_module(alone)
    compiled = lowpass.Core().compile_model(lowpass.Model(alone), "REFERENCE")
    return compiled.infer_new_request(list(inputs)).to_tuple()


def names(op: Operation) -> list[str]:
    """The names of the ops in `op`, TensorFlow's (unregistered) ones included."""
    return [op_name(o) for o in op.walk()]


def uniform(rng: np.random.Generator, shape: Sequence[int], scale: float = 0.5) -> np.ndarray:
    return rng.uniform(-scale, scale, tuple(shape)).astype(F32)


# --------------------------------------------------------------------------------------------
# Keras LSTM / IndyLSTM
# --------------------------------------------------------------------------------------------


class _Dims(TypedDict):
    """The sizes that `keras_lstm_text` takes."""

    batch: int
    time: int
    n_input: int
    units: int


def keras_lstm_text(
    name: str,
    *,
    time_major: bool,
    go_backwards: bool,
    batch: int,
    time: int,
    n_input: int,
    units: int,
    indy: bool = False,
    last_only: bool = False,
) -> str:
    """`last_only`: `outputs` declared with time dimension 1, as Keras' return_sequences=False."""
    x = [time, batch, n_input] if time_major else [batch, time, n_input]
    steps = 1 if last_only else time
    seq = [steps, batch, units] if time_major else [batch, steps, units]
    state = t([batch, units])
    args = [t(x), state, state, t([n_input, 4 * units])]
    args += [t([units, 4]) if indy else t([units, 4 * units]), t([4 * units])]
    results = [state, t(seq), state, state, "tensor<f32>"]
    api = ("indy_lstm_" if indy else "lstm_") + "b4e9f0e7-ac55-42bc-8ef2-8496419a608c"
    attrs = (
        f'tf.api_implements = "{api}", tf.go_backwards = {str(go_backwards).lower()}, '
        f"tf.time_major = {str(time_major).lower()}"
    )
    return composite(name, attrs, args, results)


@pytest.mark.parametrize("indy", [False, True], ids=["lstm", "indy"])
@pytest.mark.parametrize("go_backwards", [False, True], ids=["forward", "backwards"])
@pytest.mark.parametrize("time_major", [True, False], ids=["time_major", "batch_major"])
def test_keras_lstm_equals_standard_lstm(
    rng: np.random.Generator, time_major: bool, go_backwards: bool, indy: bool
) -> None:
    batch, time, n_input, units = 3, 6, 5, 4
    module = parse(
        keras_lstm_text(
            "lstm",
            time_major=time_major,
            go_backwards=go_backwards,
            batch=batch,
            time=time,
            n_input=n_input,
            units=units,
            indy=indy,
        )
    )
    assert prepare_composite_functions(module) == []
    assert "tfl.unidirectional_sequence_lstm" in names(module)
    x = uniform(rng, [time, batch, n_input] if time_major else [batch, time, n_input], 1.0)
    h0, c0 = uniform(rng, [batch, units]), uniform(rng, [batch, units])
    kernel = uniform(rng, [n_input, 4 * units])
    recurrent = uniform(rng, [units, 4] if indy else [units, 4 * units])
    bias = uniform(rng, [4 * units])
    got = run_alone(module, "lstm", [x, h0, c0, kernel, recurrent, bias])
    want = keras_lstm(
        x,
        h0,
        c0,
        kernel,
        recurrent,
        bias,
        time_major=time_major,
        go_backwards=go_backwards,
        indy=indy,
    )
    assert len(got) == 5
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, **TOL)


def last_step(outputs: np.ndarray, time_major: bool) -> np.ndarray:
    """Keras' `outputs` for return_sequences=False: the last processed step, time axis kept."""
    return outputs[-1:] if time_major else outputs[:, -1:]


@pytest.mark.parametrize("go_backwards", [False, True], ids=["forward", "backwards"])
@pytest.mark.parametrize("time_major", [True, False], ids=["time_major", "batch_major"])
def test_keras_lstm_outputs_of_return_sequences_false(
    rng: np.random.Generator, time_major: bool, go_backwards: bool
) -> None:
    # Keras >= 2.10 declares `outputs` [batch, 1, units] when return_sequences=False
    # (backend.rnn(return_all_outputs=False)): it holds the last output, time axis kept.
    batch, time, n_input, units = 2, 5, 3, 4
    text = keras_lstm_text(
        "lstm",
        time_major=time_major,
        go_backwards=go_backwards,
        batch=batch,
        time=time,
        n_input=n_input,
        units=units,
        last_only=True,
    )
    module = parse(text)
    assert prepare_composite_functions(module) == []
    f = function(module, "lstm")
    assert "tfl.unidirectional_sequence_lstm" in names(f)
    declared = f.function_type.outputs.data[1]
    assert isinstance(declared, TensorType)  # the signature is unchanged
    assert declared.get_shape() == ((1, batch, units) if time_major else (batch, 1, units))
    x = uniform(rng, [time, batch, n_input] if time_major else [batch, time, n_input], 1.0)
    args = [x, uniform(rng, [batch, units]), uniform(rng, [batch, units])]
    args += [uniform(rng, [n_input, 4 * units]), uniform(rng, [units, 4 * units])]
    args += [uniform(rng, [4 * units])]
    got = run_alone(module, "lstm", args)
    last, seq, h, c, runtime = keras_lstm(*args, time_major=time_major, go_backwards=go_backwards)
    for g, w in zip(got, (last, last_step(seq, time_major), h, c, runtime), strict=True):
        np.testing.assert_allclose(g, w, **TOL)


def test_keras_lstm_cell_state_beyond_ten_is_not_clipped(rng: np.random.Generator) -> None:
    # TensorFlow Lite hard-codes cell_clip = 10; Keras does not clip. Forget and input gates
    # saturated open and a candidate of ~1 grow c by ~1 per step: 16 steps reach c ~ 16.
    batch, time, n_input, units = 1, 16, 2, 3
    module = parse(
        keras_lstm_text(
            "lstm",
            time_major=True,
            go_backwards=False,
            batch=batch,
            time=time,
            n_input=n_input,
            units=units,
        )
    )
    prepare_composite_functions(module)
    x = np.zeros((time, batch, n_input), F32)
    h0 = c0 = np.zeros((batch, units), F32)
    kernel = np.zeros((n_input, 4 * units), F32)
    recurrent = np.zeros((units, 4 * units), F32)
    bias = np.full(4 * units, 20.0, F32)  # i, f, c, o all saturated
    got = run_alone(module, "lstm", [x, h0, c0, kernel, recurrent, bias])
    want = keras_lstm(x, h0, c0, kernel, recurrent, bias, time_major=True, go_backwards=False)
    assert want[3].max() > 15.0
    np.testing.assert_allclose(got[3], want[3], **TOL)


def test_keras_lstm_dynamic_time(rng: np.random.Generator) -> None:
    # The input's time dimension may be dynamic (upstream's TC3 signature); the fused body runs
    # on any sequence length.
    text = keras_lstm_text(
        "lstm", time_major=True, go_backwards=True, batch=2, time=-1, n_input=3, units=2
    )
    module = parse(text)
    prepare_composite_functions(module)
    for time in (1, 5):
        x = uniform(rng, [time, 2, 3], 1.0)
        args = [x, uniform(rng, [2, 2]), uniform(rng, [2, 2])]
        args += [uniform(rng, [3, 8]), uniform(rng, [2, 8]), uniform(rng, [8])]
        got = run_alone(module, "lstm", args)
        want = keras_lstm(*args, time_major=True, go_backwards=True)
        for g, w in zip(got, want, strict=True):
            np.testing.assert_allclose(g, w, **TOL)


# --------------------------------------------------------------------------------------------
# Keras GRU
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("go_backwards", [False, True], ids=["forward", "backwards"])
@pytest.mark.parametrize("time_major", [True, False], ids=["time_major", "batch_major"])
@pytest.mark.parametrize("last_only", [False, True], ids=["sequences", "last_only"])
def test_keras_gru_equals_standard_gru(
    rng: np.random.Generator, time_major: bool, go_backwards: bool, last_only: bool
) -> None:
    batch, time, n_input, units = 2, 5, 4, 3
    x_shape = [time, batch, n_input] if time_major else [batch, time, n_input]
    steps = 1 if last_only else time  # return_sequences=False: `outputs` is the last step
    seq = [steps, batch, units] if time_major else [batch, steps, units]
    state = t([batch, units])
    args = [t(x_shape), state, t([n_input, 3 * units]), t([units, 3 * units]), t([2, 3 * units])]
    attrs = (
        f'tf.api_implements = "gru_0b1c", tf.go_backwards = {str(go_backwards).lower()}, '
        f"tf.time_major = {str(time_major).lower()}"
    )
    module = parse(composite("gru", attrs, args, [state, t(seq), state, "tensor<f32>"]))
    assert prepare_composite_functions(module) == []
    assert "tfl.unidirectional_sequence_gru" in names(module)
    inputs = [
        uniform(rng, x_shape, 1.0),
        uniform(rng, [batch, units]),
        uniform(rng, [n_input, 3 * units]),
        uniform(rng, [units, 3 * units]),
        uniform(rng, [2, 3 * units]),
    ]
    got = run_alone(module, "gru", inputs)
    want = keras_gru(*inputs, time_major=time_major, go_backwards=go_backwards)
    if last_only:
        want = (want[0], last_step(want[1], time_major), *want[2:])
    assert len(got) == 4
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, **TOL)


# --------------------------------------------------------------------------------------------
# Lingvo LSTMCellSimple / LayerNormalizedLstmCellSimple
# --------------------------------------------------------------------------------------------


def lingvo_text(
    name: str,
    implements: str,
    n_input: int,
    n_cell: int,
    n_output: int,
    *,
    ln: bool,
    gates: int = 4,
) -> str:
    args = [t([1, n_input]), t([n_input + n_output, gates * n_cell]), t([gates * n_cell])]
    args.append(t([n_cell, n_output]))
    if ln:
        args.append(t([gates * n_cell]))
    attrs = f'tf._implements = "{implements}", tf._reference = "mlir"'
    return composite(name, attrs, args, [t([1, n_output])])


@pytest.mark.parametrize(
    ("implements", "ln", "cifg"),
    [
        ("LSTMCellSimple", False, False),
        ("LayerNormalizedLstmCellSimple", True, False),
        ("LSTMCellSimple,CoupleInputForgetGates", False, True),
        ("LayerNormalizedLstmCellSimple,CoupleInputForgetGates", True, True),
    ],
    ids=["simple", "layer_norm", "simple_cifg", "layer_norm_cifg"],
)
def test_lingvo_cell_equals_lingvo(
    rng: np.random.Generator, implements: str, ln: bool, cifg: bool
) -> None:
    n_input, n_cell, n_output = 3, 4, 2
    gates = 3 if cifg else 4
    module = parse(lingvo_text("cell", implements, n_input, n_cell, n_output, ln=ln, gates=gates))
    assert prepare_composite_functions(module, fuse_cifg=cifg) == []
    assert "tfl.lstm" in names(module)
    x = uniform(rng, [1, n_input], 2.0)
    wm = uniform(rng, [n_input + n_output, gates * n_cell], 1.0)
    b = uniform(rng, [gates * n_cell])
    w_proj = uniform(rng, [n_cell, n_output], 1.0)
    inputs = [x, wm, b, w_proj]
    scale = None
    if ln:
        scale = rng.uniform(0.5, 1.5, gates * n_cell).astype(F32)
        inputs.append(scale)
    (got,) = run_alone(module, "cell", inputs)
    want = lingvo_lstm_cell_simple(x, wm, b, w_proj, scale, cifg=cifg)
    np.testing.assert_allclose(got, want, **TOL)


def test_cifg_is_not_fused_by_default() -> None:
    module = parse(
        lingvo_text("cell", "LSTMCellSimple,CoupleInputForgetGates", 3, 4, 2, ln=False, gates=3)
    )
    before = print_module(module)
    diagnostics = prepare_composite_functions(module)
    assert print_module(module) == before
    assert len(diagnostics) == 1 and "fuse-cifg=true" in diagnostics[0].message


def test_embedding_lookup_equals_one_hot_matmul(rng: np.random.Generator) -> None:
    # embedding_matmul is one_hot(ids) . table; tfl.embedding_lookup picks the rows.
    attrs = 'tf._implements = "embedding_matmul", tf._reference = "mlir"'
    module = parse(composite("emb", attrs, [t([10, 4]), t([2, 3], "i32")], [t([2, 3, 4])]))
    prepare_composite_functions(module)
    implements = function(module, "emb").attributes["tf._implements"]
    assert isinstance(implements, StringAttr) and implements.data == "embedding_lookup"
    table = uniform(rng, [10, 4])
    ids = rng.integers(0, 10, (2, 3)).astype(np.int32)
    (got,) = run_alone(module, "emb", [table, ids])
    one_hot = (ids[..., None] == np.arange(10)).astype(np.float64)
    np.testing.assert_allclose(got, one_hot @ table, **TOL)


# --------------------------------------------------------------------------------------------
# Bidirectional
# --------------------------------------------------------------------------------------------


def bidirectional_text(
    *,
    time_major: bool,
    batch: int,
    time: int,
    n_input: int,
    units: int,
    call: str = "func",
    last_only: bool = False,
    backward_first: bool = False,
) -> str:
    """
    `backward_first`: the order TensorFlow writes a Keras Bidirectional layer in, the backward
    call first and its outputs reversed (`tf.ReverseV2`) before the forward call; @main
    returns the reversed outputs in place of the backward call's.
    """
    common = _Dims(batch=batch, time=time, n_input=n_input, units=units)
    fw = keras_lstm_text(
        "fw", time_major=time_major, go_backwards=False, last_only=last_only, **common
    )
    bw = keras_lstm_text(
        "bw", time_major=time_major, go_backwards=True, last_only=last_only, **common
    )
    x = [time, batch, n_input] if time_major else [batch, time, n_input]
    steps = 1 if last_only else time
    seq = [steps, batch, units] if time_major else [batch, steps, units]
    state = t([batch, units])
    arg_types = [t(x)] + [state, state, t([n_input, 4 * units]), t([units, 4 * units])]
    arg_types += [t([4 * units])] + [state, state, t([n_input, 4 * units])]
    arg_types += [t([units, 4 * units]), t([4 * units])]
    result_types = [state, t(seq), state, state, "tensor<f32>"]
    params = ", ".join(f"%a{i}: {a}" for i, a in enumerate(arg_types))
    fw_args = ", ".join(f"%a{i}" for i in range(6))
    bw_args = ", ".join(f"%a{i}" for i in (0, 6, 7, 8, 9, 10))
    in_types = ", ".join(arg_types[:6])
    res = ", ".join(result_types)
    outs = ", ".join([*(f"%f#{i}" for i in range(5)), *(f"%b#{i}" for i in range(5))])
    if call == "func":
        fw_call = f"%f:5 = func.call @fw({fw_args}) : ({in_types}) -> ({res})"
        bw_call = f"%b:5 = func.call @bw({bw_args}) : ({in_types}) -> ({res})"
    else:
        fw_call = f'%f:5 = "tf.PartitionedCall"({fw_args}) {{f = @fw}} : ({in_types}) -> ({res})'
        bw_call = (
            f'%b:5 = "tf.StatefulPartitionedCall"({bw_args}) {{f = @bw}} : ({in_types}) -> ({res})'
        )
    if backward_first:
        axis = 0 if time_major else 1
        reverse = (
            f'%axis = "tf.Const"() {{value = dense<{axis}> : tensor<1xi32>}} : () -> '
            f'tensor<1xi32>\n  %r = "tf.ReverseV2"(%b#1, %axis) : ({t(seq)}, tensor<1xi32>) -> '
            f"{t(seq)}"
        )
        calls = f"{bw_call}\n  {reverse}\n  {fw_call}"
        outs = outs.replace("%b#1", "%r")
    else:
        calls = f"{fw_call}\n  {bw_call}"
    main = (
        f"func.func @main({params}) -> ({res}, {res}) {{\n  {calls}\n"
        f"  func.return {outs} : {res}, {res}\n}}\n"
    )
    return fw + bw + main


@pytest.mark.parametrize(
    ("last_only", "backward_first"),
    [(False, False), (True, False), (False, True), (True, True)],
    ids=["sequences", "last_only", "backward_first", "last_only_backward_first"],
)
@pytest.mark.parametrize("time_major", [True, False], ids=["time_major", "batch_major"])
def test_bidirectional_equals_forward_plus_backward(
    rng: np.random.Generator, time_major: bool, last_only: bool, backward_first: bool
) -> None:
    batch, time, n_input, units = 2, 5, 3, 4
    module = parse(
        bidirectional_text(
            time_major=time_major,
            batch=batch,
            time=time,
            n_input=n_input,
            units=units,
            last_only=last_only,
            backward_first=backward_first,
        )
    )
    assert prepare_composite_functions(module) == []
    main = function(module, "main")
    ops = [op_name(op) for op in main.body.ops]
    if backward_first:
        assert ops == ["func.call", "tf.Const", "tf.ReverseV2", "func.return"]
    else:
        assert ops == ["func.call", "func.return"]
    assert "tfl.bidirectional_sequence_lstm" in names(module)
    if backward_first:  # tf.ReverseV2 runs once converted
        TflToOvPass().apply(lowpass.make_context(allow_unregistered=True), module)
    x = uniform(rng, [time, batch, n_input] if time_major else [batch, time, n_input], 1.0)
    cells = []
    for _ in range(2):
        cells.append(
            [
                uniform(rng, [batch, units]),
                uniform(rng, [batch, units]),
                uniform(rng, [n_input, 4 * units]),
                uniform(rng, [units, 4 * units]),
                uniform(rng, [4 * units]),
            ]
        )
    compiled = lowpass.Core().compile_model(lowpass.Model(module), "REFERENCE")
    got = compiled.infer_new_request([x, *cells[0], *cells[1]]).to_tuple()
    fw = keras_lstm(x, *cells[0], time_major=time_major, go_backwards=False)
    bw = keras_lstm(x, *cells[1], time_major=time_major, go_backwards=True)
    if last_only:
        fw = (fw[0], last_step(fw[1], time_major), *fw[2:])
        bw = (bw[0], last_step(bw[1], time_major), *bw[2:])
    if backward_first:  # @main returns the backward outputs reversed back to input order
        bw = (bw[0], np.flip(bw[1], 0 if time_major else 1), *bw[2:])
    want = fw + bw
    assert len(got) == 10
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, **TOL)


def test_bidirectional_option_off_keeps_two_calls() -> None:
    module = parse(bidirectional_text(time_major=True, batch=2, time=3, n_input=3, units=2))
    prepare_composite_functions(module, fuse_bidirectional=False)
    main = function(module, "main")
    assert [op.name for op in main.body.ops].count("func.call") == 2
    assert "tfl.bidirectional_sequence_lstm" not in names(module)


def test_bidirectional_through_tf_partitioned_calls() -> None:
    module = parse(
        bidirectional_text(time_major=False, batch=2, time=3, n_input=3, units=2, call="tf")
    )
    prepare_composite_functions(module)
    main = function(module, "main")
    assert [op.name for op in main.body.ops] == ["func.call", "func.return"]


def test_bidirectional_not_fused_when_the_data_flow_forbids_it() -> None:
    # The forward call takes a value computed from the backward call's outputs: neither call's
    # place suits one fused call. Both stay, each fused alone, with a warning saying why.
    text = bidirectional_text(time_major=False, batch=2, time=3, n_input=3, units=2)
    text = text.replace(
        "  %f:5 = func.call @fw(%a0, %a1,",
        '  %h = "tf.Identity"(%b#2) : (tensor<2x2xf32>) -> tensor<2x2xf32>\n'
        "  %f:5 = func.call @fw(%a0, %h,",
    )
    bw_call = text[text.index("  %b:5 = func.call") :].split("\n")[0]
    text = text.replace(bw_call + "\n", "").replace("  %h = ", bw_call + "\n  %h = ")
    module = parse(text)
    diagnostics = prepare_composite_functions(module)
    assert [d.severity for d in diagnostics] == ["warning"]
    assert "a result of the call of @bw is used before the call of @fw" in diagnostics[0].message
    main = function(module, "main")
    assert [op_name(op) for op in main.body.ops] == [
        "func.call",
        "tf.Identity",
        "func.call",
        "func.return",
    ]
    assert "tfl.bidirectional_sequence_lstm" not in names(module)
    assert names(module).count("tfl.unidirectional_sequence_lstm") == 2


def test_keras_lstm_last_step_outputs_over_a_dynamic_time(rng: np.random.Generator) -> None:
    # `outputs` declared [1, batch, units] over a dynamic time: the last step, for any length.
    text = keras_lstm_text(
        "lstm",
        time_major=True,
        go_backwards=False,
        batch=2,
        time=-1,
        n_input=3,
        units=2,
        last_only=True,
    )
    module = parse(text)
    assert prepare_composite_functions(module) == []
    for time in (1, 4):
        args = [uniform(rng, [time, 2, 3], 1.0), uniform(rng, [2, 2]), uniform(rng, [2, 2])]
        args += [uniform(rng, [3, 8]), uniform(rng, [2, 8]), uniform(rng, [8])]
        got = run_alone(module, "lstm", args)
        last, seq, h, c, runtime = keras_lstm(*args, time_major=True, go_backwards=False)
        for g, w in zip(got, (last, seq[-1:], h, c, runtime), strict=True):
            np.testing.assert_allclose(g, w, **TOL)


# --------------------------------------------------------------------------------------------
# Diagnostics, atomicity, idempotence, the pass and the tool
# --------------------------------------------------------------------------------------------


def test_error_leaves_the_module_unchanged() -> None:
    good = keras_lstm_text(
        "good", time_major=True, go_backwards=False, batch=2, time=3, n_input=3, units=2
    )
    # A fusable function and one without tf.time_major (an error): nothing may change.
    bad = keras_lstm_text(
        "bad", time_major=True, go_backwards=False, batch=2, time=3, n_input=3, units=2
    ).replace(", tf.time_major = true", "")
    module = parse(good + bad)
    before = print_module(module)
    with pytest.raises(CompositeFunctionError) as info:
        prepare_composite_functions(module)
    assert print_module(module) == before
    assert "tf.time_major" in str(info.value)
    assert str(info.value).startswith("<string>:")


def test_warning_leaves_the_function_unchanged_and_others_fuse() -> None:
    good = keras_lstm_text(
        "good", time_major=True, go_backwards=False, batch=2, time=3, n_input=3, units=2
    )
    dynamic = keras_lstm_text(
        "dynamic", time_major=True, go_backwards=False, batch=-1, time=3, n_input=3, units=2
    )
    module = parse(good + dynamic)
    diagnostics = prepare_composite_functions(module)
    assert [d.severity for d in diagnostics] == ["warning"]
    assert "the batch size is not fixed" in diagnostics[0].message
    assert diagnostics[0].where == "<string>:5:1"  # the 2nd function, after 4 lines
    assert names(function(module, "dynamic"))[1:] == ["tf.Composite", "func.return"]
    assert "tfl.unidirectional_sequence_lstm" in names(function(module, "good"))


def test_idempotent() -> None:
    text = bidirectional_text(time_major=True, batch=2, time=3, n_input=3, units=2)
    text += lingvo_text("cell", "LayerNormalizedLstmCellSimple", 3, 4, 2, ln=True)
    module = parse(text)
    prepare_composite_functions(module)
    once = print_module(module)
    prepare_composite_functions(module)
    assert print_module(module) == once


def test_pass_object_and_spec() -> None:
    module = parse(lingvo_text("cell", "LSTMCellSimple", 3, 4, 2, ln=False))
    PrepareCompositeFunctionsPass().apply(lowpass.make_context(), module)
    assert "tfl.lstm" in names(module)
    spec = str(PrepareCompositeFunctionsPass(fuse_bidirectional=False).pipeline_pass_spec())
    assert spec.startswith("prepare-composite-functions")


def test_opt_tool_prints_warnings_and_fuses(tmp_path: Path) -> None:
    path = tmp_path / "m.mlir"
    path.write_text(
        keras_lstm_text(
            "dynamic", time_major=True, go_backwards=False, batch=-1, time=3, n_input=3, units=2
        )
        + lingvo_text("cell", "LSTMCellSimple", 3, 4, 2, ln=False)
    )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "lowpass.tools.opt_tool",
            "--allow-unregistered-dialect",
            "--prepare-composite-functions",
            str(path),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert f"{path}:1:1: warning: we cannot fuse this lstm func because the batch size" in (
        done.stderr
    )
    assert '"tfl.lstm"' in done.stdout
    missing = subprocess.run(
        [sys.executable, "-m", "lowpass.tools.opt_tool", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert missing.returncode == 1
    # a parse error: its line (`file:2:10: error: ...`, at the op's quoted name, as mlir-opt
    # points), then the source line and the carets
    headline, _, carets = missing.stderr.splitlines()
    assert headline.startswith(f"{path}:2:10: error: operation 'tf.Composite'")
    assert "--allow-unregistered-dialect" in headline and carets.strip() == "^" * 14
