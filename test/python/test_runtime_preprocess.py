"""
`lowpass.preprocess.PrePostProcessor`, as OpenVINO's samples use it: a u8 NHWC image of
another size into an f32 NCHW model (element type, layouts, spatial shape, convert, mean and
scale per channel, reverse_channels, resize of each algorithm, crop, convert_layout by
order), an output's layout and element type; against openvino's own PrePostProcessor on the
same model where it is installed; the refusals (color formats, custom steps, a mean per
channel without a layout, a resize without the model's layout) in one line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import lowpass
from lowpass import LowpassError
from lowpass.preprocess import PrePostProcessor, ResizeAlgorithm

# x [1, 3, 8, 6] f32 -> Convolution 3->4 3x3 (pads 1; each input channel its own weights, so
# that reversing the channels shows) -> Relu -> y [1, 4, 8, 6]: H != W, so that swapping them
# shows too
_W = np.arange(4 * 3 * 3 * 3, dtype=np.float32).reshape(4, 3, 3, 3) % 7 - 3
CONV = f"""
func.func @main(%x: tensor<1x3x8x6xf32> {{ov.name = "x"}})
    -> (tensor<1x4x8x6xf32> {{ov.name = "y"}}) {{
  %w = ov.constant dense<{_W.tolist()}> : tensor<4x3x3x3xf32>
  %c = ov.convolution %x, %w {{ov.name = "conv", strides = array<i64: 1, 1>,
      pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, dilations = array<i64: 1, 1>}}
    : (tensor<1x3x8x6xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x6xf32>
  %y = ov.relu %c {{ov.name = "relu"}} : (tensor<1x4x8x6xf32>) -> tensor<1x4x8x6xf32>
  func.return %y : tensor<1x4x8x6xf32>
}}
"""


def _image(shape: tuple[int, ...] = (1, 10, 12, 3)) -> np.ndarray:
    return np.random.default_rng(0).integers(0, 255, shape).astype(np.uint8)


def _sample(mod: Any, model: Any, algorithm: str) -> Any:
    """hello_classification's steps, with mean, scale and reverse_channels."""
    ppp = mod.preprocess.PrePostProcessor(model)
    ppp.input().tensor().set_element_type(mod.Type.u8).set_layout(mod.Layout("NHWC")) \
        .set_spatial_static_shape(10, 12)
    ppp.input().model().set_layout(mod.Layout("NCHW"))
    ppp.input().preprocess().convert_element_type(mod.Type.f32).mean([1.0, 2.0, 3.0]) \
        .scale([2.0, 3.0, 4.0]).reverse_channels() \
        .resize(getattr(mod.preprocess.ResizeAlgorithm, algorithm))
    ppp.output().model().set_layout(mod.Layout("NCHW"))
    ppp.output().tensor().set_layout(mod.Layout("NHWC"))
    return ppp.build()


@pytest.mark.parametrize("algorithm", ["RESIZE_LINEAR", "RESIZE_NEAREST", "RESIZE_CUBIC"])
def test_hello_classification_steps_as_openvino(algorithm: str, tmp_path: Path) -> None:
    openvino = pytest.importorskip("openvino")
    xml = tmp_path / "conv.xml"
    lowpass.save_model(lowpass.Core().read_model(CONV), xml)
    theirs = _sample(openvino, openvino.Core().read_model(str(xml)), algorithm)
    want = np.asarray(openvino.Core().compile_model(
        theirs, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})(_image())[0])  # fmt: skip
    assert want.shape == (1, 8, 6, 4)
    for device in ("REFERENCE", "CPU"):
        ours = _sample(lowpass, lowpass.Core().read_model(xml), algorithm)
        assert ours.input(0).get_element_type() == lowpass.Type.u8
        assert list(ours.input(0).shape) == [1, 10, 12, 3]
        got = np.asarray(lowpass.Core().compile_model(ours, device)(_image())[0])
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-3 * np.abs(want).max())


def test_steps_without_openvino() -> None:
    """u8 NHWC of the model's size: convert, a scalar mean and scale, then the implicit
    transpose to the model's NCHW; a crop and convert_layout by order on another input
    shape; the result equals the model on the same values prepared by numpy."""
    core = lowpass.Core()
    model = core.read_model(CONV)
    ppp = PrePostProcessor(model)
    ppp.input("x").tensor().set_element_type(lowpass.Type.u8).set_layout(lowpass.Layout("NHWC"))
    ppp.input("x").model().set_layout("NCHW")
    ppp.input("x").preprocess().convert_element_type().mean(10.0).scale(5.0)
    built = ppp.build()
    assert list(built.input(0).shape) == [1, 8, 6, 3]
    image = _image((1, 8, 6, 3))
    prepared = ((image.astype(np.float32) - 10) / 5).transpose(0, 3, 1, 2)
    want = np.asarray(core.compile_model(core.read_model(CONV), "REFERENCE")(prepared)[0])
    got = np.asarray(core.compile_model(built, "CPU")(image)[0])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)

    cropped = PrePostProcessor(core.read_model(CONV))
    cropped.input().tensor().set_shape([1, 10, 6, 3])
    cropped.input().preprocess().crop([0, 1, 0, 0], [1, 9, 6, 3]).convert_layout([0, 3, 1, 2])
    big = np.random.default_rng(1).standard_normal((1, 10, 6, 3)).astype(np.float32)
    got = np.asarray(core.compile_model(cropped.build(), "CPU")(big)[0])
    want = np.asarray(core.compile_model(core.read_model(CONV), "REFERENCE")(
        big[:, 1:9].transpose(0, 3, 1, 2))[0])  # fmt: skip
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("steps, message", [
    (lambda p: p.input().tensor().set_color_format("nv12"), "set_color_format"),
    (lambda p: p.input().preprocess().convert_color("rgb"), "convert_color"),
    (lambda p: p.input().preprocess().custom(lambda x: x), "custom preprocessing steps"),
    (lambda p: p.input().preprocess().mean([1.0, 2.0, 3.0]),
     "mean of several values needs a layout with 'C'"),
    (lambda p: (p.input().tensor().set_layout("NCHW"),
                p.input().preprocess().resize(ResizeAlgorithm.RESIZE_LINEAR)),
     "resize to the model's size needs the model's layout"),
    (lambda p: p.input().tensor().set_shape([1, 3, 9, 9]),
     r"the preprocessed tensor has shape \[1, 3, 9, 9\], the model takes \[1, 3, 8, 6\]"),
    (lambda p: p.input("z"), "the model has no input of that name"),
])  # fmt: skip
def test_refusals_are_one_line(steps: Any, message: str) -> None:
    ppp = PrePostProcessor(lowpass.Core().read_model(CONV))
    with pytest.raises(LowpassError, match=message) as error:
        steps(ppp)
        ppp.build()
    assert "\n" not in str(error.value)
