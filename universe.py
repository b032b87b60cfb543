"""
The `xdsl.universe` entry point: makes plain `xdsl-opt` (and any tool built on
`Universe.get_multiverse()`) see the lowpass dialects, passes and targets (`-t ov-ir`,
`-t dot`: `frontends/targets.py`). Registration is lazy, as in xDSL's own registries.
(`xdsl-run` parses `ov` programs but cannot run them: xDSL's interpreter has no
implementation of the `ov` ops; lowpass-run does.)
"""

from xdsl.universe import Universe

from lowpass.dialects import get_all_dialects
from lowpass.frontends.targets import get_all_targets, get_output_passes
from lowpass.lowering import get_cpu_passes, get_cpu_targets
from lowpass.passes import get_all_passes

LOWPASS_UNIVERSE = Universe(
    all_dialects=get_all_dialects(),
    all_passes={**get_all_passes(), **get_cpu_passes(), **get_output_passes()},
    all_targets={**get_all_targets(), **get_cpu_targets()},
)
