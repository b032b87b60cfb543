"""
Is a model quantized? (`LowPrecision::isFunctionQuantized`, low_precision.cpp): what decides
whether a device runs LPT while compiling it, as OpenVINO's CPU plugin does
(transformation_pipeline.cpp: LPT runs when the model is quantized and LP_TRANSFORMS_MODE is on).

A model is quantized when one of its functions (TensorIterator/Loop bodies included) holds

* an `ov.fake_quantize` with a level count LPT takes (`SUPPORTED_LEVELS`: 15, 16, 255, 256)
  and constant limits: an NNCF model, or an ONNX QDQ model as the frontend reads it; or
* an activation dequantization: an `ov.convert` of a u8/i8 value that is not a constant
  (a model input, a quantizing FakeQuantize's u8 result...) to a float type, followed by an
  `ov.subtract` or `ov.multiply`: OpenVINO's `Convert -> [Subtract] -> Multiply`, the form of
  a DequantizeLinear on activations and of the OpenVINO IR that lowpass writes after `lpt`
  (docs/frontends.md, "Low precision").

A model that went through `lpt` already (`is_low_precision`: u8/i8 operands read as float,
u8/i8 FakeQuantize results read as codes, not only returned or dequantized) is in the form
LPT makes: the CPU device compiles it as it is.

Weights alone in low precision (`Constant(i8) -> Convert -> Multiply`, weight compression)
do not make a model quantized, as upstream: LPT would leave such a graph as it is.
"""

from __future__ import annotations

from xdsl.dialects.builtin import i8
from xdsl.dialects.func import ReturnOp
from xdsl.ir import Operation

from lowpass.dialects.ov import (
    ConstantOp,
    ConvertOp,
    FakeQuantizeOp,
    MultiplyOp,
    OvOp,
    SubtractOp,
    element_type_of,
    ui8,
)
from lowpass.dialects.ov.base import is_float

from .graph import consumers, producer
from .network_helper import is_supported_fq


def is_quantized(module: Operation) -> bool:
    """True when LPT has something to do on `module` (see the module's docstring)."""
    return any(_quantizing(op) for op in module.walk())


def is_low_precision(module: Operation) -> bool:
    """True when `module` went through `lpt` already: an op reads u8/i8 operands as float (a
    type-relaxed op, `TypeRelaxed<Op>`), or a FakeQuantize quantizes to u8/i8. A device that
    runs LPT while compiling leaves such a model as it is: LPT again would give the same
    values, but not always the same float roundings (a bias Add moved into the
    dequantization once its `lpt.bias` mark is lost)."""
    for op in module.walk():
        if isinstance(op, FakeQuantizeOp):
            if element_type_of(op.result.type) in (ui8, i8) and _read_inside(op):
                return True
        elif isinstance(op, OvOp) and op.TYPE_RELAXED and op.origin_types():
            return True
    return False


def _read_inside(fq: FakeQuantizeOp) -> bool:
    """Whether a u8/i8 FakeQuantize's codes are read as codes by an op of the model: not only
    returned, or converted to float for a dequantization (`Convert -> [Subtract] ->
    Multiply`, the form LPT starts from). An ONNX QDQ model whose QuantizeLinear also gives
    a graph output its codes reads as such a FakeQuantize with both readers, before any
    `lpt` (found by a user trial: LPT had been skipped for the whole model). After `lpt`
    such codes feed the ops that read them in low precision (type-relaxed ones, a pooling,
    a Concat), which this finds."""
    return any(not (isinstance(user, ReturnOp)
                    or (isinstance(user, ConvertOp) and _activation_dequantization(user)))
               for user in consumers(fq.result))


def _quantizing(op: Operation) -> bool:
    if isinstance(op, FakeQuantizeOp):
        return is_supported_fq(op)
    if isinstance(op, ConvertOp):
        return _activation_dequantization(op)
    return False


def _activation_dequantization(convert: ConvertOp) -> bool:
    source = element_type_of(convert.x.type)
    if source not in (ui8, i8) or not is_float(element_type_of(convert.results[0].type)):
        return False
    if isinstance(producer(convert.x), ConstantOp):
        return False  # weights (compression), not activations
    return any(isinstance(user, SubtractOp | MultiplyOp) for user in consumers(convert.results[0]))
