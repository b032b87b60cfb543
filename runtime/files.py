"""
OpenVINO's module-level functions: `save_model` / `serialize` (a `Model` written as
OpenVINO IR, `frontends/ov_ir/writer.py`), `convert_model` (a model file read as a `Model`,
as `Core.read_model` reads it), `compile_model` (a model or its file compiled, as
`Core.compile_model` compiles it), `tensor_from_file` and `shutdown`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from lowpass.frontends import FrontendError
from lowpass.runtime.core import CompiledModel, Core, Model, Tensor
from lowpass.runtime.errors import LowpassError
from lowpass.runtime.runtime_model import RuntimeModel, write_execution_graph


def save_model(model: Model, output_model: str | Path, compress_to_fp16: bool = True) -> None:
    """Write `model` as OpenVINO IR: `output_model` (`.xml`) and the `.bin` beside it
    (OpenVINO's `save_model`). The weights are written in their own element types:
    `compress_to_fp16` is accepted and compresses nothing (lowpass has no fp16
    decompression of weights)."""
    del compress_to_fp16
    path = Path(output_model)
    if path.suffix.lower() != ".xml":
        raise LowpassError(f"save_model: {output_model}: expected a path ending in .xml "
                           "(OpenVINO IR; its weights go to the .bin beside it)")
    _write(model, path, None)


def serialize(model: Model | RuntimeModel, xml_path: str | Path,
              bin_path: str | Path | None = None, version: Any = None) -> None:
    """Write `model` as OpenVINO IR v11 at `xml_path` and `bin_path` (by default the `.bin`
    beside it), as OpenVINO's `serialize`; `version` other than IR v11 is refused. A
    compiled model's runtime model (`get_runtime_model()`) is written as OpenVINO writes an
    execution graph: the XML alone, its nodes' run-time information as their layers' data
    (what benchmark_app's `-exec_graph_path` writes)."""
    if version not in (None, 11, "IR_V11") and str(version) not in ("Version.IR_V11",
                                                                      "Version.AUTO"):
        raise LowpassError(f"serialize: version {version!r} is not supported: lowpass writes "
                           "OpenVINO IR v11")
    if isinstance(model, RuntimeModel):
        try:
            write_execution_graph(model, xml_path)
        except OSError as e:
            raise LowpassError(f"serialize: {xml_path}: {e.strerror or e}") from None
        return
    _write(model, Path(xml_path), None if bin_path is None else Path(bin_path))


def convert_model(input_model: Any, **options: Any) -> Model:
    """A model file (`.onnx`, `.xml`, `.mlir`), its bytes or MLIR text read as a `Model`
    (OpenVINO's `convert_model` for a model in a file; `Core.read_model`'s `shapes` and
    `constants` stand for `ovc`'s `input`)."""
    if options:
        raise LowpassError(f"convert_model: {', '.join(sorted(options))} not supported: give "
                           "the model's path; set shapes and values with Core().read_model("
                           "path, shapes=..., constants=...)")
    return Core().read_model(input_model)


def compile_model(model: Model | str | Path, device_name: str = "AUTO",
                  config: Any = None) -> CompiledModel:
    """OpenVINO's `openvino.compile_model(model, device_name="AUTO", config=None)`: a new
    `Core`'s `compile_model`, for the CPU device unless another is named (AUTO)."""
    return Core().compile_model(model, device_name, config)


def _write(model: Any, xml_path: Path, bin_path: Path | None) -> None:
    if not isinstance(model, Model):
        raise LowpassError(f"expected a lowpass Model to write, not {type(model).__name__}")
    from lowpass.frontends.ov_ir.writer import write_ov_ir

    try:
        write_ov_ir(model.module, xml_path, bin_path)
    except (FrontendError, OSError) as e:
        raise LowpassError(str(e).splitlines()[0] if str(e) else type(e).__name__) from None


def tensor_from_file(path: str | Path) -> Tensor:
    """The bytes of the file at `path` as a u8 tensor of one dimension (OpenVINO's
    `tensor_from_file`)."""
    try:
        return Tensor(np.fromfile(path, dtype=np.uint8))
    except OSError as e:
        raise LowpassError(f"tensor_from_file: {path}: {e.strerror or e}") from None


def shutdown() -> None:
    """Free what lowpass keeps from one compiled model to the next (OpenVINO's `shutdown()`):
    the compiled graphs and the object code that `compile_model` reuses. Compiled models
    keep working, and, unlike OpenVINO after its shutdown, lowpass can be used again (it
    compiles afresh)."""
    from lowpass.lowering import compiler, jit

    compiler.clear_cache()
    jit.clear_cache()  # (the object code: compiler.clear_cache forgets the graphs only)
