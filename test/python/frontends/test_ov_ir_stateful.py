"""
Stateful and recurrent OpenVINO IR files read back (issue 14, section 3), checked against the
`openvino` package:

- a dynamic-batch stateful model (batch `?`), made by OpenVINO's `LowLatency2` or by ours and
  written as IR, is read back: the state initializer `Broadcast(0, ShapeOf(H0))` keeps the
  static dims of H0 (partial-value propagation, as OpenVINO's shape inference), so the
  variable `tensor<?x8xf32>` accepts it. The read model runs step by step like OpenVINO's
  (State API) on REFERENCE with the dynamic batch, and on CPU after `reshape` to a batch.
- a Loop or TensorIterator body Result that no port map entry refers to (OpenVINO reads,
  compiles and runs it: the value is not used) or that only feeds a back edge.

OpenVINO runs with `INFERENCE_PRECISION_HINT = f32` and one thread; fp32 tolerances 1e-5.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp, TensorType, f32

openvino = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

import lowpass  # noqa: E402
from lowpass.dialects import ov  # noqa: E402
from lowpass.dialects.ov.base import DYNAMIC  # noqa: E402
from lowpass.ir import read_module  # noqa: E402

CPU_CONFIG = {"INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": 1}
TOL = {"rtol": 1e-5, "atol": 1e-5}
INPUT, HIDDEN, SEQ, BATCH = 4, 8, 5, 3
STATES = {"lstm/C_t/variable_0", "lstm/H_t/variable_2"}


def named(node: Any, name: str) -> Any:
    node.set_friendly_name(name)
    return node


def result(output: Any, name: str) -> Any:
    output.get_tensor().set_names({name})
    return named(ops.result(output), name)


def save(model: Any, path: Path) -> Path:
    openvino.save_model(model, str(path), compress_to_fp16=False)
    return path


def openvino_compile(model: Any) -> Any:
    return openvino.Core().compile_model(model, "CPU", CPU_CONFIG)


def ours_request(module: ModuleOp, device: str) -> Any:
    return lowpass.Core().compile_model(module, device).create_infer_request()


def outputs(compiled: Any, results: Any) -> dict[str, np.ndarray]:
    """OpenVINO's results as {each tensor name: array}."""
    out = {}
    for port in compiled.outputs:
        out |= dict.fromkeys(port.get_names(), np.asarray(results[port]))
    return out


def states(request: Any) -> dict[str, np.ndarray]:
    """{variable id: value} of an OpenVINO or lowpass infer request."""
    out = {}
    for s in request.query_state():
        value = s.state
        out[s.name] = np.array(value if isinstance(value, np.ndarray) else value.data)
    return out


def variable_types(module: ModuleOp) -> dict[str, TensorType]:
    return {op.variable_id: op.type for op in module.walk() if isinstance(op, ov.VariableOp)}


# ---- shape inference: what ShapeOf knows of a partly dynamic shape ------------------------


def ttext(shape: tuple[int, ...]) -> str:
    return "tensor<" + "".join(("?" if d == DYNAMIC else str(d)) + "x" for d in shape) + "f32>"


def inferred_broadcast(arg: tuple[int, ...], body: str, rank: int) -> TensorType:
    """The type our shape inference gives the ov.broadcast at the end of `body` (which reads
    %x of shape `arg`; its declared type is all dynamic)."""
    out = ttext((DYNAMIC,) * rank)
    module = read_module(
        f"func.func @main(%x: {ttext(arg)}) -> {out} {{\n{body}  func.return %b : {out}\n}}"
    )
    (broadcast,) = [op for op in module.walk() if isinstance(op, ov.BroadcastOp)]
    (inferred,) = broadcast.infer_result_types()
    assert isinstance(inferred, TensorType)
    return inferred


def openvino_dims(shape: Any) -> list[int]:
    return [DYNAMIC if d.is_dynamic else d.get_length() for d in shape]


@pytest.mark.parametrize(
    ("shape", "mode"),
    [((DYNAMIC, 4), "numpy"), ((DYNAMIC, 4), "bidirectional"), ((2, DYNAMIC, 4), "numpy")],
)
def test_broadcast_of_shape_of_keeps_static_dims(shape: tuple[int, ...], mode: str):
    """Broadcast(0, ShapeOf(x)) of a partly dynamic x has x's shape, as OpenVINO infers it
    (before: every dim dynamic, which made LowLatency2's initializer incompatible with its
    variable)."""
    n = len(shape)
    body = (
        "  %z = ov.constant dense<0.0> : tensor<1xf32>\n"
        f"  %s = ov.shape_of %x : ({ttext(shape)}) -> tensor<{n}xi64>\n"
        f'  %b = ov.broadcast %z, %s mode = "{mode}" : (tensor<1xf32>, tensor<{n}xi64>) -> '
        f"{ttext((DYNAMIC,) * n)}\n"
    )
    assert inferred_broadcast(shape, body, n) == TensorType(f32, shape)
    x = ops.parameter([-1 if d == DYNAMIC else d for d in shape], np.float32)
    theirs = ops.broadcast(ops.constant(np.zeros([1], np.float32)), ops.shape_of(x), mode)
    assert openvino_dims(theirs.get_output_partial_shape(0)) == list(shape)


def test_broadcast_target_through_gather_concat_convert():
    """A target assembled from ShapeOf pieces: Convert(Concat(Gather(ShapeOf(x), [1, 0]), [5]))
    of a tensor<?x4> is [4, ?, 5], as OpenVINO infers it."""
    body = (
        "  %s = ov.shape_of %x : (tensor<?x4xf32>) -> tensor<2xi64>\n"
        "  %i = ov.constant dense<[1, 0]> : tensor<2xi64>\n"
        "  %a = ov.constant dense<0> : tensor<i64>\n"
        "  %g = ov.gather %s, %i, %a : (tensor<2xi64>, tensor<2xi64>, tensor<i64>) -> "
        "tensor<2xi64>\n"
        "  %f = ov.constant dense<[5]> : tensor<1xi64>\n"
        "  %c = ov.concat %g, %f axis = 0 : (tensor<2xi64>, tensor<1xi64>) -> tensor<3xi64>\n"
        "  %t = ov.convert %c destination_type = i32 : (tensor<3xi64>) -> tensor<3xi32>\n"
        "  %one = ov.constant dense<1.0> : tensor<1x1x1xf32>\n"
        "  %b = ov.broadcast %one, %t : (tensor<1x1x1xf32>, tensor<3xi32>) -> tensor<?x?x?xf32>\n"
    )
    assert inferred_broadcast((DYNAMIC, 4), body, 3) == TensorType(f32, (4, DYNAMIC, 5))
    x = ops.parameter([-1, 4], np.float32)
    picked = ops.gather(ops.shape_of(x), ops.constant(np.array([1, 0])), ops.constant(0))
    target = ops.convert(ops.concat([picked, ops.constant(np.array([5], np.int64))], 0), "i32")
    theirs = ops.broadcast(ops.constant(np.ones([1, 1, 1], np.float32)), target)
    assert openvino_dims(theirs.get_output_partial_shape(0)) == [4, DYNAMIC, 5]

