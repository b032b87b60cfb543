"""
The passes of lowpass: one pass per module, registered here through lazy factories like
xDSL's `get_all_passes` (please keep the list alphabetical).
"""

from collections.abc import Callable

from xdsl.passes import ModulePass


class PassWarning(UserWarning):
    """
    The category of every warning a lowpass pass gives (through `warnings.warn`, never a
    print): the message is a diagnostic, `file:line:col: warning: text` (or `@function:
    warning: text` for a module without a source file). opt-tool prints the message on stderr;
    an embedder catches them with `warnings.catch_warnings(record=True)` (see docs/embedding.md).
    """


def get_low_latency2() -> type[ModulePass]:
    from lowpass.passes.low_latency2 import LowLatency2Pass

    return LowLatency2Pass


def get_prepare_composite_functions() -> type[ModulePass]:
    from lowpass.passes.prepare_composite_functions import PrepareCompositeFunctionsPass

    return PrepareCompositeFunctionsPass


def get_reshape() -> type[ModulePass]:
    from lowpass.passes.reshape import ReshapePass

    return ReshapePass


def get_tfl_to_ov() -> type[ModulePass]:
    from lowpass.passes.tfl_to_ov import TflToOvPass

    return TflToOvPass


def get_lpt() -> type[ModulePass]:
    from lowpass.passes.lpt import LptPass

    return LptPass


def get_lpt_markup() -> type[ModulePass]:
    from lowpass.passes.lpt import LptMarkupPass

    return LptMarkupPass


def _lpt_single(name: str) -> Callable[[], type[ModulePass]]:
    def factory() -> type[ModulePass]:
        from lowpass.passes.lpt import single_transformation_passes

        return single_transformation_passes()[name]

    return factory


# The single LPT transformations as passes (`lpt-<transformation>`), in pipeline order. A
# static list, so that registering the passes (every `xdsl-opt` of an environment with
# lowpass installed) imports no LPT module; test_packaging.py checks it against the pipeline.
LPT_TRANSFORMATION_PASSES = (
    "lpt-pull-reshape-through-dequantization",
    "lpt-pull-transpose-through-dequantization",
    "lpt-lin-op-sequence-fusion",
    "lpt-markup-can-be-quantized",
    "lpt-markup-precisions",
    "lpt-markup-quantization-granularity",
    "lpt-markup-avg-pool-precision-preserved",
    "lpt-propagate-precisions",
    "lpt-align-quantization-intervals",
    "lpt-align-quantization-parameters",
    "lpt-markup-bias",
    "lpt-add",
    "lpt-avg-pool",
    "lpt-batch-to-space",
    "lpt-clamp",
    "lpt-concat",
    "lpt-convolution",
    "lpt-convolution-backprop-data",
    "lpt-depth-to-space",
    "lpt-fake-quantize-decomposition",
    "lpt-fake-quantize",
    "lpt-interpolate",
    "lpt-group-convolution",
    "lpt-mat-mul",
    "lpt-max-pool",
    "lpt-multiply-partial",
    "lpt-mvn",
    "lpt-normalize-l2",
    "lpt-prelu",
    "lpt-reduce-max",
    "lpt-reduce-mean",
    "lpt-reduce-min",
    "lpt-reduce-sum",
    "lpt-relu",
    "lpt-reshape",
    "lpt-squeeze",
    "lpt-shuffle-channels",
    "lpt-space-to-batch",
    "lpt-split",
    "lpt-strided-slice",
    "lpt-transpose",
    "lpt-gather",
    "lpt-unsqueeze",
    "lpt-variadic-split",
    "lpt-eliminate-fake-quantize",
    "lpt-fold-convert",
    "lpt-fuse-convert",
    "lpt-fuse-subtract-to-fake-quantize",
    "lpt-fuse-multiply-to-fake-quantize",
    "lpt-multiply-to-group-convolution",
    "lpt-fold-fake-quantize",
)


def lpt_transformation_pass_names() -> list[str]:
    """The `lpt-*` names computed from the LPT pipeline's tables (what the static list must be)."""
    from lowpass.passes.lpt.markup import MARKUP
    from lowpass.passes.lpt.passes import pass_name
    from lowpass.passes.lpt.pipeline import CLEANUP, FOLD, MAIN, PREREQUISITES

    names = PREREQUISITES + tuple(c.name for c in MARKUP) + MAIN + CLEANUP + FOLD
    return [pass_name(n) for n in names]


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Name -> factory of every lowpass pass."""
    passes: dict[str, Callable[[], type[ModulePass]]] = {
        "low-latency2": get_low_latency2,
        "lpt": get_lpt,
        "lpt-markup": get_lpt_markup,
        "prepare-composite-functions": get_prepare_composite_functions,
        "reshape": get_reshape,
        "tfl-to-ov": get_tfl_to_ov,
    }
    for name in LPT_TRANSFORMATION_PASSES:
        passes[name] = _lpt_single(name)
    return dict(sorted(passes.items()))
