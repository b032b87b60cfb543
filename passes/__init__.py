"""
The passes of lowpass: one pass per module, registered here through lazy factories like
xDSL's `get_all_passes` (please keep the list alphabetical).
"""

from collections.abc import Callable
from typing import TYPE_CHECKING

from xdsl.passes import ModulePass

if TYPE_CHECKING:  # (imported on first use: `__getattr__` below)
    from lowpass.passes.manager import LowLatency2 as LowLatency2
    from lowpass.passes.manager import MakeStateful as MakeStateful
    from lowpass.passes.manager import Manager as Manager


class PassWarning(UserWarning):
    """
    The category of every warning a lowpass pass gives (through `warnings.warn`, never a
    print): the message is a diagnostic, `file:line:col: warning: text` (or `@function:
    warning: text` for a module without a source file). opt-tool prints the message on stderr;
    an embedder catches them with `warnings.catch_warnings(record=True)` (see docs/embedding.md).
    """


def get_convert_if_to_select() -> type[ModulePass]:
    from lowpass.passes.convert_if_to_select import ConvertIfToSelectPass

    return ConvertIfToSelectPass


def get_decompose_einsum() -> type[ModulePass]:
    from lowpass.passes.decompose_einsum import DecomposeEinsumPass

    return DecomposeEinsumPass


def get_inline() -> type[ModulePass]:
    from lowpass.passes.inline import InlinePass

    return InlinePass


def get_low_latency2() -> type[ModulePass]:
    from lowpass.passes.low_latency2 import LowLatency2Pass

    return LowLatency2Pass


def get_make_stateful() -> type[ModulePass]:
    from lowpass.passes.make_stateful import MakeStatefulPass

    return MakeStatefulPass


def get_prepare_composite_functions() -> type[ModulePass]:
    from lowpass.passes.prepare_composite_functions import PrepareCompositeFunctionsPass

    return PrepareCompositeFunctionsPass


def get_peel_loops() -> type[ModulePass]:
    from lowpass.passes.peel_loops import PeelLoopsPass

    return PeelLoopsPass


def get_reshape() -> type[ModulePass]:
    from lowpass.passes.reshape import ReshapePass

    return ReshapePass


def get_symbol_dce() -> type[ModulePass]:
    from lowpass.passes.symbol_dce import SymbolDcePass

    return SymbolDcePass


def get_tfl_to_ov() -> type[ModulePass]:
    from lowpass.passes.conversion.tfl_to_ov import TflToOvPass

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


# The single LPT transformations as test passes (`test-lpt-<transformation>`, as MLIR's test
# passes), in pipeline order. A
# static list, so that registering the passes (every `xdsl-opt` of an environment with
# lowpass installed) imports no LPT module; test_packaging.py checks it against the pipeline.
LPT_TRANSFORMATION_PASSES = (
    "test-lpt-fold-static-shape-of",
    "test-lpt-convert-quantize-dequantize",
    "test-lpt-fold-reshaped-dequantization-constants",
    "test-lpt-pull-reshape-through-dequantization",
    "test-lpt-pull-transpose-through-dequantization",
    "test-lpt-lin-op-sequence-fusion",
    "test-lpt-markup-can-be-quantized",
    "test-lpt-markup-precisions",
    "test-lpt-markup-quantization-granularity",
    "test-lpt-markup-avg-pool-precision-preserved",
    "test-lpt-propagate-precisions",
    "test-lpt-align-quantization-intervals",
    "test-lpt-align-quantization-parameters",
    "test-lpt-markup-bias",
    "test-lpt-add",
    "test-lpt-avg-pool",
    "test-lpt-batch-to-space",
    "test-lpt-clamp",
    "test-lpt-concat",
    "test-lpt-convolution",
    "test-lpt-convolution-backprop-data",
    "test-lpt-depth-to-space",
    "test-lpt-fake-quantize-decomposition",
    "test-lpt-fake-quantize",
    "test-lpt-interpolate",
    "test-lpt-group-convolution",
    "test-lpt-mat-mul",
    "test-lpt-max-pool",
    "test-lpt-multiply-partial",
    "test-lpt-mvn",
    "test-lpt-normalize-l2",
    "test-lpt-prelu",
    "test-lpt-reduce-max",
    "test-lpt-reduce-mean",
    "test-lpt-reduce-min",
    "test-lpt-reduce-sum",
    "test-lpt-relu",
    "test-lpt-reshape",
    "test-lpt-squeeze",
    "test-lpt-shuffle-channels",
    "test-lpt-space-to-batch",
    "test-lpt-split",
    "test-lpt-strided-slice",
    "test-lpt-transpose",
    "test-lpt-gather",
    "test-lpt-unsqueeze",
    "test-lpt-variadic-split",
    "test-lpt-eliminate-fake-quantize",
    "test-lpt-fold-convert",
    "test-lpt-fuse-convert",
    "test-lpt-fuse-subtract-to-fake-quantize",
    "test-lpt-fuse-multiply-to-fake-quantize",
    "test-lpt-multiply-to-group-convolution",
    "test-lpt-fold-fake-quantize",
)


def lpt_transformation_pass_names() -> list[str]:
    """The `test-lpt-*` names computed from the LPT pipeline's tables (the static list's)."""
    from lowpass.passes.lpt.markup import MARKUP
    from lowpass.passes.lpt.passes import pass_name
    from lowpass.passes.lpt.pipeline import CLEANUP, FOLD, MAIN, PREREQUISITES

    names = PREREQUISITES + tuple(c.name for c in MARKUP) + MAIN + CLEANUP + FOLD
    return [pass_name(n) for n in names]


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Name -> factory of every lowpass pass."""
    passes: dict[str, Callable[[], type[ModulePass]]] = {
        "convert-tfl-to-ov": get_tfl_to_ov,
        "inline": get_inline,
        "low-latency2": get_low_latency2,
        "lpt": get_lpt,
        "make-stateful": get_make_stateful,
        "ov-convert-if-to-select": get_convert_if_to_select,
        "ov-decompose-einsum": get_decompose_einsum,
        "ov-peel-loops": get_peel_loops,
        "ov-reshape": get_reshape,
        "prepare-composite-functions": get_prepare_composite_functions,
        "symbol-dce": get_symbol_dce,
        "test-lpt-markup": get_lpt_markup,
    }
    for name in LPT_TRANSFORMATION_PASSES:
        passes[name] = _lpt_single(name)
    return dict(sorted(passes.items()))


def deprecated_pass_names() -> dict[str, str]:
    """Old name -> new name of the renamed passes. opt-tool still accepts the old names (with a
    warning) for one release; the `xdsl.universe` entry point does not register them."""
    renamed = {
        "lpt-markup": "test-lpt-markup",
        "reshape": "ov-reshape",
        "tfl-to-ov": "convert-tfl-to-ov",
    }
    for name in LPT_TRANSFORMATION_PASSES:
        renamed[name.removeprefix("test-")] = name
    return renamed


# OpenVINO's `openvino.passes` names (`from lowpass import passes; passes.Manager()`), imported
# on first use so that the registry above stays lazy (passes/manager.py).
_MANAGER_NAMES = ("LowLatency2", "MakeStateful", "Manager")


def __getattr__(name: str) -> object:
    if name in _MANAGER_NAMES:
        from lowpass.passes import manager

        return getattr(manager, name)
    raise AttributeError(f"module 'lowpass.passes' has no attribute '{name}'")
