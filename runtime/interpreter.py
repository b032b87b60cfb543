"""
The reference interpreter: runs a `func.func` graph of `ov` ops on numpy arrays.

It is `xdsl.interpreter.Interpreter` with `func` and the implementations of the dialects' ops
(`lowpass.dialects.interpret`): each `ov` or `tfl` op runs by its `interpret` method, which is
its `evaluate` (numpy meaning, defined next to the op) unless the op needs the interpreter
itself (bodies, variables) and overrides `interpret`.

Variables (`ov.variable`) live in the executor, not in the model: each `ReferenceExecutor`
(one per infer request) owns a `VariableStore` that its `ov.read_value` / `ov.assign` ops read
and write, in the nested regions of a run as well, and that is kept across runs.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import Interpreter
from xdsl.interpreters.func import FuncFunctions
from xdsl.ir import Operation

from lowpass.dialects.graph import entry_function, op_display_name, op_type_name
from lowpass.dialects.interpret import dialect_functions
from lowpass.dialects.ov.state import VariableStore, attach_variable_store, module_variables


@dataclass
class OpTiming:
    """Wall time of every op execution, collected by an interpreter listener."""

    times: dict[Operation, float] = field(default_factory=dict)
    counts: dict[Operation, int] = field(default_factory=dict)
    _start: float = 0.0

    current: Operation | None = None
    """The op being run (the one that failed, if a run fails)."""

    def will_interpret_op(self, op: Operation, args: tuple[Any, ...]) -> None:
        self.current = op
        self._start = time.perf_counter()

    def did_interpret_op(self, op: Operation, results: tuple[Any, ...]) -> None:
        elapsed = time.perf_counter() - self._start
        self.times[op] = self.times.get(op, 0.0) + elapsed
        self.counts[op] = self.counts.get(op, 0) + 1


class _Listener(Interpreter.Listener):
    def __init__(self, timing: OpTiming) -> None:
        self.timing = timing

    def will_interpret_op(self, op: Operation, args: tuple[Any, ...]) -> None:
        self.timing.will_interpret_op(op, args)

    def did_interpret_op(self, op: Operation, results: tuple[Any, ...]) -> None:
        self.timing.did_interpret_op(op, results)


class ReferenceExecutor:
    """
    Runs one module's entry function on numpy inputs; keeps interpreter state between runs,
    in particular the values of the module's variables (`variables`).
    """

    def __init__(self, module: ModuleOp, *, timing: OpTiming | None = None) -> None:
        self.module = module
        self.function = entry_function(module)
        listeners = (_Listener(timing),) if timing is not None else ()
        self.interpreter = Interpreter(module, listeners=listeners)
        self.interpreter.register_implementations(FuncFunctions())
        self.interpreter.register_implementations(dialect_functions())
        self.variables = VariableStore(module_variables(module))
        """Variable id -> value and reset flag: the state of this executor's infer request."""
        attach_variable_store(self.interpreter, self.variables)

    def run(self, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        results = self.interpreter.call_op(self.function, tuple(inputs))
        return [np.asarray(r) for r in results]


def run_reference(module: ModuleOp, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Run the module's entry function once in the reference interpreter."""
    return ReferenceExecutor(module).run(inputs)


__all__ = [
    "OpTiming",
    "ReferenceExecutor",
    "entry_function",
    "op_display_name",
    "op_type_name",
    "run_reference",
]
