"""
lowpass: low-latency and low-precision passes for xDSL, with an OpenVINO-like runtime.

    import lowpass
    core = lowpass.Core()
    compiled = core.compile_model("model.mlir", "REFERENCE")
    results = compiled.create_infer_request().infer({"data": x})

`import lowpass` loads nothing but this file: the names below are imported on first use
(PEP 562), so the `xdsl.universe` entry point and the command-line tools start without the
runtime, numpy or the op definitions.
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any

from lowpass._version import __version__

if TYPE_CHECKING:
    from lowpass.ir import make_context, parse_module, print_module, read_module, verify_module
    from lowpass.runtime import (
        AsyncInferQueue,
        CompiledModel,
        Core,
        Dimension,
        InferRequest,
        InferResults,
        Layout,
        LowpassError,
        Model,
        PartialShape,
        Port,
        ProfilingInfo,
        ProfilingStatus,
        Shape,
        Tensor,
        Type,
        VariableState,
        compile_model,
        convert_model,
        get_version,
        properties,
        save_model,
        serialize,
        shutdown,
        tensor_from_file,
    )
    from lowpass.runtime.core import get_batch, set_batch
    from lowpass.runtime.nodes import Node, Output

# Public name -> the module that defines it.
_LAZY_NAMES = {
    "AsyncInferQueue": "lowpass.runtime",
    "CompiledModel": "lowpass.runtime",
    "Core": "lowpass.runtime",
    "Dimension": "lowpass.runtime",
    "InferRequest": "lowpass.runtime",
    "InferResults": "lowpass.runtime",
    "Layout": "lowpass.runtime",
    "LowpassError": "lowpass.runtime",
    "Model": "lowpass.runtime",
    "Node": "lowpass.runtime.nodes",
    "Output": "lowpass.runtime.nodes",
    "PartialShape": "lowpass.runtime",
    "Port": "lowpass.runtime",
    "ProfilingInfo": "lowpass.runtime",
    "ProfilingStatus": "lowpass.runtime",
    "Shape": "lowpass.runtime",
    "Tensor": "lowpass.runtime",
    "Type": "lowpass.runtime",
    "VariableState": "lowpass.runtime",
    "compile_model": "lowpass.runtime",
    "convert_model": "lowpass.runtime",
    "get_batch": "lowpass.runtime.core",
    "get_version": "lowpass.runtime",
    "properties": "lowpass.runtime",
    "save_model": "lowpass.runtime",
    "serialize": "lowpass.runtime",
    "set_batch": "lowpass.runtime.core",
    "shutdown": "lowpass.runtime",
    "tensor_from_file": "lowpass.runtime",
    "make_context": "lowpass.ir",
    "parse_module": "lowpass.ir",
    "print_module": "lowpass.ir",
    "read_module": "lowpass.ir",
    "verify_module": "lowpass.ir",
}

__all__ = [
    "AsyncInferQueue",
    "CompiledModel",
    "Core",
    "Dimension",
    "InferRequest",
    "InferResults",
    "Layout",
    "LowpassError",
    "Model",
    "Node",
    "Output",
    "PartialShape",
    "Port",
    "ProfilingInfo",
    "ProfilingStatus",
    "Shape",
    "Tensor",
    "Type",
    "VariableState",
    "__version__",
    "compile_model",
    "convert_model",
    "get_batch",
    "get_version",
    "make_context",
    "parse_module",
    "print_module",
    "properties",
    "read_module",
    "save_model",
    "serialize",
    "set_batch",
    "shutdown",
    "tensor_from_file",
    "verify_module",
]


class _OpsetModules:
    """Finds and loads `lowpass.opset1` to `lowpass.opset16` (OpenVINO's `openvino.opsetN`,
    `import lowpass.opset13 as ops`): modules made of `runtime/opset.py`'s functions when
    first imported, so that the package has no file per opset."""

    @staticmethod
    def number(fullname: str) -> int | None:
        prefix = "lowpass.opset"
        if not fullname.startswith(prefix) or not fullname[len(prefix):].isdigit():
            return None
        number = int(fullname[len(prefix):])
        return number if 1 <= number <= 16 else None

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if self.number(fullname) is None:
            return None
        import importlib.util

        loader: Any = self  # (a loader: create_module and exec_module)
        return importlib.util.spec_from_loader(fullname, loader)

    def create_module(self, spec: Any) -> None:
        return None  # (the default module)

    def exec_module(self, module: Any) -> None:
        from lowpass.runtime.opset import opset_functions

        number = self.number(module.__name__)
        assert number is not None
        functions = opset_functions(number)
        module.__dict__.update(functions)
        module.__all__ = sorted(functions)


if not any(isinstance(finder, _OpsetModules) for finder in sys.meta_path):
    sys.meta_path.append(_OpsetModules())


def __getattr__(name: str) -> Any:
    if _OpsetModules.number(f"lowpass.{name}") is not None or name in (
            "preprocess", "layout_helpers", "op"):  # (modules, as openvino's)
        value: Any = importlib.import_module(f"lowpass.{name}")
        globals()[name] = value
        return value
    module = _LAZY_NAMES.get(name)
    if module is None:
        raise AttributeError(f"module 'lowpass' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip __getattr__
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY_NAMES})
