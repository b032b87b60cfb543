"""
`convert-tfl-to-ov`: TensorFlow Lite's fused RNN ops, and the tfl/tf ops around them, to
OpenVINO ops (docs/passes.md#convert-tfl-to-ov).

* `tfl_to_ov`: the pass, its inliner and the `tfl` op patterns (the driver: it imports the
  modules below, which see its converter through `common.Converter`);
* `common`: the `Converter` protocol, the `Refusal`, readers of attributes and constants;
* `movement`: the data movement patterns (`tfl` ops and their TensorFlow counterparts);
* `tf_ops`: the patterns of the ordinary TensorFlow ops around Keras' RNN layers;
* `loops`: TensorFlow While loops over TensorLists; `variables`: resource variables.
"""

from .tfl_to_ov import TflToOvError, TflToOvPass, clean_function_name

__all__ = ["TflToOvError", "TflToOvPass", "clean_function_name"]
