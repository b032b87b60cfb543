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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_callable,
    impl_terminator,
    register_impls,
)
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.traits import IsolatedFromAbove
from xdsl.utils.exceptions import DiagnosticException, InterpretationError

from lowpass.dialects.graph import entry_function, op_display_name, op_type_name, precision_name
from lowpass.dialects.interpret import (
    dialect_functions,
    implemented_op_types,
    interpreted_op_types,
)
from lowpass.dialects.ov.base import OvOp, check_result_shapes, element_type_of, to_dtype
from lowpass.dialects.ov.conditional import IfOp
from lowpass.dialects.ov.infrastructure import SubGraphOp, YieldOp, data_operands
from lowpass.dialects.ov.state import VariableStore, attach_variable_store, module_variables
from lowpass.runtime.device import (
    ACCEPTED_KEYS,
    DEFAULT_SHAPE_COMPILE_THRESHOLD,
    SHAPE_COMPILE_KEY,
    DeviceError,
    InferenceFailure,
    OpRow,
    check_config_keys,
)
from lowpass.runtime.runtime_model import ExecutedGroup


@dataclass
class OpTiming:
    """Wall time of every op execution: the listener of a request's xDSL interpreter and of its
    `OpProgram`s (which call it as the interpreter calls its listeners)."""

    times: dict[Operation, float] = field(default_factory=dict[Operation, float])
    counts: dict[Operation, int] = field(default_factory=dict[Operation, int])
    _starts: list[float] = field(default_factory=list[float])
    """The start times of the ops being run, innermost last (an op with a body, or a
    `func.call`, is timed around the ops it runs)."""

    current: Operation | None = None
    """The op being run (the one that failed, if a run fails)."""

    def will_interpret_op(self, op: Operation, args: tuple[Any, ...]) -> None:
        self.current = op
        self._starts.append(time.perf_counter())

    def did_interpret_op(self, op: Operation, results: tuple[Any, ...]) -> None:
        elapsed = time.perf_counter() - self._starts.pop()
        self.times[op] = self.times.get(op, 0.0) + elapsed
        self.counts[op] = self.counts.get(op, 0) + 1

    def clear(self) -> None:
        """Forget the last run's times (a run that failed leaves starts behind)."""
        self.times.clear()
        self.counts.clear()
        self._starts.clear()


class _Listener(Interpreter.Listener):
    def __init__(self, timing: OpTiming) -> None:
        self.timing = timing

    def will_interpret_op(self, op: Operation, args: tuple[Any, ...]) -> None:
        self.timing.will_interpret_op(op, args)

    def did_interpret_op(self, op: Operation, results: tuple[Any, ...]) -> None:
        self.timing.did_interpret_op(op, results)


@register_impls
class FuncFunctions(InterpreterFunctions):
    """`func.return`, `func.call` and the call of a `func.func`, as xDSL's
    `xdsl.interpreters.func.FuncFunctions` runs them. Not imported from there: importing any
    module of the `xdsl.interpreters` package runs its `__init__`, which imports every
    dialect's interpreter, RISC-V's too (0.5 s on a Zen 3 host), the first time a process
    creates a REFERENCE request, or a CPU request runs a dynamic model's new shapes."""

    @impl_terminator(func.ReturnOp)
    def run_return(
        self, interpreter: Interpreter, op: func.ReturnOp, args: tuple[Any, ...]
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()

    @impl(func.CallOp)
    def run_call(
        self, interpreter: Interpreter, op: func.CallOp, args: tuple[Any, ...]
    ) -> PythonValues:
        return interpreter.call_op(op.callee, args)

    @impl_callable(func.FuncOp)
    def call_func(
        self, interpreter: Interpreter, op: func.FuncOp, args: tuple[Any, ...]
    ) -> PythonValues:
        first_block = op.body.blocks.first
        if first_block is None or not first_block.ops:
            return interpreter.call_external(op.sym_name.data, op, args)
        return interpreter.run_ssacfg_region(op.body, args, op.sym_name.data)


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
        self._program = OpProgram.of(self.function.body, self.interpreter, timing)

    def run(self, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        # NaN and infinities are values of the model's arithmetic, not events: numpy's
        # RuntimeWarnings ("invalid value encountered in subtract", on NaN inputs) would only
        # print the package's paths on stderr (issue 39)
        with np.errstate(all="ignore"):
            if self._program is not None:
                results = self._program.run(inputs)
            else:
                results = self.interpreter.call_op(self.function, tuple(inputs))
        return [np.asarray(r) for r in results]


@dataclass(frozen=True, slots=True)
class _Step:
    op: Operation
    operands: tuple[int, ...]
    """The slots of the op's operands' values."""
    results: tuple[int, ...]
    run: Callable[[tuple[Any, ...]], Sequence[Any]]
    timed: bool
    """Whether the program calls the timing listener around the op (not when the interpreter
    runs it: the interpreter calls its listener)."""
    checked_shapes: tuple[tuple[int, ...] | None, ...] | None
    """The declared static result shapes `run`'s results are checked against (`OvOp`'s
    `interpret` does so), or None."""
    dead: tuple[int, ...]
    """Slots whose last use this op is: cleared after it, so that a run holds only the live
    tensors (the interpreter's scope keeps every value until the function returns)."""


class OpProgram:
    """
    A block, or a sequence of ops (a CPU graph's fallback group), run as the xDSL interpreter
    runs a block (`run_ssacfg_region`), with its per-op work done once: each op's operand and
    result slots in a list of values, and, for an `ov` op that runs by `evaluate`
    (`OvOp.interpret` not overridden), that method (`OvOp.evaluator`) and the declared shapes
    it is checked against; the bodies of `ov.tensor_iterator`, `ov.loop` and `ov.if` are
    programs too; other ops (variables, `func.call`, other dialects) run through the
    interpreter itself. The interpreter's path costs ~40-50 us an op in scope lookups,
    listener calls and a numpy error state per op: most of the time of a small text model's
    160 ops on a dynamic CPU model's new shape (interpreted until compiled).
    """

    def __init__(
        self,
        arguments: int,
        steps: list[_Step],
        returned: tuple[int, ...],
        slots: int,
        timing: OpTiming | None,
    ) -> None:
        self._arguments = arguments
        self._steps = steps
        self._returned = returned
        self._slots = slots
        self._timing = timing

    @staticmethod
    def of(region: Region, interpreter: Interpreter, timing: OpTiming | None) -> OpProgram | None:
        """The program of a region of one block ended by `func.return` or `ov.yield` (its
        results: the terminator's operands); None for another region (the interpreter runs
        it)."""
        block = region.blocks.first
        if block is None or block.next_block is not None:
            return None
        ops = list(block.ops)
        if not ops or not isinstance(ops[-1], func.ReturnOp | YieldOp):
            return None
        return OpProgram.of_ops(
            ops[:-1], list(block.args), list(ops[-1].operands), interpreter, timing
        )

    @staticmethod
    def of_ops(
        ops: Sequence[Operation],
        arguments: Sequence[SSAValue],
        returned: Sequence[SSAValue],
        interpreter: Interpreter,
        timing: OpTiming | None,
    ) -> OpProgram | None:
        """The program of `ops` (in order) on the values `arguments`, whose results are the
        values `returned`; None if an op reads a value neither given nor computed before it,
        or has a body that could (the interpreter's scope would hold it)."""
        slot: dict[SSAValue, int] = {arg: i for i, arg in enumerate(arguments)}
        last_use: dict[int, int] = {}
        for index, op in enumerate(ops):
            if op.regions and not op.has_trait(IsolatedFromAbove):
                return None
            for operand in op.operands:
                if operand not in slot:
                    return None
                last_use[slot[operand]] = index
            for result in op.results:
                slot[result] = len(slot)
        if any(v not in slot for v in returned):
            return None
        for v in returned:
            last_use[slot[v]] = len(ops)  # (kept to the end)
        dead_after: dict[int, list[int]] = {}
        for value_slot, index in last_use.items():
            dead_after.setdefault(index, []).append(value_slot)
        for index, op in enumerate(ops):  # (results no op reads: dropped at once)
            unused = [slot[r] for r in op.results if slot[r] not in last_use]
            dead_after.setdefault(index, []).extend(unused)
        steps: list[_Step] = []
        implemented = implemented_op_types()
        for index, op in enumerate(ops):
            run, timed, checked = _runner(op, interpreter, timing, implemented)
            steps.append(_Step(
                op, tuple(slot[v] for v in op.operands), tuple(slot[r] for r in op.results),
                run, timed, checked, tuple(dead_after.get(index, ())),
            ))
        returned_slots = tuple(slot[v] for v in returned)
        return OpProgram(len(arguments), steps, returned_slots, len(slot), timing)

    def run(self, inputs: Sequence[Any]) -> tuple[Any, ...]:
        """The program's results for `inputs`, under the caller's numpy error state."""
        if len(inputs) != self._arguments:
            raise InterpretationError(
                f"the program takes {self._arguments} arguments, got {len(inputs)}"
            )
        values: list[Any] = [None] * self._slots
        values[: self._arguments] = inputs
        timing = self._timing
        for step in self._steps:
            args = tuple([values[i] for i in step.operands])
            if timing is None or not step.timed:
                outputs = step.run(args)
            else:
                timing.will_interpret_op(step.op, args)
                outputs = step.run(args)
                timing.did_interpret_op(step.op, tuple(outputs))
            if step.checked_shapes is not None:
                check_result_shapes(outputs, step.checked_shapes)
            for i, value in zip(step.results, outputs, strict=True):
                values[i] = value
            for i in step.dead:
                values[i] = None
        return tuple(values[i] for i in self._returned)


_NOT_BUILT: Any = object()


def _runner(
    op: Operation,
    interpreter: Interpreter,
    timing: OpTiming | None,
    implemented: frozenset[type[Operation]],
) -> tuple[
    Callable[[tuple[Any, ...]], Sequence[Any]], bool, tuple[tuple[int, ...] | None, ...] | None
]:
    """How an `OpProgram` runs `op`, whether it times it, and the shapes its results are
    checked against (`implemented`: the op classes of registered implementations)."""
    if isinstance(op, SubGraphOp | IfOp):
        # (their `interpret`: `run` with the interpreter running the body)
        bodies: dict[Region, OpProgram | None] = {}

        def run_body(region: Region, args: tuple[Any, ...], name: str) -> Sequence[Any]:
            program = bodies.get(region, _NOT_BUILT)
            if program is _NOT_BUILT:
                program = bodies[region] = OpProgram.of(region, interpreter, timing)
            if program is None:
                return interpreter.run_ssacfg_region(region, args, name)
            return program.run(args)

        subgraph = op
        return (lambda args: subgraph.run(run_body, args)), True, None
    if (isinstance(op, OvOp) and type(op).interpret is OvOp.interpret
            and type(op) not in implemented):  # fmt: skip
        return op.evaluator(), True, op.declared_static_shapes()

    def run(args: tuple[Any, ...]) -> Sequence[Any]:
        return interpreter.run_op(op, args)

    return run, False, None


# --------------------------------------------------------------------------------------------
# The REFERENCE device
# --------------------------------------------------------------------------------------------


class ReferenceDevice:
    """The REFERENCE device: the graph run op by op in this interpreter (`Device`)."""

    name = "REFERENCE"

    def compile(self, module: ModuleOp, config: Mapping[str, Any]) -> ReferenceCompiledModel:
        # (nothing to configure: the CPU device's properties are accepted and ignored, an
        # unknown one is refused, as OpenVINO's plugins refuse an unsupported property)
        check_config_keys(config, f"{self.name} device")
        check_supported_ops(module, self.name)
        return ReferenceCompiledModel(module)

    def check_config(self, config: Mapping[str, Any]) -> None:
        """`DeviceError` for an unknown property (`Core.set_property` checks at once)."""
        check_config_keys(config, f"{self.name} device")

    def device_properties(self, config: Mapping[str, Any]) -> dict[str, Any]:
        """What `Core.get_property("REFERENCE", name)` answers besides what was set."""
        given = set(config)
        answers = {  # (every key it accepts, answered as REFERENCE runs: one thread, one
            # request, every run profiled, nothing compiled; what was set answers instead)
            "INFERENCE_NUM_THREADS": 1, "CPU_THREADS_NUM": 1, "PERF_COUNT": True,
            "ENABLE_PROFILING": True, "PERFORMANCE_HINT": "LATENCY",
            "PERFORMANCE_HINT_NUM_REQUESTS": 0, "NUM_STREAMS": 1,
            "INFERENCE_PRECISION_HINT": "f32", "ENABLE_CPU_PINNING": False,
            "ENABLE_HYPER_THREADING": False, "SCHEDULING_CORE_TYPE": "ANY_CORE",
            "EXECUTION_MODE_HINT": "ACCURACY", "CACHE_DIR": "", "COMPILATION_NUM_THREADS": 1,
            "LOG_LEVEL": "LOG_NONE", "LP_TRANSFORMS_MODE": False,
            SHAPE_COMPILE_KEY: DEFAULT_SHAPE_COMPILE_THRESHOLD,
        }
        assert set(answers) == set(ACCEPTED_KEYS)
        read_only = ("SUPPORTED_PROPERTIES", "OPTIMIZATION_CAPABILITIES")
        return {"SUPPORTED_PROPERTIES": {**dict.fromkeys(ACCEPTED_KEYS, "RW"),
                                         **dict.fromkeys(read_only, "RO")},
                "OPTIMIZATION_CAPABILITIES": ["FP32"],
                **{k: v for k, v in answers.items() if k not in given}}


class ReferenceCompiledModel:
    """A model on the REFERENCE device: nothing is compiled (`DeviceCompiledModel`)."""

    def __init__(self, module: ModuleOp) -> None:
        self.module = module

    def properties(self) -> Mapping[str, Any]:
        # one thread, one request at a time, nothing compiled; every run is profiled (the
        # listener's timings). OPTIMAL_NUMBER_OF_INFER_REQUESTS is what AsyncInferQueue asks
        # every compiled model (OpenVINO's devices all answer it).
        return {"INFERENCE_NUM_THREADS": 1, "COMPILATION_NUM_THREADS": 1,
                "OPTIMAL_NUMBER_OF_INFER_REQUESTS": 1, "PERF_COUNT": True,
                "ENABLE_PROFILING": True}

    def create_request(self, module: ModuleOp) -> ReferenceRequest:
        return ReferenceRequest(module)

    def executed_groups(self) -> tuple[Block, list[ExecutedGroup]]:
        """The entry block and its ops, one node each (`CompiledModel.get_runtime_model`):
        the interpreter runs them one by one; a constant is a `Const` node."""
        block = entry_function(self.module).body.block
        groups: list[ExecutedGroup] = []
        for op in block.ops:
            if isinstance(op, func.ReturnOp):
                continue
            constant = op_type_name(op) == "Constant"
            groups.append(ExecutedGroup([op], op, "Const" if constant else op_type_name(op),
                                        _exec_type(op), not constant))
        return block, groups


class ReferenceRequest:
    """
    One infer request on the REFERENCE device (`DeviceRequest`): its executor (interpreter
    state and variables) and the op timings of its last run.
    """

    def __init__(self, module: ModuleOp) -> None:
        self.timing = OpTiming()
        self.executor = ReferenceExecutor(module, timing=self.timing)
        self.variables = self.executor.variables
        function = self.executor.function
        self._input_dtypes = [to_dtype(element_type_of(a.type)) for a in function.args]
        ret = function.body.block.last_op
        assert ret is not None
        self._output_dtypes = [to_dtype(element_type_of(v.type)) for v in ret.operands]
        self._raw: list[np.ndarray] = []

    def infer(self, inputs: Sequence[np.ndarray]) -> None:
        # inputs of another precision are converted to the model's (OpenVINO preprocessing)
        arrays = [
            np.asarray(value).astype(dtype, order="C", copy=False)
            for value, dtype in zip(inputs, self._input_dtypes, strict=True)
        ]
        self.timing.clear()
        self._raw = []
        try:
            self._raw = self.executor.run(arrays)
        except (
            ArithmeticError, ValueError, IndexError, MemoryError, NotImplementedError, KeyError,
            RuntimeError, DiagnosticException,
        ) as e:
            # MemoryError: an op's numpy temporary too large for the machine (a mutated model's
            # 2^31 pads: "Unable to allocate 1.25 TiB ..."), named with the op like the others;
            # NotImplementedError, KeyError, RuntimeError: an op's own refusal (issue 39 item
            # 6: errors of an op without "inference failed in ...");
            # DiagnosticException: an op's verifier check reached at run time because its
            # parameter is a computed value, not a constant (a Transpose's order from an input:
            # "order [-70, -44] is not a permutation of [0, 1]", fuzz campaign 16), and xDSL's
            # InterpretationError
            op = self.timing.current
            where = f"{op_type_name(op)} '{_display(op)}' ({op.name})" if op is not None else "?"
            raise InferenceFailure(where, e) from e

    def outputs(self, share_outputs: bool) -> list[np.ndarray]:
        # fresh, writable arrays: the interpreter may hand back an input (a graph that
        # returns its argument) or a read-only constant
        return [
            np.array(v, dtype=dtype, order="C", copy=True)
            for v, dtype in zip(self._raw, self._output_dtypes, strict=True)
        ]

    def profiling_rows(self) -> list[OpRow]:
        rows: list[OpRow] = []
        for index, op in enumerate(self.executor.function.body.block.ops):
            if isinstance(op, func.ReturnOp):
                continue
            seconds = self.timing.times.get(op)
            status = "EXECUTED" if seconds is not None else "NOT_RUN"
            t = timedelta(seconds=seconds or 0.0)
            rows.append((op_display_name(op, index), op_type_name(op), _exec_type(op), t, status))
        return rows

    def native_code(self, optimized: bool = True) -> None:
        """None: the REFERENCE device interprets the graph, it compiles no native code."""
        return None


def _display(op: Operation) -> str:
    parent = op.parent_block()
    index = list(parent.ops).index(op) if parent is not None else 0
    return op_display_name(op, index)


def _exec_type(op: Operation) -> str:
    """`ref_<runtime precision>`: the reference kernel and the precision of the op's input
    (a Loop's first data input, not its trip count)."""
    values = data_operands(op) or op.results
    if not values:
        return "ref_any"
    try:
        precision = precision_name(element_type_of(values[0]), "any")
    except Exception:
        precision = "any"
    return f"ref_{precision}"


_FUNC_OPS = (func.ReturnOp, func.CallOp)
"""The `func` ops of a function's body that `FuncFunctions` runs."""


def check_supported_ops(module: ModuleOp, device: str) -> None:
    """`DeviceError` for the first op of the entry function (and of the functions it calls,
    and of their bodies) that the interpreter does not run, with OpenVINO's message (its CPU
    plugin's `Node::factory`: `Unsupported operation of type: X name: Y`) and what would run
    it: at compile time, not at the first inference."""
    supported = interpreted_op_types()
    functions = {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}
    pending = [entry_function(module)]
    seen: set[str] = set()
    while pending:
        function = pending.pop()
        if function.sym_name.data in seen:
            continue
        seen.add(function.sym_name.data)
        for op in function.walk():
            if isinstance(op, func.CallOp):
                callee = functions.get(op.callee.root_reference.data)
                if callee is not None:
                    pending.append(callee)
            if op is function or type(op) in supported or isinstance(op, _FUNC_OPS):
                continue
            raise DeviceError(
                f"Unsupported operation of type: {op_type_name(op)} name: {_display(op)} "
                f"({op.name}: the {device} device has no implementation of it; "
                "lowpass.dialects.interpret.register_implementation adds one)"
            )


def run_reference(module: ModuleOp, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Run the module's entry function once in the reference interpreter."""
    return ReferenceExecutor(module).run(inputs)


__all__ = [
    "OpProgram",
    "OpTiming",
    "ReferenceCompiledModel",
    "ReferenceDevice",
    "ReferenceExecutor",
    "ReferenceRequest",
    "check_supported_ops",
    "entry_function",
    "op_display_name",
    "op_type_name",
    "run_reference",
]
