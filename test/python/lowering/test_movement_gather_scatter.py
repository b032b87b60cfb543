"""
SpaceToDepth, GatherElements and ScatterNDUpdate on the CPU device (lowering/ops/movement.py),
which ran on the reference fallback: equal to REFERENCE bit for bit on random inputs of several
shapes, ranks, axes, modes and element types (f32, f16, i32, i64, u8, booleans; i32 and i64
indices, negative ones, repeated ScatterNDUpdate rows, every reduction, special float values),
and to OpenVINO's CPU plugin in f32 where `openvino` is installed; no group of theirs on the
fallback. GatherElements whose indices are computed at run time stays on the fallback, which
raises for an index out of range as REFERENCE does; ScatterNDUpdate's kernel checks such
indices itself (test_scatter_update.py).
Several cases share one model (a compilation is the cost).
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.ir import SSAValue

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.dialects.ov import tensor
from lowpass.dialects.ov.base import from_dtype
from lowpass.lowering.ops.movement import _copy_plan, index_maps

from .typed import ConvGeometry, cpu_graph

RNG = np.random.default_rng(2026)
TYPES = {"f32": np.float32, "f16": np.float16, "i32": np.int32, "i64": np.int64,
         "u8": np.uint8, "i1": np.bool_}  # fmt: skip
REDUCTIONS = ("none", "sum", "sub", "prod", "min", "max")
SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.5], np.float32)
"""NaN, infinities, both zeros and ordinary values: ScatterNDUpdate's float reductions meet
every pair of them (numpy's min/max keep a NaN element, take a NaN update, and for equal
zeros keep the update in f32, the element in f16)."""


def _data(shape: tuple[int, ...], dtype: type, rng: np.random.Generator) -> np.ndarray:
    dt = np.dtype(dtype)
    if dt.kind == "f":
        return (rng.standard_normal(shape) * 3).astype(dt)
    if dt == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    info = np.iinfo(dt.name)
    return rng.integers(max(info.min, -1000), min(info.max, 1000) + 1, shape).astype(dt)


class _Model:
    """A graph of several cases: named inputs with their values, named outputs."""

    def __init__(self) -> None:
        self.g = GraphBuilder()
        self.feeds: dict[str, np.ndarray] = {}
        self.outputs: list[str] = []

    def input(self, value: np.ndarray) -> SSAValue:
        name = f"x{len(self.feeds)}"
        self.feeds[name] = value
        return self.g.input(name, list(value.shape), from_dtype(value.dtype))

    def output(self, value: SSAValue) -> None:
        self.outputs.append(f"y{len(self.outputs)}")
        self.g.output(value, self.outputs[-1])

    def run(self) -> tuple[list[np.ndarray], list[np.ndarray], lowpass.CompiledModel]:
        """(REFERENCE's outputs, CPU's outputs, the CPU's compiled model)."""
        core = lowpass.Core()
        model = core.read_model(self.g.module())
        want = core.compile_model(model, "REFERENCE")(self.feeds)
        compiled = core.compile_model(model, "CPU")
        got = compiled(self.feeds)
        return ([np.asarray(want[n]) for n in self.outputs],
                [np.asarray(got[n]) for n in self.outputs], compiled)  # fmt: skip


def _assert_same_bits(got: np.ndarray, want: np.ndarray, what: object) -> None:
    """Equal shapes, types and bits (a NaN's payload aside: NaN at the same places)."""
    assert got.dtype == want.dtype and got.shape == want.shape, what
    if got.dtype.kind == "f":
        nan = np.isnan(want)
        np.testing.assert_array_equal(np.isnan(got), nan, err_msg=str(what))
        got, want = got[~nan], want[~nan]
        unsigned = f"u{got.dtype.itemsize}"
        np.testing.assert_array_equal(got.view(unsigned), want.view(unsigned), err_msg=str(what))
    else:
        np.testing.assert_array_equal(got, want, err_msg=str(what))


def _assert_no_fallback(compiled: lowpass.CompiledModel) -> None:
    """Every group a kernel: no fallback group, no `ref_` execution type."""
    graph = cpu_graph(compiled)
    assert not graph.fallback_groups
    assert all(g.exec_type.startswith("jit_") for g in graph.groups), [
        g.exec_type for g in graph.groups]


def _indices(shape: tuple[int, ...], dim: int, dtype: type) -> np.ndarray:
    """Indices in [-dim, dim), the two ends among them."""
    index = RNG.integers(-dim, dim, shape)
    index.reshape(-1)[:2] = [-dim, dim - 1][: index.size]
    return index.astype(dtype)


# ---- SpaceToDepth (and DepthToSpace, the same strided copies) --------------------------------


def test_depth_space_maps_are_strided_copies() -> None:
    """SpaceToDepth's and DepthToSpace's maps are transposed copies over split dimensions,
    not tables of element indices (`refined_affine`)."""
    g = GraphBuilder()
    x = g.input("x", [2, 12, 6, 4])
    for op in (ov.SpaceToDepthOp(x, "blocks_first", 2), ov.SpaceToDepthOp(x, "depth_first", 2),
               ov.DepthToSpaceOp(x, "blocks_first", 2), ov.DepthToSpaceOp(x, "depth_first", 2)):
        g.op(op)
        maps = index_maps(op)
        assert maps is not None
        assert isinstance(_copy_plan(maps[0]), tuple), op.name


def test_space_to_depth_equals_reference() -> None:
    m = _Model()
    cases = [((2, 3, 8, 6), "f32", 2), ((1, 2, 9, 6), "u8", 3), ((1, 2, 4, 4, 4), "f16", 2),
             ((2, 3, 8), "i64", 4), ((1, 4, 4, 4), "i32", 1), ((1, 1, 4, 6), "i1", 2)]
    for shape, et, bs in cases:
        x = m.input(_data(shape, TYPES[et], RNG))
        for mode in ("blocks_first", "depth_first"):
            m.output(m.g.value(ov.SpaceToDepthOp(x, mode, bs)))
    for shape, et, bs, out in [((1, 18, 2, 3), "u8", 3, [1, 2, 6, 9]),
                               ((2, 8, 3, 3), "f32", 2, [2, 2, 6, 6])]:
        x = m.input(_data(shape, TYPES[et], RNG))
        for mode in ("blocks_first", "depth_first"):  # (u8 -> u8: LPT's, not relaxed to f32)
            result = tensor(out, from_dtype(TYPES[et]))
            m.output(m.g.value(ov.DepthToSpaceOp(x, mode, bs, result_type=result)))
    # other maps of split dimensions (`refined_affine`): a channel shuffle, blocks of a batch
    x = m.input(_data((2, 12, 3, 4), np.float32, RNG))
    m.output(m.g.value(ov.ShuffleChannelsOp(x, axis=1, group=3)))
    zero = m.g.constant(np.zeros(4, np.int64))
    m.output(m.g.value(ov.SpaceToBatchOp(x, m.g.constant(np.array([1, 1, 1, 2])), zero, zero)))
    y = m.input(_data((4, 3, 2, 5), np.int32, RNG))
    block, crop = m.g.constant(np.array([1, 1, 2, 2])), m.g.constant(np.array([0, 0, 1, 0]))
    m.output(m.g.value(ov.BatchToSpaceOp(y, block, crop, zero)))
    want, got, compiled = m.run()
    for k, (w, o) in enumerate(zip(want, got, strict=True)):
        _assert_same_bits(o, w, k)
    _assert_no_fallback(compiled)


# ---- GatherElements ----------------------------------------------------------------------------


def test_gather_elements_equals_reference() -> None:
    """Constant indices (negative ones too) along every kind of axis, every element type."""
    m = _Model()
    cases = [((3, 5, 4), "f32", 1, (3, 7, 4), np.int64), ((4, 6), "f16", -1, (4, 9), np.int32),
             ((6, 2, 3), "i32", 0, (4, 2, 3), np.int64), ((5,), "i64", 0, (8,), np.int32),
             ((2, 3, 5), "u8", 2, (2, 3, 5), np.int32), ((3, 4), "i1", -2, (2, 4), np.int64)]
    for shape, et, axis, index_shape, index_type in cases:
        x = m.input(_data(shape, TYPES[et], RNG))
        index = _indices(index_shape, shape[axis], index_type)
        m.output(m.g.value(ov.GatherElementsOp(x, m.g.constant(index), axis)))
    # indices computed from constants only: folded at compile time, so a kernel too
    x = m.input(_data((4, 3), np.float32, RNG))
    folded = m.g.value(ov.AddOp(m.g.constant(RNG.integers(-3, 5, (4, 3))),
                                m.g.constant(np.int64(-1))))  # fmt: skip
    m.output(m.g.value(ov.GatherElementsOp(x, folded, 0)))
    want, got, compiled = m.run()
    for k, (w, o) in enumerate(zip(want, got, strict=True)):
        _assert_same_bits(o, w, k)
    _assert_no_fallback(compiled)


def test_what_stays_on_the_fallback() -> None:
    """Indices known only when running: the reference raises for one out of range, so
    GatherElements stays on the fallback, equal to REFERENCE, raising as it does, and
    ScatterNDUpdate's kernel checks them and fails in one line too. A type-relaxed
    DepthToSpace of u8 to f32 (a conversion, not a copy of bits) stays on the fallback."""
    g = GraphBuilder()
    x = g.input("x", [4, 3])
    i = g.input("i", [2, 3], from_dtype(np.int64))
    r = g.input("r", [2, 1], from_dtype(np.int32))
    q = g.input("q", [1, 8, 2, 2], from_dtype(np.uint8))
    g.output(g.value(ov.GatherElementsOp(x, i, 0)), "g")
    u = g.constant(_data((2, 3), np.float32, RNG))
    g.output(g.value(ov.ScatterNDUpdateOp(x, r, u, "sum")), "s")
    g.output(g.value(ov.DepthToSpaceOp(q, "depth_first", 2)), "d")  # (-> f32)
    core = lowpass.Core()
    model = core.read_model(g.module())
    compiled = core.compile_model(model, "CPU")
    reference = core.compile_model(model, "REFERENCE")
    kinds = {group.ops[0].name: group.exec_type for group in cpu_graph(compiled).groups}
    assert kinds["ov.scatter_nd_update"].startswith("jit_"), kinds
    kinds.pop("ov.scatter_nd_update")
    assert kinds == {"ov.gather_elements": "ref_FP32", "ov.depth_to_space": "ref_U8"}, kinds
    feeds = {"x": _data((4, 3), np.float32, RNG), "i": np.array([[-4, 3, 0], [1, -1, 2]]),
             "r": np.array([[-1], [2]], np.int32), "q": _data((1, 8, 2, 2), np.uint8, RNG)}
    for name in ("g", "s", "d"):
        np.testing.assert_array_equal(np.asarray(compiled(feeds)[name]),
                                      np.asarray(reference(feeds)[name]))  # fmt: skip
    for bad in ({"i": np.array([[4, 0, 0], [0, 0, 0]])}, {"r": np.array([[0], [-5]], np.int32)}):
        for device in (compiled, reference):
            with pytest.raises(lowpass.LowpassError, match="out of range"):
                device({**feeds, **bad})


# ---- ScatterNDUpdate ---------------------------------------------------------------------------


def _scatter_cases(m: _Model) -> None:
    """Every reduction on each case (data shape, type, index rows): element, slice and
    whole-data rows, repeated and negative rows, slices that run vectors and a tail."""
    cases = [((6, 4, 9), "f32", [[1], [-5], [1], [5], [-1]]),  # slices of 36: 8 x 4 + 4
             ((5, 19), "f16", [[[2], [-1], [2]], [[0], [4], [-3]]]),  # a batch of rows
             ((4, 3, 5), "i32", [[0, 2], [-1, 0], [0, -1], [3, 1], [0, 2], [2, 2]]),
             ((3, 4, 10), "i64", [[2], [-3], [2], [1]]),
             ((4, 6), "u8", [[0, 0], [3, 5], [-4, -6], [1, 2], [3, 5], [2, 0], [0, 0]]),
             ((4, 9), "i1", [[1], [-3], [3], [0], [1]])]
    for shape, et, rows in cases:
        index = np.array(rows, np.int64 if et != "u8" else np.int32)
        k = index.shape[-1]
        x = m.input(_data(shape, TYPES[et], RNG))
        u = m.input(_data(index.shape[:-1] + shape[k:], TYPES[et], RNG))
        for reduction in REDUCTIONS:
            m.output(m.g.value(ov.ScatterNDUpdateOp(x, m.g.constant(index), u, reduction)))
    # rows of no coordinate (each the whole data), no rows at all
    x = m.input(_data((3, 2), np.float32, RNG))
    u = m.input(_data((2, 3, 2), np.float32, RNG))
    for reduction in ("none", "sum"):
        m.output(m.g.value(ov.ScatterNDUpdateOp(x, m.g.constant(np.zeros((2, 0), np.int64)),
                                                u, reduction)))  # fmt: skip
    empty = m.g.constant(np.zeros((0, 1), np.int64))
    m.output(m.g.value(ov.ScatterNDUpdateOp(x, empty, m.input(np.zeros((0, 2), np.float32)))))


def _special_cases(m: _Model) -> None:
    """f32 and f16 reductions of every pair of `SPECIAL` values (element, update), each row a
    slice of 16 (two vectors of the min/max kernels)."""
    n = SPECIAL.size
    pairs = n * n
    for dtype in (np.float32, np.float16):
        data = np.zeros((pairs, 16), dtype)
        data[:] = np.repeat(SPECIAL, n)[:, None]
        updates = np.tile(SPECIAL, n)[:, None].repeat(16, axis=1).astype(dtype)
        x, u = m.input(data), m.input(updates)
        index = m.g.constant(np.arange(pairs, dtype=np.int64)[:, None])
        for reduction in REDUCTIONS[1:]:
            m.output(m.g.value(ov.ScatterNDUpdateOp(x, index, u, reduction)))


def test_scatter_nd_update_equals_reference() -> None:
    m = _Model()
    _scatter_cases(m)
    _special_cases(m)
    with np.errstate(invalid="ignore"):  # (numpy's minimum of NaNs, inf - inf: REFERENCE's)
        want, got, compiled = m.run()
    for k, (w, o) in enumerate(zip(want, got, strict=True)):
        _assert_same_bits(o, w, k)
    _assert_no_fallback(compiled)


# ---- between other ops; OpenVINO ----------------------------------------------------------------


def test_between_convolutions() -> None:
    """Convolution -> SpaceToDepth -> Relu, Convolution -> GatherElements -> ScatterNDUpdate
    -> Add: small integers, so the convolutions' sums are exact and the whole graph equals
    REFERENCE bit for bit; the profiling rows show the movement ops as jit kernels."""
    g = GraphBuilder()
    x = g.input("x", [1, 4, 8, 8])
    geometry = ConvGeometry(strides=[1, 1], pads_begin=[1, 1], pads_end=[1, 1], dilations=[1, 1])
    w1 = g.constant(RNG.integers(-1, 2, (6, 4, 3, 3)).astype(np.float32))
    c1 = g.value(ov.ConvolutionOp(x, w1, **geometry, name="conv1"))
    s2d = g.value(ov.SpaceToDepthOp(c1, "depth_first", 2, name="s2d"))
    g.output(g.value(ov.ReluOp(s2d, name="relu")), "a")
    w2 = g.constant(RNG.integers(-1, 2, (3, 4, 3, 3)).astype(np.float32))
    c2 = g.value(ov.ConvolutionOp(x, w2, **geometry, name="conv2"))
    index = g.constant(_indices((1, 3, 5, 8), 8, np.int32))
    picked = g.value(ov.GatherElementsOp(c2, index, 2, name="ge"))
    rows = g.constant(np.array([[0, 2, 1], [0, -1, 4], [0, 2, 1]], np.int64))
    updates = g.constant(RNG.integers(-9, 9, (3, 8)).astype(np.float32))
    scattered = g.value(ov.ScatterNDUpdateOp(picked, rows, updates, "sum", name="sc"))
    g.output(g.value(ov.AddOp(scattered, g.constant(np.float32(0.5)), name="add")), "b")
    core = lowpass.Core()
    model = core.read_model(g.module())
    feeds = {"x": RNG.integers(-2, 3, (1, 4, 8, 8)).astype(np.float32)}
    want = core.compile_model(model, "REFERENCE")(feeds)
    compiled = core.compile_model(model, "CPU", {"PERF_COUNT": True})
    request = compiled.create_infer_request()
    got = request.infer(feeds)
    for name in ("a", "b"):
        np.testing.assert_array_equal(np.asarray(got[name]), np.asarray(want[name]))
    rows_by_name = {p.node_name: p.exec_type for p in request.get_profiling_info()}
    for name in ("s2d", "ge", "sc"):
        assert rows_by_name[name].startswith("jit_"), rows_by_name
    assert not any(t.startswith("ref_") for t in rows_by_name.values()), rows_by_name


def test_against_openvino() -> None:
    """The three ops in f32 (every mode, axis and reduction) against OpenVINO's CPU plugin,
    its inference precision f32: equal results."""
    openvino = pytest.importorskip("openvino")
    import openvino.opset15 as ops

    x = _data((2, 4, 6, 8), np.float32, RNG)
    gather = _indices((2, 4, 3, 8), 6, np.int64)
    rows = np.array([[1, 2], [0, -1], [1, 2], [-2, 0]], np.int64)
    # (without a reduction the order of writes to a repeated row is unspecified: OpenVINO's
    # threads gave either update on a loaded host; the reductions combine them)
    distinct = np.array([[1, 2], [0, -1], [1, 3], [-2, 0]], np.int64)
    indices = {r: distinct if r == "none" else rows for r in REDUCTIONS}
    updates = _data((4, 6, 8), np.float32, RNG)
    p = ops.parameter(list(x.shape), np.float32)
    nodes = [ops.space_to_depth(p, "blocks_first", 2), ops.space_to_depth(p, "depth_first", 2),
             ops.gather_elements(p, ops.constant(gather), 2)]
    nodes += [ops.scatter_nd_update(p, ops.constant(indices[r]), ops.constant(updates), r)
              for r in REDUCTIONS]  # fmt: skip
    ov_model = openvino.Model(nodes, [p])
    plugin = openvino.Core().compile_model(ov_model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    want = [np.asarray(v) for v in plugin([x]).to_tuple()]

    g = GraphBuilder()
    y = g.input("x", list(x.shape))
    outs = [ov.SpaceToDepthOp(y, "blocks_first", 2), ov.SpaceToDepthOp(y, "depth_first", 2),
            ov.GatherElementsOp(y, g.constant(gather), 2)]
    outs += [ov.ScatterNDUpdateOp(y, g.constant(indices[r]), g.constant(updates), r)
             for r in REDUCTIONS]  # fmt: skip
    for k, op in enumerate(outs):
        g.output(g.value(op), f"y{k}")
    compiled = lowpass.Core().compile_model(lowpass.Core().read_model(g.module()), "CPU")
    got = compiled({"x": x})
    for k, w in enumerate(want):
        np.testing.assert_array_equal(np.asarray(got[f"y{k}"]), w, err_msg=str(k))
    _assert_no_fallback(compiled)
