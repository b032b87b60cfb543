"""
Writes real TensorFlow output for the Keras examples and tests (run in a TensorFlow
environment: `TF_USE_LEGACY_KERAS=1 python examples/make_keras_examples.py`; TensorFlow 2.21,
tf-keras 2.21 wrote the committed files).

- `examples/keras_lstm.mlir`: the README's model, Keras `LSTM(32)` over 8 steps of 16 features
  (input `x` [1, 8, 16], output `h` [1, 32], `return_sequences=False`);
- `test/passes/prepare-composite-functions/Inputs/keras/<name>.mlir`: small models (batch 2,
  5 steps, 3 features, 4 units) for the tests, each with `<name>.npz` holding an input `x`
  and Keras' own prediction `y` for it:

  | name | model |
  |---|---|
  | `lstm` | `LSTM(4)` |
  | `lstm_seq` | `LSTM(4, return_sequences=True)` |
  | `lstm_backwards` | `LSTM(4, go_backwards=True)` |
  | `gru` | `GRU(4)` |
  | `gru_seq` | `GRU(4, return_sequences=True)` |
  | `bilstm` | `Bidirectional(LSTM(4))` |
  | `bilstm_seq` | `Bidirectional(LSTM(4, return_sequences=True))` |
  | `bigru_seq` | `Bidirectional(GRU(4, return_sequences=True))` |
  | `lstm_dense` | `LSTM(4)` then `Dense(3)` (`tf.MatMul`, `tf.BiasAdd` after the fused op) |
  | `conv1d_causal` | `Conv1D(4, 3, padding="causal", dilation_rate=2)` (`tf.Pad`) |
  | `lstm_stateful`, `gru_stateful` | `LSTM/GRU(4, stateful=True, return_sequences=True)`; `y2` |
  | `gru_reset_before`, `_seq` | `GRU(4, reset_after=False)`: a plain `tf.While` loop |
  | `simple_rnn_seq` | `SimpleRNN(4, return_sequences=True)`: a plain `tf.While` loop |
  | `pads` | `tf.pad` REFLECT, SYMMETRIC (`tf.MirrorPad`), `constant_values=1.5` (`tf.PadV2`) |

`python make_keras_examples.py [NAME ...]` rewrites only the named test models.

Every file is `keras_to_mlir.py`'s output (TensorFlow Lite's converter input to
`tfl-prepare-composite-funcs-tf`). Weights are Keras' initializers with fixed seeds, biases
made non-zero so that every weight matters.
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

from pathlib import Path

import numpy as np
from keras_to_mlir import keras_to_mlir

ROOT = Path(__file__).resolve().parent.parent
TEST_INPUTS = ROOT / "test" / "passes" / "prepare-composite-functions" / "Inputs" / "keras"
BATCH, STEPS, FEATURES, UNITS = 2, 5, 3, 4


def _model(  # type: ignore[no-untyped-def]
    name: str, batch: int, steps: int, features: int, units: int, seed: int, out: str = "y"
):
    import tensorflow as tf

    keras = tf.keras
    keras.utils.set_random_seed(seed)
    x = keras.Input((steps, features), batch_size=batch, name="x")
    seq = name.endswith("_seq")
    if name.startswith("bilstm"):
        layer = keras.layers.Bidirectional(keras.layers.LSTM(units, return_sequences=seq), name=out)
    elif name.startswith("bigru"):
        layer = keras.layers.Bidirectional(keras.layers.GRU(units, return_sequences=seq), name=out)
    elif name == "lstm_dense":  # a Dense head: tf.MatMul and tf.BiasAdd after the LSTM
        lstm = keras.layers.LSTM(units, name="lstm")
        dense = keras.layers.Dense(3, name=out)
        model = keras.Model(x, dense(lstm(x)))
        return _perturbed(model, seed)
    elif name in ("lstm_stateful", "gru_stateful"):  # states in resource variables
        kind = keras.layers.LSTM if name.startswith("lstm") else keras.layers.GRU
        layer = kind(units, stateful=True, return_sequences=True, name=out)
    elif name.startswith("gru_reset_before"):  # no composite function: a plain tf.While loop
        layer = keras.layers.GRU(units, reset_after=False, return_sequences=seq, name=out)
    elif name == "simple_rnn_seq":  # a plain tf.While loop too
        layer = keras.layers.SimpleRNN(units, return_sequences=True, name=out)
    elif name == "conv1d_causal":  # tf.Pad before a VALID convolution
        conv = keras.layers.Conv1D(units, 3, padding="causal", dilation_rate=2, name=out)
        return _perturbed(keras.Model(x, conv(x)), seed)
    elif name == "pads":  # tf.MirrorPad (REFLECT, SYMMETRIC) and tf.PadV2 through tf.pad
        y = keras.layers.Lambda(lambda t: tf.pad(t, [[0, 0], [2, 1], [0, 0]], "REFLECT"))(x)
        y = keras.layers.Lambda(lambda t: tf.pad(t, [[0, 0], [1, 3], [1, 0]], "SYMMETRIC"))(y)
        y = keras.layers.Lambda(lambda t: tf.pad(t, [[0, 0], [0, 0], [2, 1]], constant_values=1.5))(
            y
        )
        conv = keras.layers.Conv1D(units, 2, padding="causal", name=out)
        return _perturbed(keras.Model(x, conv(y)), seed)
    elif name.startswith("gru"):
        layer = keras.layers.GRU(units, return_sequences=seq, name=out)
    else:
        layer = keras.layers.LSTM(
            units, return_sequences=seq, go_backwards=name.endswith("backwards"), name=out
        )
    return _perturbed(keras.Model(x, layer(x)), seed)


def _perturbed(model, seed: int):  # type: ignore[no-untyped-def]
    """Keras' initial weights plus noise (biases start at 0 or 1: make every weight matter)."""
    rng = np.random.default_rng(seed)
    model.set_weights(
        [w + rng.normal(0.0, 0.2, w.shape).astype(np.float32) for w in model.get_weights()]
    )
    return model


HEADER = (
    "// {what}: TensorFlow's input to TensorFlow Lite's prepare-composite-funcs pass,\n"
    "// written by examples/make_keras_examples.py with examples/keras_to_mlir.py\n"
    "// (TensorFlow {tf}, tf-keras). Keras' prediction for an input: the .npz beside it.\n"
)


def write(  # type: ignore[no-untyped-def]
    model, out: Path, what: str, x: np.ndarray, text: str | None = None, **extra: np.ndarray
) -> None:
    import tensorflow as tf

    text = text if text is not None else keras_to_mlir(model)
    out.write_text(HEADER.format(what=what, tf=tf.__version__) + text)
    y = model(x, training=False).numpy()
    np.savez(out.with_suffix(".npz"), x=x, y=y, **extra)
    print(f"wrote {out} ({len(text)} characters)")


NAMES = [
    "lstm",
    "lstm_seq",
    "lstm_backwards",
    "gru",
    "gru_seq",
    "bilstm",
    "bilstm_seq",
    "bigru_seq",
    "lstm_dense",
    "conv1d_causal",
    "pads",
    "lstm_stateful",
    "gru_stateful",
    "gru_reset_before",
    "gru_reset_before_seq",
    "simple_rnn_seq",
]


def main() -> None:
    only = sys.argv[1:]  # model names to (re)write; none: everything
    if not only:
        write_example()
    TEST_INPUTS.mkdir(parents=True, exist_ok=True)
    for seed, name in enumerate(NAMES, start=1):
        if only and name not in only:
            continue
        model = _model(name, BATCH, STEPS, FEATURES, UNITS, seed)
        rng = np.random.default_rng(100 + seed)
        x = rng.standard_normal((BATCH, STEPS, FEATURES)).astype(np.float32)
        extra = {}
        if name.endswith("_stateful"):
            # Keras' model object keeps the states between calls: `y2` is its output for
            # `x2` called after `x` (the .npz's `y`), from the states `x` left
            text = keras_to_mlir(model)  # (before any call: the initializer holds zeros)
            extra["x2"] = rng.standard_normal((BATCH, STEPS, FEATURES)).astype(np.float32)
            model(x, training=False)
            extra["y2"] = model(extra["x2"], training=False).numpy()
            model.reset_states()
            write(model, TEST_INPUTS / f"{name}.mlir", f"Keras model '{name}'", x, text, **extra)
            continue
        write(model, TEST_INPUTS / f"{name}.mlir", f"Keras model '{name}'", x)


def write_example() -> None:
    model = _model("lstm", 1, 8, 16, 32, seed=0, out="h")
    x = np.random.default_rng(100).standard_normal((1, 8, 16)).astype(np.float32)
    # The same layer with return_sequences=True: the output of every step (`steps`), what a
    # stateful model made by reshape + low-latency2 gives step by step.
    whole = _model("lstm_seq", 1, 8, 16, 32, seed=0, out="h")
    whole.set_weights(model.get_weights())
    steps = whole(x, training=False).numpy()
    what = "A Keras LSTM(32) over 8 steps"
    write(model, ROOT / "examples" / "keras_lstm.mlir", what, x, steps=steps)


if __name__ == "__main__":
    main()
