"""ONNX reader (needs the optional `onnx` package)."""
