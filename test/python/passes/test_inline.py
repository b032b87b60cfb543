"""
The `inline` pass (MLIR's inliner for func.call and TensorFlow's calls): the inlined module
computes the same values (REFERENCE device, random inputs, exact: the same ops run), nested
and repeated calls, the threshold option, and errors that leave the module unchanged.
"""

from __future__ import annotations

from io import StringIO

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer

import lowpass
from lowpass.ir import make_context, parse_module
from lowpass.passes import get_all_passes
from lowpass.passes.inline import InlineError, InlinePass

CALLS = """\
func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = func.call @add_relu(%x, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = func.call @twice(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = func.call @add_relu(%1, %x) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %1, %2 : tensor<2x3xf32>, tensor<2x3xf32>
}
func.func private @add_relu(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = ov.add %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = ov.relu %0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %1 : tensor<2x3xf32>
}
func.func private @twice(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = func.call @add_relu(%a, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = ov.multiply %0, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %1 : tensor<2x3xf32>
}
"""


def text(module: ModuleOp) -> str:
    out = StringIO()
    Printer(stream=out, print_debuginfo=True).print_op(module)
    return out.getvalue()


def parse(source: str) -> ModuleOp:
    module, _ = parse_module(source, make_context(allow_unregistered=True), "calls.mlir")
    return module


def infer(module: ModuleOp, inputs: list[np.ndarray]) -> list[np.ndarray]:
    compiled = lowpass.Core().compile_model(module.clone(), "REFERENCE")
    return list(compiled.create_infer_request().infer(inputs).to_tuple())


def test_registered() -> None:
    assert get_all_passes()["inline"]() is InlinePass


def test_inlined_module_computes_the_same(rng: np.random.Generator) -> None:
    module = parse(CALLS)
    inputs = [rng.standard_normal((2, 3)).astype(np.float32) for _ in range(2)]
    want = infer(module, inputs)
    InlinePass().apply(make_context(allow_unregistered=True), module)
    module.verify()
    assert [f.sym_name.data for f in module.ops if isinstance(f, func.FuncOp)] == ["main"]
    assert not [op for op in module.walk() if op.name == "func.call"]
    assert len([op for op in module.walk() if op.name == "ov.relu"]) == 3
    got = infer(module, inputs)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, w)


def test_threshold_leaves_big_callees() -> None:
    module = parse(CALLS)
    # @twice (3 ops once its call is inlined: 4) is more than 50% of @main (4 ops): it stays,
    # @add_relu (3 ops) too; nothing is inlined into @main, @twice gets @add_relu (3 of 3: 100%
    # > 50%) neither.
    InlinePass(inlining_threshold=50).apply(make_context(allow_unregistered=True), module)
    assert len([op for op in module.walk() if op.name == "func.call"]) == 4
    module = parse(CALLS)
    InlinePass(inlining_threshold=100).apply(make_context(allow_unregistered=True), module)
    main = next(f for f in module.ops if isinstance(f, func.FuncOp))
    assert not [op for op in main.walk() if op.name == "func.call"]


RECURSIVE = """\
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @g(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = func.call @f(%0) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %1 : tensor<2xf32>
}
func.func private @g(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = ov.relu %x : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
func.func private @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = ov.relu %x : (tensor<2xf32>) -> tensor<2xf32>
  %1 = func.call @h(%0) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %1 : tensor<2xf32>
}
func.func private @h(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @f(%x) : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}
"""


def test_recursion_is_refused_and_the_module_unchanged() -> None:
    module = parse(RECURSIVE)
    before = text(module)
    with pytest.raises(InlineError) as info:  # after @g was inlined
        InlinePass().apply(make_context(allow_unregistered=True), module)
    assert str(info.value) == (
        "calls.mlir:16:3: error: 'func.call' op calls @f recursively (main -> f -> h -> f)"
    )
    assert text(module) == before


MISMATCHED = {
    "operands": (
        '"tf.PartitionedCall"(%0, %0) {f = @g} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>',
        "passes 2 operands to @g, which takes 1",
    ),
    "types": (
        '"tf.PartitionedCall"(%0) {f = @g} : (tensor<2xf32>) -> tensor<3xf32>',
        "result #0 has type tensor<3xf32>, @g returns tensor<2xf32>",
    ),
}


@pytest.mark.parametrize("case", sorted(MISMATCHED))
def test_mismatched_calls_are_errors(case: str) -> None:
    call, message = MISMATCHED[case]
    source = f"""\
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {{
  %0 = func.call @g(%x) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = {call}
  func.return %0 : tensor<2xf32>
}}
func.func private @g(%x: tensor<2xf32>) -> tensor<2xf32> {{
  func.return %x : tensor<2xf32>
}}
"""
    if case == "types":
        use = '"tf.Use"(%1) : (tensor<3xf32>) -> ()'
        source = source.replace("func.return %0", f"{use}\n  func.return %0")
    module = parse(source)
    before = text(module)
    with pytest.raises(InlineError) as info:  # after the first call was inlined
        InlinePass().apply(make_context(allow_unregistered=True), module)
    assert str(info.value) == f"calls.mlir:3:3: error: 'tf.PartitionedCall' op {message}"
    assert text(module) == before


def test_bad_threshold() -> None:
    with pytest.raises(InlineError, match="inlining-threshold must be"):
        InlinePass(inlining_threshold=-5).apply(make_context(), parse(CALLS))


def test_nested_ops_get_call_site_locations() -> None:
    """As MLIR's inliner, every inlined op (nested ones too) is at callsite(its at the call)."""
    module = parse(
        """\
func.func @main() {
  func.call @f() : () -> ()
  func.return
}
func.func private @f() {
  "tf.Outer"() ({
    "tf.Inner"() : () -> ()
  }) : () -> ()
  func.return
}
"""
    )
    InlinePass().apply(make_context(allow_unregistered=True), module)
    out = text(module)
    assert 'loc(callsite("calls.mlir":7:5 at "calls.mlir":2:3))' in out  # tf.Inner
    assert 'loc(callsite("calls.mlir":6:3 at "calls.mlir":2:3))' in out  # tf.Outer
