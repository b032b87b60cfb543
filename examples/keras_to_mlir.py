"""
Keras model -> the MLIR that lowpass reads (`opt-tool --allow-unregistered-dialect
--prepare-composite-functions --convert-tfl-to-ov`).

Runs in a TensorFlow environment (not lowpass's): `pip install tensorflow tf-keras`.

    TF_USE_LEGACY_KERAS=1 python keras_to_mlir.py model.h5 -o model.mlir
    TF_USE_LEGACY_KERAS=1 python keras_to_mlir.py saved_model_dir -o model.mlir --batch-size 1
    opt-tool --allow-unregistered-dialect --prepare-composite-functions --convert-tfl-to-ov \\
        model.mlir -o model-ov.mlir
    lowpass-run model-ov.mlir --random-inputs 0

What it writes is TensorFlow Lite's own input to `tfl-prepare-composite-funcs-tf`: the
converter (`tf.lite.TFLiteConverter`) imports the model, freezes its variables into
`"tf.Const"`s and inlines everything but the composite functions; its `ir_dump_dir` debug
option dumps the module before each pass, and this script keeps the dump taken before
`PrepareCompositeFunctionsPass`. The converter's later passes do not matter (a model TFLite
cannot finish converting still gives the dump). Keras 2 (`tf_keras`, or `tf.keras` with
`TF_USE_LEGACY_KERAS=1`) writes each LSTM/GRU layer as a function with
`tf.api_implements = "lstm_<uuid>"` / `"gru_<uuid>"`, which `prepare-composite-functions`
fuses; Keras 3 writes a plain `tf.While` loop, which lowpass cannot take (the script says so).

The entry function is the SavedModel signature (`@serving_default`); its arguments and
results get `ov.name`s from the signature's names (`tf_saved_model.index_path`), so that
lowpass-run and `infer({...})` use the Keras input names. The batch size must be fixed
(TensorFlow Lite fuses only then): a model whose inputs have no batch size needs
`--batch-size`.

Python: `keras_to_mlir(model, batch_size=None) -> str` for a Keras model object,
`saved_model_to_mlir(path, batch_size=None) -> str` for a SavedModel written without Keras
(`tf.saved_model.save`; its `serving_default` signature).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

_DUMPED_PASS = "PrepareCompositeFunctionsPass"


def _converter(model: Any, batch_size: int | None) -> Any:
    import tensorflow as tf

    if batch_size is None:
        return tf.lite.TFLiteConverter.from_keras_model(model)
    specs = [
        tf.TensorSpec([batch_size, *t.shape[1:]], t.dtype, name=t.name.split(":")[0])
        for t in model.inputs
    ]
    function = tf.function(lambda *xs: model(list(xs) if len(xs) > 1 else xs[0]))
    concrete = function.get_concrete_function(*specs)
    return tf.lite.TFLiteConverter.from_concrete_functions([concrete], model)


def _dump_before_prepare(converter: Any) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        converter.ir_dump_dir = tmp
        converter.ir_dump_pass_regex = _DUMPED_PASS
        failure: Exception | None = None
        try:
            converter.convert()
        except Exception as e:  # the dump is taken before the converter's later passes fail
            failure = e
        dumps = sorted(Path(tmp).rglob(f"*{_DUMPED_PASS}_before.mlir"))
        if not dumps:
            raise SystemExit(
                "error: TensorFlow Lite's converter stopped before prepare-composite-functions"
                + (f": {str(failure).splitlines()[0]}" if failure else "")
            )
        return dumps[0].read_text()


def _name_signature(text: str) -> str:
    """`ov.name` from `tf_saved_model.index_path = ["name"]` on the entry's inputs/outputs."""
    return re.sub(
        r'\{tf_saved_model\.index_path = \["([^"\]]+)"\]\}',
        r'{ov.name = "\1", tf_saved_model.index_path = ["\1"]}',
        text,
    )


def keras_to_mlir(model: Any, batch_size: int | None = None) -> str:
    """The module TensorFlow Lite's converter hands to `tfl-prepare-composite-funcs-tf`.

    The states of `stateful=True` layers are written as zeros, what Keras' `reset_states()`
    gives them, whatever the model ran before (the converter freezes a variable's current
    value): lowpass's `reset_state()` then returns to what Keras' does. The model keeps its
    states."""
    keras3 = type(model).__module__.startswith("keras.")  # (tf_keras: "tf_keras.src...")
    states = [v for layer in _stateful_layers(model)
              for v in getattr(layer, "states", None) or [] if v is not None]
    kept = [v.numpy() for v in states]
    for v in states:
        v.assign(v.numpy() * 0)
    try:
        return _finish(_dump_before_prepare(_converter(model, batch_size)), keras3)
    finally:
        for v, value in zip(states, kept, strict=True):
            v.assign(value)


def _stateful_layers(model: Any) -> list[Any]:
    """The RNN layers of `model` with `stateful=True`, inside nested models and wrappers too
    (Bidirectional's forward and backward layers: the wrapper has the flag but no states of
    its own in tf_keras; TimeDistributed's layer)."""
    found: list[Any] = []
    for layer in getattr(model, "layers", []):
        inner = [getattr(layer, a, None) for a in ("forward_layer", "backward_layer")]
        inner = [b for b in inner if b is not None] or [getattr(layer, "layer", None)]
        inner = [b for b in inner if b is not None]  # (Bidirectional's own `layer`: a template)
        if inner:
            found += [b for b in inner if getattr(b, "stateful", False)]
        elif getattr(layer, "stateful", False):
            found.append(layer)
        found += _stateful_layers(layer)
    return found


def _finish(text: str, keras3: bool | None = None) -> str:
    text = _name_signature(text)
    if warning := loop_warning(text, keras3):
        print(warning, file=sys.stderr)
    return text


def loop_warning(text: str, keras3: bool | None) -> str | None:
    """What to say of a `tf.While` loop that is no Keras composite function (None: nothing).
    `keras3`: whether the model is a Keras 3 model (None: unknown, a SavedModel)."""
    if "tf.While" not in text or "tf.api_implements" in text:
        return None
    if keras3:
        return (
            "warning: the model has a tf.While loop and no Keras composite function: Keras 3 "
            "does not write them, so convert-tfl-to-ov makes each RNN layer a TensorIterator "
            "of its ops, slower than a fused LSTM/GRU; build the model with tf_keras "
            "(TF_USE_LEGACY_KERAS=1) for prepare-composite-functions to fuse its LSTM/GRU layers"
        )
    return (
        "note: the model has a tf.While loop that is no Keras composite function (Keras 2 "
        "writes GRU(reset_after=False), SimpleRNN and RNN(cell) layers so): convert-tfl-to-ov "
        "makes it a TensorIterator of its ops; LSTM and GRU(reset_after=True) fuse into one op"
    )


def saved_model_to_mlir(path: Path, batch_size: int | None = None) -> str:
    """The same for a SavedModel directory (its `serving_default` signature)."""
    import tensorflow as tf

    if batch_size is None:
        return _finish(_dump_before_prepare(tf.lite.TFLiteConverter.from_saved_model(str(path))))
    loaded = tf.saved_model.load(str(path))
    signature = loaded.signatures["serving_default"]
    specs = {
        name: tf.TensorSpec([batch_size, *spec.shape[1:]], spec.dtype, name=name)
        for name, spec in signature.structured_input_signature[1].items()
    }
    concrete = tf.function(lambda **xs: signature(**xs)).get_concrete_function(**specs)
    converter = tf.lite.TFLiteConverter.from_concrete_functions([concrete], loaded)
    return _finish(_dump_before_prepare(converter))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("model", type=Path, help="a Keras model file (.h5, .keras) or SavedModel dir")
    p.add_argument("-o", "--out", type=Path, required=True)
    p.add_argument("--batch-size", type=int, default=None, help="fix the inputs' batch size")
    a = p.parse_args()
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
    import tensorflow as tf

    try:
        model = tf.keras.models.load_model(a.model, compile=False)
    except (ValueError, OSError):
        if not a.model.is_dir():
            raise
        # A SavedModel without Keras metadata (tf.saved_model.save): its serving signature.
        a.out.write_text(saved_model_to_mlir(a.model, a.batch_size))
    else:
        a.out.write_text(keras_to_mlir(model, a.batch_size))
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
