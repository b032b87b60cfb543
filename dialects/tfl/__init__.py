"""
The `tfl` dialect: TensorFlow Lite's fused RNN ops and the ops that
`prepare-composite-functions` emits around them, with TensorFlow Lite's names, operand order
and attribute names (see docs/dialect/tfl.md). Each op has a verifier and its reference
semantics (LiteRT's float kernels), so the reference interpreter runs `tfl` graphs.
"""

from xdsl.ir import Dialect

from lowpass.dialects.interpret import register_ops

from . import movement, rnn
from .base import ACTIVATION_NAMES, ActivationFunction, LSTMKernelType, TflOp
from .movement import (
    ConcatenationOp,
    EmbeddingLookupOp,
    NoValueOp,
    ReshapeOp,
    ReverseV2Op,
    SliceOp,
    SplitVOp,
    StridedSliceOp,
    TransposeOp,
)
from .rnn import (
    BIDIRECTIONAL_LSTM_OPERANDS,
    GRU_OPERANDS,
    LSTM_OPERANDS,
    RNN_OPERANDS,
    BidirectionalSequenceLSTMOp,
    LSTMOp,
    UnidirectionalSequenceGRUOp,
    UnidirectionalSequenceLSTMOp,
    UnidirectionalSequenceRNNOp,
)

ALL_OPS: tuple[type[TflOp], ...] = (*movement.OPS, *rnn.OPS)

TFL = Dialect("tfl", list(ALL_OPS), [])

# The reference interpreter (dialects/interpret.py) imports no dialect: the ops run by their
# `interpret` method (`TflOp.interpret`).
register_ops(ALL_OPS)

__all__ = [
    "ACTIVATION_NAMES",
    "ALL_OPS",
    "BIDIRECTIONAL_LSTM_OPERANDS",
    "GRU_OPERANDS",
    "LSTM_OPERANDS",
    "RNN_OPERANDS",
    "TFL",
    "ActivationFunction",
    "BidirectionalSequenceLSTMOp",
    "ConcatenationOp",
    "EmbeddingLookupOp",
    "LSTMKernelType",
    "LSTMOp",
    "NoValueOp",
    "ReshapeOp",
    "ReverseV2Op",
    "SliceOp",
    "SplitVOp",
    "StridedSliceOp",
    "TflOp",
    "TransposeOp",
    "UnidirectionalSequenceGRUOp",
    "UnidirectionalSequenceLSTMOp",
    "UnidirectionalSequenceRNNOp",
]
