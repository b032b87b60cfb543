"""
Writes the Keras models of test_tfl_to_ov_keras.py: each `<name>.mlir` is a small tf-keras model
as TensorFlow's MLIR importer writes it (variables frozen into `tf.Const`s, Keras' RNN functions
kept as composite functions for `prepare-composite-functions`), `<name>.npz` its inputs (`x`) and
Keras' outputs (`y`) for them.

    TF_USE_LEGACY_KERAS=1 python make_keras_models.py [--out DIR] [NAME ...]

Needs tensorflow and tf-keras (2.21 wrote the committed files); the tests do not. The freezing is
`convert_variables_to_constants_v2` without its function-inlining step (which would inline the
Keras LSTM/GRU functions that TensorFlow Lite's converter fuses), the import
`tf.mlir.experimental.convert_function(..., pass_pipeline="tf-standard-pipeline")`.
"""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import tensorflow as tf
import tf_keras as keras
from tensorflow.python.framework import convert_to_constants as c2c

BATCH, STEPS = 2, 5


def _no_inlining(func: Any, lower_control_flow: bool, aggressive_inlining: bool) -> Any:
    graph_def = func.graph.as_graph_def()
    return graph_def if lower_control_flow else c2c.disable_lower_using_switch_merge(graph_def)


def _sequence(seed: int, features: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal((BATCH, STEPS, features)).astype(np.float32)


def embedding_lstm_dense() -> tuple[keras.Model, np.ndarray]:
    """Embedding -> LSTM(return_sequences) -> Dense(softmax) (a TimeDistributed-like head)."""
    m = keras.Sequential(
        [
            keras.Input((STEPS,), dtype="int32"),
            keras.layers.Embedding(10, 4),
            keras.layers.LSTM(3, return_sequences=True),
            keras.layers.Dropout(0.5),
            keras.layers.Dense(6, activation="softmax"),
        ]
    )
    x = np.random.default_rng(1).integers(0, 10, (BATCH, STEPS)).astype(np.int32)
    return m, x


def _bidirectional(merge_mode: str) -> Callable[[], tuple[keras.Model, np.ndarray]]:
    def make() -> tuple[keras.Model, np.ndarray]:
        m = keras.Sequential(
            [
                keras.Input((STEPS, 4)),
                keras.layers.Bidirectional(
                    keras.layers.LSTM(3, return_sequences=True), merge_mode=merge_mode
                ),
                keras.layers.TimeDistributed(keras.layers.Dense(2, activation="tanh")),
            ]
        )
        return m, _sequence(2, 4)

    return make


def gru_dense() -> tuple[keras.Model, np.ndarray]:
    """GRU -> Dense(relu) on every step -> the steps' mean -> Dense(sigmoid)."""
    m = keras.Sequential(
        [
            keras.Input((STEPS, 4)),
            keras.layers.GRU(3, return_sequences=True),
            keras.layers.Dense(5, activation="relu"),
            keras.layers.GlobalAveragePooling1D(),
            keras.layers.Dense(1, activation="sigmoid"),
        ]
    )
    return m, _sequence(3, 4)


def masking_gru() -> tuple[keras.Model, np.ndarray]:
    m = keras.Sequential(
        [
            keras.Input((STEPS, 4)),
            keras.layers.Masking(0.0),
            keras.layers.GRU(3, return_sequences=True),
        ]
    )
    x = _sequence(4, 4)
    x[0, 3:] = 0.0
    return m, x


MODELS: dict[str, Callable[[], tuple[keras.Model, np.ndarray]]] = {
    "keras_embedding_lstm_dense": embedding_lstm_dense,
    "keras_bidirectional_sum": _bidirectional("sum"),
    "keras_bidirectional_concat": _bidirectional("concat"),
    "keras_bidirectional_mul": _bidirectional("mul"),
    "keras_bidirectional_ave": _bidirectional("ave"),
    "keras_gru_dense": gru_dense,
    "keras_masking_gru": masking_gru,
}


def write(name: str, out: Path) -> None:
    keras.utils.set_random_seed(0)
    model, x = MODELS[name]()
    # A fixed batch size: TensorFlow Lite fuses Keras' RNN functions only then.
    spec = tf.TensorSpec(x.shape, tf.as_dtype(x.dtype), name="x")
    concrete = tf.function(lambda v: model(v, training=False)).get_concrete_function(spec)
    inline = c2c._run_inline_graph_optimization
    c2c._run_inline_graph_optimization = _no_inlining
    try:
        frozen = c2c.convert_variables_to_constants_v2(concrete, lower_control_flow=False)
    finally:
        c2c._run_inline_graph_optimization = inline
    text = tf.mlir.experimental.convert_function(
        frozen, pass_pipeline="tf-standard-pipeline", show_debug_info=False
    )
    # The entry function is @main (TensorFlow calls it __inference_pruned_<n>).
    entry = re.search(r"func\.func @(\S+)\(", text)
    assert entry is not None
    text = text.replace(f"@{entry.group(1)}(", "@main(", 1)
    y = model(x, training=False).numpy()
    header = f"// {name}: written by make_keras_models.py (tensorflow {tf.__version__}).\n"
    (out / f"{name}.mlir").write_text(header + text)
    np.savez(out / f"{name}.npz", x=x, y=y)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).parent)
    parser.add_argument("names", nargs="*", choices=[*MODELS, []])
    args = parser.parse_args()
    for name in args.names or MODELS:
        write(name, args.out)


if __name__ == "__main__":
    main()
