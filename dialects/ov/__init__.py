"""
The `ov` dialect: the OpenVINO opset as xDSL ops.

The ops live in one module per group of the OpenVINO opset specification; each module lists
its ops in `OPS` and its public names in `__all__`. The package exports the union of those
`__all__` lists, `OPS` (every op; `ALL_OPS`), `ATTRS` (every attribute; `ALL_ATTRS`) and `OV`,
the dialect object. Constant folding is described in `folding`. Importing the package
registers the ops (and `arith.constant`) with the reference interpreter, `dialects/interpret.py`.
"""

from xdsl.ir import Dialect, Operation

from lowpass.dialects.interpret import register_implementation_lazily, register_ops

from . import (
    activation,
    arithmetic,
    comparison,
    conditional,
    conversion,
    convolution,
    enums,
    image,
    infrastructure,
    matrix,
    movement,
    normalization,
    pooling,
    quantization,
    reduction,
    sequence,
    shape,
    sort,
    state,
    structural,
)
from .activation import *  # noqa: F403
from .arithmetic import *  # noqa: F403
from .base import *  # noqa: F403
from .base import interpret_arith_constant
from .comparison import *  # noqa: F403
from .conditional import *  # noqa: F403
from .conversion import *  # noqa: F403
from .convolution import *  # noqa: F403
from .enums import *  # noqa: F403
from .folding import OvConstantMaterialization
from .image import *  # noqa: F403
from .infrastructure import *  # noqa: F403
from .matrix import *  # noqa: F403
from .movement import *  # noqa: F403
from .normalization import *  # noqa: F403
from .pooling import *  # noqa: F403
from .quantization import *  # noqa: F403
from .reduction import *  # noqa: F403
from .sequence import *  # noqa: F403
from .shape import *  # noqa: F403
from .sort import *  # noqa: F403
from .state import *  # noqa: F403
from .structural import *  # noqa: F403

_MODULES = (
    activation,
    arithmetic,
    comparison,
    conditional,
    conversion,
    convolution,
    enums,
    image,
    infrastructure,
    matrix,
    movement,
    normalization,
    pooling,
    quantization,
    reduction,
    sequence,
    shape,
    sort,
    state,
    structural,
)

ALL_OPS = tuple(op for module in _MODULES for op in getattr(module, "OPS", ()))
ALL_ATTRS = tuple(attr for module in _MODULES for attr in getattr(module, "ATTRS", ()))

OPS = ALL_OPS
ATTRS = ALL_ATTRS

# constant folding (dialects/ov/folding.py) materializes `ov.constant`s
OV = Dialect("ov", list(ALL_OPS), list(ALL_ATTRS), [OvConstantMaterialization()])

# The reference interpreter (dialects/interpret.py) imports no dialect: the ops run by their
# `interpret` method, and a dense `arith.constant` as the ops read one.
register_ops(ALL_OPS)


def _arith_constant() -> type[Operation]:
    from xdsl.dialects import arith  # (imported when an interpreter is made: ~20 ms)

    return arith.ConstantOp


register_implementation_lazily(_arith_constant, interpret_arith_constant)

from . import base as _base  # noqa: E402 (the op base: its names are exported too)

# (computed from the submodules' lists, which pyright checks one by one)
__all__ = sorted(  # pyright: ignore[reportUnsupportedDunderAll]
    {name for module in (_base, *_MODULES) for name in module.__all__}
    | {"ALL_ATTRS", "ALL_OPS", "ATTRS", "OPS", "OV"}
)
