"""
ONNX Einsum (opset 12+): one-node models of the equations exported transformers use, read as
`ov.einsum` and run on REFERENCE and CPU (which decomposes it: `ov-decompose-einsum`) against
onnxruntime, and against OpenVINO's ONNX frontend on its CPU plugin in f32. Skipped without
onnxruntime / openvino.

An implicit output follows ONNX's rule, numpy's (the labels that appear once in the whole
equation, sorted): the reader writes it out, so `ii` is a trace, as onnxruntime computes it.
OpenVINO's frontend gives the equation to its Einsum-7 as it is, whose implicit output keeps a
label one input repeats: `ii` becomes a matrix it then fails to compile (not compared).

Tolerance: rtol 1e-5, atol 1e-5: float32 sums of at most 60 products of standard normal
values (results of order 1 to 10), each side in its own order.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

ort = pytest.importorskip("onnxruntime")
if TYPE_CHECKING:
    import onnx
else:
    onnx = pytest.importorskip("onnx")

from lowpass.dialects import ov  # noqa: E402
from lowpass.frontends import FrontendError  # noqa: E402
from lowpass.frontends.onnx import read_onnx  # noqa: E402

from .test_onnx import assert_matches_ort, make_model, node, run_lowpass  # noqa: E402
from .typed import Tolerance  # noqa: E402

TOL = Tolerance(rtol=1e-5, atol=1e-5)

# equation, input shapes, the equation of the ov.einsum read
CASES: dict[str, tuple[str, list[tuple[int, ...]], str]] = {
    "attention_scores": ("bhid,bhjd->bhij", [(2, 3, 4, 5), (2, 3, 6, 5)], "bhid,bhjd->bhij"),
    "batched_matmul": ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)], "bij,bjk->bik"),
    "outer": ("i,j->ij", [(3,), (4,)], "i,j->ij"),
    "diagonal": ("ii->i", [(4, 4)], "ii->i"),
    "ellipsis": ("...ij,...jk->...ik", [(2, 3, 4, 5), (2, 3, 5, 6)], "...ij,...jk->...ik"),
    "implicit": ("ij,kj", [(3, 4), (5, 4)], "ij,kj->ik"),
    "implicit_trace": ("ii", [(4, 4)], "ii->"),
    "implicit_ellipsis": ("...ij,...jk", [(2, 3, 4), (2, 4, 5)], "...ij,...jk->...ik"),
    "three_inputs": ("abc,cd,de->ae", [(2, 3, 4), (4, 5), (5, 6)], "abc,cd,de->ae"),
    "white_space": ("bhid, bhjd -> bhij", [(1, 2, 3, 4), (1, 2, 5, 4)], "bhid,bhjd->bhij"),
}


def _model(case: str) -> tuple[onnx.ModelProto, dict[str, np.ndarray]]:
    equation, shapes, _ = CASES[case]
    rng = np.random.default_rng(len(case))
    feeds = {f"x{k}": rng.standard_normal(s).astype(np.float32) for k, s in enumerate(shapes)}
    return make_model([node("Einsum", list(feeds), equation=equation)], feeds, ["y"],
                      opset=12), feeds  # fmt: skip


def _einsums(model: onnx.ModelProto) -> Sequence[ov.EinsumOp]:
    return [op for op in read_onnx(model).walk() if isinstance(op, ov.EinsumOp)]


@pytest.mark.parametrize("case", list(CASES))
def test_read_as_one_einsum_with_its_output_written_out(case: str) -> None:
    model, _ = _model(case)
    (einsum,) = _einsums(model)
    assert einsum.equation.data == CASES[case][2]


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
@pytest.mark.parametrize("case", list(CASES))
def test_matches_onnxruntime(case: str, device: str) -> None:
    model, feeds = _model(case)
    assert_matches_ort(model, feeds, device, **TOL)


@pytest.mark.parametrize("case", [c for c in CASES if c != "implicit_trace"])
def test_matches_openvino(case: str, tmp_path: Path) -> None:
    openvino = pytest.importorskip("openvino")
    model, feeds = _model(case)
    onnx.save(model, str(tmp_path / "m.onnx"))
    theirs = openvino.Core().read_model(str(tmp_path / "m.onnx"))
    assert "Einsum" in {op.get_type_name() for op in theirs.get_ops()}
    compiled = openvino.Core().compile_model(theirs, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    want = np.asarray(compiled(list(feeds.values()))[compiled.outputs[0]])
    for device in ("REFERENCE", "CPU"):
        got = run_lowpass(model, feeds, device)["y"]
        assert got.shape == want.shape
        np.testing.assert_allclose(got, want, **TOL)


def test_a_bad_equation_is_a_one_line_frontend_error() -> None:
    feeds = {"x0": np.zeros((2, 3), np.float32)}
    model = make_model([node("Einsum", ["x0"], equation="i1->i")], feeds, ["y"], opset=12)
    with pytest.raises(FrontendError, match="input subscript 'i1' of equation 'i1->i' must be "
                                            "letters and at most one") as error:  # fmt: skip
        read_onnx(model)
    assert "\n" not in str(error.value)
