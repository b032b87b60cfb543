"""
The CPU pipeline's passes as xDSL runs them (`CpuPass.apply`) raise what they cannot compile as
MLIR's diagnostic, a `PassFailedException` (`CpuPipelineError`): `file:line:col: error: ...` at
the op the error is about, else `<pass>: error: ...`, as lowpass's other passes, so that a
caller that catches `DiagnosticException` (docs/embedding.md) catches them. The runtime's
compile path (`run_pipeline`, `compile_module`) keeps `CompileError` and its message.
"""

from __future__ import annotations

import io
import re

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException, PassFailedException

from lowpass.ir import parse_module
from lowpass.lowering import pipeline
from lowpass.lowering.compiler import LlvmTarget
from lowpass.lowering.emit import CompileError
from lowpass.lowering.pipeline import (
    PASSES,
    DecomposePass,
    QuantizeCellsPass,
    SelectKernelsPass,
    run_pipeline,
)

DYNAMIC = """func.func @main(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  func.return %x : tensor<?x4xf32>
}
"""

EDITED = """func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %y = ov.relu %x {ov.name = "relu", cpu.kernel = #cpu.kernel<0, "elementwise">, cpu.quantized = #cpu.quantized_cell<x 256, h 256, weights 127, gemms 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}
"""  # noqa: E501 (the Relu at line 2, column 3)

STATIC_SHAPES = "the CPU device needs static shapes: input #0 ('x') has type tensor<?x4xf32>"
QUANTIZED = "Relu 'relu': only LSTMCell and RNNCell take cpu.quantized"


def _module(text: str) -> ModuleOp:
    return parse_module(text, filename="m.mlir")[0]


def test_a_failing_pass_leaves_the_module_as_it_was() -> None:
    """`cpu-select-kernels` clears the kernel choices before it reads the groups; failing
    there, it puts them back (a `Transaction`, as every lowpass pass)."""
    chosen = EDITED.replace('cpu.kernel =', 'cpu.algorithm = #cpu<algorithm im2col>, cpu.kernel =')
    module = _module(chosen)
    before = str(module)
    assert "cpu.algorithm" in before
    with pytest.raises(pipeline.CpuPipelineError):
        SelectKernelsPass().apply(Context(), module)
    assert str(module) == before


def test_an_error_at_an_op_is_a_diagnostic_at_its_position() -> None:
    module = _module(EDITED)
    with pytest.raises(DiagnosticException) as info:
        SelectKernelsPass().apply(Context(), module)
    assert isinstance(info.value, PassFailedException)
    assert str(info.value) == f"m.mlir:2:3: error: {QUANTIZED}"
    assert isinstance(info.value, pipeline.CpuPipelineError)
    assert isinstance(info.value.error, CompileError)  # (its op, for a caller that wants it)
    assert info.value.error.op is next(o for o in module.walk() if o.name == "ov.relu")


@pytest.mark.parametrize(
    "cls", [p for p in PASSES if p not in (DecomposePass, QuantizeCellsPass)],
    ids=lambda p: p.name,
)
def test_an_error_without_an_op_names_the_pass(cls: type[ModulePass]) -> None:
    """Every pass that reads the graph checks its shapes first (each may run alone)."""
    with pytest.raises(PassFailedException) as info:
        cls().apply(Context(), _module(DYNAMIC))
    assert str(info.value).startswith(f"{cls.name}: error: {STATIC_SHAPES}; reshape the model")


def test_the_llvm_target_reports_as_the_passes() -> None:
    target = LlvmTarget()
    with pytest.raises(PassFailedException, match=re.escape(f"m.mlir:2:3: error: {QUANTIZED}")):
        target.emit(Context(), _module(EDITED), io.StringIO())
    with pytest.raises(PassFailedException, match=r"^cpu-llvm: error: the CPU device needs"):
        target.emit(Context(), _module(DYNAMIC), io.StringIO())


def test_the_compile_path_keeps_its_compile_error() -> None:
    """`run_pipeline` (the runtime's compile path) raises CompileError, its text the message
    alone (the runtime's own errors name the model: `CpuConfigError`), its op the one named."""
    with pytest.raises(CompileError) as info:
        run_pipeline(_module(EDITED))
    assert not isinstance(info.value, DiagnosticException)
    assert str(info.value) == QUANTIZED
    assert info.value.located() == f"m.mlir:2:3: error: {QUANTIZED}"
    with pytest.raises(CompileError, match=f"^{re.escape(STATIC_SHAPES)}"):
        run_pipeline(_module(DYNAMIC))
