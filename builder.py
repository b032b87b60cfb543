"""
Building `ov` graphs from Python.

    g = GraphBuilder("main")
    x = g.input("data", [1, 3, 32, 32])
    w = g.constant(weights, name="conv1/weights")
    y = g.op(ov.ConvolutionOp(x, w, strides=[1, 1], ...))      # result type inferred
    g.output(y, "conv1")
    module = g.module()

The builder appends ops to the body of a `func.func`; inputs carry `ov.name` argument
attributes and outputs `ov.name` result attributes (see docs/names.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

import numpy as np
import numpy.typing as npt
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, FunctionType, ModuleOp, StringAttr
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from lowpass.dialects.ov import NAME_ATTR, ConstantOp, f32, tensor

_OpT = TypeVar("_OpT", bound=Operation)


class GraphBuilder:
    """Appends ops to a new graph function; `module()` returns the finished module."""

    def __init__(self, name: str = "main") -> None:
        self.name = name
        self.block = Block()
        self._input_names: list[str] = []
        self._outputs: list[tuple[SSAValue, str | None]] = []

    def input(self, name: str, shape: Sequence[int], element_type: Attribute = f32) -> SSAValue:
        arg = self.block.insert_arg(tensor(shape, element_type), len(self.block.args))
        arg.name_hint = name if name.isidentifier() else None
        self._input_names.append(name)
        return arg

    def constant(
        self, array: npt.ArrayLike, name: str | None = None, element_type: Attribute | None = None
    ) -> SSAValue:
        return self.op(ConstantOp.from_array(np.asarray(array), element_type, name=name)).results[0]

    def op(self, operation: _OpT) -> _OpT:
        self.block.add_op(operation)
        return operation

    def value(self, operation: Operation) -> SSAValue:
        """Append a one-result op and return its result."""
        return self.op(operation).results[0]

    def output(self, value: SSAValue, name: str | None = None) -> None:
        self._outputs.append((value, name))

    def module(self) -> ModuleOp:
        self.block.add_op(func.ReturnOp(*(v for v, _ in self._outputs)))
        function_type = FunctionType.from_lists(
            [a.type for a in self.block.args], [v.type for v, _ in self._outputs]
        )
        function = func.FuncOp(self.name, function_type, Region(self.block))
        function.arg_attrs = _dicts(self._input_names)
        function.res_attrs = _dicts([n for _, n in self._outputs])
        return ModuleOp([function])


def _dicts(names: Sequence[str | None]) -> ArrayAttr[DictionaryAttr]:
    return ArrayAttr(
        [DictionaryAttr({NAME_ATTR: StringAttr(n)} if n is not None else {}) for n in names]
    )
