"""The shipped examples are current and compute what they claim."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import lowpass

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
sys.path.insert(0, str(EXAMPLES))
from make_convnet import build_convnet, convnet_weights  # noqa: E402


def test_convnet_file_is_generated_by_its_script() -> None:
    text = (EXAMPLES / "convnet.mlir").read_text()
    body = "".join(line for line in text.splitlines(keepends=True) if not line.startswith("//"))
    assert body == str(build_convnet())


def test_convnet_matches_hand_written_numpy(rng: np.random.Generator) -> None:
    w = convnet_weights()
    x = rng.standard_normal((2, 1, 3, 32, 32)).astype(np.float32)
    compiled = lowpass.Core().compile_model(EXAMPLES / "convnet.mlir", "REFERENCE")
    request = compiled.create_infer_request()
    for xi in x:
        # Independent formulation: explicit loops over the 3x3 taps.
        def conv(a: np.ndarray, k: np.ndarray, b: np.ndarray) -> np.ndarray:
            ap = np.pad(a, ((0, 0), (0, 0), (1, 1), (1, 1)))
            out = np.zeros((1, k.shape[0], a.shape[2], a.shape[3]), np.float64)
            for i in range(3):
                for j in range(3):
                    patch = ap[:, :, i : i + a.shape[2], j : j + a.shape[3]]
                    out += np.einsum("nchw,oc->nohw", patch, k[:, :, i, j])
            return np.maximum(out + b, 0)

        h = conv(xi, w["conv1/weights"], w["conv1/bias"])
        h = h.reshape(1, 8, 16, 2, 16, 2).max(axis=(3, 5))
        h = conv(h, w["conv2/weights"], w["conv2/bias"])
        h = h.reshape(1, 16, 8, 2, 8, 2).mean(axis=(3, 5))
        logits = h.reshape(1, -1) @ w["fc/weights"] + w["fc/bias"]
        want = np.exp(logits) / np.exp(logits).sum()
        got = request.infer({"data": xi})["prob"]
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-7)


@pytest.mark.parametrize("seed", [0, 1])
def test_canonicalize_preserves_the_convnet(seed: int) -> None:
    from xdsl.transforms.canonicalize import CanonicalizePass

    model = build_convnet()
    module = model.module.clone()
    CanonicalizePass().apply(lowpass.make_context(), module)
    lowpass.verify_module(module)
    x = np.random.default_rng(seed).standard_normal((1, 3, 32, 32)).astype(np.float32)
    before = lowpass.Core().compile_model(model, "REFERENCE")({"data": x})["prob"]
    after = lowpass.Core().compile_model(module, "REFERENCE")({"data": x})["prob"]
    np.testing.assert_array_equal(before, after)


def test_keras_lstm_file_is_tensorflow_output() -> None:
    # Written by make_keras_examples.py with TensorFlow (not installed here): Keras'
    # composite function as TensorFlow Lite's converter sees it, and Keras' prediction.
    text = (EXAMPLES / "keras_lstm.mlir").read_text()
    assert "written by examples/make_keras_examples.py" in text
    assert 'tf.api_implements = "lstm_' in text and '"tf.While"' in text
    data = np.load(EXAMPLES / "keras_lstm.npz")
    assert data["x"].shape == (1, 8, 16) and data["y"].shape == (1, 32)


def test_qdq_onnx_file_is_generated_by_its_script() -> None:
    """The shipped .onnx equals what make_qdq_onnx.py builds (protobuf messages compared)."""
    onnx = pytest.importorskip("onnx")
    from make_qdq_onnx import build_qdq_model

    assert onnx.load(str(EXAMPLES / "qconvnet_qdq.onnx")) == build_qdq_model()


def test_keras_to_mlir_names_the_signature() -> None:
    # The script imports TensorFlow only when it converts (not installed here); the entry
    # function's inputs and outputs get ov.name from their SavedModel names.
    from keras_to_mlir import _name_signature

    head = (
        'func.func @serving_default(%arg0: tensor<1x8x16xf32> {tf_saved_model.index_path = ["x"]})'
        ' -> (tensor<1x32xf32> {tf_saved_model.index_path = ["h"]})'
    )
    assert _name_signature(head) == (
        "func.func @serving_default(%arg0: tensor<1x8x16xf32> "
        '{ov.name = "x", tf_saved_model.index_path = ["x"]}) -> (tensor<1x32xf32> '
        '{ov.name = "h", tf_saved_model.index_path = ["h"]})'
    )
    assert "tensorflow" not in sys.modules
