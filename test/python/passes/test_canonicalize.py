"""canonicalize preserves the program's meaning: run before and after on the same inputs."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from xdsl.transforms.canonicalize import CanonicalizePass

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov

TYPES = {
    "f32": ov.f32, "f16": ov.f16, "i64": ov.i64, "i32": ov.i32, "i8": ov.i8, "ui8": ov.ui8,
    "i1": ov.i1,
}


def _inputs(source: str) -> np.ndarray:
    """Values covering the source type: every value for 8-bit types, edges and randoms else."""
    dtype = ov.to_dtype(TYPES[source])
    if source in ("i8", "ui8"):
        info = np.iinfo(dtype)
        return np.arange(info.min, info.max + 1).astype(dtype)
    if source == "i1":
        return np.array([False, True])
    rng = np.random.default_rng(0)
    if source in ("f32", "f16"):
        vals = [0.0, -0.0, 0.5, 1.5, -2.5, 255.0, 256.0, 65504.0, 1e-3, -129.0, 2049.0]
        return np.concatenate([vals, rng.standard_normal(64) * 300]).astype(dtype)
    info = np.iinfo(dtype)
    vals = [0, 1, -1, 127, 128, 255, 256, -129, 2049, 65535, info.max, info.min]
    return np.concatenate([vals, rng.integers(-(2**20), 2**20, 64)]).astype(dtype)


def _canonicalized(model: lowpass.Model) -> lowpass.Model:
    module = model.module.clone()
    CanonicalizePass().apply(lowpass.make_context(), module)
    lowpass.verify_module(module)
    return lowpass.Core().read_model(module)


@pytest.mark.parametrize("source", TYPES)
def test_convert_chains_keep_their_meaning(source: str) -> None:
    data = _inputs(source)
    g = GraphBuilder()
    x = g.input("x", [data.size], TYPES[source])
    pairs = [(m, d) for m, d in itertools.product(TYPES, TYPES)]
    for middle, dest in pairs:
        y = g.value(ov.ConvertOp(x, TYPES[middle]))
        g.output(g.value(ov.ConvertOp(y, TYPES[dest])), f"{middle}->{dest}")
    model = lowpass.Core().read_model(g.module())
    folded = _canonicalized(model)
    before = lowpass.Core().compile_model(model, "REFERENCE")({"x": data})
    after = lowpass.Core().compile_model(folded, "REFERENCE")({"x": data})
    with np.errstate(all="ignore"):
        for middle, dest in pairs:
            name = f"{middle}->{dest}"
            np.testing.assert_array_equal(after[name], before[name], err_msg=f"{source}->{name}")
    # Something was folded: widening chains such as ui8 -> i32 -> f32 lose their middle op.
    count = sum(1 for op in folded.get_ops() if isinstance(op, ov.ConvertOp))
    assert count < 2 * len(pairs)


def test_constant_subgraphs_fold_and_keep_meaning(rng: np.random.Generator) -> None:
    g = GraphBuilder()
    x = g.input("x", [2, 4])
    w16 = g.constant(rng.standard_normal((4, 3)).astype(np.float16), name="w16")
    w = g.value(ov.ConvertOp(w16, ov.f32, name="w"))
    scale = g.value(ov.MultiplyOp(w, g.constant(np.array([2.0], np.float32))))
    order = g.constant(np.array([1, 0], np.int64))
    wt = g.value(ov.TransposeOp(scale, order, name="wt"))
    y = g.value(ov.MatMulOp(x, wt, transpose_b=True, name="mm"))
    g.output(y, "y")
    model = lowpass.Core().read_model(g.module())
    folded = _canonicalized(model)
    kinds = [op.name for op in folded.get_ops() if op.name.startswith("ov.")]
    assert kinds == ["ov.constant", "ov.mat_mul"]
    xv = rng.standard_normal((2, 4)).astype(np.float32)
    np.testing.assert_array_equal(
        lowpass.Core().compile_model(model, "REFERENCE")({"x": xv})["y"],
        lowpass.Core().compile_model(folded, "REFERENCE")({"x": xv})["y"],
    )
    assert ov.get_name(next(op for op in folded.get_ops() if isinstance(op, ov.ConstantOp))) == "wt"


@pytest.mark.parametrize("source", ["ui8", "i8"])
def test_identity_fake_quantizes_fold_and_keep_meaning(source: str) -> None:
    """Requantizations of converted 8-bit values near the identity, per channel: those that give
    back every value fold away, the others (a step or an offset off by a little) stay, and every
    output is unchanged on all 256 values."""
    data = _inputs(source)
    lo, hi = (0.0, 255.0) if source == "ui8" else (-128.0, 127.0)
    cases = {  # input_low offset and step (input range / 255) of the two channels
        "same": ((0.0, 1.0), (0.0, 1.0)),
        "offset_within_half": ((-0.25, 1.0), (0.49, 1.0)),
        "offset_half": ((0.0, 1.0), (0.5, 1.0)),
        "step_a_little_wider": ((0.0, 1.0), (0.0, 1.0 + 3e-3)),  # 255 -> 254.2
        "step_one_ulp_wider": ((0.0, 1.0 + 2**-23), (0.0, 1.0 + 2**-23)),
        "step_double": ((0.0, 2.0), (0.0, 1.0)),
    }
    g = GraphBuilder()
    x = g.input("x", [data.size, 2, 1], TYPES[source])
    xf = g.value(ov.ConvertOp(x, ov.f32))
    for name, channels in cases.items():
        il = np.array([[lo + offset] for offset, _ in channels], np.float32)
        ih = np.array([[lo + offset + 255 * step] for offset, step in channels], np.float32)
        ol, oh = np.array([[lo]], np.float32), np.array([[hi]], np.float32)
        il_c, ih_c, ol_c, oh_c = (g.constant(v) for v in (il, ih, ol, oh))
        fq = ov.FakeQuantizeOp(
            xf, il_c, ih_c, ol_c, oh_c, 256, element_type=TYPES[source], name=name
        )
        g.output(g.value(fq), name)
    model = lowpass.Core().read_model(g.module())
    folded = _canonicalized(model)
    feeds = {"x": np.repeat(data[:, None, None], 2, axis=1)}
    before = lowpass.Core().compile_model(model, "REFERENCE")(feeds)
    after = lowpass.Core().compile_model(folded, "REFERENCE")(feeds)
    for name in cases:
        np.testing.assert_array_equal(after[name], before[name], err_msg=name)
    kept = {ov.get_name(op) for op in folded.get_ops() if isinstance(op, ov.FakeQuantizeOp)}
    assert kept == {"offset_half", "step_a_little_wider", "step_double"}
