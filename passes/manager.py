"""
OpenVINO's Python pass manager (`openvino.passes`) over lowpass's passes, so that a script
that makes a model stateful as OpenVINO's State API documentation does runs with lowpass's
model by changing its import:

    from lowpass import passes                  # (from openvino import passes)
    manager = passes.Manager()
    manager.register_pass(passes.LowLatency2())
    manager.run_passes(model)

`LowLatency2(use_const_initializer=True)` and `MakeStateful(pairs_to_replace)` are the passes
`low-latency2` and `make-stateful` under OpenVINO's names and arguments; `register_pass` also
takes any xDSL `ModulePass` (lowpass's, xDSL's). `run_passes` runs them in order on a
`lowpass.Model` (its module, changed in place: its ports follow) or a `ModuleOp`, verifying
the module after each pass, as OpenVINO validates after each pass unless
`set_per_pass_validation(False)`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from numbers import Real
from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException, PassFailedException

from lowpass.ir import make_context, verify_module
from lowpass.passes.low_latency2 import LowLatency2Pass
from lowpass.passes.make_stateful import MakeStatefulPass


class LowLatency2(LowLatency2Pass):
    """OpenVINO's `passes.LowLatency2(use_const_initializer=True)`: the `low-latency2` pass."""

    def __init__(self, use_const_initializer: bool | float | np.bool_ | None = True) -> None:
        # (None and a number are taken as their truth, as OpenVINO's binding (pybind11's
        # bool) takes them; anything else, the string "false" among it, is refused by the
        # option's type check, TypeError)
        given = cast(object, use_const_initializer)
        if given is None or isinstance(given, Real | np.bool_):  # (numpy's numbers are Real)
            given = bool(cast(float, given))
        super().__init__(use_const_initializer=cast(bool, given))


class MakeStateful(MakeStatefulPass):
    """OpenVINO's `passes.MakeStateful(pairs_to_replace)`: the `make-stateful` pass of a dict
    `{input name: output name}` or of a list of `(parameter, result)` pairs (the nodes of
    `Model.get_parameters()` / `get_results()`, or their names)."""

    def __init__(self, pairs_to_replace: Mapping[str, str] | Iterable[tuple[Any, Any]]) -> None:
        given: Any = pairs_to_replace
        items = cast("Iterable[tuple[Any, Any]]",
                     given.items() if isinstance(given, Mapping) else given)  # fmt: skip
        pairs = tuple(f"{_node_name(i)}:{_node_name(o)}" for i, o in items)
        if not pairs:
            raise ValueError("MakeStateful: no pairs to replace")
        super().__init__(pairs=pairs)


def _node_name(node: Any) -> str:
    """A graph input's or output's name: given as such, or the node's friendly name."""
    if isinstance(node, str):
        return node
    name = getattr(node, "get_friendly_name", None)
    if not callable(name):
        raise TypeError(f"MakeStateful: expected a name or a Parameter/Result node, got "
                        f"{type(node).__name__}")  # fmt: skip
    return str(name())


class PassRunError(PassFailedException, RuntimeError):
    """A pass that `Manager.run_passes` ran failed: its diagnostic, a `RuntimeError` as
    OpenVINO's pass manager raises (`except RuntimeError` catches it) and still xDSL's
    `PassFailedException`."""


class Manager:
    """OpenVINO's `passes.Manager`: passes registered in order, run on a model."""

    def __init__(self) -> None:
        self.passes: list[ModulePass] = []
        self.per_pass_validation = True

    def register_pass(self, transformation: object) -> ModulePass:
        """Append `transformation` (an xDSL `ModulePass`) and return it, as OpenVINO does."""
        if not isinstance(transformation, ModulePass):
            raise TypeError("register_pass: expected a pass (LowLatency2(), MakeStateful(...) or "
                            f"an xDSL ModulePass), got {type(transformation).__name__}")
        self.passes.append(transformation)
        return transformation

    def set_per_pass_validation(self, new_state: bool) -> None:
        self.per_pass_validation = bool(new_state)

    def run_passes(self, model: Any) -> bool:
        """Run the passes in order on `model` (a `lowpass.Model` or a `ModuleOp`), in place;
        a pass that fails raises its diagnostic (`PassRunError`, a `RuntimeError`) and leaves
        the module as that pass found it. True, as OpenVINO's answer that the passes ran."""
        module = model if isinstance(model, ModuleOp) else getattr(model, "module", None)
        if not isinstance(module, ModuleOp):
            raise TypeError(f"run_passes: expected a lowpass.Model or a ModuleOp, got "
                            f"{type(model).__name__}")  # fmt: skip
        ctx = make_context()
        for transformation in self.passes:
            try:
                transformation.apply(ctx, module)
                if self.per_pass_validation:
                    verify_module(module)  # (located diagnostics, as opt-tool's)
            except DiagnosticException as e:
                raise PassRunError(str(e)) from e
        return True


__all__ = ["LowLatency2", "MakeStateful", "Manager", "PassRunError"]
