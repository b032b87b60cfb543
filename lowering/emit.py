"""
What an op lowering sees: `Buffer` (a tensor in memory), `EmitContext` (where code goes) and
the `OpLowering` interface, plus small IR helpers (types, loops, pointers) that every
lowering needs.

The compiler (`lowering/compiler.py`) cuts the graph into groups: each op is offered to the
registered lowerings in order (`lowering/ops/__init__.py`); the first whose `fuse` accepts it
forms a group with the ops it absorbs and later emits the group's code with `emit`. Groups no
lowering accepts run on the reference interpreter through the fallback callback (visible in
profiling as `ref_<precision>`). See docs/lowering.md for the contract.
"""

from __future__ import annotations

import functools
import hashlib
import weakref
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import llvmlite.ir as ir
import numpy as np
from xdsl.dialects import arith
from xdsl.ir import Attribute, BlockArgument, Operation, OpResult, SSAValue

from lowpass.dialects import cpu
from lowpass.dialects.graph import precision_name as _precision_name
from lowpass.dialects.ov.base import OvOp
from lowpass.dialects.ov.infrastructure import ConstantOp, InvariantInputAttr, SubGraphOp
from lowpass.ir import find_location
from lowpass.lowering.target import HostCpu

# --------------------------------------------------------------------------------------------
# Types
# --------------------------------------------------------------------------------------------

VOID = ir.VoidType()
PTR = ir.PointerType()
I1 = ir.IntType(1)
I8 = ir.IntType(8)
I16 = ir.IntType(16)
I32 = ir.IntType(32)
I64 = ir.IntType(64)
F16 = ir.HalfType()
F32 = ir.FloatType()
F64 = ir.DoubleType()

_IR_TYPES: dict[np.dtype, ir.Type] = {
    np.dtype(np.float32): F32,
    np.dtype(np.float16): F16,
    np.dtype(np.float64): F64,
    np.dtype(np.int64): I64,
    np.dtype(np.int32): I32,
    np.dtype(np.int16): I16,
    np.dtype(np.int8): I8,
    np.dtype(np.uint8): I8,
    np.dtype(np.bool_): I8,  # one byte, 0 or 1 (numpy's layout)
}



def ir_type(dtype: np.dtype | type) -> ir.Type:
    """The LLVM type of one element of `dtype` (u8 and i8 are both `i8`; bool is an `i8`)."""
    return _IR_TYPES[np.dtype(dtype)]


def precision_name(dtype: np.dtype | type) -> str:
    """OpenVINO's precision name of a dtype: FP32, FP16, I64, I32, I8, U8, BOOL."""
    return _precision_name(np.dtype(dtype))


def jit_exec_type(cpu: HostCpu, dtype: np.dtype | type, amx: bool = False,
                  bf16: bool = False) -> str:
    """
    `jit_<isa>_<precision>`, e.g. `jit_avx2_FP32`, as OpenVINO's CPU plugin names its
    kernels: a kernel on 8-bit data, u8 or i8, is `I8` ("suffix I8 for layers that had 8-bit
    data type input and were computed in 8-bit precision", LPT's documentation); `amx`: its
    products run on AMX tiles, `jit_avx512_amx_I8` (OpenVINO's `brgconv_avx512_amx_I8`);
    `bf16`: a float32 kernel whose products are bfloat16 ones, `jit_avx512_BF16`.
    """
    precision = "BF16" if bf16 else precision_name(dtype)
    return f"jit_{cpu.isa}_{'amx_' if amx else ''}{'I8' if precision == 'U8' else precision}"


def is_signed(dtype: np.dtype | type) -> bool:
    return np.dtype(dtype).kind == "i"


def i64(value: int) -> ir.Constant:
    return ir.Constant(I64, int(value))


def i32(value: int) -> ir.Constant:
    return ir.Constant(I32, int(value))


# Vector constants that kernels use again and again (shuffle masks, `undef` operands), one
# object each: llvmlite builds a vector constant element by element and formats every
# element each time it prints it, but caches the text of one object (resnet50 int8: 250k
# element constants, 0.3 s of its compile in Python).


@functools.lru_cache(maxsize=1024)  # (resnet50 and three other networks: 72 of them)
def _int_vector(width: int, values: tuple[int, ...]) -> ir.Constant:
    return ir.Constant(ir.VectorType(ir.IntType(width), len(values)), list(values))


def int_vector(element: ir.IntType, values: Sequence[int]) -> ir.Constant:
    """The constant vector of `values` (a shuffle mask: `int_vector(I32, ...)`)."""
    return _int_vector(element.width, tuple(int(v) for v in values))


@functools.lru_cache(maxsize=256)  # (keyed by the type's text too: VectorType's hash is one)
def _undef_vector(element: str, count: int, vty: ir.VectorType) -> ir.Constant:
    return ir.Constant(vty, ir.Undefined)


def undef_vector(vty: ir.VectorType) -> ir.Constant:
    """`undef` of vector type `vty` (a shuffle's unused operand)."""
    return _undef_vector(str(vty.element), vty.count, vty)


# --------------------------------------------------------------------------------------------
# Values known at compile time
# --------------------------------------------------------------------------------------------


class _NotYetKnown(Exception):
    """Raised by `static_value`'s operand lookup for an operand it has not folded yet."""

    def __init__(self, value: SSAValue) -> None:
        super().__init__()
        self.value = value


def static_value(value: SSAValue, memo: dict[SSAValue, np.ndarray | None]) -> np.ndarray | None:
    """
    The value of `value` if the compiler knows it at compile time, else None: an
    `ov.constant`, a `ShapeOf` of a static shape, a pure op of known operands (the folded
    weights Subtract of LPT, a Convert of compressed weights), or a TensorIterator/Loop body
    parameter bound to such a value by an invariant input. It is the compiler's constant
    folding (`OvOp.fold_values`, with the same size limit), so that a lowering's `fuse` can
    tell constants (weights, scales) from computed tensors. `memo` caches answers for one lowering.

    The walk up the producers is iterative: a chain of small foldable-looking ops (the
    late layers of shufflenet) is deeper than Python's recursion limit. An operand the
    folder asks for and that has no answer yet interrupts the fold (`_NotYetKnown`); it is
    answered first and the fold retried, so operands are asked for in the folder's order
    and the walk stops where the folder stops (the first unknown operand). A value on the
    path being answered (a cycle) counts as unknown.
    """
    if value in memo:
        return memo[value]
    pending: list[SSAValue] = [value]
    on_path: set[SSAValue] = {value}

    def known(v: SSAValue) -> np.ndarray | None:
        if v in memo:
            return memo[v]
        if v in on_path:
            return None
        raise _NotYetKnown(v)

    while pending:
        current = pending[-1]
        try:
            result = _fold_once(current, known)
        except _NotYetKnown as missing:
            pending.append(missing.value)
            on_path.add(missing.value)
            continue
        memo[current] = result
        on_path.discard(current)
        pending.pop()
    return memo[value]


def _fold_once(
    value: SSAValue, known: Callable[[SSAValue], np.ndarray | None]
) -> np.ndarray | None:
    if isinstance(value, BlockArgument):
        parent = value.owner.parent_op()
        if isinstance(parent, SubGraphOp):
            for desc in parent.input_descriptions:
                if isinstance(desc, InvariantInputAttr) and desc.parameter_index == value.index:
                    return known(parent.operands[desc.input_index])
    elif isinstance(value, OpResult) and isinstance(value.owner, OvOp):
        outs = value.owner.fold_values(known)
        if outs is not None:
            return outs[value.index]
    return None


# --------------------------------------------------------------------------------------------
# Buffers
# --------------------------------------------------------------------------------------------


def is_constant(op: Operation) -> bool:
    """An op whose results the compiler knows (`cpu-fold-constants` marked it, or a
    constant op)."""
    return isinstance(op, ConstantOp | arith.ConstantOp) or cpu.CONSTANT in op.attributes


CHANNELS_LAST_ORDER = (0, 2, 3, 1)
"""The axes of an [N, C, H, W] tensor in the order an NHWC one stores them."""


def stored_shape(shape: Sequence[int]) -> tuple[int, ...]:
    """An [N, C, H, W] shape (or one that broadcasts to it: leading 1s added) in NHWC order."""
    padded = (1,) * (4 - len(shape)) + tuple(shape)
    return tuple(padded[i] for i in CHANNELS_LAST_ORDER)


class CompileError(ValueError):
    """The graph cannot be compiled for the CPU device (e.g. dynamic shapes). `op`: the op
    the message is about, where it has one (`located` puts its source position in front)."""

    def __init__(self, message: str, op: Operation | None = None) -> None:
        super().__init__(message)
        self.op = op

    def located(self) -> str:
        """`file:line:col: error: message` (MLIR's form, which --verify-diagnostics reads)
        where the op has a position, else the message."""
        where = None if self.op is None else find_location(self.op)
        return str(self) if where is None else f"{where}: error: {self}"


@dataclass(frozen=True)
class Buffer:
    """
    A tensor in memory: contiguous, row-major, static shape. `ptr` is valid in the entry
    function (an argument-derived pointer, an arena address, a constant's address, or a
    pointer computed inside a TensorIterator loop). For an `ov.constant` (or a constant-folded
    value) `constant` holds the value; its `ptr` is the address of an aligned copy kept alive
    with the compiled code.
    """

    address: ir.Value | Callable[[], ir.Value]
    """`ptr`, or what makes it when it is first used: a constant's aligned copy is made only
    if some code reads the constant itself, not only a kernel's packed form of it (the
    weights of a convolution: a second copy of a network's weights otherwise)."""
    shape: tuple[int, ...]
    dtype: np.dtype
    constant: np.ndarray | None = None
    channels_last: bool = False
    """A 4-D [N, C, H, W] tensor stored as [N, H, W, C] (`cpu.channels_last`): only
    convolutions and element-wise groups whose tensors are all so get one."""
    bfloat16: bool = False
    """A float32 tensor stored as bfloat16 (`cpu.bfloat16`, half the bytes): written by a
    bf16 convolution's GEMMs, read by bf16 convolutions only."""

    @property
    def stored_shape(self) -> tuple[int, ...]:
        """The shape in memory order: [N, H, W, C] for an NHWC tensor."""
        return stored_shape(self.shape) if self.channels_last else self.shape

    @property
    def ptr(self) -> ir.Value:
        if not isinstance(self.address, ir.Value):
            object.__setattr__(self, "address", self.address())  # (made once)
        assert isinstance(self.address, ir.Value)
        return self.address

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def nbytes(self) -> int:
        return self.size * np.dtype(self.dtype).itemsize

    @property
    def element_type(self) -> ir.Type:
        return ir_type(self.dtype)

    @property
    def is_constant(self) -> bool:
        return self.constant is not None

    def with_shape(self, shape: Sequence[int]) -> Buffer:
        """The same memory seen with another shape (a view: same number of elements)."""
        shape = tuple(int(d) for d in shape)
        assert int(np.prod(shape, dtype=np.int64)) == self.size, (shape, self.shape)
        assert not self.channels_last, "a view of an NHWC tensor"
        constant = self.constant.reshape(shape) if self.constant is not None else None
        return Buffer(self.address, shape, self.dtype, constant)


# --------------------------------------------------------------------------------------------
# Emission context
# --------------------------------------------------------------------------------------------


@dataclass
class ScratchAllocator:
    """
    Scratch memory inside the arena, after the planned tensors: a stack (a group's scratch
    is released when the group is emitted; nested bodies stack on top). `high_water` is the
    size the arena must reserve for it.
    """

    top: int = 0
    high_water: int = 0

    def allocate(self, nbytes: int) -> int:
        offset = self.top
        self.top += align(max(int(nbytes), 1))
        self.high_water = max(self.high_water, self.top)
        return offset

    @contextmanager
    def frame(self) -> Iterator[None]:
        saved = self.top
        try:
            yield
        finally:
            self.top = saved


def align(n: int, alignment: int = 64) -> int:
    return (int(n) + alignment - 1) // alignment * alignment


CHECK_SHIFT = 24
"""The bits of a failure status from which the check is told (`EmitContext.fail_on`): the
group's index + 1 below them."""
CHECK_INDEX = 0
"""An index out of range (ScatterUpdate's, its indices computed at run time)."""
CHECK_LOOP_PARTS = 1
"""A Loop that would run past the iterations its shapes count (a sliced input's parts)."""


@dataclass
class EmitContext:
    """
    Where a group's code goes. `builder` is positioned in the entry function (`lowpass_main`)
    at the group's place; a lowering may emit its code right there or in functions of its own
    (`function`), called from there.
    """

    module: ir.Module
    builder: ir.IRBuilder
    cpu: HostCpu
    threads: int
    keep_alive: list[Any]
    """Objects the compiled code needs alive (constants whose addresses the IR holds)."""
    scratch_base: ir.Value
    """Address of the arena's scratch region (`arena + planned tensor bytes`)."""
    scratch_allocator: ScratchAllocator
    values: dict[SSAValue, Buffer] = field(default_factory=dict)
    """The buffers of the group's inputs and outputs by SSA value (see `buffer`)."""
    group_name: str = "group"
    """A name for the group's functions (its profiling row's: the main op's friendly name,
    sanitised: `compiler.row_name`; a loop body's, which has no row: its main op's)."""
    _names: set[str] = field(default_factory=set)
    constants: ConstantTable | None = None
    """Where the group's constant arrays are linked (the graph's table); None: a private one."""
    options: dict[str, Any] = field(default_factory=dict)
    """Compiler options (as given to `compile_module`), for lowerings that have knobs."""
    variables: dict[str, tuple[Buffer, ir.Value]] = field(default_factory=dict)
    """Variable id -> (its value buffer, the address of its `i8` flag: 1 = set)."""
    amx_tiles: bool = False
    """A GEMM of the group runs on AMX tiles (`gemm.amx_applies`): its exec type says so."""
    gemm_bf16: bool = False
    """The group's float32 GEMMs run the `bf16` kind (`emit_gemm`'s `bf16`): its
    `cpu.gemm = #cpu<gemm bf16>` says so."""
    band: Any = None
    """The band of `#cpu.row_bands` that the group runs in (`lowering/ops/row_bands.py`'s
    `RowBand`): its lowering hands its rows over (`RowBand.take`) instead of emitting its
    loops; None: it runs alone."""
    failure_status: int = 0
    """What the entry function returns where a check of the group's code fails at run time
    (an index out of range, which the reference raises for): the index + 1 of the graph's
    group that holds it (a loop body's: the loop's), which the runtime reports as that
    group's failure (`fail_on`). 0 outside the entry function's groups."""

    def fail_on(self, failed: ir.Value, check: int = 0) -> None:
        """Return `failure_status` from the entry function where `failed` (an i1) holds;
        `check` (`CHECK_*`) says which check it was (in the status's bits from
        `CHECK_SHIFT` on)."""
        if not self.failure_status:
            raise CompileError(f"{self.group_name}: a run-time check outside the graph's groups")
        with self.builder.if_then(failed, likely=False):
            self.builder.ret(i32(self.failure_status | check << CHECK_SHIFT))

    def constant_ptr(self, array: np.ndarray) -> ir.Value:
        """The address of a 64-byte aligned, contiguous copy of `array` (`ConstantTable`)."""
        if self.constants is None:
            self.constants = ConstantTable(self.module)
        return self.constants.pointer(array)

    def function(self, name_hint: str, fnty: ir.FunctionType) -> ir.Function:
        """A new function in the module with a unique name based on `name_hint`."""
        base = sanitize_name(name_hint)
        name = base
        n = 1
        while name in self._names or name in self.module.globals:
            name = f"{base}.{n}"
            n += 1
        self._names.add(name)
        fn = ir.Function(self.module, fnty, name)
        fn.linkage = "internal"
        return fn

    def scratch(self, nbytes: int) -> ir.Value:
        """`nbytes` (64-byte aligned) of arena memory that this group alone uses."""
        offset = self.scratch_allocator.allocate(nbytes)
        return self.builder.gep(self.scratch_base, [i64(offset)], source_etype=I8)

    def buffer(self, value: SSAValue) -> Buffer:
        """The buffer of a value that the group reads or writes (an input or an output)."""
        return self.values[value]

    def intrinsic(self, name: str, ret: ir.Type, args: Sequence[ir.Type]) -> ir.Function:
        """An LLVM intrinsic or external C function declaration (created once)."""
        existing = self.module.globals.get(name)
        if isinstance(existing, ir.Function):
            return existing
        return ir.Function(self.module, ir.FunctionType(ret, list(args)), name)


def aligned_copy(array: np.ndarray, alignment: int = 64) -> np.ndarray:
    """A C-contiguous copy of `array` whose data starts at a multiple of `alignment`."""
    array = np.asarray(array)
    nbytes = max(array.nbytes, 1)
    raw = np.empty(nbytes + alignment, dtype=np.uint8)
    start = (-raw.ctypes.data) % alignment
    out = raw[start : start + array.nbytes].view(array.dtype).reshape(array.shape)
    out[...] = array
    out.flags.writeable = False
    return out


def _in_numpy_memory(array: np.ndarray) -> bool:
    """The array's memory is numpy's own, not another object's buffer: a constant read from
    an OpenVINO IR views the mapped `.bin`, and code bound to it would read the file for as
    long as the compiled model lives (and crash if the file were truncated)."""
    base = array
    while isinstance(base.base, np.ndarray):
        base = base.base
    return base.base is None


CONSTANT_SYMBOL_PREFIX = "lowpass.const."


class ConstantTable:
    """
    The constant arrays that a module's code reads, each linked by name: the code refers to an
    external symbol `lowpass.const.<n>` (64-byte aligned, read-only), which `jit.load_objects`
    binds to the address of a 64-byte aligned copy of the array when the code is loaded. Code
    that names its constants instead of holding their addresses is relocatable: the compiled
    model cache (`CACHE_DIR`) stores it beside the arrays and binds them again in another
    process. An array given twice (the same object) is one symbol.
    """

    def __init__(self, module: ir.Module) -> None:
        self.module = module
        self.arrays: list[np.ndarray] = []
        """The aligned copies, symbol `lowpass.const.<n>` being `arrays[n]`."""
        self._known: dict[int, tuple[np.ndarray, ir.Value]] = {}
        self._derived: dict[tuple[int, Hashable], tuple[weakref.ref[np.ndarray], np.ndarray]] = {}

    def derived(
        self, source: np.ndarray, how: Hashable, make: Callable[[], np.ndarray]
    ) -> np.ndarray:
        """`make()`, an array computed from `source` (`how`: e.g. a packing), made once for
        each (source, how): the GEMMs of a convolution's blocks of different sizes get the
        same weights and share one packed copy of them, one symbol (resnet50 int8 packed 44
        of its 54 weights twice: 8 MiB more in the compiled model)."""
        key = (id(source), how)
        known = self._derived.get(key)
        if known is not None and known[0]() is source:  # (a dead source's id may be reused)
            return known[1]
        array = make()
        # weakly: a source is often a temporary (a convolution's weights in GEMM order), and
        # holding it kept a second copy of every weight alive (+64 MiB for resnet50 fp32)
        self._derived[key] = (weakref.ref(source), array)
        return array

    def pointer(self, array: np.ndarray) -> ir.Value:
        known = self._known.get(id(array))
        if known is not None and known[0] is array:  # the pair keeps id(array) unique
            return known[1]
        if (
            array.flags.c_contiguous
            and not array.flags.writeable
            and array.ctypes.data % 64 == 0
            and array.nbytes > 0
            and _in_numpy_memory(array)
        ):
            copy = array  # (read-only and aligned already: a kernel's packed weights)
        else:
            copy = aligned_copy(array)
        symbol = ir.GlobalVariable(
            self.module,
            ir.ArrayType(I8, max(copy.nbytes, 1)),
            f"{CONSTANT_SYMBOL_PREFIX}{len(self.arrays)}",
        )
        symbol.global_constant = True
        symbol.align = 64
        self.arrays.append(copy)
        self._known[id(array)] = (array, symbol)
        return symbol

    def symbols(self) -> dict[str, int]:
        """Symbol name -> address of its array, for `jit.load_objects`."""
        return {
            f"{CONSTANT_SYMBOL_PREFIX}{n}": int(a.ctypes.data) for n, a in enumerate(self.arrays)
        }


_SHARED_FUNCTIONS: weakref.WeakKeyDictionary[ir.Module, dict[Hashable, str]] = (
    weakref.WeakKeyDictionary()
)
"""Per module, the name of its function for each key. Names, not the functions: a function
refers to its module, and a value that refers to its key keeps a WeakKeyDictionary's entry
alive for ever (each compilation's whole llvmlite module stayed in memory, 10-20 MiB for
resnet50)."""


def shared_function(
    module: ir.Module, key: Hashable, build: Callable[[], ir.Function]
) -> ir.Function:
    """The module's function for `key`, built by `build()` the first time: kernels whose code
    depends only on `key` (their constants passed as arguments, or part of the key) are
    emitted once and called by every op that needs them (the repeated layers of a network):
    less code for LLVM to optimize and compile."""
    names = _SHARED_FUNCTIONS.setdefault(module, {})
    name = names.get(key)
    if name is not None:
        fn = module.get_global(name)
        assert isinstance(fn, ir.Function)
        return fn
    fn = build()
    same = _same_text(module, fn)
    if same is not None and same is not fn:  # (another key's code to the byte: no copy)
        _drop_function(module, fn)
        fn = same
    names[key] = fn.name
    return fn


def _drop_function(module: ir.Module, fn: ir.Function) -> None:
    """Remove `fn`, which nothing refers to yet, from `module`, its name free again (llvmlite
    keeps a name in the module's scope once taken: a later function of that name would
    raise `DuplicatedNameError`)."""
    del module.globals[fn.name]
    used = getattr(getattr(module, "scope", None), "_useset", None)
    if isinstance(used, set):
        used.discard(fn.name)


_SHARED_TEXTS: weakref.WeakKeyDictionary[ir.Module, dict[bytes, str]] = (
    weakref.WeakKeyDictionary()
)
"""Per module, the name of its shared function for each digest of a function's text (its
own name left out): `_same_text`."""


def _same_text(module: ir.Module, fn: ir.Function) -> ir.Function | None:
    """The module's shared function whose text is `fn`'s but for its name, if any (else
    `fn`'s text is recorded). A key tells what a kernel's code depends on, and may tell
    more: ShuffleNet int8's AMX grouped micro-kernels of three layers had three keys, their
    requantization programs' signatures told apart by steps whose code is the same there,
    and three copies of 74 KB of IR each (and of their epilogues, 79 KB). The name is left
    out of the first line only (a recursive function's calls of itself tell it apart); a
    declaration (no body) is left as it is."""
    if not fn.blocks:
        return None
    head, _, body = str(fn).partition("\n")
    text = head.replace(fn.get_reference(), "@", 1) + "\n" + body
    digest = hashlib.sha1(text.encode(), usedforsecurity=False).digest()
    texts = _SHARED_TEXTS.setdefault(module, {})
    name = texts.get(digest)
    if name is None:
        texts[digest] = fn.name
        return None
    same = module.get_global(name)
    assert isinstance(same, ir.Function)
    return same


def shared_function_names(module: ir.Module) -> set[str]:
    """The names of the module's `shared_function`s: kernels that any later op may call."""
    return set(_SHARED_FUNCTIONS.get(module, {}).values())


def sanitize_name(name: str) -> str:
    out = "".join(c if c.isalnum() or c in "_." else "_" for c in name)
    return out or "fn"


# --------------------------------------------------------------------------------------------
# The lowering interface
# --------------------------------------------------------------------------------------------


@runtime_checkable
class OpLowering(Protocol):
    """
    A lowering of some ops. The compiler instantiates each registered class once per
    compilation (no arguments) and offers it the ops of `ops` in graph order.
    """

    ops: tuple[type[Operation], ...]

    def fuse(self, op: Operation) -> list[Operation] | None:
        """
        The ops after `op` that this lowering absorbs into `op`'s group (an epilogue:
        Multiply/Add by constants, Relu, Clamp, FakeQuantize requantization...), [] for none;
        None: this lowering cannot lower `op` (the next one is tried, and finally the
        reference fallback). `cpu-fuse-kernels` drops the absorbed ops (emitting `[op]`
        alone) if an absorbed op reads a value that is computed after `op`. The translation
        calls it again for the lowering's state and emits any leading part of the absorbed
        ops that the IR groups with `op` (`PlanReader.check_fusion`; a lowering may require
        at least `required_fused(op)` of them).
        """
        ...

    def emit(
        self,
        ctx: EmitContext,
        group: list[Operation],
        inputs: list[Buffer],
        outputs: list[Buffer],
    ) -> str:
        """
        Emit the code of `group` (`[op, *absorbed]`); return its execution type, e.g.
        `jit_avx2_I8`. `inputs`: the distinct values the group reads from outside (in order
        of first use: op by op, operand by operand); `outputs`: the results of the group's
        ops in op and result order that are used outside the group, returned by the graph
        or not used at all (every result of a one-op group, in order). `ctx.buffer(value)`
        gives the buffer of any of them by SSA value.
        """
        ...


@runtime_checkable
class KernelChoosing(Protocol):
    """A lowering whose kernel choices `cpu-select-kernels` writes on a group (`cpu.algorithm`,
    `cpu.gemm`, `cpu.int8`, `cpu.epilogue`), and whose `emit` reads them back."""

    def kernel_choices(self, group: Sequence[Operation], host: HostCpu,
                       options: dict[str, Any]) -> tuple[Operation, dict[str, list[Attribute]]]:
        """The op of `group` that carries its choices and, by attribute name, the values the
        translation takes on `host`, the default first (`options`: the compile options)."""
        ...


# --------------------------------------------------------------------------------------------
# IR helpers
# --------------------------------------------------------------------------------------------


def byte_offset(builder: ir.IRBuilder, ptr: ir.Value, offset: int | ir.Value) -> ir.Value:
    """`ptr + offset` bytes."""
    if isinstance(offset, int):
        if offset == 0:
            return ptr
        offset = i64(offset)
    return builder.gep(ptr, [offset], source_etype=I8)


def element_ptr(
    builder: ir.IRBuilder, ptr: ir.Value, index: int | ir.Value, etype: ir.Type
) -> ir.Value:
    """Address of element `index` of an array of `etype` at `ptr`."""
    if isinstance(index, int):
        if index == 0:
            return ptr
        index = i64(index)
    return builder.gep(ptr, [index], source_etype=etype)


def load(builder: ir.IRBuilder, ptr: ir.Value, etype: ir.Type, index: Any = 0) -> ir.Value:
    return builder.load(element_ptr(builder, ptr, index, etype), typ=etype)


def store(builder: ir.IRBuilder, value: ir.Value, ptr: ir.Value, index: Any = 0) -> None:
    builder.store(value, element_ptr(builder, ptr, index, value.type))


def opaque_i64(builder: ir.IRBuilder, value: int) -> ir.Value:
    """`value` as an i64 that LLVM cannot see through (an empty inline asm): a loop bounded
    by it is vectorized but not fully unrolled (compile time, code size)."""
    asm = ir.InlineAsm(ir.FunctionType(I64, [I64]), "", "=r,0", False)
    return builder.call(asm, [i64(value)])


def split_lanes(builder: ir.IRBuilder, x: ir.Value, width: int) -> list[ir.Value]:
    """The consecutive <width x T> parts of vector `x` (register halves and quarters: no
    instruction once LLVM splits the wide type)."""
    vty = x.type
    assert isinstance(vty, ir.VectorType) and vty.count % width == 0
    undef = undef_vector(vty)
    return [builder.shuffle_vector(x, undef, int_vector(I32, range(i, i + width)))
            for i in range(0, vty.count, width)]


def join_lanes(builder: ir.IRBuilder, parts: Sequence[ir.Value]) -> ir.Value:
    """The vectors `parts` (a power of two of one type) end to end, in order."""
    parts = list(parts)
    assert parts and len(parts) & (len(parts) - 1) == 0, "a power of two of parts"
    while len(parts) > 1:
        vty = parts[0].type
        assert isinstance(vty, ir.VectorType)
        mask = int_vector(I32, range(2 * vty.count))
        parts = [builder.shuffle_vector(parts[i], parts[i + 1], mask)
                 for i in range(0, len(parts), 2)]
    return parts[0]


def opaque_ptr(builder: ir.IRBuilder, ptr: ir.Value) -> ir.Value:
    """`ptr` as a pointer that LLVM cannot relate to others (an empty inline asm): a loop
    addresses through it as a base register of its own. The int8 micro-kernels' A rows: LLVM
    otherwise derived each row's pointer from the one before, five `lea` per k-step beside
    the 24 `vpdpbusd` of a 6 x 4 tile (under the VNNI cap resnet50 int8 0.992x the time with
    them, inception_v1 0.996x; on AMX squeezenet 0.988x: same-process A/B)."""
    asm = ir.InlineAsm(ir.FunctionType(PTR, [PTR]), "", "=r,0", False)
    return builder.call(asm, [ptr])


@contextmanager
def for_range(
    builder: ir.IRBuilder,
    stop: int | ir.Value,
    start: int | ir.Value = 0,
    step: int = 1,
    name: str = "i",
) -> Iterator[ir.Value]:
    """
    `for (i = start; i < stop; i += step)` (i64, step > 0): yields the induction variable;
    the body is emitted inside the `with` block, after which the builder continues after
    the loop. A static empty range emits nothing visible (the loop is skipped).
    """
    start_v = i64(start) if isinstance(start, int) else start
    stop_v = i64(stop) if isinstance(stop, int) else stop
    fn = builder.function
    pre = builder.block
    header = fn.append_basic_block(f"{name}.header")
    body = fn.append_basic_block(f"{name}.body")
    done = fn.append_basic_block(f"{name}.done")
    builder.branch(header)
    builder.position_at_end(header)
    index = builder.phi(I64, name=name)
    index.add_incoming(start_v, pre)
    builder.cbranch(builder.icmp_signed("<", index, stop_v), body, done)
    builder.position_at_end(body)
    yield index
    nxt = builder.add(index, i64(step), name=f"{name}.next", flags=["nsw"])
    index.add_incoming(nxt, builder.block)
    builder.branch(header)
    builder.position_at_end(done)


def carried_loop(
    b: ir.IRBuilder,
    values: list[ir.Value],
    start: ir.Value,
    stop: ir.Value,
    step: int,
    body: Callable[[list[ir.Value], ir.Value], list[ir.Value]],
) -> list[ir.Value]:
    """values = body(values, i) for i = start, start + step, ... while i < stop (i64
    bounds); returns the values after the loop (the accumulators of a k loop, carried in
    registers)."""
    fn = b.function
    pre = b.block
    cond = fn.append_basic_block("loop")
    inner = fn.append_basic_block("body")
    end = fn.append_basic_block("end")
    b.branch(cond)
    b.position_at_end(cond)
    i = b.phi(I64)
    i.add_incoming(start, pre)
    phis = [b.phi(v.type) for v in values]
    for phi, value in zip(phis, values, strict=True):
        phi.add_incoming(value, pre)
    b.cbranch(b.icmp_signed("<", i, stop), inner, end)
    b.position_at_end(inner)
    out = body(list(phis), i)
    latch = b.block
    i.add_incoming(b.add(i, i64(step)), latch)
    for phi, value in zip(phis, out, strict=True):
        phi.add_incoming(value, latch)
    b.branch(cond)
    b.position_at_end(end)
    return list(phis)


def for_lanes(builder: ir.IRBuilder, stop: int | ir.Value, lanes: int,
              body: Callable[[ir.Value, int], None], name: str = "c",
              tail: int | None = None) -> None:
    """`body(i, lanes)` for i = 0, lanes, ... while `lanes` elements of [0, stop) remain,
    then once each narrower vector of half, a quarter... of `lanes` (down to `MIN_TAIL_LANES`)
    that fits what remains, then `body(i, 1)` for the rest: a vector loop and its tail (the
    channels of an NHWC row). (With only a scalar tail, the 8 channels of a small network's
    layers on AVX-512 ran one by one: MobileNet-v2 width 0.25 spent half its time there.) A
    `stop` known only at run time (`lanes` a power of two) gets a loop of at most one
    iteration per narrower width, unless `tail`, `stop % lanes`, is known when the code is
    emitted (code shared by sizes of one remainder): then the narrower vectors are those
    that a constant `stop` of that remainder would get."""
    if isinstance(stop, ir.Value) and tail is None:
        start: ir.Value = i64(0)
        width = lanes
        while width >= MIN_TAIL_LANES or width == lanes:
            end = builder.and_(stop, i64(-width))
            with for_range(builder, end, start=start, step=width, name=f"{name}{width}") as i:
                body(i, width)
            start, width = end, width // 2
        with for_range(builder, stop, start=start, name=f"{name}t") as i:
            body(i, 1)
        return
    if isinstance(stop, ir.Value):
        assert tail is not None
        full: ir.Value = builder.sub(stop, i64(tail))
        with for_range(builder, full, step=lanes, name=name) as i:
            body(i, lanes)
    else:
        full = i64(stop // lanes * lanes)
        tail = stop % lanes
        if stop >= lanes:
            with for_range(builder, full, step=lanes, name=name) as i:
                body(i, lanes)

    def after_full(at: int) -> ir.Value:  # the index `at` elements past the full vectors
        return builder.add(full, i64(at)) if isinstance(stop, ir.Value) else i64(stop - tail + at)

    at, width = 0, lanes // 2
    while width >= MIN_TAIL_LANES:
        if tail - at >= width:
            body(after_full(at), width)
            at += width
        width //= 2
    if tail > at:
        with for_range(builder, stop, start=after_full(at), name=f"{name}t") as i:
            body(i, 1)


MIN_TAIL_LANES = 4
"""The narrowest vector of `for_lanes`' tail (SSE's float32 width); fewer elements run one
by one."""


def rare_branch(b: ir.IRBuilder, rare: ir.Value, common: ir.Value,
                compute: Callable[[], ir.Value], name: str) -> ir.Value:
    """`common`, or, where the i1 `rare` holds, what `compute()` emits in a block of its own
    (`<name>.exact`, joined at `<name>.join`): the exact path of a fast approximation, which
    a branch rather than a select runs only when it is needed (a FakeQuantize's near-tie
    levels, an LRN base outside its estimates' range)."""
    before = b.block
    rare_block = b.function.append_basic_block(f"{name}.exact")
    join = b.function.append_basic_block(f"{name}.join")
    b.cbranch(rare, rare_block, join)
    b.position_at_end(rare_block)
    value = compute()
    rare_end = b.block
    b.branch(join)
    b.position_at_end(join)
    phi = b.phi(common.type)
    phi.add_incoming(common, before)
    phi.add_incoming(value, rare_end)
    return phi


def memcpy(builder: ir.IRBuilder, dst: ir.Value, src: ir.Value, nbytes: int | ir.Value) -> None:
    """`llvm.memcpy` (non-overlapping)."""
    module = builder.module
    fn = module.globals.get("llvm.memcpy.p0.p0.i64")
    if fn is None:
        fn = ir.Function(
            module, ir.FunctionType(VOID, [PTR, PTR, I64, I1]), "llvm.memcpy.p0.p0.i64"
        )
    n = i64(nbytes) if isinstance(nbytes, int) else nbytes
    if isinstance(nbytes, int) and nbytes == 0:
        return
    builder.call(fn, [dst, src, n, ir.Constant(I1, 0)])


def memset(builder: ir.IRBuilder, dst: ir.Value, byte: int, nbytes: int | ir.Value) -> None:
    """`llvm.memset`."""
    module = builder.module
    fn = module.globals.get("llvm.memset.p0.i64")
    if fn is None:
        fn = ir.Function(module, ir.FunctionType(VOID, [PTR, I8, I64, I1]), "llvm.memset.p0.i64")
    if isinstance(nbytes, int) and nbytes == 0:
        return
    n = i64(nbytes) if isinstance(nbytes, int) else nbytes
    builder.call(fn, [dst, ir.Constant(I8, byte), n, ir.Constant(I1, 0)])


def chunk_bounds(builder: ir.IRBuilder, chunk: ir.Value, items: int,
                 chunks: int) -> tuple[ir.Value, ir.Value]:
    """[lo, hi) of `items` for chunk `chunk` of `chunks` (as equal as integers allow)."""
    lo = builder.sdiv(builder.mul(chunk, i64(items)), i64(chunks))
    hi = builder.sdiv(builder.mul(builder.add(chunk, i64(1)), i64(items)), i64(chunks))
    return lo, hi


def kernel_function(
    ctx: EmitContext,
    name_hint: str,
    arg_count: int,
    body: Callable[[ir.IRBuilder, Sequence[ir.Value]], None],
    *,
    noalias: Sequence[int] = (),
    index_args: int = 0,
) -> ir.Function:
    """
    A `void name(ptr, ..., ptr)` function (internal) whose body `body(builder, args)` emits;
    the function returns after it. Arguments listed in `noalias` get the `noalias`
    attribute (outputs that no other argument overlaps: it lets LLVM vectorize without
    run-time alias checks). `index_args`: i64 arguments after the pointers (a range's
    bounds: `parallel.ranged_function`).
    """
    fn = ctx.function(name_hint, ir.FunctionType(VOID, [PTR] * arg_count + [I64] * index_args))
    for index in noalias:
        fn.args[index].add_attribute("noalias")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    body(b, fn.args)
    b.ret_void()
    return fn


def checked_kernel(
    ctx: EmitContext,
    name_hint: str,
    args: Sequence[ir.Value],
    body: Callable[[ir.IRBuilder, Sequence[ir.Value], Callable[[ir.Value], None]], None],
    check: int = 0,
) -> None:
    """Call a kernel that checks what it reads at run time: `body(builder, args, fail)`
    emits its code, `fail(bad)` returning from it where `bad` (an i1) holds; the call
    returns the group's failure status then (`EmitContext.fail_on` with `check`). The last
    argument is `noalias` (the output)."""
    fn = ctx.function(name_hint, ir.FunctionType(I32, [PTR] * len(args)))
    fn.args[-1].add_attribute("noalias")
    b = ir.IRBuilder(fn.append_basic_block("entry"))

    def fail(bad: ir.Value) -> None:
        with b.if_then(bad, likely=False):
            b.ret(i32(1))

    body(b, fn.args, fail)
    b.ret(i32(0))
    status = ctx.builder.call(fn, list(args))
    ctx.fail_on(ctx.builder.icmp_signed("!=", status, i32(0)), check)


class _IndirectCallee:
    """A function pointer seen as a callee by llvmlite (which needs `function_type`)."""

    def __init__(self, pointer: ir.Value, fnty: ir.FunctionType) -> None:
        self.pointer = pointer
        self.function_type = fnty
        self.type = PTR

    def get_reference(self) -> str:
        return str(self.pointer.get_reference())


def call_pointer(
    builder: ir.IRBuilder, fnty: ir.FunctionType, pointer: ir.Value, args: Sequence[ir.Value]
) -> ir.Instruction:
    """Call the function at `pointer` (an opaque `ptr`) of type `fnty`."""
    return builder.call(_IndirectCallee(pointer, fnty), list(args))
