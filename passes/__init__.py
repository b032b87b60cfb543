"""
The passes of lowpass: one pass per module, registered here through lazy factories like
xDSL's `get_all_passes` (please keep the list alphabetical).
"""

from collections.abc import Callable

from xdsl.passes import ModulePass


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


def _lpt_single_names() -> list[str]:
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
    for name in _lpt_single_names():
        passes[name] = _lpt_single(name)
    return dict(sorted(passes.items()))
