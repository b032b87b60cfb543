"""
Infrastructure ops of the OpenVINO opset: Constant, TensorIterator, Loop (and `ov.yield`, the
terminator of their bodies).

(Parameter and Result are the arguments and the `func.return` of the graph's `func.func`;
ReadValue and Assign are in `state.py`.)

TensorIterator and Loop keep their body as a single-block region whose block arguments are
the body Parameters and whose `ov.yield` operands are the body Results. The port maps are
ordered lists of description attributes (`#ov.slice`, `#ov.merged`, `#ov.invariant`,
`#ov.body_output`, `#ov.concat_output`), as OpenVINO's input/output descriptions.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, Protocol, TypeVar

import numpy as np
from xdsl.builder import ImplicitBuilder
from xdsl.dialects.builtin import (
    ArrayAttr,
    BytesAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntAttr,
    StringAttr,
    TensorType,
    i1,
    i32,
    i64,
)
from xdsl.interpreter import Interpreter
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Operation,
    OpResult,
    ParametrizedAttribute,
    Region,
    SSAValue,
)
from xdsl.irdl import (
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import (
    ConstantLike,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    OpTrait,
    Pure,
    RecursiveMemoryEffect,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from lowpass.dialects.guards import is_dense
from lowpass.dialects.interpret import run_region

from .base import (
    DYNAMIC,
    PLACEHOLDER_TYPE,
    AnyTensorType,
    OvOp,
    array_from_dense,
    dense_from_array,
    element_type_of,
    i64_array,
    ints,
    set_name,
    shape_of,
    static_value,
    tensor,
    to_dtype,
    types_compatible,
)

BodyRunner = Callable[[Region, tuple[Any, ...], str], Sequence[Any]]
"""
What runs a TensorIterator's or Loop's body once: (body, parameter values, op name) -> the
values its `ov.yield` returns. The dialect does not run regions itself: the interpreter that
runs the op passes its own (`Interpreter.run_ssacfg_region`, so that the body's ops share its
variables and listeners); `SubGraphOp.evaluate` takes one, by default
`lowpass.dialects.interpret.run_region`.
"""

HEX_THRESHOLD = 100
"""Constants with more elements than this print as MLIR hex (`dense<"0x...">`), as MLIR does."""

MAX_REFERENCE_ITERATIONS = 1 << 20
"""The most iterations the reference semantics runs a TensorIterator/Loop body: a Loop of 2^31
iterations would run for hours (tens of microseconds per body run in numpy), and a while loop
whose condition never turns false for ever; both fail with a one-line error instead, up front
when the number of iterations is known (OpenVINO has no bound: it would run them)."""


@irdl_op_definition
class ConstantOp(OvOp):
    """
    A tensor constant (OpenVINO `Constant`).

    `%w = ov.constant dense<[1.0, 2.0]> : tensor<2xf32> {ov.name = "weights"}`. Values with
    more than 100 elements print as raw little-endian hex, `dense<"0x0000803F...">`, so that
    models with megabytes of weights parse and print in seconds.
    """

    name = "ov.constant"
    value = prop_def(DenseIntOrFPElementsAttr)
    result = result_def(TensorType)
    traits = traits_def(Pure(), ConstantLike())

    def __init__(
        self, value: DenseIntOrFPElementsAttr | np.ndarray, name: str | None = None
    ) -> None:
        if isinstance(value, np.ndarray):
            value = dense_from_array(value)
        super().__init__(properties={"value": value}, result_types=[value.type])
        set_name(self, name)

    @staticmethod
    def from_array(
        array: np.ndarray, element_type: Attribute | None = None, name: str | None = None
    ) -> ConstantOp:
        return ConstantOp(dense_from_array(np.asarray(array), element_type), name)

    def constant_array(self) -> np.ndarray:
        return self.array()

    def array(self) -> np.ndarray:
        """The constant's data as a read-only numpy array (decoded once per value)."""
        cached = self.__dict__.get("_array_cache")
        if cached is not None and cached[0] is self.value:
            return cached[1]
        array = array_from_dense(self.value)
        array.flags.writeable = False
        vars(self)["_array_cache"] = (self.value, array)
        return array

    def verify_attrs(self) -> None:
        # (`value` read once: each read of a property goes through IRDL's descriptor; a model
        # has hundreds of constants)
        value = self.value
        if value.type != self.result.type:
            raise VerifyException(
                f"value type {value.type} does not match result type {self.result.type}"
            )
        shape = value.get_shape()
        if any(d < 0 for d in shape):
            raise VerifyException(f"constant must have a static shape, got {value.type}")
        # math.prod of Python ints: np.prod took 6 of the 10 us this check took per constant
        itemsize = to_dtype(value.get_element_type()).itemsize
        expected = math.prod(shape) * itemsize
        got = len(value.data.data)
        if got not in (expected, itemsize):
            raise VerifyException(
                f"constant holds {got} bytes, expected {expected} for {value.type}"
            )

    def infer_result_types(self) -> Sequence[Attribute]:
        return [self.value.type]

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        return (self.array(),)

    def fold_values(
        self,
        known: Callable[[SSAValue], np.ndarray | None],
        *,
        limit: int | None = None,
    ) -> list[np.ndarray] | None:
        return [self.array()]

    def fold(self) -> Sequence[SSAValue | Attribute] | None:
        # ConstantLike: its value (`ConstantLike.get_constant_value`); never refolded
        return (self.value,)

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        pos = parser.pos
        value = parser.parse_attribute()
        if not is_dense(value):
            parser.raise_error("expected a dense<...> : tensor<...> value", pos, parser.pos)
        attrs = parser.parse_optional_attr_dict()
        op = cls(value)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        value = self.value
        n = int(np.prod(value.get_shape()))
        data = self.array().reshape(-1)
        # Splat and small values print as xDSL does (`dense<0.0>`, `dense<[1, 2]>`); numpy
        # decides splat-ness because xDSL's is_splat walks Python lists.
        # A printer that elides large constants (lowpass's, `--mlir-elide-elementsattrs-if-
        # larger=N`) prints the attribute its own way.
        elides = getattr(printer, "elides", None)
        if elides is not None and elides(value):
            printer.print_attribute(value)
        elif n > HEX_THRESHOLD and not (data.size == 0 or bool(np.all(data == data[0]))):
            printer.print_string(f'dense<"0x{value.data.data.hex().upper()}"> : ')
            printer.print_attribute(value.type)
        elif n > HEX_THRESHOLD:
            # a large splat: its one value printed as xDSL prints a splat, from a one-element
            # copy (xDSL's printer unpacks every element into a Python list first: a splat of
            # 50 million floats took 10 s and 4 GB)
            width = len(value.data.data) // n
            one = DenseIntOrFPElementsAttr(TensorType(value.get_element_type(), [1]),
                                           BytesAttr(value.data.data[:width]))
            one.print_without_type(printer)
            printer.print_string(" : ")
            printer.print_attribute(value.type)
        else:
            printer.print_attribute(value)
        printer.print_op_attributes(self.attributes)



# ============================================================================================
# TensorIterator and Loop
# ============================================================================================
#
# Both ops hold their body (an OpenVINO body Model) as a single-block region: the block
# arguments are the body Parameters (argument i = parameter i) and the `ov.yield` operands are
# the body Results (operand j = result j). How outer values reach the parameters and how body
# results become outer results is described by ordered lists of description attributes, as in
# OpenVINO (`input_descriptions`, `output_descriptions`). The order matters: LowLatency2 names
# its variables after the position of a merged input in `input_descriptions`.


class PortDescription(ParametrizedAttribute):
    """
    Base of the port description attributes (not an attribute itself).

    Every parameter is an integer; the syntax is `#ov.<kind><key = value, ...>` with the keys
    in any order; keys with a default value may be left out and are not printed when they
    hold the default.
    """

    FIELDS: ClassVar[tuple[str, ...]] = ()
    DEFAULTS: ClassVar[dict[str, int]] = {}

    def __init__(self, *values: int) -> None:
        super().__init__(*(IntAttr(int(v)) for v in values))

    def get(self, key: str) -> int:
        """The value of parameter `key` as a Python int."""
        attr: object = getattr(self, key)
        assert isa(attr, IntAttr[int])
        return attr.data

    def values(self) -> dict[str, int]:
        return {key: self.get(key) for key in self.FIELDS}

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        values: dict[str, int] = {}

        def parse_entry() -> None:
            pos = parser.pos
            key = parser.parse_identifier()
            if key not in cls.FIELDS:
                parser.raise_error(
                    f"unknown #{cls.name} key '{key}', expected one of {', '.join(cls.FIELDS)}",
                    pos,
                    parser.pos,
                )
            if key in values:
                parser.raise_error(f"#{cls.name} key '{key}' given twice", pos, parser.pos)
            parser.parse_punctuation("=")
            values[key] = parser.parse_integer(allow_boolean=False)

        parser.parse_comma_separated_list(parser.Delimiter.ANGLE, parse_entry)
        missing = [k for k in cls.FIELDS if k not in values and k not in cls.DEFAULTS]
        if missing:
            parser.raise_error(f"#{cls.name} needs {', '.join(missing)}")
        return [IntAttr(values.get(k, cls.DEFAULTS.get(k, 0))) for k in cls.FIELDS]

    def print_parameters(self, printer: Printer) -> None:
        entries = [
            f"{key} = {value}"
            for key, value in self.values().items()
            if key not in self.DEFAULTS or self.DEFAULTS[key] != value
        ]
        printer.print_string("<" + ", ".join(entries) + ">")


class InputDescription(PortDescription):
    """Base of the input descriptions: outer input `input` feeds body parameter `param`."""

    @property
    def input_index(self) -> int:
        return self.get("input")

    @property
    def parameter_index(self) -> int:
        return self.get("param")


class OutputDescription(PortDescription):
    """Base of the output descriptions: body result `result` gives outer result `output`."""

    @property
    def result_index(self) -> int:
        return self.get("result")

    @property
    def output_index(self) -> int:
        return self.get("output")


@dataclass(frozen=True)
class Slicing:
    """The slicing parameters of a sliced input or a concatenated output."""

    axis: int
    start: int
    stride: int
    part_size: int
    end: int


class _HasFields(Protocol):
    def get(self, key: str) -> int: ...


class _SlicingMixin:
    def slicing(self: _HasFields) -> Slicing:
        get = self.get
        return Slicing(get("axis"), get("start"), get("stride"), get("part_size"), get("end"))


_SLICING_DEFAULTS = {"start": 0, "stride": 1, "part_size": 1, "end": -1}


def check_output_indices(what: str, result: int, output: int, results: int, outputs: int) -> None:
    """An output description's body result and op output are in range (Loop, TI, If)."""
    if not 0 <= result < results:
        raise VerifyException(
            f"{what}: result {result} is out of range, the body has {results} results"
        )
    if not 0 <= output < outputs:
        raise VerifyException(
            f"{what}: output {output} is out of range, the op has {outputs} results"
        )


@irdl_attr_definition
class SliceInputAttr(InputDescription, _SlicingMixin):
    """
    A sliced input (OpenVINO `SliceInputDescription`):
    `#ov.slice<input = 0, param = 0, axis = 1, start = 0, stride = 1, part_size = 1, end = -1>`.

    Iteration i gets part i of outer input `input` along `axis`: the range `[start, end]`
    (both included; negative values count from the end of the axis) is cut into parts of
    `part_size`, taken in ascending order for `stride > 0` and in descending order for
    `stride < 0`. Only the sign of `stride` is used (OpenVINO's CPU plugin and reference do
    the same: parts never overlap or skip).
    """

    name = "ov.slice"
    input: IntAttr
    param: IntAttr
    axis: IntAttr
    start: IntAttr
    stride: IntAttr
    part_size: IntAttr
    end: IntAttr

    FIELDS: ClassVar[tuple[str, ...]] = (
        "input", "param", "axis", "start", "stride", "part_size", "end",
    )  # fmt: skip
    DEFAULTS: ClassVar[dict[str, int]] = _SLICING_DEFAULTS

    def __init__(
        self,
        input: int,
        param: int,
        axis: int,
        start: int = 0,
        stride: int = 1,
        part_size: int = 1,
        end: int = -1,
    ) -> None:
        super().__init__(input, param, axis, start, stride, part_size, end)


@irdl_attr_definition
class MergedInputAttr(InputDescription):
    """
    A back-edge (OpenVINO `MergedInputDescription`): `#ov.merged<input = 1, param = 1,
    result = 0>`. Body parameter `param` holds outer input `input` in the first iteration and
    body result `result` of the previous iteration afterwards.
    """

    name = "ov.merged"
    input: IntAttr
    param: IntAttr
    result: IntAttr

    FIELDS: ClassVar[tuple[str, ...]] = ("input", "param", "result")

    def __init__(self, input: int, param: int, result: int) -> None:
        super().__init__(input, param, result)

    @property
    def result_index(self) -> int:
        return self.get("result")


@irdl_attr_definition
class InvariantInputAttr(InputDescription):
    """
    An invariant input (OpenVINO `InvariantInputDescription`): `#ov.invariant<input = 2,
    param = 2>`. Body parameter `param` holds outer input `input` in every iteration.
    """

    name = "ov.invariant"
    input: IntAttr
    param: IntAttr

    FIELDS: ClassVar[tuple[str, ...]] = ("input", "param")

    def __init__(self, input: int, param: int) -> None:
        super().__init__(input, param)


@irdl_attr_definition
class BodyOutputAttr(OutputDescription):
    """
    A last-value output (OpenVINO `BodyOutputDescription`): `#ov.body_output<result = 0,
    output = 0, iteration = -1>`. Outer result `output` is body result `result` of iteration
    `iteration` (-1, the default: the last iteration).
    """

    name = "ov.body_output"
    result: IntAttr
    output: IntAttr
    iteration: IntAttr

    FIELDS: ClassVar[tuple[str, ...]] = ("result", "output", "iteration")
    DEFAULTS: ClassVar[dict[str, int]] = {"iteration": -1}

    def __init__(self, result: int, output: int, iteration: int = -1) -> None:
        super().__init__(result, output, iteration)


@irdl_attr_definition
class ConcatOutputAttr(OutputDescription, _SlicingMixin):
    """
    A concatenated output (OpenVINO `ConcatOutputDescription`): `#ov.concat_output<result = 1,
    output = 1, axis = 1, start = 0, stride = 1, part_size = 1, end = -1>`. Outer result
    `output` is the body result `result` of every iteration concatenated along `axis`, in
    iteration order for `stride > 0` and in reverse order for `stride < 0`. A rank-0 body value
    is concatenated into a 1-D tensor (`axis` must be 0).
    """

    name = "ov.concat_output"
    result: IntAttr
    output: IntAttr
    axis: IntAttr
    start: IntAttr
    stride: IntAttr
    part_size: IntAttr
    end: IntAttr

    FIELDS: ClassVar[tuple[str, ...]] = (
        "result", "output", "axis", "start", "stride", "part_size", "end",
    )  # fmt: skip
    DEFAULTS: ClassVar[dict[str, int]] = _SLICING_DEFAULTS

    def __init__(
        self,
        result: int,
        output: int,
        axis: int,
        start: int = 0,
        stride: int = 1,
        part_size: int = 1,
        end: int = -1,
    ) -> None:
        super().__init__(result, output, axis, start, stride, part_size, end)


INPUT_DESCRIPTION_TYPES = (SliceInputAttr, MergedInputAttr, InvariantInputAttr)
OUTPUT_DESCRIPTION_TYPES = (BodyOutputAttr, ConcatOutputAttr)


def _normalize_border(value: int, dim: int) -> int:
    return dim + value if value < 0 else value


def slice_count(slicing: Slicing, dim: int) -> int:
    """
    Number of parts of a sliced input whose axis has `dim` elements (OpenVINO's
    `(|end' - start'| + 1) / part_size`, borders included and made positive).
    """
    start = _normalize_border(slicing.start, dim)
    end = _normalize_border(slicing.end, dim)
    return (abs(end - start) + 1) // slicing.part_size


def slice_parts(array: np.ndarray, slicing: Slicing) -> list[np.ndarray]:
    """The parts of a sliced input in iteration order (see `SliceInputAttr`)."""
    axis = slicing.axis + array.ndim if slicing.axis < 0 else slicing.axis
    dim = array.shape[axis]
    start = _normalize_border(slicing.start, dim)
    end = _normalize_border(slicing.end, dim)
    low = min(start, end)
    n = (abs(end - start) + 1) // slicing.part_size
    if low < 0 or low + n * slicing.part_size > dim:
        raise ValueError(
            f"slice [{slicing.start}, {slicing.end}] is out of range for an axis of {dim}"
        )
    p = slicing.part_size
    parts = [
        np.ascontiguousarray(
            np.take(array, np.arange(low + i * p, low + (i + 1) * p), axis=axis)
        )
        for i in range(n)
    ]
    return parts[::-1] if slicing.stride < 0 else parts


def _concat_parts(values: list[np.ndarray], slicing: Slicing, empty: np.ndarray) -> np.ndarray:
    if slicing.stride < 0:
        values = values[::-1]
    if not values:
        return empty
    if values[0].ndim == 0:
        return np.stack(values)
    return np.concatenate(values, axis=slicing.axis)


def _one_element(t: Attribute) -> bool:
    shape = shape_of(t)
    return len(shape) == 0 or (len(shape) == 1 and shape[0] == 1)


class _SubGraphStructure(OvOp):
    """
    The structure of `SubGraphOp` (not an op itself): its fields, the body, the port
    descriptions and their checks.
    """

    outputs = var_result_def(TensorType)
    input_descriptions_attr = prop_def(ArrayAttr, prop_name="input_descriptions")
    output_descriptions_attr = prop_def(ArrayAttr, prop_name="output_descriptions")
    parameter_names_attr = opt_prop_def(ArrayAttr[StringAttr], prop_name="parameter_names")
    body = region_def("single_block")

    irdl_options = (ParsePropInAttrDict(),)

    STATIC_EVAL: ClassVar[bool] = False

    FIRST_DATA_INPUT: ClassVar[int] = 0
    """Index of the first operand that input descriptions may refer to."""

    # ---- accessors ----------------------------------------------------------------------------

    @property
    def input_descriptions(self) -> list[InputDescription]:
        # (verify_ checks that each is one)
        return [d for d in self.input_descriptions_attr.data if isinstance(d, InputDescription)]

    @property
    def output_descriptions(self) -> list[OutputDescription]:
        return [d for d in self.output_descriptions_attr.data if isinstance(d, OutputDescription)]

    @property
    def body_block(self) -> Block:
        """The body's only block (its arguments are the body Parameters)."""
        return self.body.block

    def body_yield(self) -> YieldOp | None:
        blocks = list(self.body.blocks)
        if len(blocks) != 1:
            return None
        last = blocks[0].last_op
        return last if isinstance(last, YieldOp) else None

    def body_results(self) -> tuple[SSAValue, ...]:
        """The body Results (the `ov.yield` operands)."""
        y = self.body_yield()
        return tuple(y.operands) if y is not None else ()

    def slice_inputs(self) -> list[SliceInputAttr]:
        return [d for d in self.input_descriptions if isinstance(d, SliceInputAttr)]

    def merged_inputs(self) -> list[MergedInputAttr]:
        return [d for d in self.input_descriptions if isinstance(d, MergedInputAttr)]

    def invariant_inputs(self) -> list[InvariantInputAttr]:
        return [d for d in self.input_descriptions if isinstance(d, InvariantInputAttr)]

    def body_outputs(self) -> list[BodyOutputAttr]:
        return [d for d in self.output_descriptions if isinstance(d, BodyOutputAttr)]

    def concat_outputs(self) -> list[ConcatOutputAttr]:
        return [d for d in self.output_descriptions if isinstance(d, ConcatOutputAttr)]

    def body_parameter(self, desc: InputDescription | int) -> BlockArgument:
        """The body Parameter (block argument) of an input description, or by index."""
        index = desc if isinstance(desc, int) else desc.parameter_index
        return self.body_block.args[index]

    def body_result(self, desc: MergedInputAttr | OutputDescription | int) -> SSAValue:
        """The body Result (`ov.yield` operand) of a merged input or an output description."""
        index = desc if isinstance(desc, int) else desc.result_index
        return self.body_results()[index]

    def outer_input(self, desc: InputDescription) -> SSAValue:
        """The outer value feeding an input description (`input` counts all operands)."""
        return self.operands[desc.input_index]

    def outer_output(self, desc: OutputDescription) -> OpResult:
        return self.results[desc.output_index]

    def parameter_name(self, index: int) -> str:
        """
        Friendly name of body Parameter `index`: `parameter_names[index]`, else the block
        argument's SSA name, else `Parameter_<index>`.
        """
        names = self.parameter_names_attr
        if names is not None and index < len(names.data):
            return names.data[index].data
        arg = self.body_block.args[index]
        if arg.name_hint:
            return arg.name_hint
        return f"Parameter_{index}"

    def input_description_of_parameter(self, index: int) -> InputDescription | None:
        for desc in self.input_descriptions:
            if desc.parameter_index == index:
                return desc
        return None

    def output_description_of_result(self, output: int) -> OutputDescription | None:
        for desc in self.output_descriptions:
            if desc.output_index == output:
                return desc
        return None

    # ---- to specialise ------------------------------------------------------------------------

    def num_iterations(self) -> int:
        raise NotImplementedError

    def special_parameters(self) -> dict[int, str]:
        """Body parameters not fed by an input description (Loop: current_iteration)."""
        return {}

    def special_results(self) -> dict[int, str]:
        """Body results used by the op itself (Loop: the condition)."""
        return {}

    # ---- checks -------------------------------------------------------------------------------

    def expected_parameter_type(self, desc: InputDescription) -> Attribute:
        outer = self.outer_input(desc).type
        if not isinstance(desc, SliceInputAttr):
            return outer
        shape = list(shape_of(outer))
        axis = desc.get("axis")
        if not -len(shape) <= axis < len(shape):
            raise VerifyException(_slice_axis_error("", axis, len(shape), "input"))
        shape[axis] = desc.get("part_size")
        return tensor(shape, element_type_of(outer))

    def verify_attrs(self) -> None:
        """The body, the special ports, then every input and output description."""
        self._verify_body()
        self._verify_special_ports()
        self._verify_input_descriptions()
        self._verify_output_descriptions()

    def _verify_body(self) -> None:
        """
        The body is one block ending with `ov.yield`, a TensorIterator's body holds no
        TensorIterator, and `parameter_names` (if given) names each body parameter once.
        """
        block_count = len(self.body.blocks)
        if block_count != 1:
            raise VerifyException(f"body must have exactly one block, got {block_count}")
        if self.body_yield() is None:
            raise VerifyException("body must end with ov.yield (its operands are the body Results)")
        for op in self.body_block.ops:
            if isinstance(op, TensorIteratorOp) and isinstance(self, TensorIteratorOp):
                raise VerifyException(
                    "a TensorIterator body cannot directly contain a TensorIterator "
                    "(OpenVINO: no nested TensorIterator; use a Loop)"
                )
        params = self.body_block.args
        names = self.parameter_names_attr
        if names is not None and len(names.data) != len(params):
            raise VerifyException(
                f"parameter_names has {len(names.data)} names, expected one per body "
                f"parameter ({len(params)})"
            )

    def _verify_input_descriptions(self) -> None:
        """
        Each input description is valid (`_verify_input_description`); together they describe
        every data operand and every body parameter but the special ones, and the sliced
        inputs agree on the number of iterations.
        """
        operand_seen: dict[int, int] = {}
        param_seen: dict[int, int] = {}
        counts: list[tuple[int, int]] = []
        for k, desc in enumerate(self.input_descriptions_attr.data):
            n = self._verify_input_description(k, desc, operand_seen, param_seen)
            if n is not None:
                counts.append((k, n))
        for i in range(self.FIRST_DATA_INPUT, len(self.operands)):
            if i not in operand_seen:
                raise VerifyException(f"operand #{i} is not described by any input description")
        special_params = self.special_parameters()
        for p in range(len(self.body_block.args)):
            if p not in param_seen and p not in special_params:
                raise VerifyException(
                    f"body parameter #{p} is not described by any input description"
                )
        if len({n for _, n in counts}) > 1:
            listing = ", ".join(f"#{k}: {n}" for k, n in counts)
            raise VerifyException(
                f"sliced inputs give different numbers of iterations ({listing})"
            )

    def _verify_input_description(
        self, k: int, desc: Attribute, operand_seen: dict[int, int], param_seen: dict[int, int]
    ) -> int | None:
        """
        Input description #k is a slice, merged or invariant input whose ports are valid
        (`_verify_input_ports`, which records them in `operand_seen` and `param_seen`), whose
        slicing fits its outer input (`_verify_slicing`) and whose body parameter and
        back-edge have the expected types (`_verify_input_types`). Returns the number of
        iterations a sliced input gives, if known.
        """
        if not isinstance(desc, INPUT_DESCRIPTION_TYPES):
            raise VerifyException(
                f"input description #{k} must be #ov.slice, #ov.merged or #ov.invariant, "
                f"got {desc}"
            )
        what = f"input description #{k} ({desc})"
        self._verify_input_ports(k, what, desc, operand_seen, param_seen)
        n = None
        if isinstance(desc, SliceInputAttr):
            outer = shape_of(self.outer_input(desc))
            n = self._verify_slicing(what, desc.slicing(), outer, "input")
        self._verify_input_types(what, desc)
        return n

    def _verify_input_ports(
        self,
        k: int,
        what: str,
        desc: InputDescription,
        operand_seen: dict[int, int],
        param_seen: dict[int, int],
    ) -> None:
        """
        The description's operand is a data operand and its body parameter one that takes an
        input (not a special one), neither described by an earlier description.
        """
        first = self.FIRST_DATA_INPUT
        i, p = desc.input_index, desc.parameter_index
        if not first <= i < len(self.operands):
            raise VerifyException(
                f"{what}: input {i} is out of range, expected an operand index in "
                f"[{first}, {len(self.operands) - 1}]"
                + (" (data inputs of ov.loop start at 2)" if first else "")
            )
        if i in operand_seen:
            raise VerifyException(
                f"{what}: operand #{i} is already described by input description "
                f"#{operand_seen[i]}"
            )
        operand_seen[i] = k
        params = self.body_block.args
        if not 0 <= p < len(params):
            raise VerifyException(
                f"{what}: param {p} is out of range, the body has {len(params)} parameters"
            )
        special_params = self.special_parameters()
        if p in special_params:
            raise VerifyException(
                f"{what}: body parameter #{p} is the {special_params[p]} parameter, which "
                "takes no input"
            )
        if p in param_seen:
            raise VerifyException(
                f"{what}: body parameter #{p} is already described by input description "
                f"#{param_seen[p]}"
            )
        param_seen[p] = k

    def _verify_input_types(self, what: str, desc: InputDescription) -> None:
        """
        A merged input's back-edge is a body result; the body parameter has the type of its
        outer input (sliced: with the axis = part_size), and a back-edge has that type too.
        A merged or invariant parameter, and a back-edge, need only be compatible with the
        type they take (each dimension equal, or dynamic on one side): OpenVINO's Loop makes
        a merged parameter's dimensions dynamic where the body gives another shape back than
        it took (a carried value that grows by a row per iteration), and the types an
        OpenVINO IR declares may know more than the dialect's inference does (Keras 3's
        LSTM bodies, converted by OpenVINO: a Broadcast to a shape built of ShapeOf's values
        is 50x?x128 there, ?x?x128 here).
        """
        params = self.body_block.args
        results = self.body_results()
        p = desc.parameter_index
        if isinstance(desc, MergedInputAttr):
            r = desc.result_index
            if not 0 <= r < len(results):
                raise VerifyException(
                    f"{what}: result {r} is out of range, the body has {len(results)} "
                    "results"
                )
        expected = self.expected_parameter_type(desc)
        sliced = isinstance(desc, SliceInputAttr)
        fits = params[p].type == expected or (
            not sliced and types_compatible(expected, params[p].type)
        )
        if not fits:
            how = (
                "the outer type with the sliced axis = part_size"
                if sliced
                else "the outer input type, or one that differs only by dynamic dimensions"
            )
            raise VerifyException(
                f"{what}: body parameter #{p} has type {params[p].type}, expected "
                f"{expected} ({how})"
            )
        if isinstance(desc, MergedInputAttr):
            r = desc.result_index
            if not types_compatible(results[r].type, params[p].type):
                raise VerifyException(
                    f"{what}: back-edge body result #{r} has type {results[r].type}, "
                    f"expected the type of body parameter #{p}, {params[p].type} (or one that "
                    "differs only by dynamic dimensions)"
                )

    def _verify_output_descriptions(self) -> None:
        """
        Each output description is valid (`_verify_output_description`); together they
        describe every result of the op, and every body result is used (by an output
        description, a back-edge or a special port).
        """
        output_seen: dict[int, int] = {}
        used_results = set(self.special_results()) | {
            d.result_index for d in self.merged_inputs()
        }
        n_iter = self.num_iterations()
        for k, desc in enumerate(self.output_descriptions_attr.data):
            used_results.add(self._verify_output_description(k, desc, output_seen, n_iter))
        for o in range(len(self.results)):
            if o not in output_seen:
                raise VerifyException(f"result #{o} is not described by any output description")
        for r in range(len(self.body_results())):
            if r not in used_results:
                raise VerifyException(
                    f"body result #{r} is not used: no output description, back-edge or "
                    "special port refers to it"
                )

    def _verify_output_description(
        self, k: int, desc: Attribute, output_seen: dict[int, int], n_iter: int
    ) -> int:
        """
        Output description #k is a body or concat output of a body result to a result of the
        op not described before (recorded in `output_seen`), with a valid slicing
        (`_verify_slicing`) or iteration, and the result has the type it gives
        (`_verify_output_type`). Returns its body result's index.
        """
        if not isinstance(desc, OUTPUT_DESCRIPTION_TYPES):
            raise VerifyException(
                f"output description #{k} must be #ov.body_output or #ov.concat_output, "
                f"got {desc}"
            )
        what = f"output description #{k} ({desc})"
        results = self.body_results()
        r, o = desc.result_index, desc.output_index
        check_output_indices(what, r, o, len(results), len(self.results))
        if o in output_seen:
            raise VerifyException(
                f"{what}: result #{o} is already described by output description "
                f"#{output_seen[o]}"
            )
        output_seen[o] = k
        if isinstance(desc, ConcatOutputAttr):
            self._verify_slicing(what, desc.slicing(), shape_of(results[r]), "output")
        else:
            it = desc.get("iteration")
            if it < -1 or (n_iter >= 0 and it >= n_iter):
                bound = f" and below the {n_iter} iterations" if n_iter >= 0 else ""
                raise VerifyException(
                    f"{what}: iteration must be -1 (the last) or a non-negative index"
                    f"{bound}, got {it}"
                )
        self._verify_output_type(what, desc, n_iter)
        return r

    def _verify_output_type(self, what: str, desc: OutputDescription, n_iter: int) -> None:
        """
        The op's result has the type the description gives: the body result's type, for a
        concat output with the axis = num_iterations x part_size (dynamic if unknown).
        """
        o = desc.output_index
        expected = self._output_type(desc, n_iter)
        declared = self.results[o].type
        if not types_compatible(expected, declared):
            how = (
                "the body result type"
                if isinstance(desc, BodyOutputAttr)
                else f"the body result type with the axis = num_iterations ({n_iter}) "
                "x part_size"
                if n_iter >= 0
                else "the body result type with a dynamic axis (unknown number of "
                "iterations)"
            )
            raise VerifyException(
                f"{what}: result #{o} has type {declared}, expected {expected} ({how})"
            )

    def _verify_slicing(
        self, what: str, s: Slicing, shape: Sequence[int], kind: str
    ) -> int | None:
        """Checks of a slice/concat description; returns the number of parts if known."""
        rank = len(shape)
        if kind == "output" and rank == 0:
            if s.axis != 0:
                raise VerifyException(
                    f"{what}: a rank-0 body value is concatenated into 1-D, axis must be 0, "
                    f"got {s.axis}"
                )
        elif not -rank <= s.axis < rank:
            raise VerifyException(_slice_axis_error(what, s.axis, rank, kind))
        if s.stride == 0:
            raise VerifyException(f"{what}: stride must be non-zero")
        if s.part_size <= 0:
            raise VerifyException(f"{what}: part_size must be positive, got {s.part_size}")
        if kind == "output":
            if rank == 0:
                if s.part_size != 1:
                    raise VerifyException(
                        f"{what}: part_size must be 1 for a rank-0 body value, got {s.part_size}"
                    )
                return None
            axis = s.axis + rank if s.axis < 0 else s.axis
            if shape[axis] != DYNAMIC and shape[axis] != s.part_size:
                raise VerifyException(
                    f"{what}: the body result has {shape[axis]} elements along axis {s.axis}, "
                    f"expected part_size = {s.part_size}"
                )
            return None
        axis = s.axis + rank if s.axis < 0 else s.axis
        dim = shape[axis]
        if dim == DYNAMIC:
            return None
        start, end = _normalize_border(s.start, dim), _normalize_border(s.end, dim)
        if not (0 <= start < dim and 0 <= end < dim):
            raise VerifyException(
                f"{what}: start {s.start} and end {s.end} must lie in the {dim} elements of "
                f"axis {s.axis} (negative values count from the end)"
            )
        length = abs(end - start) + 1
        if length % s.part_size:
            raise VerifyException(
                f"{what}: the {length} sliced elements of axis {s.axis} are not a multiple of "
                f"part_size {s.part_size}"
            )
        return length // s.part_size

    def _verify_special_ports(self) -> None:
        pass

    # ---- shape inference ----------------------------------------------------------------------

    def _output_type(self, desc: OutputDescription, n_iter: int) -> Attribute:
        value = self.body_results()[desc.result_index].type
        if isinstance(desc, BodyOutputAttr):
            return value
        assert isinstance(desc, ConcatOutputAttr)
        shape = list(shape_of(value))
        s = desc.slicing()
        if not shape:
            return tensor([n_iter if n_iter >= 0 else DYNAMIC], element_type_of(value))
        axis = s.axis + len(shape) if s.axis < 0 else s.axis
        shape[axis] = n_iter * s.part_size if n_iter >= 0 else DYNAMIC
        return tensor(shape, element_type_of(value))


class SubGraphOp(_SubGraphStructure):
    """
    Base of `ov.tensor_iterator` and `ov.loop` (not an op itself): the body, the port
    descriptions and their checks (`_SubGraphStructure`), the shape inference and the
    iteration itself.
    """

    def infer_result_types(self) -> Sequence[Attribute]:
        n_iter = self.num_iterations()
        types: list[Attribute | None] = [None] * len(self.results)
        results = self.body_results()
        for k, desc in enumerate(self.output_descriptions):
            o = desc.output_index
            if not 0 <= o < len(types) or not 0 <= desc.result_index < len(results):
                raise VerifyException(f"output description #{k} ({desc}) is out of range")
            if types[o] is None:
                types[o] = self._output_type(desc, n_iter)
        described: list[Attribute] = []
        for o, t in enumerate(types):
            if t is None:
                raise VerifyException(f"result #{o} is not described by any output description")
            described.append(t)
        return described

    def _static_slice_count(self) -> int:
        """Iterations given by the sliced inputs with a static axis, -1 if none."""
        for desc in self.slice_inputs():
            count = self._static_slice_count_of(desc)
            if count >= 0:
                return count
        return -1

    def _static_slice_count_of(self, desc: SliceInputAttr) -> int:
        """The parts of one sliced input, -1 where its axis is not static."""
        shape = shape_of(self.outer_input(desc))
        s = desc.slicing()
        if not -len(shape) <= s.axis < len(shape) or s.part_size <= 0:
            return -1
        dim = shape[s.axis]
        return slice_count(s, dim) if dim != DYNAMIC else -1

    # ---- semantics ----------------------------------------------------------------------------

    def evaluate(
        self, inputs: Sequence[np.ndarray], run_body: BodyRunner | None = None
    ) -> Sequence[np.ndarray]:
        """
        Runs the op, its body run by `run_body`; by default by `lowpass.dialects.interpret`'s
        `run_region` (a fresh interpreter of the dialects' ops, no variable kept).
        """
        if run_body is None:
            run_body = run_region
        return self.run(run_body, inputs)

    def interpret(self, interpreter: Interpreter, inputs: Sequence[Any]) -> Sequence[Any]:
        """The interpreter runs the body itself (its variables, listeners and profiling)."""
        return self.run(interpreter.run_ssacfg_region, inputs)

    def run(self, run_body: BodyRunner, inputs: Sequence[Any]) -> Sequence[Any]:
        """The op's meaning, given what runs its body once."""
        raise NotImplementedError(f"{self.name} does not implement run")

    def _runs_all(self, iterations: int) -> bool:
        """Whether `iterations` iterations certainly all run (no body condition can stop them)."""
        return True

    def _too_many(self, iterations: int | None) -> str:
        if iterations is None:
            return (
                f"the body ran {MAX_REFERENCE_ITERATIONS} times and its condition still holds: "
                "the reference interpreter runs at most that many iterations"
            )
        return (
            f"{iterations} iterations: the reference interpreter runs at most "
            f"{MAX_REFERENCE_ITERATIONS}"
        )

    def _iterate(
        self,
        run_body: BodyRunner,
        inputs: Sequence[Any],
        max_iterations: int,
        condition: bool,
    ) -> tuple[np.ndarray, ...]:
        """
        Run the body: at most `max_iterations` times (-1: no limit) while `condition` holds
        (the Loop's condition result updates it after each iteration).
        """
        inputs = [np.asarray(v) for v in inputs]
        params: list[Any] = [None] * len(self.body_block.args)
        parts: dict[int, list[np.ndarray]] = {}
        for desc in self.input_descriptions:
            value = inputs[desc.input_index]
            if isinstance(desc, SliceInputAttr):
                parts[desc.parameter_index] = slice_parts(value, desc.slicing())
            else:
                params[desc.parameter_index] = value
        special = self.special_parameters()
        current_iteration = next(iter(special), None)
        cond_result = next(iter(self.special_results()), None)
        concat: dict[int, list[np.ndarray]] = {
            d.result_index: [] for d in self.output_descriptions if isinstance(d, ConcatOutputAttr)
        }
        last: list[np.ndarray] | None = None
        at_iteration: dict[tuple[int, int], np.ndarray] = {}
        wanted = {
            (d.result_index, d.get("iteration"))
            for d in self.body_outputs()
            if d.get("iteration") >= 0
        }
        if max_iterations > MAX_REFERENCE_ITERATIONS and self._runs_all(max_iterations):
            raise ValueError(self._too_many(max_iterations))
        i = 0
        while (max_iterations < 0 or i < max_iterations) and condition:
            if i == MAX_REFERENCE_ITERATIONS:
                raise ValueError(self._too_many(None))
            for p, values in parts.items():
                if i >= len(values):
                    raise ValueError(
                        f"{self.name}: iteration {i} needs part {i} of the input sliced into "
                        f"body parameter #{p}, which has only {len(values)} parts"
                    )
                params[p] = values[i]
            if current_iteration is not None:
                arg_type = self.body_block.args[current_iteration].type
                params[current_iteration] = np.full(
                    shape_of(arg_type), i, dtype=to_dtype(element_type_of(arg_type))
                )
            returned = run_body(self.body, tuple(params), self.name)
            out = [np.asarray(v) for v in returned]
            for r, values in concat.items():
                values.append(out[r])
            for r, it in wanted:
                if it == i:
                    at_iteration[(r, it)] = out[r]
            for desc in self.merged_inputs():
                params[desc.parameter_index] = out[desc.result_index]
            if cond_result is not None:
                condition = bool(out[cond_result].reshape(-1)[0])
            last = out
            i += 1

        outputs: list[np.ndarray | None] = [None] * len(self.results)
        for desc in self.output_descriptions:
            o, r = desc.output_index, desc.result_index
            if outputs[o] is not None:
                continue
            if isinstance(desc, ConcatOutputAttr):
                outputs[o] = _concat_parts(concat[r], desc.slicing(), self._empty(desc))
            elif desc.get("iteration") >= 0:
                key = (r, desc.get("iteration"))
                if key not in at_iteration:
                    raise ValueError(
                        f"{self.name}: output #{o} needs iteration {key[1]} of body result "
                        f"#{r}, but only {i} iterations ran"
                    )
                outputs[o] = at_iteration[key]
            elif last is not None:
                outputs[o] = last[r]
            else:
                outputs[o] = self._zero_iteration_value(desc, inputs)
        computed = [v for v in outputs if v is not None]
        assert len(computed) == len(outputs)  # (each result has an output description)
        return tuple(computed)

    def _empty(self, desc: ConcatOutputAttr) -> np.ndarray:
        value = self.body_results()[desc.result_index].type
        shape = [0 if d == DYNAMIC else d for d in shape_of(value)]
        if not shape:
            shape = [0]
        else:
            axis = desc.get("axis") + len(shape) if desc.get("axis") < 0 else desc.get("axis")
            shape[axis] = 0
        return np.zeros(shape, dtype=to_dtype(element_type_of(value)))

    def _zero_iteration_value(self, desc: OutputDescription, inputs: Sequence[Any]) -> np.ndarray:
        """
        A last-value output when no iteration ran: the initial value of the back-edge that
        carries the body result, else the outer value of the parameter the body result is,
        else zeros of the result type (dynamic dimensions 0).
        """
        r = desc.result_index
        for merged in self.merged_inputs():
            if merged.result_index == r:
                return inputs[merged.input_index]
        value = self.body_results()[r]
        if isinstance(value, BlockArgument):
            d = self.input_description_of_parameter(value.index)
            if d is not None and not isinstance(d, SliceInputAttr):
                return inputs[d.input_index]
        t = self.results[desc.output_index].type
        shape = [0 if d == DYNAMIC else d for d in shape_of(t)]
        return np.zeros(shape, dtype=to_dtype(element_type_of(t)))


def _to_array_attr(values: Sequence[Attribute] | ArrayAttr) -> ArrayAttr:
    return values if isinstance(values, ArrayAttr) else ArrayAttr(list(values))


def _body_region(body: Block | Region) -> Region:
    if isinstance(body, Region):
        return body
    if body.parent is not None:
        body.parent.detach_block(body)
    return Region(body)


def _result_count(output_descriptions: Sequence[Attribute]) -> int:
    indices = (d.output_index for d in output_descriptions if isinstance(d, OutputDescription))
    return max(indices, default=-1) + 1


YIELD_PARENTS: list[type[Operation]] = []
"""The ops whose bodies end with `ov.yield` (`ov.tensor_iterator`, `ov.loop`, `ov.if`), in the
order of their definitions: each registers itself with `yield_parent`, so that this module
needs not import the ops defined above it (conditional.py's `ov.if`)."""


_OpT = TypeVar("_OpT", bound=Operation)


def yield_parent(op_class: type[_OpT]) -> type[_OpT]:
    """Class decorator: `ov.yield` may end the bodies of `op_class` (`YIELD_PARENTS`)."""
    YIELD_PARENTS.append(op_class)
    return op_class


@dataclass(frozen=True)
class YieldParent(OpTrait):
    """`HasParent(*YIELD_PARENTS)`, read when verifying: the same diagnostic."""

    def verify(self, op: Operation) -> None:
        HasParent(YIELD_PARENTS[0], *YIELD_PARENTS[1:]).verify(op)


@yield_parent
@irdl_op_definition
class TensorIteratorOp(SubGraphOp):
    """
    Runs a body a fixed number of times over slices of its inputs (OpenVINO
    `TensorIterator-1`).

    ```
    %h, %ys = ov.tensor_iterator(%x, %h0, %w) attributes {input_descriptions = [
        #ov.slice<input = 0, param = 0, axis = 1>, #ov.merged<input = 1, param = 1, result = 0>,
        #ov.invariant<input = 2, param = 2>],
      output_descriptions = [#ov.body_output<result = 0, output = 0>,
        #ov.concat_output<result = 0, output = 1, axis = 1>]}
      : (tensor<1x5x4xf32>, tensor<1x1x4xf32>, tensor<4x4xf32>)
      -> (tensor<1x1x4xf32>, tensor<1x5x4xf32>) {
    ^bb0(%x_t: tensor<1x1x4xf32>, %h_t: tensor<1x1x4xf32>, %w_t: tensor<4x4xf32>):
      ...
      ov.yield %h_next : tensor<1x1x4xf32>
    }
    ```

    The number of iterations is given by the sliced inputs (`num_iterations()`).
    """

    name = "ov.tensor_iterator"
    inputs = var_operand_def(TensorType)

    traits = traits_def(RecursiveMemoryEffect(), IsolatedFromAbove())

    assembly_format = (
        "`(` $inputs `)` attr-dict-with-keyword `:` functional-type(operands, results) $body"
    )

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        body: Block | Region,
        input_descriptions: Sequence[Attribute] | ArrayAttr,
        output_descriptions: Sequence[Attribute] | ArrayAttr,
        result_types: Sequence[Attribute] | None = None,
        parameter_names: Sequence[str] | None = None,
        name: str | None = None,
    ) -> None:
        outputs = _to_array_attr(output_descriptions)
        properties: dict[str, Attribute] = {
            "input_descriptions": _to_array_attr(input_descriptions),
            "output_descriptions": outputs,
        }
        if parameter_names is not None:
            properties["parameter_names"] = ArrayAttr([StringAttr(n) for n in parameter_names])
        count = _result_count(outputs.data)
        super().__init__(
            operands=[list(inputs)],
            result_types=[list(result_types) if result_types is not None
                          else [PLACEHOLDER_TYPE] * count],
            properties=properties,
            regions=[_body_region(body)],
        )
        self.finish_build(name, infer=result_types is None)

    def num_iterations(self) -> int:
        """
        OpenVINO's rule: `(|end' - start'| + 1) / part_size` of the sliced inputs whose axis
        is static; with no sliced input at all, `|end - start| / part_size` of the first
        concatenated output; else -1 (unknown).
        """
        if self.slice_inputs():
            return self._static_slice_count()
        for desc in self.concat_outputs():
            s = desc.slicing()
            if s.part_size > 0:
                return abs(s.end - s.start) // s.part_size
        return -1

    def _runtime_iterations(self, inputs: Sequence[Any]) -> int:
        for desc in self.slice_inputs():
            return len(slice_parts(np.asarray(inputs[desc.input_index]), desc.slicing()))
        n = self.num_iterations()
        if n < 0:
            raise ValueError(
                f"{self.name}: the number of iterations is unknown (no sliced input and no "
                "concatenated output)"
            )
        return n

    def run(self, run_body: BodyRunner, inputs: Sequence[Any]) -> Sequence[Any]:
        return self._iterate(run_body, inputs, self._runtime_iterations(inputs), True)


@yield_parent
@irdl_op_definition
class LoopOp(SubGraphOp):
    """
    Runs a body while a condition holds, at most `trip_count` times (OpenVINO `Loop-5`).

    ```
    %r = ov.loop(%trip_count, %execution_condition, %x0) attributes {
        input_descriptions = [#ov.merged<input = 2, param = 1, result = 0>],
        output_descriptions = [#ov.body_output<result = 0, output = 0>],
        special_body_ports = array<i64: 0, 1>}
      : (tensor<i64>, tensor<i1>, tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%i: tensor<i64>, %x: tensor<4xf32>):
      ...
      ov.yield %x_next, %cond : tensor<4xf32>, tensor<i1>
    }
    ```

    Operands: `trip_count` (i32/i64, one element; -1: no limit), `execution_condition` (i1,
    one element; false: no iteration), then the data inputs; `input` indices of the input
    descriptions count all operands, so data inputs start at 2 (as in OpenVINO).
    `special_body_ports = array<i64: current_iteration, condition>`: the body parameter that
    receives the iteration number (i32/i64, rank 0 or 1; -1: none) and the body result that
    decides whether the next iteration runs (i1, one element; mandatory).

    When no iteration runs (execution condition false, trip count 0), last-value outputs are
    the initial value of the back-edge that carries them (or the outer value of the
    parameter they return, else zeros) and concatenated outputs are empty along their axis.
    OpenVINO's reference implementation throws instead.
    """

    name = "ov.loop"
    trip_count = operand_def(TensorType)
    execution_condition = operand_def(TensorType)
    inputs = var_operand_def(TensorType)
    special_body_ports = prop_def(DenseArrayBase)

    traits = traits_def(RecursiveMemoryEffect(), IsolatedFromAbove())

    assembly_format = (
        "`(` $trip_count `,` $execution_condition (`,` $inputs^)? `)` attr-dict-with-keyword "
        "`:` functional-type(operands, results) $body"
    )

    FIRST_DATA_INPUT: ClassVar[int] = 2

    def __init__(
        self,
        trip_count: SSAValue,
        execution_condition: SSAValue,
        inputs: Sequence[SSAValue],
        body: Block | Region,
        input_descriptions: Sequence[Attribute] | ArrayAttr,
        output_descriptions: Sequence[Attribute] | ArrayAttr,
        special_body_ports: tuple[int, int],
        result_types: Sequence[Attribute] | None = None,
        parameter_names: Sequence[str] | None = None,
        name: str | None = None,
    ) -> None:
        outputs = _to_array_attr(output_descriptions)
        properties: dict[str, Attribute] = {
            "input_descriptions": _to_array_attr(input_descriptions),
            "output_descriptions": outputs,
            "special_body_ports": i64_array(special_body_ports),
        }
        if parameter_names is not None:
            properties["parameter_names"] = ArrayAttr([StringAttr(n) for n in parameter_names])
        count = _result_count(outputs.data)
        super().__init__(
            operands=[trip_count, execution_condition, list(inputs)],
            result_types=[list(result_types) if result_types is not None
                          else [PLACEHOLDER_TYPE] * count],
            properties=properties,
            regions=[_body_region(body)],
        )
        self.finish_build(name, infer=result_types is None)

    @property
    def current_iteration_index(self) -> int:
        return ints(self.special_body_ports)[0]

    @property
    def condition_result_index(self) -> int:
        return ints(self.special_body_ports)[1]

    def current_iteration_parameter(self) -> BlockArgument | None:
        index = self.current_iteration_index
        return self.body_block.args[index] if index >= 0 else None

    def condition_result(self) -> SSAValue:
        return self.body_results()[self.condition_result_index]

    def special_parameters(self) -> dict[int, str]:
        ports = ints(self.special_body_ports)
        return {ports[0]: "current_iteration"} if len(ports) == 2 and ports[0] >= 0 else {}

    def special_results(self) -> dict[int, str]:
        ports = ints(self.special_body_ports)
        return {ports[1]: "condition"} if len(ports) == 2 and ports[1] >= 0 else {}

    def _verify_special_ports(self) -> None:
        for what, value in (
            ("trip_count", self.trip_count),
            ("execution_condition", self.execution_condition),
        ):
            et = element_type_of(value)
            ok = et in (i32, i64) if what == "trip_count" else et == i1
            if not ok or not _one_element(value.type):
                kind = "an i32 or i64" if what == "trip_count" else "an i1"
                raise VerifyException(
                    f"{what} must be {kind} scalar or 1-element 1-D tensor, got {value.type}"
                )
        ports = ints(self.special_body_ports)
        if len(ports) != 2:
            raise VerifyException(
                "special_body_ports must hold 2 values (current_iteration parameter, condition "
                f"result), got {len(ports)}"
            )
        current, cond = ports
        params, results = self.body_block.args, self.body_results()
        if current != -1:
            if not 0 <= current < len(params):
                raise VerifyException(
                    f"special_body_ports: current_iteration parameter {current} is out of "
                    f"range, expected -1 or [0, {len(params) - 1}]"
                )
            t = params[current].type
            if element_type_of(t) not in (i32, i64) or not _one_element(t):
                raise VerifyException(
                    f"special_body_ports: current_iteration parameter #{current} must be an "
                    f"i32 or i64 scalar or 1-element 1-D tensor, got {t}"
                )
        if not 0 <= cond < len(results):
            raise VerifyException(
                f"special_body_ports: the condition result {cond} is out of range, expected "
                f"[0, {len(results) - 1}] (the body condition is mandatory)"
            )
        t = results[cond].type
        if element_type_of(t) != i1 or not _one_element(t):
            raise VerifyException(
                f"special_body_ports: condition result #{cond} must be an i1 scalar or "
                f"1-element 1-D tensor, got {t}"
            )

    def _static_bool(self, value: SSAValue) -> bool | None:
        v = static_value(value)
        if v is None or v.size != 1:
            return None
        return bool(v.reshape(-1)[0])

    def body_condition_value(self) -> bool | None:
        """
        The body condition if it is known statically: a constant in the body, or a body
        parameter fed by a constant (invariant, or merged with the parameter itself as back-edge).
        """
        results = self.body_results()
        cond = self.condition_result_index
        if not 0 <= cond < len(results):
            return None
        value = results[cond]
        known = self._static_bool(value)
        if known is not None or not isinstance(value, BlockArgument):
            return known
        desc = self.input_description_of_parameter(value.index)
        if isinstance(desc, InvariantInputAttr) or (
            isinstance(desc, MergedInputAttr) and results[desc.result_index] is value
        ):
            return self._static_bool(self.outer_input(desc))
        return None

    def num_iterations(self) -> int:
        """
        0 if the execution condition is constant false; else, when it is constant true: for a
        body condition constant false (do-while) 1, or 0 for a known trip count of 0; for a
        body condition constant true the trip count where it is known (a constant or a shape
        sub-graph such as `Gather(ShapeOf(X))`) and non-negative; for a counted while loop
        its count (`counted_iterations`), at most the trip count; 1 for a loop whose sliced
        inputs have one part and whose trip count is known and not 0 (a second iteration
        would need a second part: an error); else -1 (unknown). OpenVINO's rule has neither
        of the last two, gives a do-while 1 whatever its trip count, and ignores an execution
        condition that is not constant (and then may claim iterations that do not run).
        """
        if len(ints(self.special_body_ports)) != 2:
            return -1
        execution = self._static_bool(self.execution_condition)
        if execution is False:
            return 0
        if execution is None:
            return -1  # OpenVINO takes the trip count here, although no iteration may run
        body = self.body_condition_value()
        trip = static_value(self.trip_count)
        limit = int(trip.reshape(-1)[0]) if trip is not None and trip.size == 1 else None
        if body is False:  # (a do-while: once, but not at all for a trip count of 0)
            return -1 if limit is None else 0 if limit == 0 else 1
        if body is True:
            return limit if limit is not None and limit >= 0 else -1
        counted = self.counted_iterations()
        parts = [self._static_slice_count_of(d) for d in self.slice_inputs()]
        if counted is None and limit is not None and limit != 0 and parts and min(parts) == 1:
            return 1  # (a second iteration would need a second part: the error it reports)
        if counted is None or limit is None:
            return -1
        count = counted if limit < 0 else min(counted, limit)
        if any(0 <= self._static_slice_count_of(d) < count for d in self.slice_inputs()):
            return -1  # (it would run past its slices: the reference reports that error)
        return count

    def counted_iterations(self) -> int | None:
        """
        The iterations of a counted while loop, where the body's condition is `Less(a, n)`
        (or `Greater(n, a)`, or a LogicalAnd of such, the least count): `n` known (a constant,
        or an invariant input of known value) and `a` a merged parameter `p` or its back edge,
        which adds a known positive step to it (`p + step`), `p`'s initial value `p0` known.
        TensorFlow's while loops as OpenVINO converts them (`time + 1 < T`). The first
        iteration runs (the execution condition decides it) and the k-th is followed by
        another while `p0 + k * step < n` (the back edge compared; `p0 + (k - 1) * step` for
        `p` itself), so `max(1, ceil((n - p0) / step))` iterations (one more for `p`). None
        where the condition is not of that form, or `a` could wrap around its type.
        """
        return self._counted(self.condition_result())

    def _counted(self, value: SSAValue) -> int | None:
        op = value.owner
        if not isinstance(op, Operation):
            return None
        if op.name == "ov.logical_and":
            counts = [self._counted(v) for v in op.operands]
            return None if any(c is None for c in counts) else min(c for c in counts if c)
        if op.name == "ov.less":
            a, n = op.operands
        elif op.name == "ov.greater":
            n, a = op.operands
        else:
            return None
        exact = None  # (a compared as a float: tf2onnx's Less(Cast<float>(i + 1), Cast<float>(n)))
        if isinstance(a.owner, Operation) and a.owner.name == "ov.convert":
            to = to_dtype(element_type_of(a.type))
            if to not in (np.dtype(np.float32), np.dtype(np.float64)):
                return None
            exact = 2 ** (24 if to == np.float32 else 53)
            a = a.owner.operands[0]
        limit = self._known_number(n)
        stepped = self._stepped(a)
        if limit is None or stepped is None:
            return None
        p0, step, after = stepped
        count = max(1, math.ceil((Fraction(limit) - p0) / step) + (0 if after else 1))
        dtype = to_dtype(element_type_of(a.type))
        last = p0 + count * step
        if not np.issubdtype(dtype, np.integer) or last > np.iinfo(dtype).max:
            return None
        if exact is not None and (abs(last) > exact or abs(p0) > exact):
            return None  # (a float that no longer holds every integer)
        return count

    def _known_number(self, value: SSAValue) -> int | float | None:
        """A body value's number where it is known: a constant, an invariant parameter or
        one the body passes through unchanged (a merged parameter that is its own back edge:
        tf2onnx carries its loops' limits so) whose input is, or a Convert of one."""
        if isinstance(value.owner, Operation) and value.owner.name == "ov.convert":
            inner = self._known_number(value.owner.operands[0])
            if inner is None:
                return None
            converted = np.asarray(inner).astype(to_dtype(element_type_of(value.type)))
            return converted.item() if converted.dtype.kind in "iuf" else None
        known = static_value(value)
        if known is None and isinstance(value, BlockArgument) and value.owner is self.body_block:
            desc = self.input_description_of_parameter(value.index)
            if isinstance(desc, InvariantInputAttr) or (
                isinstance(desc, MergedInputAttr) and self.body_result(desc) is value
            ):
                known = static_value(self.outer_input(desc))
        return _scalar(known)

    def _known_int(self, value: SSAValue) -> int | None:
        number = self._known_number(value)
        return number if isinstance(number, int) else None

    def _stepped(self, value: SSAValue) -> tuple[int, int, bool] | None:
        """(p0, step, whether `value` is the back edge) where `value` is a merged parameter
        `p` or its back edge `p + step` (a known positive step), p's initial value known."""
        results = self.body_results()
        for desc in self.merged_inputs():
            param, edge = self.body_parameter(desc), results[desc.result_index]
            if value is not param and value is not edge:
                continue
            add = edge.owner
            if not isinstance(add, Operation) or add.name != "ov.add":
                return None
            x, y = add.operands
            other = y if x is param else x if y is param else None
            step = self._known_int(other) if other is not None else None
            p0 = self._known_int_outer(desc)
            if step is None or step <= 0 or p0 is None:
                return None
            return p0, step, value is edge
        return None

    def _known_int_outer(self, desc: InputDescription) -> int | None:
        number = _scalar(static_value(self.outer_input(desc)))
        return number if isinstance(number, int) else None

    def _runs_all(self, iterations: int) -> bool:
        return self.body_condition_value() is True

    def run(self, run_body: BodyRunner, inputs: Sequence[Any]) -> Sequence[Any]:
        trip = int(np.asarray(inputs[0]).reshape(-1)[0])
        condition = bool(np.asarray(inputs[1]).reshape(-1)[0])
        return self._iterate(run_body, inputs, trip if trip >= 0 else -1, condition)


@irdl_op_definition
class YieldOp(OvOp):
    """
    Terminator of `ov.tensor_iterator`, `ov.loop` and `ov.if` bodies: its operands are the body
    Results (operand j = result j), `ov.yield %a, %b : tensor<...>, tensor<...>`.
    """

    name = "ov.yield"
    arguments = var_operand_def(AnyTensorType)

    assembly_format = "attr-dict ($arguments^ `:` type($arguments))?"
    traits = lazy_traits_def(
        lambda: (IsTerminator(), YieldParent(), Pure())
    )

    def __init__(self, *operands: SSAValue | Operation) -> None:
        super().__init__(operands=[list(operands)])

    def infer_result_types(self) -> Sequence[Attribute]:
        return []

    def evaluate(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        return tuple(inputs)


def build_body(
    parameter_types: Sequence[Attribute],
    fn: Callable[..., Sequence[SSAValue | Operation] | SSAValue | Operation],
    parameter_names: Sequence[str] | None = None,
) -> Block:
    """
    A body block from a Python function: `fn` receives the body parameters (block
    arguments) and returns the body results; ops created inside `fn` are added to the block
    and an `ov.yield` of the results ends it. `parameter_names` become the SSA names.
    """
    block = Block(arg_types=list(parameter_types))
    if parameter_names is not None:
        for arg, n in zip(block.args, parameter_names, strict=True):
            arg.name_hint = n
    with ImplicitBuilder(block):
        out = fn(*block.args)
        if isinstance(out, SSAValue | Operation):
            out = [out]
        values = [v.results[0] if isinstance(v, Operation) else v for v in out]
        YieldOp(*values)
    return block


def _scalar(known: np.ndarray | None) -> int | float | None:
    """The number of a one-element integer or finite float array (None: not one)."""
    if known is None or known.size != 1 or known.dtype.kind not in "iuf":
        return None
    number = known.reshape(-1)[0].item()
    return number if not isinstance(number, float) or math.isfinite(number) else None


def data_operands(op: Operation) -> Sequence[SSAValue]:
    """The operands that carry an op's data, whose precision its profiling row names: a
    Loop's after its trip count and execution condition, floats first and booleans last (a
    counter and a condition that the body carries: a Loop of floats is neither `I64` nor
    `BOOL`); any other op's all."""
    if isinstance(op, LoopOp) and len(op.operands) > LoopOp.FIRST_DATA_INPUT:
        data = op.operands[LoopOp.FIRST_DATA_INPUT :]

        def kind(value: SSAValue) -> int:
            et = element_type_of(value.type)
            return 2 if et == i1 else 0 if to_dtype(et).kind == "f" else 1

        return sorted(data, key=kind)
    return op.operands


OPS = (ConstantOp, TensorIteratorOp, LoopOp, YieldOp)
ATTRS = (SliceInputAttr, MergedInputAttr, InvariantInputAttr, BodyOutputAttr, ConcatOutputAttr)

__all__ = [
    "HEX_THRESHOLD",
    "INPUT_DESCRIPTION_TYPES",
    "OUTPUT_DESCRIPTION_TYPES",
    "BodyOutputAttr",
    "BodyRunner",
    "ConcatOutputAttr",
    "ConstantOp",
    "InputDescription",
    "InvariantInputAttr",
    "LoopOp",
    "MergedInputAttr",
    "OutputDescription",
    "PortDescription",
    "SliceInputAttr",
    "Slicing",
    "SubGraphOp",
    "TensorIteratorOp",
    "YieldOp",
    "build_body",
    "data_operands",
    "slice_count",
    "slice_parts",
]


def _slice_axis_error(what: str, axis: int, rank: int, kind: str) -> str:
    """A slice or concat description's axis outside its value's dimensions."""
    value = "outer input" if kind == "input" else "body result"
    expected = f"expected [{-rank}, {rank - 1}]" if rank else "which has no axis to slice"
    where = f"{what}: " if what else ""
    return f"{where}axis {axis} is out of range for the rank-{rank} {value}, {expected}"
