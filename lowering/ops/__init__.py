"""
The registry of op lowerings: the compiler offers each op to the classes of `LOWERINGS` in
this order; the first whose `fuse` accepts the op lowers it (with the ops it absorbs).

Specialised kernels come first (they absorb elementwise epilogues: a Convolution followed
by Multiply/Add/Relu becomes one group), the generic elementwise/movement/state lowerings
last. Each module lists its classes in its own `LOWERINGS`; add a module by importing it
below and adding its list in the right place.
"""

from lowpass.lowering.emit import OpLowering
from lowpass.lowering.ops import elementwise, movement, state

LOWERINGS: list[type[OpLowering]] = []

# ---- specialised kernels (GEMM-based ops, pooling, quantization, RNN cells) ----------------
# (added by their modules: `from lowpass.lowering.ops import matmul` then
#  `LOWERINGS += matmul.LOWERINGS`)
from lowpass.lowering.ops import rnn  # noqa: E402

LOWERINGS += rnn.LOWERINGS
from lowpass.lowering.ops import (  # noqa: E402
    convolution,
    matmul,
    normalization,
    pooling,
    quantization,
    reduction,
    winograd,  # noqa: F401 (registers its algorithm with `convolution`)
)

LOWERINGS += convolution.LOWERINGS
LOWERINGS += matmul.LOWERINGS
LOWERINGS += pooling.LOWERINGS
LOWERINGS += reduction.LOWERINGS
LOWERINGS += normalization.LOWERINGS
LOWERINGS += quantization.LOWERINGS

# ---- generic lowerings ------------------------------------------------------------------------
LOWERINGS += state.LOWERINGS
LOWERINGS += movement.LOWERINGS
LOWERINGS += elementwise.LOWERINGS
from lowpass.lowering.ops import logical  # noqa: E402

LOWERINGS += logical.LOWERINGS
