"""
Freeze graph inputs: an input becomes a constant of a given value and leaves the graph's
inputs (OpenVINO's model conversion: `ovc`/`openvino.convert_model(input=...)` with a value,
legacy Model Optimizer's `--freeze_placeholder_with_value "sr->16000"`).

    freeze_inputs(module, {"sr": 16000})

A configuration input (silero-vad's sample rate `sr`, a flag, a sequence length) then stops
being an input, and the passes and the CPU device fold what depends on it. The value is
converted to the input's element type (as OpenVINO converts an input); its shape must fit the
input's (same rank, equal static dimensions), except that a single value fills an input of
one element of any rank (`16000` for an `i64[1]` input). An input with dynamic dimensions is
first reshaped to the value's shape (`ov-reshape`), so what depends on it is re-inferred. The
constant takes the input's name (`ov.name`). Errors name the input and leave the module
unchanged (`FreezeError`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, TensorType
from xdsl.rewriter import InsertPoint, Rewriter

from lowpass.dialects import ov
from lowpass.dialects.graph import entry_function, graph_input_all_names
from lowpass.dialects.guards import is_tensor
from lowpass.dialects.ov.base import DYNAMIC, element_type_of, format_shape, to_dtype
from lowpass.ir import inherit_location
from lowpass.passes.reshape import ReshapeError, reshape_module
from lowpass.passes.transaction import module_transaction


class FreezeError(ValueError):
    """An input that cannot be frozen to the value given; the message names it."""


def freeze_inputs(module: ModuleOp, values: Mapping[str, Any]) -> None:
    """Replace each named input (any of its names) of the entry function by a constant."""
    function = entry_function(module)
    block = function.body.block
    all_names = graph_input_all_names(function)
    frozen: dict[int, np.ndarray] = {}
    for name, value in values.items():
        index = next((i for i, names in enumerate(all_names) if name in names), None)
        if index is None:
            listed = ", ".join(f"'{n[0]}'" for n in all_names) or "none"
            raise FreezeError(f"the model has no input named '{name}': its inputs are {listed}")
        if index in frozen:
            raise FreezeError(f"input '{all_names[index][0]}' is given two values")
        frozen[index] = _fit(all_names[index][0], block.args[index].type, value)
    reshapes = {
        all_names[i][0]: array.shape
        for i, array in frozen.items()
        if DYNAMIC in _shape(block.args[i].type)
    }
    with module_transaction(module):
        if reshapes:
            try:
                reshape_module(module, reshapes)
            except ReshapeError as e:
                raise FreezeError(str(e).strip().splitlines()[0]) from None
        arg_attrs = list(function.arg_attrs.data) if function.arg_attrs is not None else None
        head = InsertPoint.at_start(block)
        for i in sorted(frozen):
            arg = block.args[i]
            constant = ov.ConstantOp.from_array(
                frozen[i], element_type_of(arg.type), name=all_names[i][0]
            )
            inherit_location([constant], function)
            Rewriter.insert_op(constant, head)
            head = InsertPoint.after(constant)
            arg.replace_all_uses_with(constant.result)
        for i in sorted(frozen, reverse=True):
            block.erase_arg(block.args[i])
            if arg_attrs is not None:
                del arg_attrs[i]
        if arg_attrs is not None:
            function.arg_attrs = ArrayAttr(arg_attrs)
        function.update_function_type()


def _shape(t: Any) -> tuple[int, ...]:
    return tuple(int(d) for d in t.get_shape()) if isinstance(t, TensorType) else ()


def _fit(name: str, t: Any, value: Any) -> np.ndarray:
    """`value` as an array of the input's element type and a shape the input takes."""
    if not is_tensor(t):
        raise FreezeError(f"input '{name}' is not a ranked tensor ({t}): it cannot be frozen")
    dtype = to_dtype(element_type_of(t))
    try:
        array = np.asarray(value)
        converted = array.astype(dtype)
    except (TypeError, ValueError) as e:
        raise FreezeError(f"input '{name}': {value!r} is not a {dtype} value ({e})") from None
    if array.dtype.kind == "f" and converted.dtype.kind in "iub" and not np.array_equal(
        converted, array
    ):
        raise FreezeError(f"input '{name}' is {t.get_element_type()}: {value!r} is not an integer")
    shape = _shape(t)
    if converted.ndim != len(shape) and converted.size == 1 and all(
        d in (1, DYNAMIC) for d in shape
    ):
        converted = converted.reshape((1,) * len(shape))
    if converted.ndim != len(shape) or any(
        d != DYNAMIC and d != v for d, v in zip(shape, converted.shape, strict=True)
    ):
        raise FreezeError(
            f"input '{name}' has type {t}: a value of shape {format_shape(converted.shape)} "
            "does not fit it"
        )
    # (not np.ascontiguousarray, which makes a scalar [1]: a frozen scalar input stays one)
    return np.array(converted, order="C")
