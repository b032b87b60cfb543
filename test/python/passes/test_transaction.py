"""
`lowpass.passes.transaction`: every pass that can fail half-way leaves the module textually
identical (locations included) when it fails, later diagnostics still point at file:line:col,
and a pass that succeeds changes the module's own ops in place (no copy of every op).
"""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.printer import Printer
from xdsl.rewriter import Rewriter

from lowpass.dialects import ov
from lowpass.ir import find_location, make_context, parse_module
from lowpass.passes import prepare_composite_functions as pcf
from lowpass.passes.conversion.tfl_to_ov import TflToOvError, TflToOvPass
from lowpass.passes.low_latency2 import LowLatency2Pass
from lowpass.passes.lpt import attributes as A
from lowpass.passes.lpt.pipeline import run_lpt
from lowpass.passes.reshape import ReshapeError, ReshapePass
from lowpass.passes.transaction import module_transaction, module_trial

INPUTS = Path(__file__).parents[2] / "passes" / "Inputs"


def text(module: Operation) -> str:
    """The module with every op's location (`loc(...)`), so that a lost location shows."""
    out = StringIO()
    Printer(stream=out, print_debuginfo=True).print_op(module)
    return out.getvalue()


def parse(source: str, filename: str = "m.mlir") -> ModuleOp:
    module, _ = parse_module(source, make_context(allow_unregistered=True), filename)
    return module


RELUS = """\
func.func @main(%x: tensor<2x3xf32> {ov.name = "x"}) -> tensor<2x3xf32> {
  %0 = ov.relu %x {ov.name = "a"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = ov.relu %0 {ov.name = "b"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %1 : tensor<2x3xf32>
}
"""


# ---- the helper -------------------------------------------------------------------------------


def test_rollback_restores_the_contents_in_place() -> None:
    module = parse(RELUS)
    before = text(module)
    relu = next(op for op in module.walk() if isinstance(op, ov.ReluOp))
    transaction = None
    with pytest.raises(RuntimeError, match="half-way"):
        with module_transaction(module) as transaction:
            assert transaction.snapshot_of(relu) is not None
            relu.results[0].replace_all_uses_with(relu.operands[0])
            Rewriter.erase_op(relu)
            module.attributes["changed"] = StringAttr("yes")
            raise RuntimeError("half-way")
    assert text(module) == before
    assert transaction is not None
    restored = transaction.snapshot_of(relu)
    assert restored is not None and restored.parent_op() is not None
    assert find_location(restored) == "m.mlir:2:3"
    assert transaction.snapshot_of(module) is module
    module.verify()


def test_success_keeps_the_ops() -> None:
    module = parse(RELUS)
    ops = list(module.walk())
    with module_transaction(module):
        pass
    assert list(module.walk()) == ops  # the same objects, not copies


def test_trial_always_rolls_back() -> None:
    module = parse(RELUS)
    before = text(module)
    with module_trial(module):
        relu = next(op for op in module.walk() if isinstance(op, ov.ReluOp))
        relu.attributes["tried"] = StringAttr("yes")
    assert text(module) == before


# ---- the passes: a failure leaves the module as it was ------------------------------------------


def test_low_latency2_failure() -> None:
    path = INPUTS / "low-latency2-duplicate.mlir"
    module = parse(path.read_text(), "dup.mlir")
    before = text(module)
    with pytest.raises(Exception, match="already exists"):
        LowLatency2Pass().apply(make_context(), module)
    assert text(module) == before


def test_low_latency2_success_changes_the_ops_in_place() -> None:
    """The clone-and-swap this replaces handed back a copy of every op, the function too."""
    source = (INPUTS / "low-latency2-duplicate.mlir").read_text().replace('"rnn",', '"rnn2",', 1)
    module = parse(source)
    function = next(op for op in module.ops if isinstance(op, func.FuncOp))
    LowLatency2Pass().apply(make_context(), module)
    assert any(isinstance(op, ov.AssignOp) for op in function.walk())
    assert function.parent_op() is module


RESHAPE = """\
func.func @main(%x: tensor<2x1x16xf32> {ov.name = "X"}) -> tensor<2x16xf32> {
  %s = ov.constant dense<[2, 16]> : tensor<2xi64> {ov.name = "seq/shape"}
  %y = ov.reshape %x, %s special_zero = false {ov.name = "seq/squeeze"} : (tensor<2x1x16xf32>, tensor<2xi64>) -> tensor<2x16xf32>
  %r = ov.relu %y : (tensor<2x16xf32>) -> tensor<2x16xf32>
  func.return %r : tensor<2x16xf32>
}
"""  # noqa: E501


def test_reshape_failure_and_later_locations() -> None:
    module = parse(RESHAPE, "r.mlir")
    before = text(module)
    with pytest.raises(ReshapeError) as info:
        ReshapePass(inputs=("X:1x1x16",)).apply(make_context(), module)
    lines = str(info.value).splitlines()
    assert lines[0].startswith("r.mlir:3:3: error: 'ov.reshape' op \"seq/squeeze\"")
    assert lines[1].startswith("r.mlir:2:3: note:")
    assert 'replace-constants="seq/shape:-1x16"' in lines[1]  # the trials ran on the module
    assert text(module) == before
    # A second failure, after the rollback: still at the op's file:line:col.
    with pytest.raises(ReshapeError, match=r"^r\.mlir:3:3: error"):
        ReshapePass(inputs=("X:1x1x16",)).apply(make_context(), module)
    assert text(module) == before


TFL = """\
func.func @main(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = "func.call"(%x) <{callee = @f}> : (tensor<2x3xf32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}
func.func private @f(%b: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %perm = arith.constant dense<[1, 0]> : tensor<2xi32>
  %0 = "tfl.transpose"(%b, %perm) : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<3x2xf32>
  %1 = "tf.Foo"(%0) : (tensor<3x2xf32>) -> tensor<3x2xf32>
  func.return %1 : tensor<3x2xf32>
}
"""


def test_tfl_to_ov_failure_after_inlining_and_converting() -> None:
    module = parse(TFL, "t.mlir")
    before = text(module)
    with pytest.raises(TflToOvError, match=r"^t\.mlir:8:3: error: 'tf\.Foo' op"):
        TflToOvPass().apply(make_context(allow_unregistered=True), module)
    assert text(module) == before
    # the ops are the module's and keep their positions: a second run says the same
    with pytest.raises(TflToOvError, match=r"^t\.mlir:8:3: error: 'tf\.Foo' op"):
        TflToOvPass().apply(make_context(allow_unregistered=True), module)


def test_tfl_to_ov_success_changes_the_ops_in_place() -> None:
    module = parse(TFL.replace('%1 = "tf.Foo"(%0)', '%1 = "tf.Identity"(%0)'))
    main = next(op for op in module.ops if isinstance(op, func.FuncOp))
    TflToOvPass().apply(make_context(allow_unregistered=True), module)
    assert list(module.ops) == [main]
    assert any(isinstance(op, ov.TransposeOp) for op in main.walk())


class _HalfDone:
    """A plan that changes the module, then fails (what a bug in a plan's apply does)."""

    def __init__(self, module: ModuleOp) -> None:
        self.module = module

    def apply(self) -> None:
        relu = next(op for op in self.module.walk() if isinstance(op, ov.ReluOp))
        relu.results[0].replace_all_uses_with(relu.operands[0])
        Rewriter.erase_op(relu)
        raise RuntimeError("plan failed half-way")


def test_prepare_composite_functions_failure_while_applying(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    module = parse(RELUS)
    before = text(module)
    monkeypatch.setattr(pcf, "analyze_bidirectional", lambda module, *_: [_HalfDone(module)])
    with pytest.raises(RuntimeError, match="half-way"):
        pcf.PrepareCompositeFunctionsPass().apply(make_context(), module)
    assert text(module) == before


LPT = """\
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = ov.relu %x {lpt.disable_cleanup} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
"""


def test_lpt_failure_keeps_the_markup_in_the_ir() -> None:
    """run_lpt strips the lpt.* attributes first: an error afterwards lost them."""
    module = parse(LPT)
    before = text(module)
    assert "lpt.disable_cleanup" in before
    with pytest.raises(KeyError, match="unknown LPT transformation 'Typo'"):
        run_lpt(module, steps=("main",), main=("Typo",))
    assert text(module) == before


def test_lpt_rollback_keeps_what_earlier_runs_kept() -> None:
    """What LPT keeps in memory for an op (keyed by the op) follows the op's restored copy."""
    module = parse(RELUS)
    relu = next(op for op in module.walk() if isinstance(op, ov.ReluOp))
    A._kept[relu] = {A.DISABLE_CLEANUP: True}
    with pytest.raises(KeyError):
        run_lpt(module, steps=("main",), main=("Typo",))
    restored = next(op for op in module.walk() if isinstance(op, ov.ReluOp))
    assert restored is not relu
    assert A._kept.get(restored) == {A.DISABLE_CLEANUP: True}


def test_single_lpt_transformation_pass_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test-lpt-<name> passes that do not go through run_lpt are protected too."""
    from lowpass.passes import get_all_passes
    from lowpass.passes.lpt import graph

    def half_done(block: object) -> None:
        relu = next(op for op in module.walk() if isinstance(op, ov.ReluOp))
        relu.results[0].replace_all_uses_with(relu.operands[0])
        Rewriter.erase_op(relu)
        raise RuntimeError("erase_dead_ops failed half-way")

    module = parse(RELUS)
    before = text(module)
    monkeypatch.setattr(graph, "erase_dead_ops", half_done)
    for name in ("test-lpt-pull-reshape-through-dequantization", "test-lpt-fold-convert"):
        with pytest.raises(RuntimeError, match="half-way"):
            get_all_passes()[name]()().apply(make_context(), module)
        assert text(module) == before
