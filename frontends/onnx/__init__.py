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

from lowpass.frontends.onnx.reader import SUPPORTED_OPS, read_onnx

__all__ = ["SUPPORTED_OPS", "read_onnx"]
