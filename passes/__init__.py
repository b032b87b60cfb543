"""
The passes of lowpass: one pass per module, registered here through lazy factories like
xDSL's `get_all_passes` (please keep the list alphabetical).
"""

from collections.abc import Callable

from xdsl.passes import ModulePass


def get_low_latency2() -> type[ModulePass]:
    from lowpass.passes.low_latency2 import LowLatency2Pass

    return LowLatency2Pass


def get_reshape() -> type[ModulePass]:
    from lowpass.passes.reshape import ReshapePass

    return ReshapePass


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Name -> factory of every lowpass pass."""
    return {
        "low-latency2": get_low_latency2,
        "reshape": get_reshape,
    }
