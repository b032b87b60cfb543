"""
The LPT pipeline (`LowPrecision::run_on_model`, src/low_precision.cpp) and the passes that run
one step or one transformation alone.

Steps: prerequisites (GraphRewrite) -> markup (attributes) -> main (GraphRewrite) -> cleanup
(GraphRewrite) -> FoldFakeQuantize -> constant folding. Every transformation module lists its
classes in `TRANSFORMATIONS`; the orders below are upstream's registration orders.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

from xdsl.dialects import func
from xdsl.ir import Block, Operation

from lowpass.dialects.graph import derived_output_names, keep_output_names_of
from lowpass.dialects.ov import ConstantOp, OvOp
from lowpass.dialects.ov.folding import fold_op
from lowpass.passes.transaction import module_transaction

from . import attributes as A
from .graph import erase_dead_ops, insert_before, replace_op
from .graph_rewrite import GraphRewrite
from .markup import run_markup
from .params import LptParams
from .transformation import LayerTransformation, TransformationContext

_MODULES = (
    "prerequisites",
    "fake_quantize_decomposition",
    "fake_quantize",
    "weightable",
    "mat_mul",
    "transparent",
    "movement",
    "split",
    "concat",
    "eltwise",
    "normalization",
    "cleanup",
)

PREREQUISITES = (
    "FoldStaticShapeOf",
    "ConvertQuantizeDequantize",
    "FoldReshapedDequantizationConstants",
    "PullReshapeThroughDequantization",
    "PullTransposeThroughDequantization",
    "LinOpSequenceFusion",
)

MAIN = (
    "AddTransformation",
    "AvgPoolTransformation",
    "BatchToSpaceTransformation",
    "ClampTransformation",
    "ConcatTransformation",
    "ConvolutionTransformation",
    "ConvolutionBackpropDataTransformation",
    "DepthToSpaceTransformation",
    "FakeQuantizeDecompositionTransformation",
    "FakeQuantizeTransformation",
    "InterpolateTransformation",
    "GroupConvolutionTransformation",
    "MatMulTransformation",
    "MaxPoolTransformation",
    "MultiplyPartialTransformation",
    "MVNTransformation",
    "NormalizeL2Transformation",
    "PReluTransformation",
    "ReduceMaxTransformation",
    "ReduceMeanTransformation",
    "ReduceMinTransformation",
    "ReduceSumTransformation",
    "ReluTransformation",
    "ReshapeTransformation",
    "SqueezeTransformation",
    "ShuffleChannelsTransformation",
    "SpaceToBatchTransformation",
    "SplitTransformation",
    "StridedSliceTransformation",
    "TransposeTransformation",
    "GatherTransformation",
    "UnsqueezeTransformation",
    "VariadicSplitTransformation",
)
"""LowPrecision's "common" GraphRewrite, in registration order (ops `ov` has)."""

CLEANUP = (
    "EliminateFakeQuantizeTransformation",
    "FoldConvertTransformation",
    "FuseConvertTransformation",
    "FuseSubtractToFakeQuantizeTransformation",
    "FuseMultiplyToFakeQuantizeTransformation",
    "MultiplyToGroupConvolutionTransformation",
)

FOLD = ("FoldFakeQuantizeTransformation",)


def all_transformations() -> dict[str, type[LayerTransformation]]:
    """Name -> class of every transformation implemented (from the modules' TRANSFORMATIONS)."""
    found: dict[str, type[LayerTransformation]] = {}
    for module in _MODULES:
        try:
            m = importlib.import_module(f"{__package__}.{module}")
        except ModuleNotFoundError as e:
            if e.name != f"{__package__}.{module}":
                raise
            continue
        for cls in getattr(m, "TRANSFORMATIONS", ()):
            found[cls.name] = cls
    return found


def instantiate(names: Sequence[str], params: LptParams) -> list[LayerTransformation]:
    table = all_transformations()
    out: list[LayerTransformation] = []
    for n in names:
        cls = table.get(n)
        if cls is None:
            raise KeyError(
                f"unknown LPT transformation '{n}' (implemented: {', '.join(sorted(table))})"
            )
        if n == "MultiplyToGroupConvolutionTransformation" and params.cpu_callbacks:
            continue  # disabled by the CPU plugin
        out.append(cls())
    return out


def function_blocks(module: Operation) -> list[Block]:
    return [
        op.body.blocks.first
        for op in module.walk()
        if isinstance(op, func.FuncOp) and op.body.blocks.first is not None
    ]


def run_lpt(
    module: Operation,
    params: LptParams | None = None,
    *,
    steps: Sequence[str] = ("prerequisites", "markup", "main", "cleanup", "fold"),
    main: Sequence[str] | None = None,
    only: Sequence[str] | None = None,
    keep_markup: bool = False,
) -> TransformationContext:
    """
    Run LPT on every function of `module` in place. `main` replaces the main step's
    transformation list (SimpleLowPrecisionTransformer); `only` keeps, in every step but the
    markup (which always runs whole), just the named transformations (class names, pipeline
    order kept; the constant folding runs with FoldFakeQuantizeTransformation);
    `keep_markup` writes the attributes into the IR (`lpt.*`). An exception (an unknown
    transformation name, a bug) leaves the module as it was.
    """
    if only is not None:
        table = all_transformations()
        unknown = [n for n in only if n not in table]
        if unknown:  # a misspelt name would select nothing, silently
            raise KeyError(
                f"unknown LPT transformation '{unknown[0]}' in only "
                f"(implemented: {', '.join(sorted(table))})"
            )
    names = derived_output_names(module)
    with module_transaction(module) as transaction:
        transaction.on_rollback(A.follow_copies)
        context = _run_lpt(module, params, steps, main, only, keep_markup)
        keep_output_names_of(module, names)
        return context


def _run_lpt(
    module: Operation,
    params: LptParams | None,
    steps: Sequence[str],
    main: Sequence[str] | None,
    only: Sequence[str] | None,
    keep_markup: bool,
) -> TransformationContext:
    def selected(names: Sequence[str]) -> Sequence[str]:
        return names if only is None else [n for n in names if n in only]

    params = params or LptParams()
    ctx = TransformationContext(params)
    # what an earlier run kept (in memory, or as lpt.* in the IR) comes back; the rest of
    # an earlier markup is stale and is derived again
    A.restore(ctx.rt, module)
    A.strip(module)
    for block in function_blocks(module):
        if "prerequisites" in steps:
            GraphRewrite(instantiate(selected(PREREQUISITES), params)).run(block, ctx)
            erase_dead_ops(block)
        if "markup" in steps:
            run_markup(block, ctx)
        if "main" in steps:
            main_list = selected(main if main is not None else MAIN)
            GraphRewrite(instantiate(main_list, params)).run(block, ctx)
            erase_dead_ops(block)
        if "cleanup" in steps:
            GraphRewrite(instantiate(selected(CLEANUP), params)).run(block, ctx)
            erase_dead_ops(block)
        if "fold" in steps and selected(FOLD):
            GraphRewrite(instantiate(selected(FOLD), params)).run(block, ctx)
            fold_constants(block, ctx)
            erase_dead_ops(block)
    A.keep(ctx.rt, lambda op: op.parent is not None)
    if keep_markup:
        A.materialize(ctx.rt, lambda op: op.parent is not None)
    return ctx


def fold_constants(block: Block, ctx: TransformationContext) -> None:
    """
    ConstantFolding: ops on constants become constants (unless disable_constant_folding),
    through the dialect's folder (`lowpass.dialects.ov.folding.fold_op`, as `canonicalize`).
    """
    for op in list(block.ops):
        if isinstance(op, ConstantOp) or not isinstance(op, OvOp):
            continue
        if ctx.rt.get(op, A.DISABLE_CONSTANT_FOLDING) is not None:
            continue
        folded = fold_op(op)
        if folded is None:
            continue
        values, constants = folded
        insert_before(op, *constants)
        replace_op(op, values)
