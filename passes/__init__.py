"""
The passes of lowpass: one pass per module, registered here through lazy factories like
xDSL's `get_all_passes` (please keep the list alphabetical).
"""

from collections.abc import Callable

from xdsl.passes import ModulePass


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Name -> factory of every lowpass pass."""
    return {}
