"""
The `cpu` dialect: the decisions of the CPU device's compiler, written into the `ov` graph as
attributes so that each stage of the pipeline can be printed, FileCheck-ed and read back
(`opt-tool -p cpu-fold-constants,cpu-remove-views,... model.mlir`). The ops keep their place
in the graph (profiling reports them in graph order); the attributes say what the CPU device
does with them (docs/lowering.md, "The pipeline"):

    {cpu.constant}                            the op's results are known at compile time: no code
    {cpu.view}                                a Reshape/Squeeze/Unsqueeze/cast of a computed
                                              tensor: its result shares its input's memory
    {cpu.quantized = #cpu.quantized_cell<x 256, h 256, weights 127, gemms 1>}
                                              an LSTM/RNN cell computed in int8 (levels of its
                                              X and H FakeQuantizes, largest |weight level|,
                                              one GEMM over [x, h] or two)
    {cpu.kernel = #cpu.kernel<3, "convolution">}
                                              the first op of group 3, lowered by the
                                              `convolution` lowering ("reference": the
                                              reference fallback, "loop": a TensorIterator/Loop
                                              as a loop)
    {cpu.fused = #cpu.fused<3>}               an op absorbed by group 3 (its epilogue)
    {cpu.channels_last}                       the op's (4-D) result is stored NHWC: written
                                              so by a convolution, or by an element-wise
                                              group whose tensors are all NHWC
    {cpu.bfloat16}                            the op's (float32) result is stored as
                                              bfloat16: written by a bf16 convolution's
                                              epilogue, read by bf16 convolutions only, which
                                              round their input so anyway (the same bits)
    {cpu.buffers = [#cpu.buffer<arena 128, 4096>, #cpu.buffer<output 0, 64>, #cpu.buffer<none>]}
                                              where each result lives (per result): a byte
                                              offset in the arena, a graph output port, or no
                                              memory (a value used only inside its group)
    {cpu.algorithm = #cpu<algorithm winograd>}
                                              a convolution's algorithm: "im2col" (a GEMM
                                              over the unfolded input), "winograd"
                                              (F(2x2, 3x3)) or "depthwise"
    {cpu.gemm = #cpu<gemm vnni>}             the GEMM micro-kernel of a convolution, MatMul
                                              or int8 cell: "f32", "bf16" (vdpbf16ps),
                                              "u8s8" (vpmaddubsw, weights in [-64, 63]),
                                              "s16" (exact, int16 pairs) or "vnni"
                                              (vpdpbusd; AMX where the host has it)
    {cpu.cell_step = #cpu<cell_step fused>}  how an int8 cell's step runs: "gemms" (its
                                              GEMMs, then the gate pass) or "fused" (one
                                              parallel job: each chunk's gates, whole)
    {cpu.int8 = #cpu<int8 vpmaddubsw>}        the int8 instructions of that GEMM: "vpmaddubsw"
                                              (u8s8), "vpmaddwd" (s16), "vpdpbusd" (vnni
                                              without AMX) or "amx" (vnni with AMX tiles)
    {cpu.epilogue = #cpu.epilogue<add, relu | fq>}
                                              the post-op program of a convolution's,
                                              MatMul's, pooling's, FakeQuantize's or
                                              Convert's group: one step per fused op, in
                                              order; those before the `|` run in the GEMM
                                              micro-kernel (or pooling loop), those after it
                                              in a pass over its result (no `|`: all in it)
    {cpu.row_bands = #cpu.row_bands<rows 4, groups 5 to 6>}
                                              on a depthwise convolution (group 6): groups
                                              5 and 6 run together, band by band of its
                                              output rows (4 a band), each band computing
                                              first the rows of group 5 (the
                                              convolution before it) that it reads: they
                                              are read from L2
    func.func @main(...) attributes {cpu.arena = #cpu.arena<4096>}
                                              the bytes of the arena's tensors

These are dialect attributes of `ov` ops, as MLIR's discardable attributes: the `ov` dialect
and the reference interpreter ignore them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, IntAttr, StringAttr
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

CONSTANT = "cpu.constant"
VIEW = "cpu.view"
QUANTIZED = "cpu.quantized"
KERNEL = "cpu.kernel"
FUSED = "cpu.fused"
CHANNELS_LAST = "cpu.channels_last"
BFLOAT16 = "cpu.bfloat16"
BUFFERS = "cpu.buffers"
ARENA = "cpu.arena"
ALGORITHM = "cpu.algorithm"
CELL_STEP = "cpu.cell_step"
GEMM = "cpu.gemm"
EPILOGUE = "cpu.epilogue"
INT8 = "cpu.int8"
ROW_BANDS = "cpu.row_bands"

ALIGNMENT = 64
"""Arena offsets are multiples of 64 bytes (a cache line, an AVX-512 vector)."""


def _parse_int(parser: AttrParser) -> int:
    return parser.parse_integer(allow_boolean=False, allow_negative=False)


@irdl_attr_definition
class KernelAttr(ParametrizedAttribute):
    """`#cpu.kernel<group, "kind">`: the first op of a group and the lowering that emits it."""

    name = "cpu.kernel"
    group: IntAttr
    kind: StringAttr

    def __init__(self, group: int, kind: str) -> None:
        super().__init__(IntAttr(group), StringAttr(kind))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        group = _parse_int(parser)
        parser.parse_punctuation(",")
        kind = parser.parse_str_literal()
        parser.parse_punctuation(">")
        return (IntAttr(group), StringAttr(kind))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.group.data}, ")
        printer.print_string_literal(self.kind.data)
        printer.print_string(">")

    def verify(self) -> None:
        if self.group.data < 0:
            raise VerifyException(f"#cpu.kernel: negative group {self.group.data}")
        if not self.kind.data:
            raise VerifyException("#cpu.kernel: empty kind")


@irdl_attr_definition
class FusedAttr(ParametrizedAttribute):
    """`#cpu.fused<group>`: an op absorbed by a group whose first op comes before it."""

    name = "cpu.fused"
    group: IntAttr

    def __init__(self, group: int) -> None:
        super().__init__(IntAttr(group))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        group = _parse_int(parser)
        parser.parse_punctuation(">")
        return (IntAttr(group),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.group.data}>")


@irdl_attr_definition
class BufferAttr(ParametrizedAttribute):
    """
    `#cpu.buffer<arena OFFSET, SIZE>` (bytes; OFFSET a multiple of 64), `#cpu.buffer<output
    PORT, SIZE>` (the request's output buffer: the result is computed in place), or
    `#cpu.buffer<none>` (no memory: the value never leaves its group).
    """

    name = "cpu.buffer"
    kind: StringAttr
    index: IntAttr
    size: IntAttr

    KINDS: ClassVar[tuple[str, ...]] = ("arena", "output", "none")

    def __init__(self, kind: str, index: int = 0, size: int = 0) -> None:
        super().__init__(StringAttr(kind), IntAttr(index), IntAttr(size))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        pos = parser.pos
        kind = parser.parse_identifier()
        if kind not in cls.KINDS:
            parser.raise_error(
                f"unknown buffer kind '{kind}'; expected one of {', '.join(cls.KINDS)}",
                pos,
                parser.pos,
            )
        index = size = 0
        if kind != "none":
            index = _parse_int(parser)
            parser.parse_punctuation(",")
            size = _parse_int(parser)
        parser.parse_punctuation(">")
        return (StringAttr(kind), IntAttr(index), IntAttr(size))

    def print_parameters(self, printer: Printer) -> None:
        if self.kind.data == "none":
            printer.print_string("<none>")
        else:
            printer.print_string(f"<{self.kind.data} {self.index.data}, {self.size.data}>")

    def verify(self) -> None:
        kind, index, size = self.kind.data, self.index.data, self.size.data
        if kind not in self.KINDS:
            raise VerifyException(f"#cpu.buffer: unknown kind '{kind}'")
        if index < 0 or size < 0:
            raise VerifyException(f"#cpu.buffer: negative offset or size ({index}, {size})")
        if kind == "arena" and index % ALIGNMENT:
            raise VerifyException(
                f"#cpu.buffer: arena offset {index} is not a multiple of {ALIGNMENT}"
            )


@irdl_attr_definition
class ArenaAttr(ParametrizedAttribute):
    """`#cpu.arena<BYTES>` on the entry function: the arena bytes of its tensors (the
    groups' scratch memory follows, sized when the code is emitted)."""

    name = "cpu.arena"
    bytes: IntAttr

    def __init__(self, nbytes: int) -> None:
        super().__init__(IntAttr(nbytes))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        nbytes = _parse_int(parser)
        parser.parse_punctuation(">")
        return (IntAttr(nbytes),)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.bytes.data}>")

    def verify(self) -> None:
        if self.bytes.data % ALIGNMENT:
            raise VerifyException(f"#cpu.arena: {self.bytes.data} bytes is not a multiple of 64")


@irdl_attr_definition
class QuantizedCellAttr(ParametrizedAttribute):
    """
    `#cpu.quantized_cell<x 256, h 256, weights 127, gemms 1>`: an LSTM/RNN cell computed in
    int8 (lowering/ops/rnn.py, `CellQuantization`): the levels of the per-tensor
    FakeQuantizes of X and H (their level indices are the u8 GEMM input), the largest
    magnitude of the int8 weight levels of W and R (at most 63: the `vpmaddubsw` kernel; else
    the exact s16 or VNNI kernel) and the number of GEMMs (1: x and h share their scales, one
    GEMM over [x, h]; 2: one each).
    """

    name = "cpu.quantized_cell"
    x_levels: IntAttr
    h_levels: IntAttr
    weights: IntAttr
    gemms: IntAttr

    FIELDS: ClassVar[tuple[str, ...]] = ("x", "h", "weights", "gemms")

    def __init__(self, x_levels: int, h_levels: int, weights: int, gemms: int) -> None:
        super().__init__(IntAttr(x_levels), IntAttr(h_levels), IntAttr(weights), IntAttr(gemms))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        values: list[IntAttr] = []
        for k, field in enumerate(cls.FIELDS):
            if k:
                parser.parse_punctuation(",")
            pos = parser.pos
            if parser.parse_identifier() != field:
                parser.raise_error(f"expected '{field}'", pos, parser.pos)
            values.append(IntAttr(_parse_int(parser)))
        parser.parse_punctuation(">")
        return tuple(values)

    def print_parameters(self, printer: Printer) -> None:
        values = (self.x_levels, self.h_levels, self.weights, self.gemms)
        text = ", ".join(f"{f} {v.data}" for f, v in zip(self.FIELDS, values, strict=True))
        printer.print_string(f"<{text}>")

    def verify(self) -> None:
        for levels in (self.x_levels.data, self.h_levels.data):
            if not 2 <= levels <= 256:
                raise VerifyException(f"#cpu.quantized_cell: {levels} levels (expected 2..256)")
        if not 0 <= self.weights.data <= 128:
            raise VerifyException(
                f"#cpu.quantized_cell: weight levels up to {self.weights.data} (expected <= 128)"
            )
        if self.gemms.data not in (1, 2):
            raise VerifyException(f"#cpu.quantized_cell: {self.gemms.data} gemms (expected 1, 2)")


class ConvAlgorithm(StrEnum):
    """How a convolution is computed (`cpu-select-kernels`)."""

    IM2COL = "im2col"
    """A GEMM over the unfolded input (1x1 convolutions read the input as it is)."""
    WINOGRAD = "winograd"
    """F(2x2, 3x3): fp32, 3x3, stride and dilation 1, NHWC output (lowering/ops/winograd.py)."""
    DEPTHWISE = "depthwise"
    """One filter per channel: a GroupConvolution whose groups are its channels."""


@irdl_attr_definition
class ConvAlgorithmAttr(EnumAttribute[ConvAlgorithm], SpacedOpaqueSyntaxAttribute):
    """`#cpu<algorithm winograd>`: the algorithm of a Convolution/GroupConvolution."""

    name = "cpu.algorithm"


class CellStep(StrEnum):
    """How an int8 LSTM/RNN cell's step runs (`cpu-select-kernels`; lowering/ops/rnn.py)."""

    GEMMS = "gemms"
    """Its GEMMs (one or two: `#cpu.quantized_cell`'s `gemms`), then the gate pass on the
    calling thread."""
    FUSED = "fused"
    """One parallel job: each chunk's gate sums (`vpdpbusd`), epilogue and gate pass, the same
    bits (an LSTMCell of at most 8 rows, a hidden size a multiple of 16 and an input size
    of 4, on an AVX-512 VNNI host)."""


@irdl_attr_definition
class CellStepAttr(EnumAttribute[CellStep], SpacedOpaqueSyntaxAttribute):
    """`#cpu<cell_step fused>`: how an int8 LSTMCell's or RNNCell's step runs."""

    name = "cpu.cell_step"


class GemmKind(StrEnum):
    """The micro-kernel of a GEMM (lowering/kernels/gemm.py, `gemm_kernel_kind`)."""

    F32 = "f32"
    U8S8 = "u8s8"
    """u8 x s8 by `vpmaddubsw` (saturating pair sums: weights in [-64, 63])."""
    S16 = "s16"
    """The exact int8 path without VNNI: A widened to int16, `vpmaddwd`."""
    VNNI = "vnni"
    """`vpdpbusd` (AVX-VNNI / AVX512-VNNI hosts; AMX tiles where the host has them)."""
    BF16 = "bf16"
    """float32 A and B multiplied as bfloat16 (rounded to nearest even), the products summed
    in float32 by `vdpbf16ps` (AVX512-BF16 hosts): the compile option `bf16`, OpenVINO's
    `INFERENCE_PRECISION_HINT` bf16."""
    F32_I8 = "f32i8"
    """float32 A, B read as int8 codes times a float32 scale per column (weights
    compression, lowering/kernels/gemv.py): a MatMul of one row whose constant B is exactly
    that."""


@irdl_attr_definition
class GemmKindAttr(EnumAttribute[GemmKind], SpacedOpaqueSyntaxAttribute):
    """`#cpu<gemm vnni>`: the GEMM micro-kernel of a Convolution or MatMul."""

    name = "cpu.gemm"


class Int8Kernel(StrEnum):
    """The int8 instructions of a GEMM (`cpu-select-kernels`; lowering/kernels/gemm.py)."""

    VPMADDUBSW = "vpmaddubsw"
    """`#cpu<gemm u8s8>`: saturating u8 x s8 pair sums (AVX2)."""
    VPMADDWD = "vpmaddwd"
    """`#cpu<gemm s16>`: A widened to int16, exact pair sums (AVX2)."""
    VPDPBUSD = "vpdpbusd"
    """`#cpu<gemm vnni>` on ymm/zmm registers, no AMX tiles."""
    AMX = "amx"
    """`#cpu<gemm vnni>` with AMX tiles (`tdpbusd`) for the GEMMs of at least 16 rows and a
    depth of 64 (the smaller ones take `vpdpbusd`): hosts with AMX only."""


INT8_KERNELS: dict[GemmKind, tuple[Int8Kernel, ...]] = {
    GemmKind.U8S8: (Int8Kernel.VPMADDUBSW,),
    GemmKind.S16: (Int8Kernel.VPMADDWD,),
    GemmKind.VNNI: (Int8Kernel.AMX, Int8Kernel.VPDPBUSD),
}
"""The int8 instructions that can run each int8 GEMM kind (on a host that has them)."""


@irdl_attr_definition
class Int8KernelAttr(EnumAttribute[Int8Kernel], SpacedOpaqueSyntaxAttribute):
    """`#cpu<int8 vpdpbusd>`: the int8 instructions of a Convolution's or MatMul's GEMM."""

    name = "cpu.int8"


EPILOGUE_STEPS: tuple[str, ...] = (
    "mul", "add", "sub", "rsub", "div", "rdiv", "min", "rmin", "max", "rmax", "relu", "clamp",
    "hswish", "hsigmoid", "fq", "cast", "add_tensor",
)
"""The steps of a post-op program (lowering/ops/quantization.py, `Step.kind`): Multiply, Add,
Subtract, Divide, Minimum, Maximum by a constant ("r": the constant is the first operand),
Relu, Clamp, HSwish, HSigmoid, FakeQuantize, a u8/i8 value read back as f32 ("cast"), the Add
of a residual tensor ("add_tensor")."""


@irdl_attr_definition
class EpilogueAttr(ParametrizedAttribute):
    """`#cpu.epilogue<mul, add | relu, fq>`: the post-op program of a group, step by step
    (`EPILOGUE_STEPS`), as its fused ops give it, and where the steps run: those before the
    `|` in the kernel of the group's first op (the GEMM micro-kernel of a convolution or
    MatMul, the window loop of a pooling), those after it in an element-wise pass over that
    kernel's result. Without a `|` every step runs in the kernel (a FakeQuantize or Convert
    group is one element-wise loop: its kernel)."""

    name = "cpu.epilogue"
    steps: ArrayAttr[StringAttr]
    kernel: IntAttr
    """How many leading steps run in the kernel (the position of the `|`)."""

    def __init__(self, steps: Sequence[str], kernel: int | None = None) -> None:
        super().__init__(ArrayAttr([StringAttr(s) for s in steps]),
                         IntAttr(len(steps) if kernel is None else kernel))

    @property
    def kinds(self) -> list[str]:
        return [s.data for s in self.steps.data]

    @property
    def kernel_steps(self) -> int:
        """How many leading steps run in the kernel (the rest in a pass after it)."""
        return self.kernel.data

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        steps: list[StringAttr] = []
        kernel: int | None = None
        if parser.parse_optional_punctuation(">") is None:
            if parser.parse_optional_punctuation("|") is not None:
                kernel = 0
            while True:
                pos = parser.pos
                step = parser.parse_identifier()
                if step not in EPILOGUE_STEPS:
                    parser.raise_error(
                        f"unknown epilogue step '{step}'; expected one of "
                        f"{', '.join(EPILOGUE_STEPS)}", pos, parser.pos,
                    )
                steps.append(StringAttr(step))
                if parser.parse_optional_punctuation(",") is not None:
                    continue
                pos = parser.pos
                if parser.parse_optional_punctuation("|") is None:
                    break
                if kernel is not None:
                    parser.raise_error("a second '|': one splits the kernel's steps from "
                                       "the pass's", pos, parser.pos)
                kernel = len(steps)
            parser.parse_punctuation(">")
        return (ArrayAttr(steps), IntAttr(len(steps) if kernel is None else kernel))

    def print_parameters(self, printer: Printer) -> None:
        kinds, kernel = self.kinds, self.kernel_steps
        if kernel == len(kinds):
            printer.print_string(f"<{', '.join(kinds)}>")
        else:
            kernel_part = ", ".join(kinds[:kernel])
            printer.print_string(
                f"<{kernel_part}{' ' if kernel_part else ''}| {', '.join(kinds[kernel:])}>")

    def verify(self) -> None:
        for step in self.kinds:
            if step not in EPILOGUE_STEPS:
                raise VerifyException(f"#cpu.epilogue: unknown step '{step}'")
        if not 0 <= self.kernel_steps <= len(self.kinds):
            raise VerifyException(
                f"#cpu.epilogue: {self.kernel_steps} steps in the kernel of a program of "
                f"{len(self.kinds)}")


@irdl_attr_definition
class RowBandsAttr(ParametrizedAttribute):
    """`#cpu.row_bands<rows R, groups A to B>` on the first op of group B: the groups A to
    B (consecutive) run together, band by band of the op's output rows (R rows a band),
    each band first computing the rows of the groups before B that it reads
    (`cpu-interleave-rows`)."""

    name = "cpu.row_bands"
    rows: IntAttr
    first: IntAttr
    last: IntAttr

    def __init__(self, rows: int, first: int, last: int) -> None:
        super().__init__(IntAttr(rows), IntAttr(first), IntAttr(last))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        parser.parse_keyword("rows")
        rows = _parse_int(parser)
        parser.parse_punctuation(",")
        parser.parse_keyword("groups")
        first = _parse_int(parser)
        parser.parse_keyword("to")
        last = _parse_int(parser)
        parser.parse_punctuation(">")
        return (IntAttr(rows), IntAttr(first), IntAttr(last))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(
            f"<rows {self.rows.data}, groups {self.first.data} to {self.last.data}>")

    def verify(self) -> None:
        if self.rows.data < 1:
            raise VerifyException(f"#cpu.row_bands: {self.rows.data} rows a band (at least 1)")
        if not self.first.data < self.last.data:
            raise VerifyException(
                f"#cpu.row_bands: groups {self.first.data} to {self.last.data} (two or more, "
                "in order)")


CPU = Dialect(
    "cpu",
    [],
    [KernelAttr, FusedAttr, BufferAttr, ArenaAttr, QuantizedCellAttr, ConvAlgorithmAttr,
     CellStepAttr, GemmKindAttr, Int8KernelAttr, EpilogueAttr, RowBandsAttr],
)
