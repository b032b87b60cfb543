"""
Tests of ov.einsum: the equation as OpenVINO's Einsum-7 reads it (implicit output, ellipsis,
upper case), shape inference, REFERENCE against numpy's einsum (and against OpenVINO's rules
where numpy has none: an explicit output without the inputs' `...`, which sums those axes),
and shapes and values against OpenVINO's CPU plugin in f32 (skipped without openvino).

Tolerances: REFERENCE computes in float64 and rounds once, as numpy's float64 einsum
rounded to float32: rtol 1e-6. OpenVINO's CPU plugin sums in float32: rtol 1e-5, atol 1e-5
(the sums are of a few to 60 products of standard normal values).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from xdsl.dialects.builtin import f32, i32
from xdsl.ir import Block
from xdsl.utils.exceptions import VerifyException

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects.ov import DYNAMIC, EinsumEquation, EinsumOp, shape_of, tensor

RNG = np.random.default_rng(7)

# equation, input shapes
CASES: dict[str, tuple[str, list[tuple[int, ...]]]] = {
    "attention_scores": ("bhid,bhjd->bhij", [(2, 3, 4, 5), (2, 3, 6, 5)]),
    "batched_matmul": ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    "outer": ("i,j->ij", [(3,), (4,)]),
    "diagonal": ("ii->i", [(4, 4)]),
    "trace": ("ii->", [(4, 4)]),
    "ellipsis_broadcast": ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]),
    "implicit": ("ij,jk", [(3, 4), (4, 5)]),
    "implicit_upper_case": ("bA,Cb", [(3, 2), (4, 3)]),
    "three_inputs": ("abc,cd,de->ae", [(2, 3, 4), (4, 5), (5, 6)]),
    "transpose_contraction": ("abcd,cbef->adfe", [(2, 3, 4, 5), (4, 3, 6, 7)]),
    "label_broadcast": ("ij,jk->ik", [(3, 1), (4, 5)]),
    "diagonal_and_product": ("iij,jk->ik", [(3, 3, 4), (4, 2)]),
    "ellipsis_in_the_middle": ("a...b,b...c->a...c", [(2, 3, 4), (4, 3, 5)]),
    "scalar": (",i->i", [(), (3,)]),
    "white_space": (" b i d , b j d -> b i j ", [(2, 3, 4), (2, 5, 4)]),
}


def _module(equation: str, shapes: Sequence[Sequence[int]], element: str = "f32") -> lowpass.Model:
    g = GraphBuilder()
    element_type = {"f32": f32, "i32": i32}[element]
    inputs = [g.input(f"x{k}", list(s), element_type) for k, s in enumerate(shapes)]
    g.output(g.value(EinsumOp(inputs, equation, name="einsum")), "y")
    return lowpass.Model(g.module())


def _feeds(shapes: Sequence[Sequence[int]], dtype: type = np.float32) -> dict[str, np.ndarray]:
    if dtype == np.int32:
        return {f"x{k}": RNG.integers(-5, 6, s).astype(np.int32) for k, s in enumerate(shapes)}
    return {f"x{k}": RNG.standard_normal(s).astype(dtype) for k, s in enumerate(shapes)}


def _reference(model: lowpass.Model, feeds: dict[str, np.ndarray]) -> np.ndarray:
    return np.asarray(lowpass.Core().compile_model(model, "REFERENCE")(feeds)["y"])


@pytest.mark.parametrize("case", list(CASES))
def test_reference_is_numpy_einsum(case: str) -> None:
    equation, shapes = CASES[case]
    feeds = _feeds(shapes)
    want = np.einsum(equation.replace(" ", ""), *(x.astype(np.float64) for x in feeds.values()))
    got = _reference(_module(equation, shapes), feeds)
    assert got.shape == want.shape and got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_an_output_without_the_inputs_ellipsis_sums_its_axes() -> None:
    """OpenVINO's rule (numpy refuses the equation)."""
    feeds = _feeds([(2, 3, 4, 5)])
    got = _reference(_module("...ij->ij", [(2, 3, 4, 5)]), feeds)
    np.testing.assert_allclose(got, feeds["x0"].astype(np.float64).sum((0, 1)), rtol=1e-6)


def test_integers_wrap_in_their_type() -> None:
    """i32: exact sums in int64, wrapped to int32 as OpenVINO's int32 arithmetic."""
    a = np.full((2, 3), 2**30, np.int32)
    b = np.full((3,), 3, np.int32)
    got = _reference(_module("ij,j->i", [(2, 3), (3,)], "i32"), {"x0": a, "x1": b})
    want = (a.astype(np.int64) @ b.astype(np.int64)).astype(np.int32)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(
    ("equation", "inputs", "output"),
    [
        ("ij,jk", ["ij", "jk"], "ik"),
        ("bA,Cb", ["bA", "Cb"], "AC"),  # upper case sorts first
        ("...ij,...jk", ["...ij", "...jk"], "...ik"),
        ("i,i", ["i", "i"], ""),
        ("ii,i", ["ii", "i"], ""),
        ("ij->ji", ["ij"], "ji"),
        ("i , j->  ij", ["i", "j"], "ij"),
        (",", ["", ""], ""),
    ],
)
def test_parse(equation: str, inputs: list[str], output: str) -> None:
    parsed = EinsumEquation.parse(equation)
    assert ["".join(labels) for labels in parsed.inputs] == inputs
    assert "".join(parsed.output) == output
    assert parsed.explicit == ("->" in equation)


@pytest.mark.parametrize(
    ("equation", "shapes", "result"),
    [
        ("bhid,bhjd->bhij", [(DYNAMIC, 3, DYNAMIC, 5), (2, 3, 6, DYNAMIC)], (2, 3, DYNAMIC, 6)),
        ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)], (2, 5, 3, 2)),
        ("...ij,...jk->...ik", [(DYNAMIC, 3, 4), (1, 4, 2)], (DYNAMIC, 3, 2)),
        ("i,i->i", [(1,), (DYNAMIC,)], (DYNAMIC,)),
        ("ij->...ij", [(2, 3)], (2, 3)),
        ("ii->i", [(DYNAMIC, 4)], (4,)),
    ],
)
def test_builder_infers_the_shape(equation: str, shapes: list[tuple[int, ...]],
                                  result: tuple[int, ...]) -> None:  # fmt: skip
    block = Block(arg_types=[tensor(s, f32) for s in shapes])
    op = EinsumOp(block.args, equation)
    assert shape_of(op.result) == result
    assert op.equation.data == equation.replace(" ", "")


@pytest.mark.parametrize(
    ("equation", "shapes", "message"),
    [
        ("ij,jk->ik", [(2, 3)], "equation 'ij,jk->ik' has 2 input subscripts, but the op has 1 "
                                "operands"),
        ("i#->i", [(2, 3)], r"input subscript 'i#' of equation 'i#->i' must be letters and at "
                            r"most one '\.\.\.'"),
        ("ii", [(3, 3)], "the implicit output of equation 'ii' repeats label 'i'"),
        ("ij,jk->ik", [(2, 3), (4, 5)], "label 'j' has dimension 3 in operand 0 and 4 in "
                                        "operand 1"),
        ("...i,...i->...", [(2, 3), (4, 3)], r"the dimensions under '\.\.\.' do not broadcast: "
                                             r"\[2\] in operand 0 and \[4\] in operand 1"),
    ],
)  # fmt: skip
def test_builder_errors_are_one_line(equation: str, shapes: list[tuple[int, ...]],
                                     message: str) -> None:  # fmt: skip
    block = Block(arg_types=[tensor(s, f32) for s in shapes])
    with pytest.raises(VerifyException, match=message) as error:
        EinsumOp(block.args, equation)
    assert "\n" not in str(error.value)


# ---- against OpenVINO -------------------------------------------------------------------------

@pytest.mark.parametrize("case", list(CASES))
def test_matches_openvino(case: str) -> None:
    openvino = pytest.importorskip("openvino")
    ops = pytest.importorskip("openvino.opset7")
    equation, shapes = CASES[case]
    params = [ops.parameter(list(s), np.float32) for s in shapes]
    # (OpenVINO's constructor drops white space, its Python factory refuses it)
    theirs = openvino.Model([ops.einsum(params, equation.replace(" ", ""))], params)
    compiled = openvino.Core().compile_model(theirs, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    feeds = _feeds(shapes)
    want = np.asarray(compiled(list(feeds.values()))[compiled.outputs[0]])
    got = _reference(_module(equation, shapes), feeds)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
