"""
Model formats in and out of lowpass: OpenVINO IR (`.xml` + `.bin`), ONNX (`.onnx`), and
pictures of the graph (Graphviz DOT).

    from lowpass.frontends import read_model_file
    module = read_model_file("model.xml")        # or .onnx, or .mlir

Each format lives in its own subpackage and is imported only when used: the ONNX reader needs
the optional `onnx` package, nothing else does.
"""

from __future__ import annotations

from pathlib import Path

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException

MODEL_SUFFIXES = (".mlir", ".xml", ".onnx")


class FrontendError(DiagnosticException, RuntimeError):
    """
    A model file that cannot be read or written. The message is a one-line diagnostic in
    the style of MLIR's: `model.xml: error: layer 'conv1' (id 3, Convolution): <what is
    wrong>, expected <what>`. A `RuntimeError` too, as OpenVINO's `read_model` errors are
    (`except RuntimeError` catches a missing file in both).
    """


def read_model_file(path: str | Path) -> ModuleOp:
    """Read and verify a model from an `.mlir`, OpenVINO IR `.xml` (with its `.bin`) or
    `.onnx` file, chosen by the file's suffix."""
    path = Path(path)
    if not path.is_file():
        raise FrontendError(
            f"{path}: error: no such file" if not path.exists() else f"{path}: error: not a file"
        )
    suffix = path.suffix.lower()
    if suffix == ".xml":
        from lowpass.frontends.ov_ir import read_ov_ir

        return read_ov_ir(path)
    if suffix == ".onnx":
        from lowpass.frontends.onnx import read_onnx

        return read_onnx(path)
    if suffix == ".mlir":
        from lowpass.ir import read_module

        return read_module(path)
    raise FrontendError(
        f"{path}: error: unknown model format '{path.suffix}', expected one of "
        + ", ".join(MODEL_SUFFIXES)
    )
