"""
The `xdsl.universe` entry point: makes plain `xdsl-opt` (and `xdsl-run`, `xdsl-gui`) see the
lowpass dialects and passes. Registration is lazy, as in xDSL's own registries.
"""

from xdsl.universe import Universe

from lowpass.dialects import get_all_dialects
from lowpass.passes import get_all_passes

LOWPASS_UNIVERSE = Universe(all_dialects=get_all_dialects(), all_passes=get_all_passes())
