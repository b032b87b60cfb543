"""
`convert-tfl-to-ov`: TensorFlow Lite's fused RNN ops, and the tfl/tf ops around them, to
OpenVINO ops (docs/passes.md#convert-tfl-to-ov).

* `tfl_to_ov`: the pass, its inliner and the `tfl` op patterns;
* `tf_ops`: the patterns of the ordinary TensorFlow ops around Keras' RNN layers.
"""

from .tfl_to_ov import TflToOvError, TflToOvPass, clean_function_name

__all__ = ["TflToOvError", "TflToOvPass", "clean_function_name"]
