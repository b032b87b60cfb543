# ruff: noqa: E501  (MLIR test models are kept on one line per op)
"""
Pad on the CPU device (lowering/ops/movement.py, PadLowering): every mode, negative pads
(crops), every element type (the kernel copies bits), a pad value computed at run time, empty
boxes; equal to the reference bit for bit, and to OpenVINO's CPU plugin on the written IR.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import lowpass

from .test_elementwise import TYPES, _data, run_both
from .typed import cpu_graph

RNG = np.random.default_rng(12)


def pad_model(shape: tuple[int, ...], begin: list[int], end: list[int], mode: str, et: str = "f32",
              value: str | None = None, runtime_value: bool = False) -> str:  # fmt: skip
    out = [d + b + e for d, b, e in zip(shape, begin, end, strict=True)]

    def t(s: list[int] | tuple[int, ...]) -> str:
        return "tensor<" + "".join(f"{d}x" for d in s) + et + ">"

    rank = len(shape)
    args = f"%x: {t(shape)}" + (f", %v: tensor<{et}>" if runtime_value else "")
    const = f"%v = ov.constant dense<{value}> : tensor<{et}>" if value is not None else ""
    has_value = value is not None or runtime_value
    operand = ", %v" if has_value else ""
    vtype = f", tensor<{et}>" if has_value else ""
    return f"""
builtin.module {{
  func.func @main({args}) -> {t(out)} {{
    %b = ov.constant dense<{begin}> : tensor<{rank}xi64>
    %e = ov.constant dense<{end}> : tensor<{rank}xi64>
    {const}
    %r = ov.pad %x, %b, %e{operand} pad_mode = {mode} : ({t(shape)}, tensor<{rank}xi64>, tensor<{rank}xi64>{vtype}) -> {t(out)}
    func.return %r : {t(out)}
  }}
}}
"""


CASES = [
    ((1, 3, 5, 6), [0, 0, 1, 2], [0, 0, 2, 1]),
    ((4, 7), [-1, 2], [1, -3]),
    ((2, 3), [0, 0], [0, 0]),
    ((5,), [2], [-1]),
    ((2, 4, 3), [1, -2, 0], [0, -2, 3]),  # the box is empty along axis 1
    ((6,), [3], [-4]),  # mirrored sources cropped away: the element table
    ((300, 2), [280, 0], [0, 1]),  # more than 256 slabs: the element table
]


def test_pad_plans() -> None:
    """Slab copies where every border source is in the kept box, else an element table."""
    from lowpass.lowering.ops.movement import _PadPlan

    assert _PadPlan((4, 7), [-1, 2], [1, -3], "reflect").border_table() is None
    assert _PadPlan((6,), [3], [-4], "reflect").border_table() is not None
    assert _PadPlan((300, 2), [280, 0], [0, 1], "edge").border_table() is not None
    boxes = _PadPlan((2, 3), [1, 1], [0, 2], "constant").border_boxes()
    assert sum(int(np.prod(shape)) for shape, _ in boxes) == 3 * 6 - 2 * 3


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric"])
@pytest.mark.parametrize(("shape", "begin", "end"), CASES)
def test_pad_modes_bit_for_bit(mode: str, shape: tuple[int, ...], begin: list[int], end: list[int]) -> None:
    if mode != "constant" and any(d + min(b, 0) + min(e, 0) <= 0 for d, b, e in zip(shape, begin, end, strict=True)):
        pytest.skip("nothing left to mirror")
    x = RNG.standard_normal(shape).astype(np.float32)
    text = pad_model(shape, begin, end, mode, value="-2.5" if mode == "constant" else None)
    want, got, compiled = run_both(text, [x])
    assert cpu_graph(compiled).groups[0].exec_type.startswith("jit_")
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("et", sorted(TYPES))
def test_pad_element_types(et: str) -> None:
    x = _data((3, 4), et, RNG)
    want, got, _ = run_both(pad_model((3, 4), [1, 2], [2, 0], "reflect", et), [x])
    np.testing.assert_array_equal(got, want)
    want, got, _ = run_both(pad_model((3, 4), [1, 0], [0, 1], "constant", et), [x])
    np.testing.assert_array_equal(got, want)


def test_pad_value_computed_at_run_time_and_nan_bits() -> None:
    x = RNG.standard_normal((2, 5)).astype(np.float16)
    value = np.array(np.nan, np.float16)
    want, got, _ = run_both(pad_model((2, 5), [1, 1], [1, 0], "constant", "f16", runtime_value=True), [x, value])
    np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))
    x8 = RNG.integers(-100, 100, (3, 3)).astype(np.int8)
    want, got, _ = run_both(pad_model((3, 3), [0, 2], [1, 1], "constant", "i8", runtime_value=True), [x8, np.array(-7, np.int8)])
    np.testing.assert_array_equal(got, want)


def test_pad_against_openvino_cpu(tmp_path: Path) -> None:
    openvino = pytest.importorskip("openvino")
    from lowpass.frontends.ov_ir import write_ov_ir

    for mode in ("constant", "edge", "reflect", "symmetric"):
        text = pad_model((1, 2, 6, 5), [0, 0, 2, -1], [0, 1, 1, 3], mode, value="0.75" if mode == "constant" else None)
        x = RNG.standard_normal((1, 2, 6, 5)).astype(np.float32)
        model = lowpass.Core().read_model(text)
        got = lowpass.Core().compile_model(model, "CPU")([x])
        write_ov_ir(model.module, tmp_path / f"{mode}.xml")
        theirs = openvino.Core().compile_model(str(tmp_path / f"{mode}.xml"), "CPU")
        np.testing.assert_array_equal(np.asarray(got[0]), theirs([x])[theirs.outputs[0]])
