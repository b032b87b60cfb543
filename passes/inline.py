"""
`inline`: MLIR's inliner (mlir/lib/Transforms/InlinerPass.cpp) for the calls of lowpass'
modules: `func.call` and TensorFlow's `"tf.PartitionedCall"` / `"tf.StatefulPartitionedCall"`
(attribute `f`), which xDSL 0.74 cannot inline (its `inline-snrt` is for snitch runtime calls).

    opt-tool --allow-unregistered-dialect --inline model.mlir
    opt-tool --allow-unregistered-dialect -p 'inline{inlining-threshold=200}' model.mlir

Each call to a function of the module that has a body is replaced by a copy of that body: the
callee's arguments are bound to the call's operands, the call's results replaced by the values
the callee returns, and calls in the copied body are inlined in turn (nested calls). Every
function with a body is processed, public ones included, as MLIR's inliner does; calls in
nested regions too. An inlined op's location is `callsite(<its location> at <the call's>)`, as
MLIR gives it, so a diagnostic still names the line of the callee's op. A private callee that
no longer has any reference once its calls are inlined is erased (MLIR erases dead discardable
callables); `symbol-dce` erases the rest.

Calls that cannot be inlined are left alone, as MLIR leaves them: a callee that is a
declaration (no body), a callee that is not a plain symbol of the module, a TensorFlow call to
a function marked `tf._noinline = true` (TensorFlow's inliner interface; `tf._XlaMustCompile`
overrides it, and `func.call` is always legal), and a call that the `inlining-threshold`
option makes unprofitable. A call is an error (the pass fails and the module
is unchanged): recursion (MLIR inlines a recursive call a bounded number of times; here a
recursive call is refused with the chain of calls), a callee with several blocks (this inliner
copies single-block bodies), a body that does not end with `func.return`, and operand or result
counts or types that do not fit the callee's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    CallSiteLoc,
    LocationAttr,
    ModuleOp,
    SymbolRefAttr,
    UnknownLoc,
    UnregisteredOp,
    i1,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import PassFailedException

from lowpass.dialects.guards import is_integer_attr
from lowpass.dialects.ov.base import get_name, types_compatible
from lowpass.ir import find_location
from lowpass.passes.options import check_option_types
from lowpass.passes.symbol_dce import is_public, referenced_symbols
from lowpass.passes.transaction import module_transaction

CALL_OPS = ("tf.PartitionedCall", "tf.StatefulPartitionedCall", "func.call")
"""The call ops the inliner knows (their callee: `f`, `func.call`'s `callee`)."""


class InlineError(PassFailedException):
    """A call that cannot be inlined; the message is a complete diagnostic."""


@dataclass(frozen=True)
class InlinePass(ModulePass):
    """
    Inlines func.call / tf.PartitionedCall / tf.StatefulPartitionedCall of functions with a
    body (MLIR's inline); erases the private callees left without references.
    """

    name = "inline"

    inlining_threshold: int = -1
    """MLIR's option: a call is inlined only if the callee has at most this percentage of the
    caller's ops (both counted over the whole function, terminators included; a callee
    without ops is always inlined). -1, the default, inlines every call (MLIR's -1U)."""

    def __post_init__(self) -> None:
        check_option_types(self)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.inlining_threshold < -1:
            raise InlineError(
                f"inline: error: inlining-threshold must be a percentage >= 0 or -1 (no limit), "
                f"got {self.inlining_threshold}"
            )
        with module_transaction(op):
            inliner = Inliner(
                op, strict=False, threshold=self.inlining_threshold, tf_noinline=True
            )
            try:
                for function in [f for f in op.ops if isinstance(f, func.FuncOp)]:
                    if not function.is_declaration:
                        inliner.inline_function(function)
            except InlineRefusal as r:
                raise InlineError(diagnostic(r.op, r.message, "inline")) from None
            erase_dead_callees(op, inliner.inlined)


# --------------------------------------------------------------------------------------------
# Call ops
# --------------------------------------------------------------------------------------------


def op_kind(op: Operation) -> str:
    """The op's name, also for unregistered ops (`"tf.Const"`)."""
    if isinstance(op, UnregisteredOp):
        return op.op_name.data
    return op.name


def op_attribute(op: Operation, name: str) -> Attribute | None:
    """A property or (unregistered ops, TensorFlow's generic form) an attribute."""
    value = op.properties.get(name)
    return value if value is not None else op.attributes.get(name)


def callee_of(op: Operation) -> str | None:
    """The symbol a call op calls (`f` of TF's calls, `callee` of `func.call`)."""
    kind = op_kind(op)
    if kind not in CALL_OPS:
        return None
    ref = op_attribute(op, "callee" if kind == "func.call" else "f")
    if isinstance(ref, SymbolRefAttr) and len(ref.nested_references) == 0:
        return ref.root_reference.data
    return None


def call_site(callee: LocationAttr, caller: LocationAttr) -> LocationAttr:
    """An inlined op's location: `callsite(callee at caller)`, as MLIR's inliner gives it."""
    if isinstance(caller, UnknownLoc):
        return callee
    if isinstance(callee, UnknownLoc):
        return caller
    return CallSiteLoc(callee, caller)


def diagnostic(op: Operation, message: str, tool: str) -> str:
    """`file:line:col: error: '<op>' op "<ov.name>" <message>` (`<tool>: error:` unlocated)."""
    where = find_location(op) or tool
    name = get_name(op)
    what = f"'{op_kind(op)}' op" + (f' "{name}"' if name else "")
    return f"{where}: error: {what} {message}"


# --------------------------------------------------------------------------------------------
# The inliner
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CallFrame:
    """One call an op was inlined through: the callee's symbol and the call op's `ov.name`."""

    callee: str
    call_name: str | None


@dataclass
class InlineRefusal(Exception):
    """A call that cannot be inlined (`op`: the call, `message`: why)."""

    op: Operation
    message: str


@dataclass
class Inliner:
    """
    Inlines calls in place (the caller runs it in a `module_transaction`). `strict`: a call
    that cannot be inlined at all (a declaration, a callee that is not a plain symbol of the
    module) is refused rather than left; `threshold`: MLIR's `inlining-threshold` (-1: none).
    """

    module: ModuleOp
    strict: bool = True
    threshold: int = -1
    tf_noinline: bool = False
    """Leave TensorFlow's calls to a function marked `tf._noinline = true` (TensorFlow's
    inliner interface); the conversion to OpenVINO inlines them too (no calls in its graphs)."""
    frames: dict[Operation, tuple[CallFrame, ...]] = field(
        default_factory=dict[Operation, tuple[CallFrame, ...]]
    )
    """Inlined op -> the calls it was inlined through, outermost first."""
    inlined: set[str] = field(default_factory=set[str])
    """The callees of the calls inlined."""
    _left: set[Operation] = field(default_factory=set[Operation])

    def inline_function(self, function: func.FuncOp) -> None:
        """Inline every call in `function`, in nested regions too."""
        root = function.sym_name.data
        while (call := self._next_call(function.walk())) is not None:
            self.inline_call(call, root)

    def inline_block(self, block: Block, root: str) -> None:
        """Inline the calls of `block` (not in nested regions), nested calls too."""
        while (call := self._next_call(block.ops)) is not None:
            self.inline_call(call, root)

    def _next_call(self, ops: Iterable[Operation]) -> Operation | None:
        for op in ops:
            if op_kind(op) in CALL_OPS and op not in self._left:
                return op
        return None

    def _leave(self, call: Operation, reason: str) -> None:
        if self.strict:
            raise InlineRefusal(call, reason)
        self._left.add(call)

    def inline_call(self, call: Operation, root: str) -> None:
        """Replace `call` (in a function `root` or in what was inlined into it) by its callee."""
        name = callee_of(call)
        if name is None:
            return self._leave(call, "its callee is not a plain symbol of this module")
        callee = SymbolTable.lookup_symbol(self.module, name)
        if not isinstance(callee, func.FuncOp):
            return self._leave(call, f"calls @{name}, which is not a func.func of this module")
        if callee.is_declaration:
            return self._leave(call, f"calls @{name}, a declaration without a body")
        if self.tf_noinline and _tf_noinline(call, callee):
            self._left.add(call)  # TensorFlow's rule: not legal to inline, not an error
            return None
        if len(callee.body.blocks) != 1:
            raise InlineRefusal(call, f"calls @{name}, which has several blocks")
        frames = self.frames.get(call, ())
        chain = (root, *(f.callee for f in frames))
        if name in chain:
            raise InlineRefusal(call, f"calls @{name} recursively ({' -> '.join(chain)} -> {name})")
        if not self._profitable(call, callee):
            self._left.add(call)  # not an error, even for a strict caller
            return None
        args = callee.body.block.args
        if len(args) != len(call.operands):
            raise InlineRefusal(
                call, f"passes {len(call.operands)} operands to @{name}, which takes {len(args)}"
            )
        for i, (arg, value) in enumerate(zip(args, call.operands, strict=True)):
            if not types_compatible(arg.type, value.type):
                raise InlineRefusal(
                    call, f"operand #{i} has type {value.type}, @{name} takes {arg.type}"
                )
        terminator = callee.body.block.last_op
        if not isinstance(terminator, func.ReturnOp):
            raise InlineRefusal(call, f"calls @{name}, whose body does not end with func.return")
        if len(terminator.operands) != len(call.results):
            raise InlineRefusal(
                call,
                f"has {len(call.results)} results, @{name} returns {len(terminator.operands)} "
                "values",
            )
        for i, (result, value) in enumerate(zip(call.results, terminator.operands, strict=True)):
            if result.uses and not types_compatible(value.type, result.type):
                raise InlineRefusal(
                    call, f"result #{i} has type {result.type}, @{name} returns {value.type}"
                )
        # Everything is checked: inline.
        inner = (*frames, CallFrame(name, get_name(call)))
        value_map: dict[SSAValue, SSAValue] = dict(zip(args, call.operands, strict=True))
        point = InsertPoint.before(call)
        for op in callee.body.block.ops:
            if op is terminator:
                continue
            new = op.clone(value_mapper=value_map)
            Rewriter.insert_op(new, point)
            for inlined in new.walk():
                inlined.location = call_site(inlined.location, call.location)
                self.frames[inlined] = inner
        for result, value in zip(call.results, terminator.operands, strict=True):
            result.replace_all_uses_with(value_map.get(value, value))
        Rewriter.erase_op(call)
        self.inlined.add(name)

    def _profitable(self, call: Operation, callee: func.FuncOp) -> bool:
        """MLIR's `isProfitableToInline` with `inlining-threshold`."""
        if self.threshold < 0:
            return True
        caller = call.parent_op()
        while caller is not None and not isinstance(caller, func.FuncOp):
            caller = caller.parent_op()
        callee_ops = sum(1 for _ in callee.body.walk())
        if callee_ops == 0 or caller is None:
            return True
        caller_ops = sum(1 for _ in caller.body.walk())
        return caller_ops == 0 or callee_ops * 100 // caller_ops <= self.threshold


def _tf_noinline(call: Operation, callee: func.FuncOp) -> bool:
    """TensorFlow's `TFInlinerInterface::isLegalToInline` for its call ops, negated: a callee
    with `tf._noinline = true` is not inlined, unless it has `tf._XlaMustCompile`."""
    if op_kind(call) == "func.call" or "tf._XlaMustCompile" in callee.attributes:
        return False
    flag = callee.attributes.get("tf._noinline")
    return is_integer_attr(flag) and flag.type == i1 and flag.value.data != 0


def erase_dead_callees(module: ModuleOp, callees: set[str]) -> None:
    """Erase the private functions among `callees` that nothing refers to any more."""
    while True:
        referenced: set[str] = set()
        for op in module.ops:
            referenced |= referenced_symbols(op)
        dead = [
            f
            for f in module.ops
            if isinstance(f, func.FuncOp)
            and f.sym_name.data in callees
            and not is_public(f)
            and f.sym_name.data not in referenced
        ]
        if not dead:
            return
        for f in dead:
            Rewriter.erase_op(f)


__all__ = [
    "CALL_OPS",
    "CallFrame",
    "InlineError",
    "InlinePass",
    "Inliner",
    "callee_of",
    "erase_dead_callees",
    "op_attribute",
    "op_kind",
]
