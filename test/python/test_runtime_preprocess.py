"""
`lowpass.preprocess.PrePostProcessor`, as OpenVINO's samples use it: a u8 NHWC image of
another size into an f32 NCHW model (element type, layouts, spatial shape, convert, mean and
scale per channel, reverse_channels, resize of each algorithm, crop, convert_layout by
order), an output's layout and element type; against openvino's own PrePostProcessor on the
same model where it is installed; the refusals (color formats, custom steps, a mean per
channel without a layout, a resize without the model's layout) in one line.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
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


# ---- Layout with an ellipsis -----------------------------------------------------------------

LAYOUT_STRINGS = [
    "N...C", "...C", "NC...", "[N,...,C]", "[N, ..., C]", "...", "[...]", "", "N...", "NC?...",
    "n...c", "?...?", "[N,C,...,H,W]", "[foo_1,...,bar]", "B...C", "[batch,...,channels]",
    "NCHW", "[N, C, H, W]", "N?C", "??", "1NC", "ABCD", "[N,?,]", "**SCALAR**",
    # refused, each with OpenVINO's message
    "[]", "N..C", "N.", "N....C", "N...C...", "...N...", "[N,...,...]", "[N,....]", "[N...]",
    "[...,]", "[,N]", "NN", "[batch,b]", "N C", "[N,C", "N-C", "N_C", "[**]",
]
LAYOUT_NAMES = ["N", "C", "H", "W", "D", "?", "...", "batch", "channels", "bar", "x", " N", ""]
HELPERS = ["has_batch", "batch_idx", "has_channels", "channels_idx", "has_height", "height_idx",
           "has_width", "width_idx", "has_depth", "depth_idx"]


def _layout_answers(layout_type: Any, helpers: Any, text: str) -> tuple[object, ...]:
    """What a Layout of `text` answers (or the last line of its error): its string forms,
    `empty`, `has_name` and `get_index_by_name` of each name, the layout helpers, and its
    equality with other layouts and strings."""
    def last_line(error: Exception) -> str:
        return str(error).rstrip().splitlines()[-1]

    try:
        layout = layout_type(text)
    except RuntimeError as e:
        return (last_line(e),)
    answers: list[object] = [layout.to_string(), str(layout), repr(layout), layout.empty]
    for call in ([lambda n=n: layout.has_name(n), lambda n=n: layout.get_index_by_name(n)]
                 for n in LAYOUT_NAMES):
        answers += call[0](), *[_or_error(call[1], last_line)]
    answers += [_or_error(lambda h=h: getattr(helpers, h)(layout), last_line) for h in HELPERS]
    for other in ("N...C", "[N,?,C]", "", "NCHW"):
        answers += [layout == layout_type(other), layout == other]
    return tuple(answers)


def _or_error(call: Callable[[], object], describe: Callable[[Exception], str]) -> object:
    try:
        return call()
    except RuntimeError as e:
        return describe(e)


def test_layout_with_an_ellipsis() -> None:
    """A user's port: OpenVINO's `Layout("N...C")` (N first, C last, any rank) had been
    refused. Names after the ellipsis have negative indexes; `empty` is a property, true for
    `Layout()` and `"..."`; a layout equals the string it parses from; bad strings raise
    OpenVINO's messages."""
    from lowpass.runtime import preprocess

    layout = lowpass.Layout("N...C")
    assert (layout.to_string(), str(layout), repr(layout)) == (
        "[N,...,C]", "[N,...,C]", "<Layout: [N,...,C]>")
    assert layout.get_index_by_name("N") == 0 and layout.get_index_by_name("c") == -1
    assert layout.has_name("batch") and not layout.has_name("H") and not layout.empty
    assert layout == lowpass.Layout("[N,...,C]") == "[batch, ..., channels]"
    assert layout != lowpass.Layout("[N,?,C]") and layout != lowpass.Layout("NC...")
    assert lowpass.Layout("[N,C,...,H,W]").get_index_by_name("H") == -2
    assert lowpass.Layout().empty and lowpass.Layout("...").empty
    assert lowpass.Layout() == lowpass.Layout("[...]") and lowpass.Layout().to_string() == "[...]"
    assert lowpass.Layout.scalar().to_string() == "**SCALAR**"
    assert not lowpass.Layout.scalar().empty
    assert preprocess.batch_idx(layout) == 0 and preprocess.channels_idx(layout) == -1
    assert not preprocess.has_height(layout)
    for text, message in [
        ("N...C...", r"^Multiple \.\.\. are not allowed$"),
        ("N..C", r"^Undefined number of dimensions shall have \.\.\.$"),
        ("[N,...,...]", r"^Layout name is invalid \(\.\.\.\)\. Only english letters"),
        ("NN", r"^Dimension \(N\) is defined multiple times in layout$"),
        ("[]", "^Cannot parse ov::Layout from an empty string$"),
    ]:
        with pytest.raises(LowpassError, match=message):
            lowpass.Layout(text)
    with pytest.raises(LowpassError, match=r"^H dimension index is not defined$"):
        layout.get_index_by_name("H")
    with pytest.raises(LowpassError, match=r"^W dimension index is not defined$"):
        preprocess.width_idx(layout)


def test_layouts_answer_as_openvinos() -> None:
    ov = pytest.importorskip("openvino")
    from lowpass.runtime import preprocess

    for text in LAYOUT_STRINGS:
        theirs = _layout_answers(ov.Layout, ov.layout_helpers, text)
        assert _layout_answers(lowpass.Layout, preprocess, text) == theirs, text
    assert str(lowpass.Layout.scalar()) == str(ov.Layout.scalar())


def _relu(mod: Any, shape: tuple[int, ...]) -> Any:
    """x -> Relu -> y of `shape`, f32: lowpass's, or openvino's where `mod` is openvino."""
    if mod is lowpass:
        dims = "x".join(map(str, shape))
        return lowpass.Core().read_model(f"""
func.func @main(%x: tensor<{dims}xf32> {{ov.name = "x"}})
    -> (tensor<{dims}xf32> {{ov.name = "y"}}) {{
  %y = ov.relu %x {{ov.name = "relu"}} : (tensor<{dims}xf32>) -> tensor<{dims}xf32>
  func.return %y : tensor<{dims}xf32>
}}""")
    ops = importlib.import_module("openvino.opset13")
    x = ops.parameter(list(shape), np.float32, name="x")
    return mod.Model([ops.relu(x)], [x], "m")


ELLIPSIS_STEPS: list[tuple[str, Callable[[Any, Any, Any], object]]] = [
    ("model N...C: mean per C", lambda p, L, R: (
        p.input().model().set_layout(L("N...C")), p.input().preprocess().mean([1, 2, 3]))),
    ("tensor ...C: scale, reverse_channels", lambda p, L, R: (
        p.input().tensor().set_layout(L("...C")),
        p.input().preprocess().scale([1, 2, 4]).reverse_channels())),
    ("tensor N...C, model NCHW: a transpose", lambda p, L, R: (
        p.input().tensor().set_layout(L("N...C")), p.input().model().set_layout(L("NCHW")))),
    ("tensor NC..., model N...C", lambda p, L, R: (
        p.input().tensor().set_layout(L("NC...")), p.input().model().set_layout(L("N...C")))),
    ("tensor N...C, model C...N", lambda p, L, R: (
        p.input().tensor().set_layout(L("N...C")), p.input().model().set_layout(L("C...N")))),
    ("tensor NHWC, model N...C: no transpose", lambda p, L, R: (
        p.input().tensor().set_layout(L("NHWC")), p.input().model().set_layout(L("N...C")))),
    ("tensor N...C: convert_layout NC... (the model's layout)", lambda p, L, R: (
        p.input().tensor().set_layout(L("N...C")),
        p.input().preprocess().convert_layout(L("NC...")))),
    ("tensor [N,C,...,H,W] spatial, model NHWC: resize", lambda p, L, R: (
        p.input().tensor().set_layout(L("[N,C,...,H,W]")).set_spatial_static_shape(8, 10),
        p.input().model().set_layout(L("NHWC")),
        p.input().preprocess().resize(R.RESIZE_LINEAR))),
    ("output model N...C, tensor NC...", lambda p, L, R: (
        p.output().model().set_layout(L("N...C")), p.output().tensor().set_layout(L("NC...")))),
    # (without the tensor's layout and shape, both are the model's before convert_layout by
    # indexes: lowpass had kept the model's shape)
    ("no layouts: convert_layout by indexes", lambda p, L, R: (
        p.input().preprocess().convert_layout([0, 3, 1, 2]))),
    ("model NCHW: convert_layout by indexes", lambda p, L, R: (
        p.input().model().set_layout(L("NCHW")),
        p.input().preprocess().convert_layout([0, 3, 1, 2]))),
]


def _with_steps(mod: Any, steps: Callable[[Any, Any, Any], object]) -> tuple[list[int], np.ndarray]:
    """The relu model of [1, 4, 5, 3] after `steps`: its input shape, and its result on
    0..6 repeated."""
    ppp = mod.preprocess.PrePostProcessor(_relu(mod, (1, 4, 5, 3)))
    steps(ppp, mod.Layout, mod.preprocess.ResizeAlgorithm)
    model = ppp.build()
    shape = [int(d) for d in model.input(0).get_shape()]
    x = (np.arange(np.prod(shape)) % 7).reshape(shape).astype(np.float32)
    if mod is lowpass:
        return shape, np.asarray(lowpass.Core().compile_model(model, "CPU")(x)[0])
    compiled = mod.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    return shape, np.asarray(compiled(x)[0])


def test_preprocessing_with_ellipsis_layouts() -> None:
    """Each step where OpenVINO takes a layout with an ellipsis: the tensor's shape is the
    model's in the tensor's layout (the ellipsis standing for the dimensions the other layout
    does not name, in their order), and the results are numpy's."""
    x = (np.arange(60) % 7).astype(np.float32)
    got = {title: _with_steps(lowpass, steps) for title, steps in ELLIPSIS_STEPS}
    shape, y = got["model N...C: mean per C"]
    assert shape == [1, 4, 5, 3]
    np.testing.assert_allclose(y, np.maximum(x.reshape(1, 4, 5, 3) - [1, 2, 3], 0))
    shape, y = got["tensor ...C: scale, reverse_channels"]
    np.testing.assert_allclose(y, np.maximum(x.reshape(1, 4, 5, 3) / [1, 2, 4], 0)[..., ::-1])
    for title, want in [("tensor N...C, model NCHW: a transpose", [1, 5, 3, 4]),
                        ("tensor NC..., model N...C", [1, 3, 4, 5]),
                        ("tensor N...C: convert_layout NC... (the model's layout)", [1, 5, 3, 4]),
                        ("no layouts: convert_layout by indexes", [1, 5, 3, 4]),
                        ("model NCHW: convert_layout by indexes", [1, 5, 3, 4])]:
        shape, y = got[title]
        assert shape == want, title
        order = (0, 3, 1, 2) if want == [1, 5, 3, 4] else (0, 2, 3, 1)
        np.testing.assert_array_equal(y, x.reshape(want).transpose(order), title)
    shape, y = got["tensor N...C, model C...N"]
    assert shape == [3, 4, 5, 1]
    np.testing.assert_array_equal(y, x.reshape(3, 4, 5, 1).transpose(3, 1, 2, 0))
    shape, y = got["tensor NHWC, model N...C: no transpose"]
    assert shape == [1, 4, 5, 3]
    np.testing.assert_array_equal(y, x.reshape(1, 4, 5, 3))
    shape, y = got["tensor [N,C,...,H,W] spatial, model NHWC: resize"]
    assert shape == [1, 3, 8, 10] and y.shape == (1, 4, 5, 3)
    shape, y = got["output model N...C, tensor NC..."]
    np.testing.assert_array_equal(y, x.reshape(1, 4, 5, 3).transpose(0, 3, 1, 2))


def test_preprocessing_with_ellipsis_layouts_as_openvino() -> None:
    ov = pytest.importorskip("openvino")
    for title, steps in ELLIPSIS_STEPS:
        (ours, got), (theirs, want) = _with_steps(lowpass, steps), _with_steps(ov, steps)
        assert ours == theirs, title
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4, err_msg=title)


@pytest.mark.parametrize("shape, steps, message", [
    ((1, 4, 5, 3), lambda p: (p.input().tensor().set_layout("N...C"),
                              p.input().preprocess().convert_layout([0, 3, 1, 2])),
     r"^input x: Layout conversion by indexes is not supported for dynamic layout: "
     r"\[N,\.\.\.,C\]$"),
    ((1, 4, 5, 3), lambda p: (p.input().tensor().set_layout("N...C"),
                              p.input().model().set_layout("N...H")),
     r"^input x: Dimension name 'H' is not found in layout: \[N,\?,\?,C\]$"),
    ((1, 4, 5, 3), lambda p: (p.input().tensor().set_layout("NHWC"),
                              p.input().model().set_layout("NC")),
     r"^input x: Conversion is not supported for layouts with different sizes, "
     r"\[N,C\] <-> \[N,H,W,C\]$"),
    ((3,), lambda p: p.input().model().set_layout("N...C"),
     r"^input x: layout \[N,\.\.\.,C\] is not compatible with shape \[3\]$"),
    ((1, 4, 3), lambda p: p.input().tensor().set_layout("[N,C,...,H,W]"),
     r"^input x: layout \[N,C,\.\.\.,H,W\] is not compatible with shape \[1,4,3\]$"),
    ((2, 3), lambda p: p.output().model().set_layout("NCHW"),
     r"^output y: layout \[N,C,H,W\] is not compatible with shape \[2,3\]$"),
    ((1, 4, 5, 3), lambda p: (p.input().model().set_layout("N...C"),
                              p.input().preprocess().resize(ResizeAlgorithm.RESIZE_LINEAR)),
     "resize needs a layout with 'H'"),
])  # fmt: skip
def test_ellipsis_layouts_refused_where_openvino_refuses(
        shape: tuple[int, ...], steps: Any, message: str) -> None:  # fmt: skip
    """Where OpenVINO refuses a layout with an ellipsis (each case checked against openvino
    2026.4): its message, after the port's name."""
    ppp = PrePostProcessor(_relu(lowpass, shape))
    with pytest.raises(LowpassError, match=message):
        steps(ppp)
        ppp.build()
