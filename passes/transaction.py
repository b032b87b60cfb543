"""
"Leave the module unchanged on error", once for every pass: a pass transforms the module in
place inside `module_transaction`, and an exception (a diagnostic, or a bug) puts the module's
contents back as they were when the transaction began.

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        with module_transaction(op):
            transform(op)  # may raise after half the work: the module is then as it was

On success nothing is copied back: the ops the caller holds are the module's ops, changed in
place (a clone-and-swap would hand back a copy of every op). On an exception the module op
itself stays (the caller's handle), its regions take a copy made when the transaction began
(`Operation.clone()`: properties, attributes, SSA names and `Operation.location`s included, so
a later diagnostic still points at `file:line:col`), and the exception goes on. The ops the
failed pass held are detached from the module; `Transaction.snapshot_of` maps an op that
existed when the transaction began to its copy, the op in the module after a rollback.

`module_trial` is the same with an unconditional rollback: run something on the module to see
whether it succeeds (ov-reshape tries candidate constants that way).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from contextlib import contextmanager

from xdsl.ir import Operation


class Transaction:
    """A copy of `module` taken at construction, to put back with `rollback()`."""

    def __init__(self, module: Operation) -> None:
        self.module = module
        self._copy = module.clone()
        # Both walks visit the ops in the same order: op -> its copy.
        self._copies = dict(zip(module.walk(), self._copy.walk(), strict=True))
        self._copies[module] = module  # the module op itself stays
        self.rolled_back = False
        self._on_rollback: list[Callable[[Mapping[Operation, Operation]], None]] = []

    def on_rollback(self, callback: Callable[[Mapping[Operation, Operation]], None]) -> None:
        """Call `callback(copies)` after a rollback, `copies` mapping each op that existed when
        the transaction began to its copy now in the module: side tables keyed by op (LPT's
        kept attributes) follow the restored ops with it."""
        self._on_rollback.append(callback)

    def snapshot_of(self, op: Operation) -> Operation | None:
        """The copy of `op` taken when the transaction began (None for an op created since);
        after `rollback()` that copy is the op in the module."""
        return self._copies.get(op)

    def rollback(self) -> None:
        """Put the module's contents back as they were when the transaction began (once)."""
        if self.rolled_back:
            return
        self.rolled_back = True
        module, copy = self.module, self._copy
        for region, saved in zip(module.regions, copy.regions, strict=True):
            for block in list(region.blocks):
                region.detach_block(block)
            saved.move_blocks(region)
        module.properties = dict(copy.properties)
        module.attributes = dict(copy.attributes)
        module.location = copy.location
        for callback in self._on_rollback:
            callback(self._copies)


@contextmanager
def module_transaction(module: Operation) -> Generator[Transaction]:
    """Run the body on `module` in place; on an exception restore its contents and re-raise."""
    transaction = Transaction(module)
    try:
        yield transaction
    except BaseException:
        transaction.rollback()
        raise


@contextmanager
def module_trial(module: Operation) -> Generator[Transaction]:
    """Run the body on `module` and then restore its contents, whatever happened."""
    transaction = Transaction(module)
    try:
        yield transaction
    finally:
        transaction.rollback()


__all__ = ["Transaction", "module_transaction", "module_trial"]
