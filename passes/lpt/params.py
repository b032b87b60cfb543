"""
LPT customization: `LayerTransformation::Params`, precision and quantization-granularity
restrictions per op port, and callbacks, with the CPU plugin's configuration as the default
(src/plugins/intel_cpu/src/transformations/transformation_pipeline.cpp, `Transformations::Lpt`).

Restrictions are keyed by OpenVINO type names (`Convolution`, `MatMul`, ...). The pass option
syntax is `Op(ports=precisions, ...);Op(...)`, ports joined by `+` sharing one precision set,
precisions by `|`: `"Convolution(0=u8,1=i8);MatMul(0=u8|i8,1=i8);LSTMSequence(0+1=u8)"`.
Per-tensor restrictions list ports: `"Convolution(0);ConvolutionBackpropData(0)"`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import f16, f32, i8, i32
from xdsl.ir import Attribute, Operation

from lowpass.dialects.ov import ui8

PRECISION_NAMES: dict[str, Attribute] = {"u8": ui8, "i8": i8, "i32": i32, "f32": f32, "f16": f16}
"""OpenVINO precision names accepted in options."""

LOW_PRECISIONS: tuple[Attribute, ...] = (ui8, i8)
"""`precision_set::get_int8_support()`: the default precisions."""

# MarkupPrecisions: op types LPT knows (supportedOps); others get empty precisions on input 0.
# (Here rather than in markup.py: a restriction names one of them, `LptParams` checks it.)
SUPPORTED_OPS = frozenset(
    """Add AvgPool BatchToSpace Broadcast Clamp Concat Convert Convolution
    ConvolutionBackpropData DepthToSpace FakeQuantize Interpolate GroupConvolution MatMul
    MaxPool Multiply MVN NormalizeL2 Pad PRelu ReduceMax ReduceMean ReduceMin ReduceSum Relu
    Reshape Slice SpaceToBatch Squeeze ShuffleChannels Split StridedSlice Subtract Transpose
    Unsqueeze VariadicSplit LSTMSequence GRUSequence Gather""".split()
)


def precision_name(t: Attribute) -> str:
    for name, attr in PRECISION_NAMES.items():
        if attr == t:
            return name
    return str(t)


PortRestriction = tuple[tuple[int, ...], tuple[Attribute, ...]]
"""(ports sharing the precisions, allowed precisions in order of preference)."""


@dataclass
class PrecisionsRestriction:
    """`PrecisionsRestriction::create<Op>({{{ports}, {precisions}}, ...})`."""

    op_type: str
    ports: Sequence[PortRestriction] | Callable[[Operation], Sequence[PortRestriction]]

    def for_op(self, op: Operation) -> Sequence[PortRestriction]:
        return self.ports(op) if callable(self.ports) else self.ports


@dataclass
class QuantizationGranularityRestriction:
    """`QuantizationGranularityRestriction::create<Op>({ports})`: per-tensor only on ports."""

    op_type: str
    ports: tuple[int, ...]


def _cpu_group_convolution(op: Operation) -> Sequence[PortRestriction]:
    from lowpass.dialects.ov import shape_of

    # 5-D group convolutions accept i8 activations too (CPU plugin)
    acts = (ui8, i8) if len(shape_of(op.operands[0])) == 5 else (ui8,)
    return (((0,), acts), ((1,), (i8,)))


def cpu_precision_restrictions() -> list[PrecisionsRestriction]:
    """The CPU plugin's precision restrictions (non-AMX machine)."""
    return [
        PrecisionsRestriction("Convolution", (((0,), (ui8,)), ((1,), (i8,)))),
        PrecisionsRestriction("ConvolutionBackpropData", (((0,), (ui8, i8)), ((1,), (i8,)))),
        PrecisionsRestriction("GroupConvolution", _cpu_group_convolution),
        PrecisionsRestriction("Multiply", (((0,), (ui8,)), ((1,), (i8,)))),
        PrecisionsRestriction("MatMul", (((0,), (ui8, i8)), ((1,), (i8,)))),
        PrecisionsRestriction("LSTMSequence", (((0, 1), (ui8,)),)),
        PrecisionsRestriction("GRUSequence", (((0, 1), (ui8,)),)),
    ]


def cpu_quantization_restrictions() -> list[QuantizationGranularityRestriction]:
    return [
        QuantizationGranularityRestriction("Convolution", (0,)),
        QuantizationGranularityRestriction("ConvolutionBackpropData", (0,)),
    ]


class OptionError(ValueError):
    """A malformed LPT option value."""


def _precisions(text: str, where: str) -> tuple[Attribute, ...]:
    out: list[Attribute] = []
    for name in filter(None, (p.strip() for p in text.split("|"))):
        if name not in PRECISION_NAMES:
            raise OptionError(
                f"unknown precision '{name}' in {where}, expected one of "
                + ", ".join(PRECISION_NAMES)
            )
        out.append(PRECISION_NAMES[name])
    return tuple(out)


_ENTRY = re.compile(r"^\s*([A-Za-z][A-Za-z0-9]*)\s*\((.*)\)\s*$")


def parse_precision_restrictions(text: str) -> list[PrecisionsRestriction]:
    """`"cpu"`, `"none"` or `Op(0=u8,1=i8);...` (see the module docstring)."""
    text = text.strip()
    if text == "cpu":
        return cpu_precision_restrictions()
    if text in ("", "none"):
        return []
    result: list[PrecisionsRestriction] = []
    for entry in filter(None, (e.strip() for e in text.split(";"))):
        m = _ENTRY.match(entry)
        if m is None:
            raise OptionError(
                f"bad precision restriction '{entry}', expected Op(port=precisions,...), e.g. "
                "Convolution(0=u8,1=i8)"
            )
        ports: list[PortRestriction] = []
        for item in filter(None, (i.strip() for i in m.group(2).split(","))):
            if "=" not in item:
                raise OptionError(
                    f"bad port restriction '{item}' in '{entry}', expected port=precisions"
                )
            lhs, rhs = item.split("=", 1)
            try:
                port_ids = tuple(int(p) for p in lhs.split("+"))
            except ValueError:
                raise OptionError(f"bad port list '{lhs}' in '{entry}'") from None
            ports.append((port_ids, _precisions(rhs, f"'{entry}'")))
        result.append(PrecisionsRestriction(m.group(1), tuple(ports)))
    return result


def parse_quantization_restrictions(text: str) -> list[QuantizationGranularityRestriction]:
    """`"cpu"`, `"none"` or `Op(0);Op(0+1)`."""
    text = text.strip()
    if text == "cpu":
        return cpu_quantization_restrictions()
    if text in ("", "none"):
        return []
    result: list[QuantizationGranularityRestriction] = []
    for entry in filter(None, (e.strip() for e in text.split(";"))):
        m = _ENTRY.match(entry)
        if m is None:
            raise OptionError(
                f"bad per-tensor restriction '{entry}', expected Op(ports), e.g. Convolution(0)"
            )
        try:
            ports = tuple(int(p) for p in re.split(r"[+,]", m.group(2)) if p.strip())
        except ValueError:
            raise OptionError(f"bad port list in '{entry}'") from None
        result.append(QuantizationGranularityRestriction(m.group(1), ports))
    return result


Callback = Callable[[Operation], bool]
"""`pass_config->set_callback<T>(pred)`: true means transformation T skips the op."""


@dataclass
class LptParams:
    """
    `LayerTransformation::Params` and the `LowPrecision` constructor arguments.

    `callbacks` maps a transformation name (`"ConvolutionTransformation"`, `"MarkupPrecisions"`,
    ...) to a predicate; a true result makes that transformation skip the op.
    """

    update_precisions: bool = True
    deq_precision: Attribute = f32
    default_precisions: tuple[Attribute, ...] = LOW_PRECISIONS
    precision_restrictions: list[PrecisionsRestriction] = field(
        default_factory=cpu_precision_restrictions
    )
    quantization_restrictions: list[QuantizationGranularityRestriction] = field(
        default_factory=cpu_quantization_restrictions
    )
    callbacks: Mapping[str, Sequence[Callback]] = field(
        default_factory=dict[str, Sequence[Callback]]
    )
    asymmetric_activations: bool = True
    """False: layers with a zero point on activations are not transformed."""
    asymmetric_weights: bool = True
    """False: weightable layers with a zero point on weights are not transformed."""
    cpu_callbacks: bool = True
    """The CPU plugin's callbacks (see `docs/passes.md#lpt`)."""

    def __post_init__(self) -> None:
        # MarkupPrecisions' constructor throws for a restriction on an op LPT does not support
        for r in self.precision_restrictions:
            if r.op_type not in SUPPORTED_OPS:
                raise OptionError(f"precision restriction for unsupported operation '{r.op_type}'")

    def restriction_for(self, op_type: str) -> PrecisionsRestriction | None:
        for r in self.precision_restrictions:
            if r.op_type == op_type:
                return r
        return None

    def per_tensor_ports(self, op_type: str) -> tuple[int, ...] | None:
        for r in self.quantization_restrictions:
            if r.op_type == op_type:
                return r.ports
        return None
