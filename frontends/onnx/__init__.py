"""
ONNX reader: an `.onnx` file (or an `onnx.ModelProto`) to an `ov` graph, as OpenVINO's ONNX
frontend converts it (docs/frontends.md, section ONNX).

    from lowpass.frontends.onnx import read_onnx
    module = read_onnx("model.onnx")          # a verified builtin.module with func.func @main

It needs the optional `onnx` package (`pip install 'lowpass[onnx]'`), imported only when a
model is read; nothing else of lowpass depends on it. QuantizeLinear/DequantizeLinear pairs
(the QDQ format) become `ov.fake_quantize` ops, so that the `lpt` pass turns the model into
an int8 graph.
"""

from __future__ import annotations

from lowpass.frontends.onnx import (
    attention,
    contrib,
    control,
    ops,
    qoperator,
    quantization,
    recurrent,
    sequence,
    structural,
)
from lowpass.frontends.onnx.reader import CONVERTERS, read_onnx

CONVERTER_MODULES = (
    attention, contrib, control, ops, qoperator, quantization, recurrent, sequence, structural
)
"""The converters' modules: importing them (here, before anything of the package is used)
fills the reader's CONVERTERS with their `register` calls; they import the reader, never the
other way."""
SUPPORTED_OPS: tuple[str, ...] = tuple(sorted(CONVERTERS))
"""The ONNX op types that `read_onnx` converts (`com.microsoft.<op>` for that domain's)."""

__all__ = ["SUPPORTED_OPS", "read_onnx"]
