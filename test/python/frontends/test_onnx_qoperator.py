"""
ONNX's QOperator format (frontends/onnx/qoperator.py): QLinearConv, QLinearMatMul and
onnxruntime's com.microsoft QLinearAdd, QLinearMul, QLinearConcat, QLinearAveragePool,
QLinearGlobalAveragePool, QGemm, QLinearSoftmax, QLinearSigmoid, QLinearLeakyRelu.

Each one-node model on REFERENCE and CPU against onnxruntime: the same codes but where the
float result of the dequantized operands lies within a few ulps of a rounding tie
(onnxruntime requantizes its integer accumulator): at most one code apart, on at most 1% of
the values. A chain of QOperator ops reads as the QDQ format does (one FakeQuantize between
two ops, int8 layers after `lpt`), with the same results as the same network in QDQ, and a
network that onnxruntime's `quantize_static` writes in QOperator runs int8 on CPU, equal to
REFERENCE. Skipped without onnxruntime.
"""

from __future__ import annotations

import zlib
from collections import Counter
from typing import TYPE_CHECKING, Any

import numpy as np
import pytest

import lowpass
from lowpass.dialects import ov
from lowpass.dialects.ov import element_type_of
from lowpass.frontends import FrontendError
from lowpass.frontends.onnx import read_onnx

ort = pytest.importorskip("onnxruntime")
if TYPE_CHECKING:
    import onnx
else:
    onnx = pytest.importorskip("onnx")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from .test_onnx import run_lowpass, run_ort  # noqa: E402

MS = "com.microsoft"
R = np.random.default_rng(61)


@pytest.fixture(autouse=True)
def _seeded(request: pytest.FixtureRequest) -> None:
    """Each test's codes from a seed of its own: from one generator for the module, a test's
    data depended on which tests its worker had run before (a rounding near-tie came and went
    with the order)."""
    global R
    R = np.random.default_rng(zlib.crc32(request.node.nodeid.encode()))
_TYPES = {np.dtype(np.float32): TensorProto.FLOAT, np.dtype(np.uint8): TensorProto.UINT8,
          np.dtype(np.int8): TensorProto.INT8}  # fmt: skip


def _model(nodes: list[onnx.NodeProto], feeds: dict[str, np.ndarray], outputs: list[str],
           inits: dict[str, Any], opset: int = 13) -> onnx.ModelProto:  # fmt: skip
    graph = helper.make_graph(
        nodes, "q",
        [helper.make_tensor_value_info(k, _TYPES[v.dtype], v.shape) for k, v in feeds.items()],
        [onnx.ValueInfoProto(name=n) for n in outputs],
        [numpy_helper.from_array(np.asarray(v), k) for k, v in inits.items()],
    )
    imports = [helper.make_opsetid("", opset), helper.make_opsetid(MS, 1)]
    return helper.make_model(graph, opset_imports=imports)


def _codes(*shape: int, dtype: type = np.uint8) -> np.ndarray:
    """Random codes; int8 ones (weights) within [-63, 63]: onnxruntime's u8 x i8 kernels on
    an AVX2 host without VNNI (`vpmaddubsw`) saturate a pair of products beyond int16, which
    weights of 7 bits never reach (its `reduce_range`)."""
    low, high = (-63, 63) if dtype == np.int8 else (np.iinfo(dtype).min, np.iinfo(dtype).max)
    return R.integers(low, high + 1, shape).astype(dtype)


def _assert_codes_match(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> None:
    want = run_ort(model, feeds)
    for device in ("REFERENCE", "CPU"):
        got = run_lowpass(model, feeds, device)
        for name, w in want.items():
            g = got[name]
            assert g.dtype == w.dtype and g.shape == w.shape, (device, name, g.dtype, w.dtype)
            if w.dtype == np.float32:
                np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5, err_msg=device)
                continue
            off = np.abs(g.astype(np.int32) - w.astype(np.int32))
            assert off.max() <= 1, (device, name, off.max())
            assert np.count_nonzero(off) <= max(1, w.size // 100), (device, np.count_nonzero(off))
            assert len(np.unique(w)) > 4, "the test's scales collapse the outputs"


def _s(v: float) -> np.ndarray:
    return np.array(v, np.float32)


@pytest.mark.parametrize("kind", ["per-tensor", "per-channel", "group", "u8-weights", "no-bias"])
def test_qlinear_conv(kind: str) -> None:
    group = 2 if kind == "group" else 1
    x = _codes(1, 4, 7, 7)
    wtype = np.uint8 if kind == "u8-weights" else np.int8
    w = _codes(6, 4 // group, 3, 3, dtype=wtype)
    w_scale = (R.random(6) * 0.01 + 0.005).astype(np.float32) if kind != "per-tensor" else _s(.01)
    w_zp = np.full(w_scale.shape, 120 if wtype == np.uint8 else 0, wtype)
    inits: dict[str, Any] = {"xs": _s(0.02), "xz": np.uint8(100), "w": w, "ws": w_scale,
                             "wz": w_zp, "ys": _s(0.15), "yz": np.uint8(90),
                             "b": R.integers(-2000, 2000, 6).astype(np.int32)}  # fmt: skip
    inputs = ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz"] + ([] if kind == "no-bias" else ["b"])
    conv = helper.make_node("QLinearConv", inputs, ["y"], group=group, pads=[1, 0, 1, 1],
                            strides=[1, 2])  # fmt: skip
    _assert_codes_match(_model([conv], {"x": x}, ["y"], inits), {"x": x})


@pytest.mark.parametrize("b_scale", ["per-tensor", "per-column"])
def test_qlinear_matmul(b_scale: str) -> None:
    a = _codes(2, 3, 16)
    bs = _s(0.01) if b_scale == "per-tensor" else (R.random(5) * 0.01 + 0.005).astype(np.float32)
    inits = {"as": _s(0.03), "az": np.uint8(128), "b": _codes(16, 5, dtype=np.int8), "bs": bs,
             "bz": np.zeros(bs.shape, np.int8), "ys": _s(0.3), "yz": np.uint8(128)}  # fmt: skip
    node = helper.make_node("QLinearMatMul", ["a", "as", "az", "b", "bs", "bz", "ys", "yz"], ["y"])
    _assert_codes_match(_model([node], {"a": a}, ["y"], inits), {"a": a})


@pytest.mark.parametrize("output", ["codes", "float", "float / y_scale", "C of [1, N]"])
def test_qgemm(output: str) -> None:
    """Codes with y_scale and y_zero_point; onnxruntime's float result without them, and
    that divided by y_scale with y_scale alone; C broadcast to [M, N]."""
    a = _codes(3, 20)
    inits: dict[str, Any] = {
        "as": _s(0.02), "az": np.uint8(110), "b": _codes(7, 20, dtype=np.int8),
        "bs": (R.random(7) * 0.01 + 0.005).astype(np.float32), "bz": np.zeros(7, np.int8),
        "c": R.integers(-3000, 3000, (1, 7) if "C" in output else 7).astype(np.int32),
        "ys": _s(0.2), "yz": np.uint8(120),
    }  # fmt: skip
    outputs = {"codes": ["ys", "yz"], "float": [], "float / y_scale": ["ys"]}
    inputs = ["a", "as", "az", "b", "bs", "bz", "c"] + outputs.get(output, ["ys", "yz"])
    node = helper.make_node("QGemm", inputs, ["y"], domain=MS, transB=1, alpha=0.75)
    _assert_codes_match(_model([node], {"a": a}, ["y"], inits), {"a": a})


@pytest.mark.parametrize("op", ["QLinearAdd", "QLinearMul"])
def test_qlinear_binary(op: str) -> None:
    a, b = _codes(2, 3, 4, 5), _codes(3, 1, 5)
    # (no exact ties: scales of 0.05, 0.04 and 0.1 made A's odd codes with B at its zero point
    # land on x.5, where the float sum's error picks either neighbour)
    inits = {"as": _s(0.0513), "az": np.uint8(100), "bs": _s(0.0417), "bz": np.uint8(30),
             "cs": _s(0.1037 if op == "QLinearAdd" else 0.8123), "cz": np.uint8(60)}  # fmt: skip
    node = helper.make_node(op, ["a", "as", "az", "b", "bs", "bz", "cs", "cz"], ["y"], domain=MS)
    _assert_codes_match(_model([node], {"a": a, "b": b}, ["y"], inits), {"a": a, "b": b})


def test_qlinear_concat() -> None:
    a, b = _codes(1, 2, 3, 3), _codes(1, 3, 3, 3)
    inits = {"ys": _s(0.0611), "yz": np.uint8(128), "as": _s(0.0513), "az": np.uint8(120),
             "bs": _s(0.0717), "bz": np.uint8(140)}  # fmt: skip (no exact ties)
    node = helper.make_node("QLinearConcat", ["ys", "yz", "a", "as", "az", "b", "bs", "bz"],
                            ["y"], domain=MS, axis=1)  # fmt: skip
    _assert_codes_match(_model([node], {"a": a, "b": b}, ["y"], inits), {"a": a, "b": b})


@pytest.mark.parametrize("op, channels_last", [("QLinearGlobalAveragePool", 0),
                                               ("QLinearGlobalAveragePool", 1),
                                               ("QLinearAveragePool", 0),
                                               ("QLinearAveragePool", 1)])  # fmt: skip
def test_qlinear_pools(op: str, channels_last: int) -> None:
    x = _codes(1, 6, 6, 16) if channels_last else _codes(1, 16, 6, 6)
    attrs: dict[str, Any] = {"channels_last": channels_last}
    if op == "QLinearAveragePool":
        attrs.update(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], count_include_pad=0)
    # (no exact ties: 0.05 / 0.03 put averages of 4 and 6 codes on x.5)
    inits = {"xs": _s(0.0513), "xz": np.uint8(128), "ys": _s(0.0307), "yz": np.uint8(128)}
    node = helper.make_node(op, ["x", "xs", "xz", "ys", "yz"], ["y"], domain=MS, **attrs)
    _assert_codes_match(_model([node], {"x": x}, ["y"], inits), {"x": x})


@pytest.mark.parametrize("op, attrs", [("QLinearSoftmax", {"axis": -1, "opset": 13}),
                                       ("QLinearSoftmax", {"axis": 1, "opset": 12}),
                                       ("QLinearSoftmax", {"opset": 12}),  # (axis -1)
                                       ("QLinearSigmoid", {}),
                                       ("QLinearLeakyRelu", {"alpha": 0.3})])  # fmt: skip
def test_qlinear_activations(op: str, attrs: dict[str, Any]) -> None:
    x = _codes(2, 3, 8)
    ys, yz = (_s(1 / 256), np.uint8(0)) if op != "QLinearLeakyRelu" else (_s(0.0413), np.uint8(100))
    inits = {"xs": _s(0.0517), "xz": np.uint8(128), "ys": ys, "yz": yz}  # (no exact ties)
    node = helper.make_node(op, ["x", "xs", "xz", "ys", "yz"], ["y"], domain=MS, **attrs)
    _assert_codes_match(_model([node], {"x": x}, ["y"], inits), {"x": x})


@pytest.mark.parametrize("mode", ["nearest", "linear"])
def test_resize_of_codes_gives_codes(mode: str) -> None:
    """onnxruntime's QOperator format resizes the codes themselves (an FPN's upsampling):
    the codes of OpenVINO's Interpolate on u8, which the next op dequantizes."""
    x = _codes(1, 2, 3, 3)
    inits = {"sc": np.array([1, 1, 2, 2], np.float32), "xs": _s(0.0517), "xz": np.uint8(128),
             "ys": _s(0.0413), "yz": np.uint8(100)}  # fmt: skip (no exact ties)
    nodes = [helper.make_node("Resize", ["x", "", "sc"], ["r"], mode=mode),
             helper.make_node("QLinearLeakyRelu", ["r", "xs", "xz", "ys", "yz"], ["y"],
                              domain=MS, alpha=0.3)]  # fmt: skip
    model = _model(nodes, {"x": x}, ["y"], inits)
    if mode == "nearest":
        _assert_codes_match(model, {"x": x})
    else:  # (a u8 result rounds its linear mix: onnxruntime's and OpenVINO's may differ)
        got = run_lowpass(model, {"x": x}, "CPU")["y"]
        np.testing.assert_array_equal(got, run_lowpass(model, {"x": x})["y"])
        assert got.dtype == np.uint8


def test_codes_read_in_an_if_branch_are_not_deferred() -> None:
    """A QuantizeLinear read by a DequantizeLinear and by a QLinear op inside an If branch
    (a value the branch captures) keeps its codes for the branch."""
    x = np.zeros((1, 3, 4, 4), np.float32)
    inits: dict[str, Any] = {"xs": _s(0.02), "xz": np.uint8(128),
                             "w": _codes(2, 3, 1, 1, dtype=np.int8), "ws": _s(0.01),
                             "wz": np.int8(0), "ys": _s(0.05), "yz": np.uint8(128)}  # fmt: skip
    branch = helper.make_graph(
        [helper.make_node("QLinearConv", ["xq", "xs", "xz", "w", "ws", "wz", "ys", "yz"],
                          ["yb"])], "then", [], [onnx.ValueInfoProto(name="yb")])  # fmt: skip
    other = helper.make_graph(
        [helper.make_node("QLinearConv", ["xq", "xs", "xz", "w", "ws", "wz", "ys", "yz"],
                          ["yo"], group=1)],
        "else", [], [onnx.ValueInfoProto(name="yo")])  # fmt: skip
    nodes = [helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
             helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xf"]),
             helper.make_node("If", ["c"], ["y"], then_branch=branch, else_branch=other)]
    feeds = {"x": R.standard_normal((1, 3, 4, 4)).astype(np.float32) * 2,
             "c": np.array(True)}  # fmt: skip
    model = _model(nodes, {"x": x}, ["y", "xf"], inits)
    model.graph.input.append(helper.make_tensor_value_info("c", TensorProto.BOOL, []))
    want, got = run_ort(model, feeds), run_lowpass(model, feeds, "CPU")
    assert np.abs(got["y"].astype(int) - want["y"].astype(int)).max() <= 1
    np.testing.assert_allclose(got["xf"], want["xf"], rtol=1e-6, atol=1e-6)


# ---- networks -------------------------------------------------------------------------------


def _net_inits() -> dict[str, Any]:
    r = np.random.default_rng(5)
    return {
        "xs": _s(4 / 255), "xz": np.uint8(128),
        "w1": r.integers(-63, 64, (8, 3, 3, 3)).astype(np.int8),  # (7 bits: see `_codes`)
        "w1s": (r.random(8) * 0.004 + 0.002).astype(np.float32), "w1z": np.zeros(8, np.int8),
        "b1": r.integers(-500, 500, 8).astype(np.int32),
        "h_s": _s(0.05), "h_z": np.uint8(0),
        "w2": r.integers(-63, 64, (4, 8, 1, 1)).astype(np.int8),
        "w2s": (r.random(4) * 0.004 + 0.002).astype(np.float32), "w2z": np.zeros(4, np.int8),
        "b2": r.integers(-500, 500, 4).astype(np.int32), "y_s": _s(0.04), "y_z": np.uint8(128),
    }  # fmt: skip


def _qoperator_net() -> onnx.ModelProto:
    """Quantize, QLinearConv (3x3, read by two readers), MaxPool of its codes, QLinearConv
    (1x1), DequantizeLinear."""
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
        helper.make_node("QLinearConv", ["xq", "xs", "xz", "w1", "w1s", "w1z", "h_s", "h_z",
                                         "b1"], ["h"], pads=[1, 1, 1, 1]),
        helper.make_node("MaxPool", ["h"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("QLinearConv", ["p", "h_s", "h_z", "w2", "w2s", "w2z", "y_s", "y_z",
                                         "b2"], ["yq"]),
        helper.make_node("DequantizeLinear", ["yq", "y_s", "y_z"], ["y"]),
        helper.make_node("DequantizeLinear", ["h", "h_s", "h_z"], ["hf"]),
    ]
    feeds = {"x": np.zeros((1, 3, 10, 10), np.float32)}
    return _model(nodes, feeds, ["y", "hf"], _net_inits())


def _qdq_net() -> onnx.ModelProto:
    """The same network in the QDQ format: the same scales, zero points and codes."""
    inits = _net_inits()
    for k in ("b1", "b2"):
        w = "w1s" if k == "b1" else "w2s"
        inits[k] = (inits[k].astype(np.float32) * (inits["xs" if k == "b1" else "h_s"]
                                                   * inits[w])).astype(np.float32)  # fmt: skip
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "xs", "xz"], ["xd"]),
        helper.make_node("DequantizeLinear", ["w1", "w1s", "w1z"], ["w1d"], axis=0),
        helper.make_node("Conv", ["xd", "w1d", "b1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("QuantizeLinear", ["c1", "h_s", "h_z"], ["h"]),
        helper.make_node("DequantizeLinear", ["h", "h_s", "h_z"], ["hf"]),
        helper.make_node("MaxPool", ["hf"], ["pd"], kernel_shape=[2, 2], strides=[2, 2]),
        helper.make_node("DequantizeLinear", ["w2", "w2s", "w2z"], ["w2d"], axis=0),
        helper.make_node("Conv", ["pd", "w2d", "b2"], ["c2"]),
        helper.make_node("QuantizeLinear", ["c2", "y_s", "y_z"], ["yq"]),
        helper.make_node("DequantizeLinear", ["yq", "y_s", "y_z"], ["y"]),
    ]
    feeds = {"x": np.zeros((1, 3, 10, 10), np.float32)}
    return _model(nodes, feeds, ["y", "hf"], inits)


def test_chain_reads_as_the_qdq_format_does() -> None:
    """Between the ops, one float FakeQuantize per dequantization of the codes (as a QDQ
    pair); the codes' own FakeQuantize only where something reads the codes (the MaxPool),
    and after `lpt` both convolutions are int8."""
    from lowpass.passes import get_all_passes

    module = read_onnx(_qoperator_net())
    fqs = [op for op in module.walk() if isinstance(op, ov.FakeQuantizeOp)]
    kinds = Counter(str(element_type_of(op.results[0])) for op in fqs)
    # x: its codes read by QLinearConv only (one float FQ); h: codes for the MaxPool, a
    # float FQ for the DequantizeLinear; y: a float FQ for the DequantizeLinear
    assert kinds == Counter({"f32": 3, "ui8": 1}), kinds
    get_all_passes()["lpt"]()().apply(lowpass.make_context(), module)
    convs = [op for op in module.walk() if isinstance(op, ov.ConvolutionOp)]
    assert [element_type_of(op.operands[1]) for op in convs] == [ov.i8, ov.i8]


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_chain_equals_the_same_network_in_qdq(device: str) -> None:
    r = np.random.default_rng(9)
    ours, qdq = _qoperator_net(), _qdq_net()
    for _ in range(3):
        feeds = {"x": r.standard_normal((1, 3, 10, 10)).astype(np.float32)}
        got, want = run_lowpass(ours, feeds, device), run_lowpass(qdq, feeds, device)
        np.testing.assert_array_equal(got["y"], want["y"])
        # (the same codes of h; in the QDQ network, where the MaxPool reads the
        # FakeQuantize's float result, CPU's float value of them can differ from
        # REFERENCE's in the last bit)
        np.testing.assert_allclose(got["hf"], want["hf"], rtol=1e-6, atol=0)
        theirs = run_ort(ours, feeds)
        np.testing.assert_allclose(got["y"], theirs["y"], rtol=0, atol=0.04 + 1e-6)


def test_onnxruntime_quantized_network_runs_int8(tmp_path: Any) -> None:
    """A network as onnxruntime's quantize_static writes it in QOperator (per-channel int8
    weights, u8 activations): int8 layers on CPU, equal to REFERENCE, and onnxruntime's
    result within one output step."""
    from onnxruntime.quantization import (
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_static,
    )

    r = np.random.default_rng(3)
    f = np.float32
    inits = {"w1": (r.standard_normal((8, 3, 3, 3)) * 0.3).astype(f), "b1": np.zeros(8, f),
             "w2": (r.standard_normal((8, 8, 3, 3)) * 0.2).astype(f),
             "w3": (r.standard_normal((8, 10)) * 0.3).astype(f)}  # fmt: skip
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("Conv", ["r1", "w2"], ["c2"], pads=[1, 1, 1, 1]),
        helper.make_node("Add", ["c2", "r1"], ["s"]),
        helper.make_node("GlobalAveragePool", ["s"], ["g"]),
        helper.make_node("Flatten", ["g"], ["fl"]),
        helper.make_node("MatMul", ["fl", "w3"], ["y"]),
    ]
    model = _model(nodes, {"x": np.zeros((1, 3, 12, 12), f)}, ["y"], inits)
    model.graph.output[0].CopyFrom(helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10]))
    src, dst = tmp_path / "f.onnx", tmp_path / "q.onnx"
    onnx.save(model, str(src))
    batches = [{"x": r.standard_normal((1, 3, 12, 12)).astype(f)} for _ in range(4)]

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.it = iter(batches)

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self.it, None)

    quantize_static(str(src), str(dst), Reader(), quant_format=QuantFormat.QOperator,
                    per_channel=True, activation_type=QuantType.QUInt8,
                    weight_type=QuantType.QInt8, reduce_range=True)  # fmt: skip (see `_codes`)
    quantized = onnx.load(str(dst))
    ops = Counter(n.op_type for n in quantized.graph.node)
    assert ops["QLinearConv"] == 2 and ops["QLinearAdd"] == 1, ops
    core = lowpass.Core()
    cpu = core.compile_model(str(dst), "CPU", {"PERF_COUNT": True})
    reference = core.compile_model(str(dst), "REFERENCE")
    request = cpu.create_infer_request()
    for feeds in batches:
        got = np.asarray(request.infer(feeds)[cpu.outputs[0]])
        np.testing.assert_array_equal(got, np.asarray(reference(feeds)[reference.outputs[0]]))
        want = run_ort(quantized, feeds)["y"]
        step = float(numpy_helper.to_array(next(
            i for i in quantized.graph.initializer if i.name == "y_scale")))  # fmt: skip
        np.testing.assert_allclose(got, want, rtol=0, atol=step * 1.01)
    rows = request.get_profiling_info()
    convs = [p for p in rows if p.node_type == "Convolution"]
    assert len(convs) == 2 and all(p.exec_type.endswith("_I8") for p in convs), convs


# ---- errors -----------------------------------------------------------------------------------


def _conv_with(**changes: Any) -> onnx.ModelProto:
    inits: dict[str, Any] = {"xs": _s(0.02), "xz": np.uint8(100),
                             "w": _codes(2, 3, 1, 1, dtype=np.int8), "ws": _s(0.01),
                             "wz": np.int8(0), "ys": _s(0.1), "yz": np.uint8(9),
                             "b": np.zeros(2, np.int32)}  # fmt: skip
    inits.update(changes)
    conv = helper.make_node("QLinearConv", ["x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"],
                            ["y"], name="qc")  # fmt: skip
    return _model([conv], {"x": _codes(1, 3, 4, 4)}, ["y"], inits)


@pytest.mark.parametrize("changes, message", [
    ({"xs": np.array([0.1, 0.2], np.float32)},
     r"x_scale has 2 values, expected one \(per-tensor quantization\)"),
    ({"b": np.zeros(2, np.float32)},
     r"B must be an int32 1-D tensor of 2 values, got float32 of shape \[2\]"),
    ({"ws": np.array([0.1, 0.2, 0.3], np.float32), "wz": np.zeros(3, np.int8)},
     r"w_scale and w_zero_point have 3 values, expected 2"),
    ({"wz": np.uint8(0)}, r"w_zero_point has type ui8, expected i8 \(w's type\)"),
])  # fmt: skip
def test_bad_quantization_is_one_line(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(FrontendError, match=r"node 'qc' \(#0, QLinearConv\): " + message) as e:
        read_onnx(_conv_with(**changes))
    assert "\n" not in str(e.value)


def test_other_microsoft_ops_are_named_with_their_domain() -> None:
    node = helper.make_node("QLinearWhere", ["x"], ["y"], domain=MS, name="w")
    model = _model([node], {"x": _codes(2)}, ["y"], {})
    with pytest.raises(FrontendError, match=r"unsupported operator com\.microsoft\.QLinearWhere "
                                            r"\(lowpass's ONNX reader converts"):  # fmt: skip
        read_onnx(model)


def test_microsoft_ops_refuse_attributes_they_do_not_define() -> None:
    """The onnx package has no schemas of com.microsoft's ops: their attributes are checked
    against onnxruntime's definitions, one line naming the node."""
    inits = {"xs": _s(0.05), "xz": np.uint8(128), "ys": _s(0.05), "yz": np.uint8(128)}
    node = helper.make_node("QLinearSigmoid", ["x", "xs", "xz", "ys", "yz"], ["y"], domain=MS,
                            name="sig", opset=3)  # fmt: skip
    with pytest.raises(FrontendError, match=r"node 'sig' \(#0, QLinearSigmoid\): attribute "
                                            r"'opset' is not one of QLinearSigmoid's \(none\)$"):
        read_onnx(_model([node], {"x": _codes(2, 3)}, ["y"], inits))
