"""
Typed helpers of the lowering tests (imported relatively: `from .typed import ...`; pytest
imports the tests as modules of the package `test.python.lowering`): the CPU device's compiled
model behind a `CompiledModel`, a port's static shape, the geometry keywords of convolutions
and poolings, and FakeQuantize's four limits as a tuple, so that pyright checks the calls;
and `lowpass-run`'s error under an environment variable.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TypedDict, TypeVar

from xdsl.ir import Attribute

import lowpass
from lowpass.lowering.compiler import CompiledGraph
from lowpass.runtime.cpu import CpuCompiledModel

T = TypeVar("T")


def cpu_model(compiled: lowpass.CompiledModel) -> CpuCompiledModel:
    """The CPU device's compiled model (`compiled.device_model`) of a model compiled for CPU."""
    device = compiled.device_model
    assert isinstance(device, CpuCompiledModel), type(device)
    return device


def cpu_graph(compiled: lowpass.CompiledModel) -> CompiledGraph:
    """The compiled graph of a model compiled for CPU (its last shapes' if dynamic)."""
    return cpu_model(compiled).graph


def static_shape(dims: Sequence[int | None]) -> tuple[int, ...]:
    """A port's shape with every dimension known (a dynamic one raises TypeError, as
    `int(None)` does)."""
    shape = tuple(d for d in dims if d is not None)
    if len(shape) != len(dims):
        raise TypeError(f"a dynamic dimension in {tuple(dims)}")
    return shape


def four(values: Iterable[T]) -> tuple[T, T, T, T]:
    """FakeQuantize's limits (input low, input high, output low, output high) as a tuple."""
    il, ih, ol, oh = values
    return il, ih, ol, oh


class ConvGeometry(TypedDict):
    """The geometry keywords of `ov.ConvolutionOp` (and its group and quantized forms)."""

    strides: Sequence[int]
    pads_begin: Sequence[int]
    pads_end: Sequence[int]
    dilations: Sequence[int]


class PoolGeometry(TypedDict):
    """The geometry keywords of `ov.MaxPoolOp` and `ov.AvgPoolOp`."""

    strides: Sequence[int]
    pads_begin: Sequence[int]
    pads_end: Sequence[int]
    kernel: Sequence[int]


class ResultType(TypedDict, total=False):
    """An op's optional `result_type` keyword, spread into its constructor (`**typed(...)`)."""

    result_type: Attribute


def lowpass_run_error(model: Path, variable: str, value: str) -> str:
    """What `lowpass-run MODEL` on the CPU device prints to stderr with the environment
    variable `variable` set to `value`, where it must fail (exit code 1)."""
    result = subprocess.run(
        ["lowpass-run", str(model), "--random-inputs", "0", "--device", "CPU"],
        capture_output=True, text=True, env={**os.environ, variable: value}, timeout=600,
    )  # fmt: skip
    assert result.returncode == 1, result.stderr
    return result.stderr
