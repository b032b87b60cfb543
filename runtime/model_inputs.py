"""
Shapes and constant values for a model's inputs when it is read: `Core.read_model(path,
shapes=..., constants=...)` and `lowpass-run --shape ... --freeze ...`.

Constants come first (`passes/freeze.py`: the input becomes a constant of that value), then
the shapes (`ov-reshape`, OpenVINO's `Model.reshape`). The spellings of the command line:

* a shape: `1x512` (MLIR's), `[1,512]` or `1,512` (OpenVINO's); `?` or `-1` for a dynamic
  dimension; `[]` for a scalar;
* `--shape`: `NAME=SHAPE`, benchmark_app's `NAME[1,512]` (several joined by commas:
  `input[1,512],state[2,1,128]`), or a shape alone for a one-input model;
* `--freeze`: `NAME=VALUE` or Model Optimizer's `NAME->VALUE`; VALUE is a number, `true` /
  `false`, a list `[1,2,3]`, or a `.npy` file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import ModuleOp, TensorType

from lowpass.dialects.graph import entry_function, graph_input_all_names
from lowpass.passes.freeze import FreezeError, freeze_inputs
from lowpass.passes.reshape import ReshapeError, smart_reshape_module
from lowpass.runtime.errors import LowpassError
from lowpass.runtime.shapes import Dimension, PartialShape

Dims = tuple[int | None, ...]


class InputSpecError(ValueError):
    """A shape or value that cannot be read, or that the model cannot take; one line."""


def parse_shape(text: str) -> Dims:
    """`1x512`, `[1,512]`, `1,512`, `[]`: dimensions, None where dynamic (`?`, `-1`)."""
    body = text.strip()
    if body.startswith("[") and body.endswith("]"):
        body = body[1:-1].strip()
    elif "[" in body or "]" in body:
        raise InputSpecError(f"'{text}' is not a shape such as 1x512 or [1,512]")
    if body == "":
        return ()
    dims: list[int | None] = []
    for d in re.split(r"\s*[x,]\s*", body):
        if d in ("?", "-1"):
            dims.append(None)
        elif d.isdigit():
            dims.append(int(d))
        else:
            raise InputSpecError(
                f"'{text}' is not a shape such as 1x512 or [1,512]: '{d}' is not a dimension "
                "(a non-negative integer, ? or -1)"
            )
    return tuple(dims)


_ENTRY = r"([^\[\],=]*[^\[\],=\s])\s*\[([^\]]*)\]"
"""benchmark_app's `name[1,512]`."""


def parse_shape_option(
    spec: str, input_names: Sequence[str], option: str = "--shape"
) -> dict[str, Dims]:
    """One `--shape` (NAME=SHAPE, NAME[dims], several NAME[dims] joined by commas, or a shape
    alone for a one-input model); `option` names the flag in the errors."""
    text = spec.strip()
    name, sep, shape = text.partition("=")
    if sep:
        if not name.strip():
            raise InputSpecError(f"{option} {spec}: expected NAME=SHAPE such as x=1x512")
        try:
            return {name.strip(): parse_shape(shape)}
        except InputSpecError as e:
            raise InputSpecError(f"{option} {spec}: {e}") from None
    if re.fullmatch(rf"\s*{_ENTRY}(?:\s*,\s*{_ENTRY})*\s*", text):
        out: dict[str, Dims] = {}
        for m in re.finditer(_ENTRY, text):
            entry = m.group(1).strip()
            if entry in out:
                raise InputSpecError(f"{option} {spec}: input '{entry}' is given twice")
            try:
                out[entry] = parse_shape(f"[{m.group(2)}]")
            except InputSpecError as e:
                raise InputSpecError(f"{option} {spec}: {e}") from None
        return out
    if len(input_names) != 1:
        raise InputSpecError(
            f"{option} {spec}: name the input (NAME=SHAPE or NAME[dims]); inputs are "
            + ", ".join(input_names)
        )
    try:
        return {input_names[0]: parse_shape(text)}
    except InputSpecError as e:
        raise InputSpecError(f"{option} {spec}: {e}") from None


def parse_freeze_option(spec: str) -> tuple[str, Any]:
    """One `--freeze` (NAME=VALUE or NAME->VALUE) -> (name, value)."""
    if "->" in spec:
        name, _, text = spec.partition("->")
    else:
        name, sep, text = spec.partition("=")
        if not sep:
            raise InputSpecError(
                f"--freeze {spec}: expected NAME=VALUE such as sr=16000 (or NAME->VALUE)"
            )
    name, text = name.strip(), text.strip()
    if not name or not text:
        raise InputSpecError(f"--freeze {spec}: expected NAME=VALUE such as sr=16000")
    if text.endswith(".npy"):
        if not Path(text).is_file():
            raise InputSpecError(f"--freeze {spec}: no such file '{text}'")
        try:
            return name, np.load(text, allow_pickle=False)
        except (ValueError, OSError, EOFError) as e:
            raise InputSpecError(f"--freeze {spec}: '{text}' is not a .npy file ({e})") from None
    return name, _parse_value(spec, text)


def _parse_value(spec: str, text: str) -> Any:
    body = text[1:-1] if text.startswith("[") and text.endswith("]") else text
    items = [v.strip() for v in body.split(",")] if body.strip() else []
    values: list[Any] = []
    for item in items:
        lower = item.lower()
        if lower in ("true", "false"):
            values.append(lower == "true")
            continue
        try:
            values.append(int(item))
        except ValueError:
            try:
                values.append(float(item))
            except ValueError:
                raise InputSpecError(
                    f"--freeze {spec}: '{item}' is not a number (a value is a number, true, "
                    "false, a list [1,2,3] or a .npy file)"
                ) from None
    if text.startswith("[") or len(values) != 1:
        return np.array(values)
    return np.array(values[0])


def prepare_inputs(
    module: ModuleOp,
    shapes: Mapping[str, Any] | None = None,
    constants: Mapping[str, Any] | None = None,
) -> None:
    """Freeze `constants` (input name -> value), then reshape to `shapes` (input name ->
    sequence of dimensions, None or -1 dynamic, or a shape's text); in place, names may be
    any of an input's names. `InputSpecError` on a bad name, shape or value (the module is
    then unchanged by the step that failed)."""
    if constants:
        try:
            freeze_inputs(module, constants)
        except FreezeError as e:
            raise InputSpecError(str(e)) from None
    if not shapes:
        return
    all_names = graph_input_all_names(entry_function(module))
    resolved: dict[str, Dims] = {}
    for name, shape in shapes.items():
        primary = next((names[0] for names in all_names if name in names), None)
        if primary is None:
            listed = ", ".join(f"'{n[0]}'" for n in all_names) or "none"
            frozen = " (it is frozen to a constant)" if constants and name in constants else ""
            raise InputSpecError(
                f"the model has no input named '{name}'{frozen}: its inputs are {listed}"
            )
        dims = parse_shape(shape) if isinstance(shape, str) else _dims(name, shape)
        resolved[primary] = dims
    try:
        smart_reshape_module(module, resolved)  # (as Model.reshape)
    except ReshapeError as e:
        raise InputSpecError(str(e).strip().splitlines()[0]) from None


def read_onnx_with(
    path: Any, shapes: Mapping[str, Any] | None, constants: Mapping[str, Any] | None
) -> ModuleOp:
    """An ONNX file read with `shapes` and `constants` given to its graph inputs before the
    graph is converted (`read_onnx(input_shapes=, input_values=)`, as `ovc` takes them): a
    graph whose shapes or `If` branches depend on them (silero-vad's `sr`) converts. A bad
    name or value is the frontend's one-line `FrontendError`."""
    from lowpass.frontends import FrontendError
    from lowpass.frontends.onnx import read_onnx

    dims = {
        name: parse_shape(shape) if isinstance(shape, str) else _dims(name, shape)
        for name, shape in (shapes or {}).items()
    }
    try:
        return read_onnx(path, input_shapes=dims, input_values=constants)
    except FrontendError as e:
        if not dims or "node '" not in str(e):  # (an error of the shapes themselves, or of
            raise  # an input's name, says what it is already)
        try:  # (the model as it is, for the error's cause: a second read on this path only)
            as_it_is = read_onnx(path, input_values=constants)
        except FrontendError:
            raise e from None  # (not the shapes': as it is)
        # a node that cannot take the shapes given: say that they were given, and the shapes
        # the model declares, as the reshape of a read model does (`(after reshape: input
        # 'x' [?, 3, 224, 224] -> [2, 3, 224])`: a dimension left out is seen at once)
        function = entry_function(as_it_is)
        declared = {name: arg.type for names, arg in
                    zip(graph_input_all_names(function), function.args, strict=True)
                    for name in names}  # fmt: skip

        def described(name: str, shape: Dims) -> str:
            text = f"[{', '.join('?' if d is None else str(d) for d in shape)}]"
            was = declared.get(name)
            if not isinstance(was, TensorType):
                return f"input '{name}' {text}"
            before = ", ".join("?" if d < 0 else str(d) for d in was.get_shape())
            return f"input '{name}' [{before}] -> {text}"

        given = "; ".join(described(name, shape) for name, shape in dims.items())
        raise FrontendError(f"{e} (with the shapes given: {given})") from None


def read_with_input_options(
    core: Any, path: Path, shape_specs: Sequence[str], freeze_specs: Sequence[str]
) -> Any:
    """`lowpass-run MODEL --shape ... --freeze ...`: the `Model`, its inputs set (an ONNX
    model's at import when every shape names its input; `LowpassError` on a bad option)."""
    if (shape_specs or freeze_specs) and path.suffix.lower() == ".onnx":
        try:
            constants = dict(parse_freeze_option(spec) for spec in freeze_specs)
            shapes: dict[str, Dims] = {}
            for spec in shape_specs:
                shapes.update(parse_shape_option(spec, ()))
        except InputSpecError as e:
            if "name the input" not in str(e):
                raise LowpassError(str(e)) from None
        else:
            try:
                return core.read_model(path, shapes=shapes, constants=constants)
            except RuntimeError as e:  # (an unknown name: said as the other models' are)
                unknown = re.search(r"the model has no input named '([^']*)'.*", str(e))
                if unknown is None:
                    raise
                flag = "--shape" if unknown.group(1) in shapes else "--freeze"
                raise LowpassError(f"{flag}: {unknown.group(0)}") from None
    model = core.read_model(path)
    if shape_specs or freeze_specs:
        model = apply_input_options(model, shape_specs, freeze_specs)
    return model


def _openvino_shape(shape: object) -> bool:
    """A `PartialShape`, or a list or tuple that holds a `Dimension`."""
    if isinstance(shape, PartialShape):
        return True
    items = cast("Iterable[object]", shape) if isinstance(shape, list | tuple) else ()
    return any(isinstance(d, Dimension) for d in items)


def _dims(name: str, shape: Any) -> Dims:
    if _openvino_shape(shape):
        try:  # (OpenVINO's forms; a bounded dimension is dynamic, as in Model.reshape)
            return PartialShape(shape).to_dims()
        except LowpassError:
            raise InputSpecError(f"input '{name}': {shape} is not a static or dynamic shape "
                                 "of known rank") from None
    try:
        dims = tuple(None if d is None or int(d) == -1 else int(d) for d in shape)
    except (TypeError, ValueError):
        raise InputSpecError(f"input '{name}': {shape!r} is not a shape") from None
    if any(d is not None and d < 0 for d in dims):
        raise InputSpecError(f"input '{name}': {list(shape)} has a negative dimension")
    return dims


def apply_input_options(model: Any, shape_specs: Sequence[str], freeze_specs: Sequence[str]) -> Any:
    """`lowpass-run --shape ... --freeze ...` on a `Model`: a new `Model`, made by `model`'s
    class so that this module needs no import of Core's (`LowpassError` on a bad option, one
    line)."""
    try:
        constants: dict[str, Any] = {}
        for spec in freeze_specs:
            name, value = parse_freeze_option(spec)
            if name in constants:
                raise InputSpecError(f"--freeze {spec}: input '{name}' is given twice")
            constants[name] = value
        module = model.module.clone()
        if constants:
            try:
                prepare_inputs(module, None, constants)
            except InputSpecError as e:
                raise InputSpecError(f"--freeze: {e}") from None
        remaining = [names[0] for names in graph_input_all_names(entry_function(module))]
        shapes: dict[str, Dims] = {}
        for spec in shape_specs:
            for name, dims in parse_shape_option(spec, remaining).items():
                if name in shapes:
                    raise InputSpecError(f"--shape {spec}: input '{name}' is given twice")
                shapes[name] = dims
        if shapes:
            try:
                prepare_inputs(module, shapes, None)
            except InputSpecError as e:
                frozen = [n for n in shapes if n in constants]
                note = f" ('{frozen[0]}' is frozen by --freeze)" if frozen else ""
                raise InputSpecError(f"--shape: {e}{note}") from None
    except InputSpecError as e:
        raise LowpassError(str(e)) from None
    return type(model)(module)
