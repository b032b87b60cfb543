"""
Conversions between dialects, one package per conversion, as MLIR's lib/Conversion
(`<From>To<To>/`): the pass is `convert-<from>-to-<to>`.

* `tfl_to_ov`: `convert-tfl-to-ov`, TensorFlow Lite's (and TensorFlow's) ops to OpenVINO's.
"""
