"""
The layouts of a model's inputs and outputs, as OpenVINO keeps them on its Parameters and
Results: `get_layout()` / `set_layout()` / `layout` of the nodes, `layout_helpers.get_layout`
/ `set_layout` of the ports, kept in the graph as `ov.layout` (MLIR and OpenVINO IR round
trips, the port's `layout` rt_info), `get_batch` / `set_batch`, `reshape`'s check,
preprocessing's use of them, and lowpass-run's `-layout` strings as benchmark_app reads them.
Each against openvino 2026.4 where it is installed, and on fixed values without it.
"""

from __future__ import annotations

import importlib
import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import lowpass
from lowpass import LowpassError
from lowpass.tools.lowpass_run import _layouts


def _model(mod: Any, shape: tuple[int, ...] = (1, 3, 4, 5)) -> Any:
    """x -> Relu -> y and z (two Results of the Relu) and w (a Result of x itself), f32:
    lowpass's, or openvino's where `mod` is openvino."""
    if mod is lowpass:
        t = f"tensor<{'x'.join(map(str, shape))}xf32>"
        return lowpass.Core().read_model(f"""
func.func @main(%x: {t} {{ov.name = "x"}})
    -> ({t} {{ov.name = "y"}}, {t} {{ov.name = "z"}}, {t} {{ov.name = "w"}}) {{
  %y = ov.relu %x {{ov.name = "relu"}} : ({t}) -> {t}
  func.return %y, %y, %x : {t}, {t}, {t}
}}""")
    ops = importlib.import_module("openvino.opset13")
    x = ops.parameter(list(shape), np.float32, name="x")
    y = ops.relu(x)
    return mod.Model([ops.result(y), ops.result(y), ops.result(x)], [x], "m")


def _relu(mod: Any, shapes: list[tuple[int, ...]]) -> Any:
    """in<i> -> Relu -> out<i> for each shape: lowpass's, or openvino's."""
    if mod is lowpass:
        types = [f"tensor<{'x'.join(map(str, s))}xf32>" for s in shapes]
        args = ", ".join(f'%a{i}: {t} {{ov.name = "in{i}"}}' for i, t in enumerate(types))
        results = ", ".join(f'{t} {{ov.name = "out{i}"}}' for i, t in enumerate(types))
        body = "".join(f"  %r{i} = ov.relu %a{i} : ({t}) -> {t}\n" for i, t in enumerate(types))
        values = ", ".join(f"%r{i}" for i in range(len(types)))
        return lowpass.Core().read_model(f"func.func @main({args}) -> ({results}) {{\n{body}"
                                         f"  func.return {values} : {', '.join(types)}\n}}")
    ops = importlib.import_module("openvino.opset13")
    params = [ops.parameter(list(s), np.float32, name=f"in{i}") for i, s in enumerate(shapes)]
    return mod.Model([ops.relu(p) for p in params], params, "m")


def _flatten(mod: Any) -> Any:
    """r [2, 6] -> Reshape to [2, 3, 2] (special_zero false): no batch but 2 fits it."""
    if mod is lowpass:
        return lowpass.Core().read_model("""
func.func @main(%x: tensor<2x6xf32> {ov.name = "r"}) -> (tensor<2x3x2xf32> {ov.name = "y"}) {
  %s = ov.constant dense<[2, 3, 2]> : tensor<3xi64>
  %y = ov.reshape %x, %s special_zero = false : (tensor<2x6xf32>, tensor<3xi64>)
    -> tensor<2x3x2xf32>
  func.return %y : tensor<2x3x2xf32>
}""")
    ops = importlib.import_module("openvino.opset13")
    x = ops.parameter([2, 6], np.float32, name="r")
    return mod.Model([ops.reshape(x, ops.constant(np.array([2, 3, 2])), False)], [x], "m")


def _layouts_of(mod: Any, model: Any) -> tuple[list[str], list[str]]:
    """The inputs' layouts through their Parameters, the outputs' through layout_helpers."""
    return ([str(p.get_node().get_layout()) for p in model.inputs],
            [str(mod.layout_helpers.get_layout(p)) for p in model.outputs])  # fmt: skip


def _message(error: Exception) -> str:
    """The line of an error that says what is wrong (OpenVINO's after its `Check ...` line)."""
    lines = [line for line in str(error).strip().splitlines()
             if not line.startswith(("Check '", "Exception from"))]  # fmt: skip
    return lines[0] if lines else ""


def _node_layouts(mod: Any) -> list[object]:
    """Layouts set on the Parameter, on Results (a Result shares its tensor's: a Parameter
    returned as it is, two Results of one Relu), refused ones, and a compiled model's."""
    model = _model(mod)
    answers: list[object] = [_layouts_of(mod, model)]
    model.input(0).get_node().set_layout(mod.Layout("NCHW"))
    answers.append(_layouts_of(mod, model))
    model.output(0).get_node().set_layout(mod.Layout("N..."))
    answers.append(_layouts_of(mod, model))
    mod.layout_helpers.set_layout(model.output(2), mod.Layout("NHWC"))
    answers.append(_layouts_of(mod, model))
    model.get_results()[1].layout = mod.Layout()
    answers.append(_layouts_of(mod, model))
    for bad in ("NC", "NCHWD", "**SCALAR**", "N...CHWD"):
        with pytest.raises(RuntimeError) as error:
            model.input(0).get_node().set_layout(mod.Layout(bad))
        assert _message(error.value).startswith("Can't set layout for Parameter")
    parameter = model.get_parameters()[0]
    parameter.set_layout(mod.Layout("?C??"))
    answers += [str(parameter.layout), model.get_parameter_index(parameter)]
    answers.append(_layouts_of(mod, model.clone()))
    compiled = mod.Core().compile_model(model, "REFERENCE" if mod is lowpass else "CPU")
    answers.append(([str(mod.layout_helpers.get_layout(p)) for p in compiled.inputs],
                    [str(mod.layout_helpers.get_layout(p)) for p in compiled.outputs]))
    with pytest.raises(TypeError):
        mod.layout_helpers.set_layout(compiled.input(0), mod.Layout("NCHW"))
    model.input(0).get_node().set_layout(mod.Layout("NHWC"))  # (the compiled one keeps its)
    answers.append(str(mod.layout_helpers.get_layout(compiled.input(0))))
    return answers


NODE_LAYOUTS = [
    (["[...]"], ["[...]", "[...]", "[...]"]),
    (["[N,C,H,W]"], ["[...]", "[...]", "[N,C,H,W]"]),
    (["[N,C,H,W]"], ["[N,...]", "[N,...]", "[N,C,H,W]"]),
    (["[N,H,W,C]"], ["[N,...]", "[N,...]", "[N,H,W,C]"]),
    (["[N,H,W,C]"], ["[...]", "[...]", "[N,H,W,C]"]),
    "[?,C,?,?]", 0,
    (["[?,C,?,?]"], ["[...]", "[...]", "[?,C,?,?]"]),
    (["[?,C,?,?]"], ["[...]", "[...]", "[?,C,?,?]"]),
    "[?,C,?,?]",
]
"""What `_node_layouts` answers (openvino 2026.4's answers)."""


def test_parameter_and_result_layouts() -> None:
    assert _node_layouts(lowpass) == NODE_LAYOUTS
    model = _model(lowpass)
    parameter = model.input(0).get_node()
    assert parameter.get_layout() == lowpass.Layout() and parameter.get_layout().empty
    parameter.set_layout("nchw")  # (lowpass's: a string too)
    assert repr(parameter.layout) == "<Layout: [N,C,H,W]>"
    with pytest.raises(LowpassError, match=re.escape(
            "Can't set layout for Parameter 'x': layout [N,C] is not compatible with shape "
            "[1,3,4,5]")):  # fmt: skip
        parameter.set_layout(lowpass.Layout("NC"))
    with pytest.raises(TypeError, match=r"^set_layout\(\): expected a Layout"):
        parameter.set_layout(4)
    relu = model.get_ordered_ops()[1]
    assert lowpass.layout_helpers.get_layout(relu.output(0)).empty
    with pytest.raises(LowpassError, match=re.escape(
            "Layout can be set only for Parameter and Result operations.")):  # fmt: skip
        lowpass.layout_helpers.set_layout(relu.output(0), lowpass.Layout("NCHW"))
    with pytest.raises(TypeError, match=r"^get_layout\(\): expected an output port"):
        lowpass.layout_helpers.get_layout(parameter)  # (a node: OpenVINO's takes a port)


def test_parameter_and_result_layouts_as_openvino() -> None:
    ov = pytest.importorskip("openvino")
    assert _node_layouts(ov) == NODE_LAYOUTS
    assert _node_layouts(lowpass) == _node_layouts(ov)
    node = _model(ov).input(0).get_node()
    assert {"get_layout", "set_layout", "layout"} <= set(dir(node))
    ours = {n for n in dir(lowpass.layout_helpers) if not n.startswith("_")}
    assert ours == {n for n in dir(ov.layout_helpers) if not n.startswith("_")}


def test_layouts_are_kept_in_the_graph(tmp_path: Path) -> None:
    """`ov.layout` argument and result attributes: printed and parsed back, kept by clone,
    the ports unchanged otherwise (`get_parameter_index` still finds the Parameter); a value
    that is no layout fails `read_model`."""
    model = _model(lowpass)
    parameter = model.get_parameters()[0]
    port = model.input(0)
    parameter.set_layout(lowpass.Layout("N...C"))
    model.output("y").get_node().set_layout(lowpass.Layout("NC??"))
    assert model.input(0) is port and model.get_parameter_index(parameter) == 0
    text = str(model)
    assert '{ov.name = "x", ov.layout = "[N,...,C]"}' in text
    assert '{ov.name = "y", ov.layout = "[N,C,?,?]"}' in text
    again = lowpass.Core().read_model(text)
    assert _layouts_of(lowpass, again) == (
        ["[N,...,C]"], ["[N,C,?,?]", "[N,C,?,?]", "[N,...,C]"])
    parameter.set_layout(lowpass.Layout())
    assert 'ov.layout = "[N,...,C]"' not in str(model)
    bad = text.replace('"[N,...,C]"', '"[N,C"')
    with pytest.raises(LowpassError, match=re.escape(
            "input 'x': ov.layout \"[N,C\": Layout name is invalid ([). Only english letters, "
            "digits and _ is allowed")):  # fmt: skip
        lowpass.Core().read_model(bad)


def _batches(mod: Any, model: Any, layouts: list[str | None],
             steps: list[int | str]) -> list[object]:  # fmt: skip
    """`get_batch` ("get"), `set_batch(n)` (the inputs' shapes after it), `set_batch` of a
    bounded Dimension ("bounded") on `model` with these input layouts; an error's message."""
    for port, layout in zip(model.inputs, layouts, strict=True):
        if layout is not None:
            port.get_node().set_layout(mod.Layout(layout))
    answers: list[object] = []
    for step in steps:
        try:
            if step == "get":
                answers.append(str(mod.get_batch(model)))
                continue
            mod.set_batch(model, mod.Dimension(1, 8) if step == "bounded" else step)
            answers.append([str(p.get_partial_shape()) for p in model.inputs])
        except RuntimeError as e:  # (its first sentence, to the colon)
            answers.append(re.sub(r":.*", ":", _message(e)))
    return answers


NOT_SET = ("Get original batch size fails due to batch is not set in any layout for any input. "
           "Available inputs:")
CONFLICT = "Get original batch size fails due to conflicting batch values for inputs:"
BATCHES: list[tuple[str, Callable[[Any], Any], list[str | None], list[int | str], list[object]]]
BATCHES = [
    ("no layout", lambda m: _relu(m, [(2, 3, 4, 5)]), [None], ["get", 3], [NOT_SET, NOT_SET]),
    ("NCHW", lambda m: _relu(m, [(2, 3, 4, 5)]), ["NCHW"], ["get", 3, "get", -1, "get", 0, 5],
     ["2", ["[3,3,4,5]"], "3", ["[?,3,4,5]"], "?", ["[0,3,4,5]"], ["[5,3,4,5]"]]),
    ("N last", lambda m: _relu(m, [(2, 3, 4, 5)]), ["C...N"], ["get", 7, "get"],
     ["5", ["[2,3,4,7]"], "7"]),
    ("conflicting", lambda m: _relu(m, [(2, 3), (4, 3)]), ["NC", "NC"], ["get", 6],
     [CONFLICT, CONFLICT]),
    ("one of two", lambda m: _relu(m, [(2, 3), (4, 3)]), ["NC", None], ["get", 6, "get"],
     ["2", ["[6,3]", "[4,3]"], "6"]),
    ("no N", lambda m: _relu(m, [(2, 3)]), ["CH"], ["get", 3], [NOT_SET, NOT_SET]),
    ("dynamic", lambda m: _relu(m, [(2, 3)]), ["NC"], [-1, "get", 4, "get"],
     [["[?,3]"], "?", ["[4,3]"], "4"]),
    ("cannot reshape", _flatten, ["NC"], ["get", 3, "get"],
     ["2", "Failed to set batch size to 3. Possible reasons are:", "2"]),
]  # fmt: skip
"""Each model, its input layouts, the steps and openvino 2026.4's answers."""


@pytest.mark.parametrize("title", [case[0] for case in BATCHES])
def test_get_and_set_batch(title: str) -> None:
    _, make, layouts, steps, want = next(case for case in BATCHES if case[0] == title)
    assert _batches(lowpass, make(lowpass), layouts, steps) == want


@pytest.mark.parametrize("title", [case[0] for case in BATCHES])
def test_get_and_set_batch_as_openvino(title: str) -> None:
    ov = pytest.importorskip("openvino")
    _, make, layouts, steps, want = next(case for case in BATCHES if case[0] == title)
    assert _batches(ov, make(ov), layouts, steps) == want


def test_batch_errors_are_one_line() -> None:
    model = _relu(lowpass, [(2, 3), (4, 3)])
    with pytest.raises(LowpassError) as error:
        lowpass.get_batch(model)
    assert str(error.value) == (
        "Get original batch size fails due to batch is not set in any layout for any input. "
        "Available inputs: 0: { name='in0', shape=[2,3], layout=[...], no batch specified }; "
        "1: { name='in1', shape=[4,3], layout=[...], no batch specified }. Please use "
        "'set_layout' API to set layout with batch dimension, e.g. "
        "model.input(0).get_node().set_layout(Layout('NCHW'))")
    for port in model.inputs:
        port.get_node().set_layout(lowpass.Layout("NC"))
    with pytest.raises(LowpassError) as error:
        lowpass.set_batch(model, 6)
    assert str(error.value) == (
        "Get original batch size fails due to conflicting batch values for inputs: 0: { "
        "name='in0', shape=[2,3], layout=[N,C], batch=2 }; 1: { name='in1', shape=[4,3], "
        "layout=[N,C], batch=4 }. Please ensure that N(Batch) dimension is set correctly for "
        "listed parameters")
    flatten = _flatten(lowpass)
    flatten.input(0).get_node().set_layout(lowpass.Layout("NC"))
    with pytest.raises(LowpassError) as error:
        lowpass.set_batch(flatten, 3)
    assert "\n" not in str(error.value) and (
        "Available inputs: 0: { name='r', shape=[2,6], layout=[N,C], batch=2 } tried reshape "
        "[2,6] to [3,6]. Original error message is: cannot reshape the model: "
    ) in str(error.value)
    assert list(flatten.input(0).shape) == [2, 6]
    with pytest.raises(TypeError, match="Incompatible `model` argument"):
        lowpass.get_batch(3)  # pyright: ignore[reportArgumentType]
    with pytest.raises(TypeError, match=r"^set_batch\(\): expected a batch size"):
        lowpass.set_batch(flatten, "3")  # pyright: ignore[reportArgumentType]
    with pytest.raises(LowpassError, match=r"^set_batch\(-2\): expected a batch size >= 0"):
        lowpass.set_batch(flatten, -2)
    lowpass.set_batch(flatten, lowpass.Dimension(1, 8))  # (bounded: dynamic, as in reshape)
    assert str(lowpass.get_batch(flatten)) == "?"


def test_reshape_checks_the_layout() -> None:
    """As OpenVINO's: a new shape must fit the input's layout; the layout stays."""
    answers = []
    for mod in (lowpass, *([m] if (m := _openvino()) else [])):
        model = _relu(mod, [(2, 6)])
        model.input(0).get_node().set_layout(mod.Layout("NC"))
        model.reshape([3, 6])
        with pytest.raises(RuntimeError) as error:
            model.reshape([3, 6, 1])
        answers.append((str(model.input(0).get_node().get_layout()),
                        str(model.input(0).get_partial_shape()), _message(error.value)))
    assert answers[0][:2] == ("[N,C]", "[3,6]")
    assert answers[0][2] == ("Can't set partial shape [3,6,1] for Parameter 'in0' with layout "
                             "[N,C]. Layout is not compatible with shape")
    if len(answers) > 1:  # (OpenVINO names the Parameter its way)
        assert answers[1][:2] == answers[0][:2]
        assert re.sub(r"Parameter .* with", "Parameter with", answers[1][2]) == re.sub(
            r"Parameter .* with", "Parameter with", answers[0][2])


def _openvino() -> Any:
    try:
        return importlib.import_module("openvino")
    except ImportError:
        return None


# ---- preprocessing ---------------------------------------------------------------------------

def _package(layout_type: Any) -> Any:
    """lowpass or openvino, whose `Layout` this is."""
    return importlib.import_module(layout_type.__module__.split(".")[0])


PREPROCESSING: list[tuple[str, str | None, str | None, Callable[[Any, Any], object]]] = [
    ("model layout only", None, None, lambda p, L: p.input().model().set_layout(L("NCHW"))),
    ("tensor and model layouts", None, None, lambda p, L: (
        p.input().tensor().set_layout(L("NHWC")), p.input().model().set_layout(L("NCHW")))),
    ("the Parameter's layout is the model's", "NCHW", None, lambda p, L: (
        p.input().tensor().set_layout(L("NHWC")))),
    ("model().set_layout over the Parameter's", "NCHW", None, lambda p, L: (
        p.input().model().set_layout(L("NHWC")), p.input().tensor().set_layout(L("NCHW")))),
    ("the Parameter's layout kept", "NCHW", None, lambda p, L: (
        p.input().preprocess().convert_element_type())),
    ("tensor layout only", None, None, lambda p, L: p.input().tensor().set_layout(L("NHWC"))),
    ("the Parameter's layout before convert_layout by indexes", "NCHW", None, lambda p, L: (
        p.input().tensor().set_shape([1, 4, 5, 3]),
        p.input().preprocess().convert_layout([0, 3, 1, 2]))),
    ("model N...", "NCHW", None, lambda p, L: p.input().model().set_layout(L("N..."))),
    ("convert_layout to a Layout", "NCHW", None, lambda p, L: (
        p.input().preprocess().convert_layout(L("NHWC")))),
    ("mean per C of the Parameter's N...C", "N...C", None, lambda p, L: (
        p.input().preprocess().mean([1.0, 2.0, 3.0, 4.0, 5.0]))),
    ("resize to the Parameter's H and W", "NCHW", None, lambda p, L: (
        p.input().tensor().set_layout(L("NHWC")).set_spatial_static_shape(8, 10),
        p.input().preprocess().resize(_package(L).preprocess.ResizeAlgorithm.RESIZE_LINEAR))),
    ("output model and tensor layouts", None, None, lambda p, L: (
        p.output().model().set_layout(L("NCHW")), p.output().tensor().set_layout(L("NHWC")))),
    ("output model layout only", None, None, lambda p, L: (
        p.output().model().set_layout(L("NCHW")))),
    ("the Result's layout is the model's", None, "NCHW", lambda p, L: (
        p.output().tensor().set_layout(L("NHWC")))),
    ("the Result's layout kept", None, "NCHW", lambda p, L: (
        p.output().tensor().set_element_type(_package(L).Type.f16))),
    ("output convert_layout", None, None, lambda p, L: (
        p.output().model().set_layout(L("NCHW")),
        p.output().postprocess().convert_layout(L("NHWC")))),
    ("output convert_layout by indexes", None, "NCHW", lambda p, L: (
        p.output().postprocess().convert_layout([0, 2, 3, 1]))),
    ("input convert_layout by indexes, no layout", None, None, lambda p, L: (
        p.input().preprocess().convert_layout([0, 2, 3, 1]))),
    ("an input untouched keeps its layout", "NCHW", "NC??", lambda p, L: (
        p.output().tensor().set_layout(L("NHWC")))),
]  # fmt: skip
"""Each case: its title, the Parameter's and the Result's layouts before, the steps."""

PREPROCESSED = {
    "model layout only": ("[N,C,H,W]", "[...]", [1, 3, 4, 5], [1, 3, 4, 5]),
    "tensor and model layouts": ("[N,H,W,C]", "[...]", [1, 4, 5, 3], [1, 3, 4, 5]),
    "the Parameter's layout is the model's": ("[N,H,W,C]", "[...]", [1, 4, 5, 3], [1, 3, 4, 5]),
    "model().set_layout over the Parameter's": (
        "[N,C,H,W]", "[...]", [1, 5, 3, 4], [1, 3, 4, 5]),
    "the Parameter's layout kept": ("[N,C,H,W]", "[...]", [1, 3, 4, 5], [1, 3, 4, 5]),
    "tensor layout only": ("[N,H,W,C]", "[...]", [1, 3, 4, 5], [1, 3, 4, 5]),
    "the Parameter's layout before convert_layout by indexes": (
        "[N,H,W,C]", "[...]", [1, 4, 5, 3], [1, 3, 4, 5]),
    "model N...": ("[N,...]", "[...]", [1, 3, 4, 5], [1, 3, 4, 5]),
    "convert_layout to a Layout": ("[N,C,H,W]", "[...]", [1, 3, 4, 5], [1, 3, 4, 5]),
    "mean per C of the Parameter's N...C": ("[N,...,C]", "[...]", [1, 3, 4, 5], [1, 3, 4, 5]),
    "resize to the Parameter's H and W": ("[N,H,W,C]", "[...]", [1, 8, 10, 3], [1, 3, 4, 5]),
    "output model and tensor layouts": ("[...]", "[N,H,W,C]", [1, 3, 4, 5], [1, 4, 5, 3]),
    "output model layout only": ("[...]", "[N,C,H,W]", [1, 3, 4, 5], [1, 3, 4, 5]),
    "the Result's layout is the model's": ("[...]", "[N,H,W,C]", [1, 3, 4, 5], [1, 4, 5, 3]),
    "the Result's layout kept": ("[...]", "[N,C,H,W]", [1, 3, 4, 5], [1, 3, 4, 5]),
    "output convert_layout": ("[...]", "[N,H,W,C]", [1, 3, 4, 5], [1, 4, 5, 3]),
    "output convert_layout by indexes": ("[...]", "[N,H,W,C]", [1, 3, 4, 5], [1, 4, 5, 3]),
    "input convert_layout by indexes, no layout": ("[...]", "[...]", [1, 5, 3, 4], [1, 3, 4, 5]),
    "an input untouched keeps its layout": ("[N,C,H,W]", "[N,H,W,C]", [1, 3, 4, 5], [1, 4, 5, 3]),
}
"""The layouts and shapes of the input and the output after `build()` (openvino 2026.4's)."""


def _preprocessed(mod: Any, title: str) -> tuple[tuple[object, ...], np.ndarray]:
    """The case's input and output layouts and shapes after `build()`, and its output on
    0..6 repeated."""
    _, before_in, before_out, steps = next(c for c in PREPROCESSING if c[0] == title)
    model = _relu(mod, [(1, 3, 4, 5)])
    if before_in is not None:
        model.input(0).get_node().set_layout(mod.Layout(before_in))
    if before_out is not None:
        model.output(0).get_node().set_layout(mod.Layout(before_out))
    ppp = mod.preprocess.PrePostProcessor(model)
    steps(ppp, mod.Layout)
    model = ppp.build()
    shapes = [[int(d) for d in p.get_shape()] for p in (model.input(0), model.output(0))]
    x = (np.arange(np.prod(shapes[0])) % 7).reshape(shapes[0]).astype(np.float32)
    if mod is lowpass:
        y = lowpass.Core().compile_model(model, "REFERENCE")(x)[0]
    else:
        y = mod.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})(x)[0]
    layouts = _layouts_of(mod, model)
    return (layouts[0][0], layouts[1][0], *shapes), np.asarray(y)


@pytest.mark.parametrize("title", [case[0] for case in PREPROCESSING])
def test_preprocessing_uses_and_sets_the_layouts(title: str) -> None:
    """A Parameter's or Result's layout is the model layout where `model().set_layout` is
    not called; `build()` gives the new Parameter the tensor's layout and the Result the one
    its steps leave, as OpenVINO's."""
    got, _ = _preprocessed(lowpass, title)
    assert got == PREPROCESSED[title]


@pytest.mark.parametrize("title", [case[0] for case in PREPROCESSING])
def test_preprocessing_uses_and_sets_the_layouts_as_openvino(title: str) -> None:
    ov = pytest.importorskip("openvino")
    (got, y), (want, expected) = _preprocessed(lowpass, title), _preprocessed(ov, title)
    assert got == want == PREPROCESSED[title]
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-4)


# ---- OpenVINO IR -----------------------------------------------------------------------------

def _rt_info(layout: str) -> str:
    return ('<rt_info>\n\t\t\t\t\t\t<attribute name="layout" version="0" '
            f'layout="{layout}" />\n\t\t\t\t\t</rt_info>')  # fmt: skip


def test_ir_writes_and_reads_the_layouts(tmp_path: Path) -> None:
    """The `layout` rt_info of the Parameter's port and of the port a Result returns (one a
    port: the Parameter returned as it is has its own), read back."""
    model = _model(lowpass)
    model.input(0).get_node().set_layout(lowpass.Layout("NCHW"))
    model.output(0).get_node().set_layout(lowpass.Layout("N...C"))
    lowpass.save_model(model, tmp_path / "m.xml")
    xml = (tmp_path / "m.xml").read_text()
    assert xml.count("<rt_info>") == 2 and xml.count('name="layout"') == 2
    parameter = xml[xml.index('type="Parameter"'):xml.index('name="relu"')]
    assert "\t\t\t\t\t<dim>5</dim>\n\t\t\t\t\t" + _rt_info("[N,C,H,W]") + "\n\t\t\t\t</port>" in (
        parameter)
    relu = xml[xml.index('name="relu"'):xml.index('type="Result"')]
    assert _rt_info("[N,...,C]") in relu[relu.index("<output>"):]
    again = lowpass.Core().read_model(tmp_path / "m.xml")
    assert _layouts_of(lowpass, again) == (
        ["[N,C,H,W]"], ["[N,...,C]", "[N,...,C]", "[N,C,H,W]"])
    scalar = lowpass.Core().read_model("""
func.func @main(%x: tensor<f32> {ov.name = "x", ov.layout = "**SCALAR**"})
    -> (tensor<f32> {ov.name = "y"}) {
  %y = ov.relu %x : (tensor<f32>) -> tensor<f32>
  func.return %y : tensor<f32>
}""")
    lowpass.save_model(scalar, tmp_path / "s.xml")
    assert ('<port id="0" precision="FP32" names="x">\n\t\t\t\t\t' + _rt_info("**SCALAR**")
            + "\n\t\t\t\t</port>") in (tmp_path / "s.xml").read_text()
    assert str(lowpass.Core().read_model(tmp_path / "s.xml").input(0).node.layout) == (
        "**SCALAR**")


IR_LAYOUTS = [
    ("as OpenVINO writes it", lambda xml: xml, ("[N,C,H,W]", "[N,...,C]")),
    ("letters, any case", lambda xml: xml.replace('"[N,C,H,W]"', '"nchw"'),
     ("[N,C,H,W]", "[N,...,C]")),
    ("another version: none", lambda xml: xml.replace('version="0" layout="[N,C,H,W]"',
                                                      'version="1" layout="[N,C,H,W]"'),
     ("[...]", "[N,...,C]")),
    ("empty: none", lambda xml: xml.replace('"[N,C,H,W]"', '""'), ("[...]", "[N,...,C]")),
    ("one that does not fit the rank, kept", lambda xml: xml.replace('"[N,C,H,W]"', '"[N,C]"'),
     ("[N,C]", "[N,...,C]")),
    ("a layer's own rt_info: none", lambda xml: xml.replace(
        _rt_info("[N,C,H,W]") + "\n", "").replace(
        '<data shape="2,3,4,5" element_type="f32" />',
        '<data shape="2,3,4,5" element_type="f32" />\n' + _rt_info("[N,C,H,W]")),
     ("[...]", "[N,...,C]")),
    ("a bad one", lambda xml: xml.replace('"[N,C,H,W]"', '"[N,C"'),
     "Layout name is invalid ([). Only english letters, digits and _ is allowed"),
]  # fmt: skip
"""OpenVINO 2026.4's IR of x [2,3,4,5] (NCHW) -> ReLU -> y (N...C), changed, and the input's
and output's layouts that openvino reads (or the last line of its error)."""

OPENVINO_IR = """<?xml version="1.0"?>
<net name="m" version="11">
	<layers>
		<layer id="0" name="x" type="Parameter" version="opset1">
			<data shape="2,3,4,5" element_type="f32" />
			<output>
				<port id="0" precision="FP32" names="x">
					<dim>2</dim>
					<dim>3</dim>
					<dim>4</dim>
					<dim>5</dim>
					RT_INFO_IN
				</port>
			</output>
		</layer>
		<layer id="1" name="Relu_2" type="ReLU" version="opset1">
			<input>
				<port id="0" precision="FP32">
					<dim>2</dim>
					<dim>3</dim>
					<dim>4</dim>
					<dim>5</dim>
				</port>
			</input>
			<output>
				<port id="1" precision="FP32" names="y">
					<dim>2</dim>
					<dim>3</dim>
					<dim>4</dim>
					<dim>5</dim>
					RT_INFO_OUT
				</port>
			</output>
		</layer>
		<layer id="2" name="y" type="Result" version="opset1" output_names="y">
			<input>
				<port id="0" precision="FP32">
					<dim>2</dim>
					<dim>3</dim>
					<dim>4</dim>
					<dim>5</dim>
				</port>
			</input>
		</layer>
	</layers>
	<edges>
		<edge from-layer="0" from-port="0" to-layer="1" to-port="0" />
		<edge from-layer="1" from-port="1" to-layer="2" to-port="0" />
	</edges>
</net>
""".replace("RT_INFO_IN", _rt_info("[N,C,H,W]")).replace("RT_INFO_OUT", _rt_info("[N,...,C]"))
"""What `openvino.save_model` writes of that model (2026.4, its rt_info of the net left out)."""


def _ir_layouts(mod: Any, xml: str) -> object:
    try:
        model = mod.Core().read_model(xml.encode(), b"") if mod is lowpass else (
            mod.Core().read_model(model=xml, weights=mod.Tensor(mod.Type.u8, [0])))
    except RuntimeError as e:
        return str(e).strip().splitlines()[-1].split(": ")[-1]
    return (str(model.input(0).get_node().get_layout()),
            str(model.output(0).get_node().get_layout()))  # fmt: skip


@pytest.mark.parametrize("title", [case[0] for case in IR_LAYOUTS])
def test_ir_reads_the_layouts(title: str) -> None:
    _, change, want = next(case for case in IR_LAYOUTS if case[0] == title)
    assert _ir_layouts(lowpass, change(OPENVINO_IR)) == want


@pytest.mark.parametrize("title", [case[0] for case in IR_LAYOUTS])
def test_ir_reads_the_layouts_as_openvino(title: str) -> None:
    ov = pytest.importorskip("openvino")
    _, change, want = next(case for case in IR_LAYOUTS if case[0] == title)
    assert _ir_layouts(ov, change(OPENVINO_IR)) == want


def test_ir_layouts_round_trip_with_openvino(tmp_path: Path) -> None:
    """What openvino writes we read, what we write openvino reads: the same layouts."""
    ov = pytest.importorskip("openvino")
    theirs = _model(ov)
    theirs.input(0).get_node().set_layout(ov.Layout("NCHW"))
    theirs.output(0).get_node().set_layout(ov.Layout("N..."))
    ov.save_model(theirs, tmp_path / "theirs.xml")
    ours = lowpass.Core().read_model(tmp_path / "theirs.xml")
    want = _layouts_of(ov, theirs)
    assert _layouts_of(lowpass, ours) == want
    lowpass.save_model(ours, tmp_path / "ours.xml")
    assert _layouts_of(ov, ov.Core().read_model(tmp_path / "ours.xml")) == want


def test_layout_helpers_module() -> None:
    """`lowpass.layout_helpers`, as `openvino.layout_helpers`; `import lowpass.layout_helpers`
    too."""
    import lowpass.layout_helpers as helpers

    assert lowpass.layout_helpers is helpers
    assert helpers.batch_idx(lowpass.Layout("C...N")) == -1
    from lowpass.runtime.core import get_batch, set_batch

    assert (lowpass.get_batch, lowpass.set_batch) == (get_batch, set_batch)


# ---- lowpass-run's -layout -------------------------------------------------------------------

LAYOUT_FLAGS = [
    ("x[NCHW]", {"x": "[N,C,H,W]"}),
    ("x[N...C]", {"x": "[N,...,C]"}),
    ("x[nchw],y[NC]", {"x": "[N,C,H,W]", "y": "[N,C]"}),
    ("x[NCHW]y[NC]", {"x": "[N,C,H,W]", "y": "[N,C]"}),
    ("x[N?HW]", {"x": "[N,?,H,W]"}),
    ("x[N1HW]", {"x": "[N,1,H,W]"}),
    ("y[N...]", {"y": "[N,...]"}),
    ("x[?N...]", {"x": "[?,N,...]"}),
    ("y[CN]", {"y": "[C,N]"}),
    ("x[...]", {}),
    ("x[]", {}),
    ("x[N_HW]", "Layout name is invalid (_). Name shall have alphanumeric characters"),
    ("x[N..C]", "Undefined number of dimensions shall have ..."),
    ("x[N-HW]", "Layout name is invalid (-). Only english letters, digits and _ is allowed"),
    ("x[NNHW]", "Dimension (N) is defined multiple times in layout"),
    ("x[N...C...]", "Multiple ... are not allowed"),
]
"""A -layout and the layouts benchmark_app (2026.4) takes from it (its Layout's message)."""


def _model_inputs() -> Any:
    return lowpass.Core().read_model("""
func.func @main(%x: tensor<1x3x4x5xf32> {ov.name = "x"}, %y: tensor<2x3xf32> {ov.name = "y"})
    -> (tensor<1x3x4x5xf32> {ov.name = "a"}, tensor<2x3xf32> {ov.name = "b"}) {
  func.return %x, %y : tensor<1x3x4x5xf32>, tensor<2x3xf32>
}""")


@pytest.mark.parametrize("spec, want", LAYOUT_FLAGS)
def test_lowpass_run_layouts(spec: str, want: dict[str, str] | str) -> None:
    inputs = _model_inputs().inputs
    if isinstance(want, str):
        with pytest.raises(LowpassError) as error:
            _layouts([spec], inputs)
        assert str(error.value) == (f"-layout {spec}: '{spec[2:-1]}' is not a layout such as "
                                    f"NCHW or N,C,H,W ({want})")
    else:
        assert {k: str(v) for k, v in _layouts([spec], inputs).items()} == want
    assert {k: str(v) for k, v in _layouts(["[N...C]"], inputs).items()} == {"": "[N,...,C]"}
    assert {k: str(v) for k, v in _layouts(["y[N,C]"], inputs).items()} == {"y": "[N,C]"}


@pytest.mark.parametrize("spec, want", LAYOUT_FLAGS)
def test_lowpass_run_layouts_as_benchmark_app(spec: str, want: dict[str, str] | str) -> None:
    ov = pytest.importorskip("openvino")
    utils = pytest.importorskip("openvino.tools.benchmark.utils.utils")
    try:
        theirs: object = {k: str(ov.Layout(v)) for k, v in
                          utils.parse_input_parameters(spec, ["x", "y"]).items()}  # fmt: skip
    except RuntimeError as e:
        theirs = str(e).strip().splitlines()[-1]
    if isinstance(theirs, dict):  # (an empty one is benchmark_app's no layout)
        theirs = {k: v for k, v in theirs.items() if v != "[...]"}
    assert theirs == want


def test_lowpass_run_takes_an_inputs_own_layout(tmp_path: Path) -> None:
    """An input that no -layout entry names has its own layout, as benchmark_app takes
    `node.layout`; an entry for it (an empty one too) or one for every input wins."""
    model = _model_inputs()
    model.input("y").get_node().set_layout(lowpass.Layout("CN"))
    inputs = model.inputs
    assert {k: str(v) for k, v in _layouts([], inputs).items()} == {"y": "[C,N]"}
    assert {k: str(v) for k, v in _layouts(["x[NCHW]"], inputs).items()} == {
        "x": "[N,C,H,W]", "y": "[C,N]"}
    assert {k: str(v) for k, v in _layouts(["y[NC]"], inputs).items()} == {"y": "[N,C]"}
    assert _layouts(["y[]"], inputs) == {}
    assert {k: str(v) for k, v in _layouts(["[N...]"], inputs).items()} == {"": "[N,...]"}
    # end to end: -b 4 reshapes y's N, its second dimension, as its IR layout says
    path = tmp_path / "m.xml"
    lowpass.save_model(model, str(path))
    command = ["lowpass-run", str(path), "-b", "4", "-niter", "1", "-hint", "none",
               "-nthreads", "1"]
    run = subprocess.run(command, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    # (the IR names y's tensor after the output that returns it as it is, as OpenVINO does)
    assert re.search(r"Reshaping model: .*': \[2,4\]", run.stdout), run.stdout
