"""The xDSL `ModulePass`es of LPT (see the package docstring)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException

from lowpass.passes.options import check_option_types
from lowpass.passes.transaction import module_transaction

from . import markup as M
from .params import (
    PRECISION_NAMES,
    LptParams,
    OptionError,
    parse_precision_restrictions,
    parse_quantization_restrictions,
)
from .pipeline import CLEANUP, FOLD, MAIN, PREREQUISITES, run_lpt


@dataclass(frozen=True)
class _LptOptions(ModulePass):
    """Options shared by every LPT pass (docs/passes.md#lpt)."""

    precision_restrictions: str = "cpu"
    per_tensor_quantization: str = "cpu"
    update_precisions: bool = True
    deq_precision: str = "f32"
    asymmetric_activations: bool = True
    asymmetric_weights: bool = True
    cpu_callbacks: bool = True

    def __post_init__(self) -> None:
        # (the options checked when the pass is made, as mlir-opt checks a pipeline before it
        # reads the input: `lpt{deq-precision=f64}` and `LptPass(deq_precision="f64")` fail)
        check_option_types(self)
        try:
            self._params()
        except OptionError as e:
            raise ValueError(str(e)) from None

    def params(self) -> LptParams:
        try:
            return self._params()
        except OptionError as e:
            raise DiagnosticException(f"{self.name}: {e}") from None

    def _params(self) -> LptParams:
        if self.deq_precision not in ("f32", "f16"):
            raise OptionError(f"deq-precision must be f32 or f16, got '{self.deq_precision}'")
        return LptParams(
            update_precisions=self.update_precisions,
            deq_precision=PRECISION_NAMES[self.deq_precision],
            precision_restrictions=parse_precision_restrictions(self.precision_restrictions),
            quantization_restrictions=parse_quantization_restrictions(
                self.per_tensor_quantization
            ),
            asymmetric_activations=self.asymmetric_activations,
            asymmetric_weights=self.asymmetric_weights,
            cpu_callbacks=self.cpu_callbacks,
        )


@dataclass(frozen=True)
class LptPass(_LptOptions):
    """
    OpenVINO's Low Precision Transformations: FakeQuantize-annotated f32 graphs become u8/i8
    graphs with the dequantization moved after the ops that can run in low precision.
    """

    name = "lpt"

    keep_markup: bool = False
    only: tuple[str, ...] = ()
    """Run just these transformations (`lpt{only=convolution,mat-mul}`, the names of the
    `test-lpt-<name>` passes), in pipeline order; the markup always runs whole."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        only = selected_transformations(self.only) if self.only else None
        run_lpt(op, self.params(), only=only, keep_markup=self.keep_markup)


def selectable_transformations() -> dict[str, str]:
    """`only=` name -> transformation, for every step but the markup, in pipeline order."""
    return {short_name(t): t for t in PREREQUISITES + MAIN + CLEANUP + FOLD}


def selected_transformations(names: tuple[str, ...]) -> tuple[str, ...]:
    """The transformations `lpt{only=...}` names; an unknown name is an error listing the valid."""
    table = selectable_transformations()
    # (one quoted string of several names, `only="convolution,mat-mul"`, as make-stateful's
    # pairs= takes one: the same names)
    names = tuple(part.strip() for name in names for part in name.split(","))
    unknown = [n for n in names if n not in table]
    if unknown:
        raise DiagnosticException(
            f"lpt: unknown transformation '{unknown[0]}' in only= (valid: {', '.join(table)}; "
            "the markup always runs whole)"
        )
    return tuple(table[n] for n in names)


@dataclass(frozen=True)
class LptMarkupPass(_LptOptions):
    """The markup step of LPT alone; the attributes are written into the IR as `lpt.*`."""

    name = "test-lpt-markup"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        run_lpt(op, self.params(), steps=("markup",), keep_markup=True)


def short_name(transformation: str) -> str:
    """`ConvolutionTransformation` -> `convolution`, `MarkupBias` -> `markup-bias`."""
    special = {"NormalizeL2Transformation": "normalize-l2", "PReluTransformation": "prelu"}
    if transformation in special:
        return special[transformation]
    base = transformation.removesuffix("Transformation")
    words = re.findall(r"[A-Z]+(?=[A-Z][a-z]|\d|$)|[A-Z]?[a-z]+\d*|\d+|[A-Z]+", base)
    return "-".join(w.lower() for w in words)


def pass_name(transformation: str) -> str:
    """The test pass of one transformation, as MLIR's test passes: `test-lpt-convolution`."""
    return "test-lpt-" + short_name(transformation)


@dataclass(frozen=True)
class _SingleTransformationPass(_LptOptions):
    TRANSFORMATION: ClassVar[str] = ""
    STEP: ClassVar[str] = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        params = self.params()
        t = self.TRANSFORMATION
        if self.STEP == "main":
            run_lpt(op, params, steps=("markup", "main"), main=(t,))
            return
        with module_transaction(op):  # an exception leaves the module as it was
            if self.STEP == "markup":
                from . import attributes as A
                from .pipeline import function_blocks
                from .transformation import TransformationContext

                tctx = TransformationContext(params)
                for block in function_blocks(op):
                    M.run_markup(block, tctx, upto=t)
                A.materialize(tctx.rt, lambda o: o.parent is not None)
            elif self.STEP == "prerequisites":
                _run_alone(op, params, t)
            else:
                _run_alone(op, params, t, with_markup=True)


def _run_alone(op: ModuleOp, params: LptParams, name: str, with_markup: bool = False) -> None:
    from .graph import erase_dead_ops
    from .graph_rewrite import GraphRewrite
    from .pipeline import function_blocks, instantiate
    from .transformation import TransformationContext

    tctx = TransformationContext(params)
    for block in function_blocks(op):
        if with_markup:
            M.run_markup(block, tctx)
        GraphRewrite(instantiate((name,), params)).run(block, tctx)
        erase_dead_ops(block)


@cache
def single_transformation_passes() -> dict[str, type[ModulePass]]:
    """`test-lpt-<name>` -> pass class, for every transformation of every step (built once: the
    57 dataclasses cost ~40 ms, and opt-tool asks once per pass flag)."""
    out: dict[str, type[ModulePass]] = {}
    groups = (
        ("prerequisites", PREREQUISITES),
        ("markup", tuple(c.name for c in M.MARKUP)),
        ("main", MAIN),
        ("cleanup", CLEANUP + FOLD),
    )
    for step, names in groups:
        for t in names:
            n = pass_name(t)
            cls = type(
                t + "Pass",
                (_SingleTransformationPass,),
                {
                    "name": n,
                    "TRANSFORMATION": t,
                    "STEP": step,
                    "__doc__": f"LPT's {t} alone ({step} step; see docs/passes.md#lpt).",
                    "__module__": __name__,
                },
            )
            out[n] = dataclass(frozen=True)(cls)
    return out
