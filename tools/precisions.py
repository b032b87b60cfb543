"""
benchmark_app's `-ip`, `-op` and `-iop` (its `PrePostProcessor` steps): the element type of
the model's inputs and outputs as the application sees them. An input given another
precision takes data of that type and converts it to the type the graph computes in
(`ov.convert` after the input), an output is converted before it is returned, as OpenVINO's
pre- and post-processing inserts a Convert. The ports keep their names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.utils.hints import isa

from lowpass.dialects import ov
from lowpass.dialects.graph import graph_input_all_names, graph_output_all_names
from lowpass.runtime import LowpassError, Model

PRECISIONS: dict[str, Attribute] = {
    "bool": IntegerType(1),
    "f16": Float16Type(),
    "f32": Float32Type(),
    "i8": IntegerType(8),
    "i32": IntegerType(32),
    "i64": IntegerType(64),
    "u8": IntegerType(8, Signedness.UNSIGNED),
}
"""benchmark_app's precision names that a lowpass graph has (docs/names.md's element types)."""

BENCHMARK_APP_PRECISIONS = ("bool", "f16", "f32", "f64", "i8", "i16", "i32", "i64", "u8", "u16",
                            "u32", "u64")  # fmt: skip
"""The names benchmark_app's -ip and -op take."""


def check_precision(flag: str, text: str) -> str:
    """One precision name, or a one-line `LowpassError`."""
    name = text.strip().lower()
    if name in PRECISIONS:
        return name
    if name in BENCHMARK_APP_PRECISIONS:
        raise LowpassError(f"{flag} {text}: lowpass's graphs have no {name} tensors (they take "
                           f"{', '.join(PRECISIONS)})")
    raise LowpassError(f"{flag} {text}: expected one of {', '.join(BENCHMARK_APP_PRECISIONS)}")


def parse_iop(text: str) -> dict[str, str]:
    """`-iop "input:f16, output:f16"`: port name -> precision (a name may hold `:`; the
    precision is after the last one)."""
    out: dict[str, str] = {}
    for entry in text.split(","):
        name, sep, precision = entry.strip().rpartition(":")
        if not sep or not name.strip():
            raise LowpassError(f"-iop {text}: expected NAME:PRECISION entries joined by commas, "
                               "such as \"input:f16, output:f16\"")
        out[name.strip()] = check_precision("-iop", precision)
    return out


def _wanted(names: Sequence[str], every: str | None, by_name: Mapping[str, str]) -> str | None:
    for name in names:
        if name in by_name:
            return by_name[name]
    return every


def set_precisions(model: Model, inputs: str | None, outputs: str | None,
                   by_name: Mapping[str, str]) -> None:  # fmt: skip
    """Give `model`'s inputs and outputs these precisions (`inputs`/`outputs` for every one,
    `by_name` per port, which wins), a convert inserted where a type changes."""
    module = model.module.clone()
    function = next(op for op in module.walk() if isinstance(op, func.FuncOp)
                    and op.sym_name.data == model.function.sym_name.data)  # fmt: skip
    input_names = graph_input_all_names(function)
    output_names = graph_output_all_names(function)
    known = {n for names in (*input_names, *output_names) for n in names}
    unknown = sorted(set(by_name) - known)
    if unknown:
        raise LowpassError(f"-iop: the model has no input or output named '{unknown[0]}'")
    block = function.body.block
    for index, names in enumerate(input_names):
        wanted = _wanted(names, inputs, by_name)
        arg = block.args[index]
        arg_type = arg.type
        if wanted is None or not isa(arg_type, TensorType[Attribute]):
            continue
        old_type = arg_type.get_element_type()
        if PRECISIONS[wanted] == old_type:
            continue
        new_arg = block.insert_arg(TensorType(PRECISIONS[wanted], arg_type.get_shape()), index)
        new_arg.name_hint = arg.name_hint
        convert = ov.ConvertOp(new_arg, old_type, name=f"{names[0]}/convert")
        first = block.first_op
        assert first is not None  # (a function ends with its return)
        block.insert_op_before(convert, first)
        arg.replace_all_uses_with(convert.results[0])
        block.erase_arg(arg)
    terminator = block.last_op
    assert isinstance(terminator, func.ReturnOp)
    for index, names in enumerate(output_names):
        wanted = _wanted(names, outputs, by_name)
        value: SSAValue = terminator.operands[index]
        value_type = value.type
        if wanted is None or not isa(value_type, TensorType[Attribute]) \
                or PRECISIONS[wanted] == value_type.get_element_type():
            continue
        convert = ov.ConvertOp(value, PRECISIONS[wanted], name=f"{names[0]}/convert")
        block.insert_op_before(convert, terminator)
        terminator.operands[index] = convert.results[0]
    function.update_function_type()
    model.module = module
