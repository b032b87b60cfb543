"""
Is a model quantized? (`LowPrecision::isFunctionQuantized`, low_precision.cpp): what decides
whether a device runs LPT while compiling it, as OpenVINO's CPU plugin does
(transformation_pipeline.cpp: LPT runs when the model is quantized and LP_TRANSFORMS_MODE is on).

A model is quantized when one of its functions (TensorIterator/Loop bodies included) holds

* an `ov.fake_quantize` with a level count LPT takes (`SUPPORTED_LEVELS`: 15, 16, 255, 256)
  and constant limits: an NNCF model, or an ONNX QDQ model as the frontend reads it; or
* an activation dequantization: an `ov.convert` of a u8/i8 value that is not a constant
  nor a Gather of a constant's rows (a compressed embedding table: weights) (a model input,
  a quantizing FakeQuantize's u8 result...) to a float type, followed by an
  `ov.subtract` or `ov.multiply`: OpenVINO's `Convert -> [Subtract] -> Multiply`, the form of
  a DequantizeLinear on activations and of the OpenVINO IR that lowpass writes after `lpt`
  (docs/frontends.md, "Low precision").

A model that went through `lpt` already (`is_low_precision`: u8/i8 operands read as float,
u8/i8 FakeQuantize results where no weighted op reads a dequantization in float) is in the
form LPT makes: the CPU device compiles it as it is.

Weights alone in low precision (`Constant(i8) -> Convert -> Multiply`, weight compression)
do not make a model quantized, as upstream: LPT would leave such a graph as it is.
"""

from __future__ import annotations

from xdsl.dialects.builtin import i8
from xdsl.ir import Operation

from lowpass.dialects.ov import (
    AvgPoolOp,
    ConstantOp,
    ConvertOp,
    ConvolutionBackpropDataOp,
    ConvolutionOp,
    FakeQuantizeOp,
    GatherOp,
    GroupConvolutionOp,
    MatMulOp,
    MaxPoolOp,
    MultiplyOp,
    OvOp,
    ReluOp,
    ReshapeOp,
    SqueezeOp,
    SubtractOp,
    TransposeOp,
    UnsqueezeOp,
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
    type-relaxed op, `TypeRelaxed<Op>`), or a FakeQuantize quantizes to u8/i8 while no
    Convolution or MatMul still reads a dequantization or a float FakeQuantize (which LPT
    would make an int8 layer: an ONNX QDQ model whose QuantizeLinear also gives a graph
    output its u8 codes reads as such a FakeQuantize before any `lpt`; a user trial found
    LPT skipped for the whole model). A device that runs LPT while compiling leaves such a
    model as it is: LPT again would give the same values, but not always the same float
    roundings (a bias Add moved into the dequantization once its `lpt.bias` mark is
    lost)."""
    codes = False
    for op in module.walk():
        if isinstance(op, FakeQuantizeOp):
            codes = codes or element_type_of(op.result.type) in (ui8, i8)
        elif isinstance(op, OvOp) and op.TYPE_RELAXED and op.origin_types():
            return True
    return codes and not any(_reads_a_dequantization(op) for op in module.walk())


WEIGHTED_OPS = (ConvolutionOp, GroupConvolutionOp, ConvolutionBackpropDataOp, MatMulOp)
PASSED_THROUGH = (MaxPoolOp, AvgPoolOp, ReluOp, ReshapeOp, SqueezeOp, UnsqueezeOp, TransposeOp)
"""Single-input ops between a dequantization and the layer that reads it, which LPT moves
the dequantization through (a QDQ model's MaxPool between its Q/DQ pair and the next
convolution, found by a review)."""


def _reads_a_dequantization(op: Operation) -> bool:
    """A Convolution or MatMul whose data input is an activation dequantization (`Convert ->
    [Subtract] -> Multiply` of u8/i8 codes) or a FakeQuantize with a float result, read in
    float (through ops LPT passes a dequantization through): what LPT makes int8."""
    if not isinstance(op, WEIGHTED_OPS):
        return False
    multiply = producer(op.operands[0])
    while isinstance(multiply, PASSED_THROUGH):  # (LPT moves a dequantization through them)
        multiply = producer(multiply.operands[0])
    if isinstance(multiply, FakeQuantizeOp):  # (a float one, which LPT would decompose)
        return is_float(element_type_of(multiply.result.type)) and is_supported_fq(multiply)
    if not isinstance(multiply, MultiplyOp):
        return False
    value = multiply.operands[0]
    subtract = producer(value)
    if isinstance(subtract, SubtractOp):
        value = subtract.operands[0]
    convert = producer(value)
    return isinstance(convert, ConvertOp) and _activation_dequantization(convert)


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
    source_op = producer(convert.x)
    if isinstance(source_op, ConstantOp):
        return False  # weights (compression), not activations
    if isinstance(source_op, GatherOp) and isinstance(producer(source_op.operands[0]), ConstantOp):
        # rows of a constant table (a compressed embedding: onnxruntime's quantize_dynamic
        # writes Gather then DequantizeLinear, OpenVINO's compression the other way round):
        # weights too. LPT on such a model had moved the dequantization through the
        # LayerNormalization after it, whose eps it does not rescale (a user trial: a
        # quantize_dynamic BERT 0.04 off onnxruntime).
        return False
    return any(isinstance(user, SubtractOp | MultiplyOp) for user in consumers(convert.results[0]))
