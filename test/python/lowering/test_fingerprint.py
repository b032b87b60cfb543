# ruff: noqa: E501  (MLIR test models are kept on one line per op)
"""
The compile cache's key (lowering/fingerprint.py): modules that could compile differently get
different keys (one weight, one attribute, the wiring, the names of inputs and outputs), the
same module parsed twice gets the same key, the key never prints a constant, and a cache hit
still computes the right thing.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType, i32
from xdsl.ir import Attribute
from xdsl.printer import Printer

import lowpass
from lowpass.lowering import compiler as compiler_module
from lowpass.lowering.fingerprint import dense_digest, module_fingerprint

MODEL = """
builtin.module {
  func.func @main(%x: tensor<2x4xf32> {ov.name = "x"}, %z: tensor<2x4xf32> {ov.name = "z"}) -> (tensor<2x4xf32> {ov.name = "y"}) {
    %w = ov.constant dense<[[0.5, -1.0, 2.0, 0.25], [1.5, 3.0, -0.5, 4.0]]> : tensor<2x4xf32> {ov.name = "w"}
    %a = ov.subtract %x, %w {ov.name = "sub"} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %m = ov.multiply %a, %z : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %y = ov.clamp %m min = 0.0 max = 6.0 {ov.name = "y"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    func.return %y : tensor<2x4xf32>
  }
}
"""


def key(text: str) -> str:
    return module_fingerprint(lowpass.read_module(text))


def test_the_same_module_parsed_twice_has_the_same_key() -> None:
    assert key(MODEL) == key(MODEL)
    module = lowpass.read_module(MODEL)
    assert module_fingerprint(module.clone()) == module_fingerprint(module)


@pytest.mark.parametrize(
    "old, new",
    [
        ("0.25], [1.5", "0.2500001], [1.5"),  # one weight
        ("min = 0.0", "min = -0.0"),  # one attribute (0.0 == -0.0 in Python)
        ("max = 6.0", "max = 6.5"),
        ("ov.subtract %x, %w", "ov.subtract %w, %x"),  # wiring
        ("ov.multiply %a, %z", "ov.multiply %a, %x"),
        ('{ov.name = "z"}', '{ov.name = "z2"}'),  # input and output names
        ('{ov.name = "y"})', '{ov.name = "out"})'),
        ('{ov.name = "sub"}', '{ov.name = "sub2"}'),  # a node name (profiling, errors)
        ("tensor<2x4xf32>", "tensor<2x4xf16>"),  # types
    ],
)
def test_modules_that_compile_differently_have_different_keys(old: str, new: str) -> None:
    assert old in MODEL
    changed = MODEL.replace(old, new)
    if "f16" in new:
        changed = changed.replace("f32>", "f16>")
    assert key(changed) != key(MODEL)


def test_ssa_names_count_an_input_without_ov_name_is_named_after_them() -> None:
    text = MODEL.replace(' {ov.name = "x"}', "")
    renamed = text.replace("%x", "%data")
    assert key(renamed) != key(text)
    core = lowpass.Core()
    assert [p.name for p in core.compile_model(core.read_model(text), "CPU").inputs] == ["x", "z"]
    compiled = core.compile_model(core.read_model(renamed), "CPU")
    assert [p.name for p in compiled.inputs] == ["data", "z"]


def test_the_key_does_not_print_constants(monkeypatch: pytest.MonkeyPatch) -> None:
    real = Printer.print_attribute

    def no_dense(self: Printer, attribute: Attribute) -> None:
        assert not isinstance(attribute, DenseIntOrFPElementsAttr), "a constant was printed"
        real(self, attribute)

    module = lowpass.read_module(MODEL.replace("2.0, 0.25", "2.0, 0.375"))
    monkeypatch.setattr(Printer, "print_attribute", no_dense)
    first = compiler_module.compile_module(module)
    assert compiler_module.compile_module(module.clone()) is first


def test_a_dense_digest_is_memoised_per_attribute_and_covers_the_type() -> None:
    module = lowpass.read_module(MODEL)
    (attr,) = [op.properties["value"] for op in module.walk() if op.name == "ov.constant"]
    assert isinstance(attr, DenseIntOrFPElementsAttr)
    assert dense_digest(attr) is dense_digest(attr)
    as_int = DenseIntOrFPElementsAttr(TensorType(i32, [2, 4]), attr.data)  # the same bytes
    assert dense_digest(as_int) != dense_digest(attr)


def test_a_cache_hit_is_the_right_model() -> None:
    # two models that differ in one weight: each compiles to its own graph, both stay cached
    core = lowpass.Core()
    one = MODEL.replace("3.0, -0.5", "3.0, -0.625")
    two = MODEL.replace("3.0, -0.5", "3.0, -0.75")
    assert one != MODEL and two != MODEL
    rng = np.random.default_rng(0)
    inputs = {
        "x": rng.uniform(0.5, 1.0, (2, 4)).astype(np.float32),  # x - w inside the clamp
        "z": rng.uniform(0.5, 1.0, (2, 4)).astype(np.float32),
    }
    for _ in range(2):
        for text in (one, two):
            got = core.compile_model(core.read_model(text), "CPU")(inputs)["y"]
            want = core.compile_model(core.read_model(text), "REFERENCE")(inputs)["y"]
            np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    a = core.compile_model(core.read_model(one), "CPU")(inputs)["y"]
    b = core.compile_model(core.read_model(two), "CPU")(inputs)["y"]
    assert not np.array_equal(a, b)


IDENTITY = 'builtin.module { func.func @main(%x: T {ov.name = "x"}) -> (T {ov.name = "x"}) { func.return %x : T } }'


def test_types_and_strings_fed_field_by_field_still_tell_modules_apart() -> None:
    """Tensor types, integer/float types, integers and strings are hashed without printing
    them: changing any of their fields changes the key."""
    types = ["tensor<2x4xf32>", "tensor<8xf32>", "tensor<4x2xf32>", "tensor<2x4xf16>",
             "tensor<2x4xbf16>", "tensor<2x4xi8>", "tensor<2x4xui8>", "tensor<2x4xsi8>",
             "tensor<2x4xi16>", "tensor<2x4xf64>"]
    keys = {key(IDENTITY.replace("T", t)) for t in types}
    assert len(keys) == len(types)
    named = IDENTITY.replace("T", types[0])
    assert key(named) != key(named.replace('"x"', '"y"', 1))
