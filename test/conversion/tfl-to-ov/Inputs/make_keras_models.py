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


def stacked_lstm() -> tuple[keras.Model, np.ndarray]:
    """LSTM (sequences) -> Dropout -> LSTM (last output) -> Dense."""
    m = keras.Sequential(
        [
            keras.Input((STEPS, 4)),
            keras.layers.LSTM(4, return_sequences=True),
            keras.layers.Dropout(0.2),
            keras.layers.LSTM(3),
            keras.layers.Dense(2),
        ]
    )
    return m, _sequence(5, 4)


def conv1d_lstm() -> tuple[keras.Model, np.ndarray]:
    """Conv1D (same, relu) -> LSTM (sequences) -> Dense(softmax) on every step."""
    m = keras.Sequential(
        [
            keras.Input((STEPS, 4)),
            keras.layers.Conv1D(6, 3, padding="same", activation="relu"),
            keras.layers.LSTM(3, return_sequences=True),
            keras.layers.Dense(2, activation="softmax"),
        ]
    )
    return m, _sequence(6, 4)


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


def masking_lstm() -> tuple[keras.Model, np.ndarray]:
    """Masking -> LSTM (last output) -> Dense: the masked LSTM function has a mask argument."""
    m = keras.Sequential(
        [
            keras.Input((STEPS, 4)),
            keras.layers.Masking(0.0),
            keras.layers.LSTM(3),
            keras.layers.Dense(2),
        ]
    )
    x = _sequence(8, 4)
    x[1, 2:] = 0.0
    return m, x


def masking_pooling() -> tuple[keras.Model, np.ndarray]:
    """Masking -> Dense on every step -> the mean of the unmasked steps (no RNN)."""
    m = keras.Sequential(
        [
            keras.Input((STEPS, 4)),
            keras.layers.Masking(0.0),
            keras.layers.Dense(3, activation="tanh"),
            keras.layers.GlobalAveragePooling1D(),
            keras.layers.Dense(2),
        ]
    )
    x = _sequence(9, 4)
    x[0, 1] = x[1, 3:] = 0.0
    return m, x


MODELS: dict[str, Callable[[], tuple[keras.Model, np.ndarray]]] = {
    "keras_embedding_lstm_dense": embedding_lstm_dense,
    "keras_bidirectional_sum": _bidirectional("sum"),
    "keras_bidirectional_concat": _bidirectional("concat"),
    "keras_bidirectional_mul": _bidirectional("mul"),
    "keras_bidirectional_ave": _bidirectional("ave"),
    "keras_gru_dense": gru_dense,
    "keras_stacked_lstm": stacked_lstm,
    "keras_masking_gru": masking_gru,
    "keras_masking_lstm": masking_lstm,
    "keras_masking_pooling": masking_pooling,
    "keras_conv1d_lstm": conv1d_lstm,
}


# --------------------------------------------------------------------------------------------
# TensorFlow ops one by one (with their attributes), on graph inputs so that nothing folds
# --------------------------------------------------------------------------------------------

_rng = np.random.default_rng(7)


def _f32(*shape: int) -> np.ndarray:
    return _rng.standard_normal(shape).astype(np.float32)


def _matmuls(a: Any, b: Any, c: Any, d: Any) -> list[Any]:
    raw = tf.raw_ops
    return [
        raw.MatMul(a=a, b=b, transpose_a=False, transpose_b=False),
        raw.MatMul(a=b, b=a, transpose_a=True, transpose_b=True),
        raw.BatchMatMulV2(x=c, y=d, adj_x=False, adj_y=True),
        raw.BatchMatMulV2(x=c, y=d[:1, :, :3], adj_x=True, adj_y=True),
    ]


def _elementwise(x: Any, y: Any, bias: Any, image: Any) -> list[Any]:
    raw = tf.raw_ops
    return [
        raw.AddV2(x=x, y=y),
        raw.Sub(x=x, y=bias),
        raw.Mul(x=x, y=y),
        raw.RealDiv(x=x, y=y),
        raw.BiasAdd(value=x, bias=bias, data_format="NHWC"),
        raw.BiasAdd(value=image, bias=bias[:3], data_format="NCHW"),
        raw.Tanh(x=x),
        raw.Sigmoid(x=x),
        raw.Relu(features=x),
        raw.Relu6(features=x * 4.0),
        raw.Exp(x=x),
        raw.Square(x=x),
        raw.Neg(x=x),
        raw.Softmax(logits=x),
        raw.Softmax(logits=image),
        raw.LeakyRelu(features=x, alpha=0.3),
        raw.SquaredDifference(x=x, y=bias),
    ]


def _shapes(x: Any, y: Any) -> list[Any]:
    raw = tf.raw_ops
    shape = raw.Shape(input=x, out_type=tf.int32)
    return [
        raw.Reshape(tensor=x, shape=[-1, 4]),
        raw.Reshape(tensor=x, shape=raw.Pack(values=[shape[0], -1], axis=0)),
        raw.Transpose(x=x, perm=[2, 0, 1]),
        raw.ExpandDims(input=x, axis=-1),
        raw.ExpandDims(input=x, axis=1),
        raw.Squeeze(input=y, axis=[1]),
        raw.Squeeze(input=y, axis=[]),
        raw.Pack(values=[x, x * 2.0], axis=-1),
        raw.Pack(values=[x, x, x], axis=1),
        *raw.Unpack(value=x, num=3, axis=1),
        raw.Shape(input=x, out_type=tf.int64),
        raw.Fill(dims=raw.Pack(values=[shape[2], shape[0]], axis=0), value=x[0, 0, 0]),
        raw.ZerosLike(x=x),
        raw.OnesLike(x=x),
    ]


def _movement(x: Any, ids: Any) -> list[Any]:
    raw = tf.raw_ops
    return [
        raw.Cast(x=x * 3.0, DstT=tf.int32),
        raw.Cast(x=ids, DstT=tf.float32),
        raw.Cast(x=x, DstT=tf.bool),
        raw.GatherV2(params=x, indices=ids, axis=1),
        raw.GatherV2(params=x, indices=ids[:, :2], axis=1, batch_dims=1),
        x[:, 1:, ::-2],
        x[..., 1],
        x[:, tf.newaxis, -1, 1:3],
        raw.Slice(input=x, begin=[0, 1, 1], size=[-1, 2, 3]),
        *raw.Split(axis=2, value=x, num_split=2),
        *raw.SplitV(value=x, size_splits=[1, -1], axis=1, num_split=2),
        raw.Mean(input=x, axis=[1], keep_dims=False),
        raw.Mean(input=x, axis=[-1, 0], keep_dims=True),
        raw.Sum(input=x, axis=2, keep_dims=False),
        raw.Max(input=x, axis=[0], keep_dims=True),
        raw.Min(input=x, axis=[1, 2], keep_dims=False),
    ]


def _convolutions(x: Any, w: Any, seq: Any, w1: Any) -> list[Any]:
    raw = tf.raw_ops
    return [
        raw.Conv2D(input=x, filter=w, strides=[1, 1, 1, 1], padding="VALID"),
        raw.Conv2D(input=x, filter=w, strides=[1, 2, 2, 1], padding="SAME"),
        raw.Conv2D(input=x, filter=w, strides=[1, 1, 1, 1], padding="SAME", dilations=[1, 2, 1, 1]),
        raw.Conv2D(
            input=x,
            filter=w,
            strides=[1, 2, 1, 1],
            padding="EXPLICIT",
            explicit_paddings=[0, 0, 1, 2, 0, 1, 0, 0],
        ),
        # Keras' Conv1D: ExpandDims, Conv2D, Squeeze.
        tf.squeeze(
            raw.Conv2D(input=seq[:, None], filter=w1, strides=[1, 1, 1, 1], padding="SAME"), [1]
        ),
    ]


def _comparisons(x: Any, y: Any, b: Any, c: Any, rows: Any, i: Any, j: Any) -> list[Any]:
    raw = tf.raw_ops
    return [
        raw.Equal(x=x, y=y),
        raw.NotEqual(x=x, y=y),
        raw.NotEqual(x=x, y=y[:, :2], incompatible_shape_error=False),
        raw.Equal(x=i, y=j[:2], incompatible_shape_error=False),
        raw.Less(x=x, y=y),
        raw.LessEqual(x=x, y=y),
        raw.Greater(x=i, y=j),
        raw.GreaterEqual(x=y, y=x),
        raw.LogicalAnd(x=b, y=c),
        raw.LogicalOr(x=b, y=c),
        raw.LogicalNot(x=b),
        raw.Select(condition=rows, x=x, y=x * 2.0),
        raw.Select(condition=b, x=x, y=-x),
        raw.SelectV2(condition=c, t=x, e=y),
        raw.Any(input=b, axis=[1], keep_dims=False),
        raw.All(input=b, axis=[0, 2], keep_dims=True),
        raw.Any(input=b, axis=-1, keep_dims=True),
        raw.Maximum(x=x, y=y),
        raw.Minimum(x=x, y=y),
        raw.Maximum(x=i, y=j),
        raw.Minimum(x=i, y=j),
    ]


def _rounded_with_nan(*shape: int) -> np.ndarray:
    # Equal values and NaNs: the comparisons' and Maximum's corner cases.
    x = np.round(_f32(*shape))
    x.flat[:: max(x.size // 3, 1)] = np.nan
    return x


TF_OPS: dict[str, tuple[Callable[..., list[Any]], list[np.ndarray]]] = {
    "tf_matmul": (_matmuls, [_f32(3, 4), _f32(4, 3), _f32(2, 3, 4), _f32(2, 5, 4)]),
    "tf_elementwise": (_elementwise, [_f32(2, 4), _f32(2, 4), _f32(4), _f32(2, 3, 2, 2)]),
    "tf_shapes": (_shapes, [_f32(2, 3, 4), _f32(2, 1, 3, 1)]),
    "tf_movement": (
        _movement,
        [_f32(2, 3, 4), np.array([[2, 0, 1], [1, 1, 0]], np.int32)],
    ),
    "tf_convolution": (
        _convolutions,
        [_f32(2, 7, 6, 3), _f32(3, 2, 3, 4), _f32(2, 5, 4), _f32(1, 3, 4, 2)],
    ),
    "tf_comparison": (
        _comparisons,
        [
            _rounded_with_nan(2, 3, 4),
            _rounded_with_nan(3, 4),
            _rng.random((2, 3, 4)) < 0.5,
            _rng.random(4) < 0.5,
            np.array([True, False]),
            np.array([[3, -1, 0], [2, 2, -5]], np.int32),
            np.array([2, -1, 4], np.int32),
        ],
    ),
}


def _import(concrete: Any) -> str:
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
    return text.replace(f"@{entry.group(1)}(", "@main(", 1)


def write_tf_ops(name: str, out: Path) -> None:
    fn, inputs = TF_OPS[name]
    specs = [tf.TensorSpec(x.shape, tf.as_dtype(x.dtype)) for x in inputs]
    concrete = tf.function(fn).get_concrete_function(*specs)
    outputs = [np.asarray(y) for y in fn(*[tf.constant(x) for x in inputs])]
    header = f"// {name}: written by make_keras_models.py (tensorflow {tf.__version__}).\n"
    (out / f"{name}.mlir").write_text(header + _import(concrete))
    arrays = {f"x{i}": x for i, x in enumerate(inputs)}
    arrays |= {f"y{i}": y for i, y in enumerate(outputs)}
    np.savez(out / f"{name}.npz", **arrays)


def write(name: str, out: Path) -> None:
    if name in TF_OPS:
        write_tf_ops(name, out)
        return
    keras.utils.set_random_seed(0)
    model, x = MODELS[name]()
    # A fixed batch size: TensorFlow Lite fuses Keras' RNN functions only then.
    spec = tf.TensorSpec(x.shape, tf.as_dtype(x.dtype), name="x")
    concrete = tf.function(lambda v: model(v, training=False)).get_concrete_function(spec)
    text = _import(concrete)
    y = model(x, training=False).numpy()
    header = f"// {name}: written by make_keras_models.py (tensorflow {tf.__version__}).\n"
    (out / f"{name}.mlir").write_text(header + text)
    np.savez(out / f"{name}.npz", x=x, y=y)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).parent)
    parser.add_argument("names", nargs="*", choices=[*MODELS, *TF_OPS, []])
    args = parser.parse_args()
    for name in args.names or [*MODELS, *TF_OPS]:
        write(name, args.out)


if __name__ == "__main__":
    main()
