"""
The CPU device runs `lpt` on a quantized model inside `compile_model`, as OpenVINO's CPU
plugin runs its LPT (issue 38): a FakeQuantize or QDQ model, and the OpenVINO IR that lowpass
writes after `lpt`, run their convolutions and matmuls on int8 kernels; LP_TRANSFORMS_MODE=NO
turns it off; a model that went through `lpt` already stays what it was.

Before the change, these models ran in f32 on the CPU device (no `_I8` execution type).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import lowpass
from lowpass.frontends.ov_ir import read_ov_ir, write_ov_ir
from lowpass.ir import print_module, read_module
from lowpass.passes.lpt import is_low_precision, is_quantized, run_lpt
from lowpass.runtime import LowpassError

from .typed import cpu_model

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
WEIGHTED = ("Convolution", "GroupConvolution", "MatMul")


def _read(name: str):
    if name.endswith(".onnx"):
        pytest.importorskip("onnx")
        from lowpass.frontends import read_model_file

        return read_model_file(EXAMPLES / name)
    return read_module(EXAMPLES / name)


def _inputs(model: lowpass.Model, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    out = {}
    for port in model.inputs:
        shape = tuple(int(d) for d in port.shape if d is not None)
        out[port.name] = rng.uniform(-1.0, 3.0, shape).astype(port.dtype)
    return out


def _weighted_exec_types(request: lowpass.InferRequest) -> list[str]:
    """The execution type of each Convolution/MatMul: its own, or (fused into a group that an
    earlier op leads, e.g. its activation zero-point Subtract) the group leader's."""
    types = []
    leader = ""
    for row in request.get_profiling_info():
        if row.node_type == "Stage":
            continue
        if row.exec_type != "undef":
            leader = row.exec_type
        if row.node_type in WEIGHTED:
            types.append(row.exec_type if row.exec_type != "undef" else leader)
    return types


def _run(module, device: str, inputs, config=None) -> tuple[np.ndarray, lowpass.InferRequest]:
    core = lowpass.Core()
    compiled = core.compile_model(core.read_model(module.clone()), device, config)
    request = compiled.create_infer_request()
    return request.infer(inputs)[0], request


def _lpt_copy(module):
    copy = module.clone()
    run_lpt(copy)
    return copy


@pytest.mark.parametrize("name", ["qconvnet.mlir", "qconvnet_qdq.onnx"])
def test_compile_runs_lpt_on_a_quantized_model(name: str) -> None:
    module = _read(name)
    assert is_quantized(module)
    reference = _lpt_copy(module)
    model = lowpass.Core().read_model(module.clone())
    request: lowpass.InferRequest | None = None
    for seed in range(3):
        inputs = _inputs(model, seed)
        cpu, request = _run(module, "CPU", inputs, {"PERF_COUNT": True})
        expected, _ = _run(reference, "REFERENCE", inputs)
        np.testing.assert_allclose(cpu, expected, rtol=1e-5, atol=1e-6)
    assert request is not None
    types = _weighted_exec_types(request)
    assert len(types) == 3 and all(t.endswith("_I8") for t in types), types
    assert request.compiled_model.get_property("LP_TRANSFORMS_MODE") is True


def test_lp_transforms_mode_no_compiles_the_model_as_it_is() -> None:
    module = _read("qconvnet.mlir")
    model = lowpass.Core().read_model(module.clone())
    inputs = _inputs(model, 0)
    config = {"PERF_COUNT": "YES", "LP_TRANSFORMS_MODE": "NO"}
    cpu, request = _run(module, "CPU", inputs, config)
    expected, _ = _run(module, "REFERENCE", inputs)
    np.testing.assert_allclose(cpu, expected, rtol=1e-5, atol=1e-6)
    types = _weighted_exec_types(request)
    assert types and not any(t.endswith("_I8") for t in types), types
    assert request.compiled_model.get_property("LP_TRANSFORMS_MODE") is False


def test_ir_with_the_cpu_pipelines_decisions_is_compiled_as_it_states_them() -> None:
    """A quantized model printed after the CPU pipeline (`cpu.arena`, groups, buffers) is
    compiled as its IR states it: `lpt` would change the ops the decisions are about."""
    from lowpass.lowering.pipeline import run_pipeline

    module = _read("qconvnet.mlir")
    assert cpu_model(lowpass.Core().compile_model(module.clone(), "CPU")).lpt
    run_pipeline(module)
    assert is_quantized(module)
    compiled = lowpass.Core().compile_model(module, "CPU")
    assert not cpu_model(compiled).lpt


def test_lp_transforms_mode_takes_yes_or_no() -> None:
    with pytest.raises(LowpassError, match="LP_TRANSFORMS_MODE takes YES/NO"):
        lowpass.Core().compile_model(EXAMPLES / "qconvnet.mlir", "CPU", {"LP_TRANSFORMS_MODE": 2})


@pytest.mark.parametrize("name", ["qconvnet.mlir", "qconvnet_qdq.onnx"])
def test_lowpass_ir_of_an_lpt_model_runs_in_int8(name: str, tmp_path: Path) -> None:
    """`opt-tool --lpt ... --emit=ov-ir`: the unit-scale dequantizations that the writer puts
    before each u8/i8 operand are what `lpt` takes back (they ran in f32 before). The CPU
    device computes what REFERENCE computes after `lpt` on the file; the file itself (its
    REFERENCE run: what the lpt'd model computed) differs from that by a u8 level here and
    there only: the IR has lost `lpt.bias`, so LPT moves the bias Adds into the
    dequantization, and a rounding apart a requantization may pick the next level."""
    lpt_module = _lpt_copy(_read(name))
    write_ov_ir(lpt_module, tmp_path / "q.xml")
    ir_module = read_ov_ir(tmp_path / "q.xml")
    assert is_quantized(ir_module) and not is_low_precision(ir_module)
    model = lowpass.Core().read_model(tmp_path / "q.xml")
    for seed in range(2):
        inputs = _inputs(model, seed)
        cpu, request = _run(ir_module, "CPU", inputs, {"PERF_COUNT": True})
        expected, _ = _run(_lpt_copy(ir_module), "REFERENCE", inputs)
        np.testing.assert_allclose(cpu, expected, rtol=1e-5, atol=1e-6)
        meaning, _ = _run(ir_module, "REFERENCE", inputs)
        np.testing.assert_allclose(cpu, meaning, atol=5e-3)
        types = _weighted_exec_types(request)
        assert len(types) == 3 and all(t.endswith("_I8") for t in types), types


@pytest.mark.parametrize("name", ["qconvnet.mlir", "qconvnet_qdq.onnx"])
def test_a_model_after_lpt_stays_the_same(name: str) -> None:
    """A model in int8 form already (after `lpt`, in memory or printed and read back, its
    lpt.* marks lost) is compiled as it is: the CPU device computes what REFERENCE computes
    on it, in int8. (`lpt` again would move its bias Adds: one ulp apart, enough for a
    requantization to pick another level.)"""
    once = _lpt_copy(_read(name))
    reread = read_module(print_module(once))
    assert is_quantized(reread) and is_low_precision(reread)
    model = lowpass.Core().read_model(once.clone())
    for seed in range(3):
        inputs = _inputs(model, seed)
        expected, _ = _run(once, "REFERENCE", inputs)
        for module in (once, reread):
            cpu, request = _run(module, "CPU", inputs, {"PERF_COUNT": True})
            np.testing.assert_allclose(cpu, expected, rtol=1e-5, atol=1e-6)
            types = _weighted_exec_types(request)
            assert len(types) == 3 and all(t.endswith("_I8") for t in types), types


def test_fp32_and_weight_compressed_models_are_not_quantized() -> None:
    assert not is_quantized(read_module(EXAMPLES / "convnet.mlir"))
    assert not is_low_precision(_read("qconvnet.mlir"))
    compressed = read_module(
        """
        func.func @main(%x: tensor<1x4xf32>) -> tensor<1x2xf32> {
          %w = ov.constant dense<[[1, 2], [3, 4], [5, 6], [7, 8]]> : tensor<4x2xi8>
          %wf = ov.convert %w destination_type = f32 : (tensor<4x2xi8>) -> tensor<4x2xf32>
          %s = ov.constant dense<0.5> : tensor<f32>
          %wd = ov.multiply %wf, %s : (tensor<4x2xf32>, tensor<f32>) -> tensor<4x2xf32>
          %y = ov.mat_mul %x, %wd : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
          func.return %y : tensor<1x2xf32>
        }
        """
    )
    assert not is_quantized(compressed)
    # u8 activations through Convert -> Multiply: a dequantization, so quantized
    activations = read_module(
        """
        func.func @main(%x: tensor<1x4xui8>) -> tensor<1x4xf32> {
          %xf = ov.convert %x destination_type = f32 : (tensor<1x4xui8>) -> tensor<1x4xf32>
          %s = ov.constant dense<0.5> : tensor<f32>
          %y = ov.multiply %xf, %s : (tensor<1x4xf32>, tensor<f32>) -> tensor<1x4xf32>
          func.return %y : tensor<1x4xf32>
        }
        """
    )
    assert is_quantized(activations)


@pytest.mark.parametrize("output", ["flatten/q", "conv1/relu/q"])
def test_a_qdq_model_with_a_quantized_output_runs_in_int8(tmp_path: Path, output: str) -> None:
    """A QDQ model one of whose outputs is a QuantizeLinear's u8 codes (a u8 FakeQuantize
    that only a graph output reads) is quantized, not already in LPT's form: every
    Convolution and MatMul runs in int8, and the results are REFERENCE's after `lpt` (found
    by a user trial: LPT had been skipped for the whole model, all of it in float)."""
    onnx = pytest.importorskip("onnx")
    sys.path.insert(0, str(EXAMPLES))
    try:
        from make_qdq_onnx import build_qdq_model
    finally:
        sys.path.remove(str(EXAMPLES))
    proto = build_qdq_model()
    # (before the classifier; or before a MaxPool, after which the next convolution reads
    # another Q/DQ pair: a review found LPT still skipped there)
    shape = [1, 16] if output == "flatten/q" else [1, 8, 16, 16]
    proto.graph.output.append(
        onnx.helper.make_tensor_value_info(output, onnx.TensorProto.UINT8, shape))
    path = tmp_path / "qdq_u8_output.onnx"
    onnx.save(proto, str(path))
    from lowpass.frontends import read_model_file

    module = read_model_file(path)
    assert is_quantized(module) and not is_low_precision(module)
    model = lowpass.Core().read_model(module.clone())
    inputs = _inputs(model, 0)
    cpu, request = _run(module, "CPU", inputs, {"PERF_COUNT": True})
    expected, _ = _run(_lpt_copy(module), "REFERENCE", inputs)
    np.testing.assert_allclose(cpu, expected, rtol=1e-5, atol=1e-6)
    types = _weighted_exec_types(request)
    assert len(types) == 3 and all(t.endswith("_I8") for t in types), types


def test_openvinos_saved_ir_of_a_qdq_model_runs_in_int8(tmp_path: Path) -> None:
    """OpenVINO's IR of an ONNX QDQ model (`openvino.save_model`, as `ovc` writes it) keeps the
    weights' per-channel zero points and scales behind Reshapes (`Reshape(Convert(i8))`,
    `Reshape(f32)`), quantizes activations as `FakeQuantize -> Convert(u8) -> Convert(f32) ->
    Subtract -> Multiply` and reshapes biases by the convolutions' `ShapeOf`: `lpt`'s
    prerequisites fold and fuse them (`FoldReshapedDequantizationConstants`,
    `ConvertQuantizeDequantize`, `FoldStaticShapeOf`), so that every Convolution and the
    MatMul run in int8 with no float element-wise pass beside them, as OpenVINO runs that IR
    (a user trial: all in float, then int8 with float passes, 3.4x and 1.5x the ONNX model's
    time). The results are the ONNX model's on the CPU device, bit for bit, those of
    REFERENCE after `lpt`, and OpenVINO's within its int8 rounding."""
    openvino = pytest.importorskip("openvino")
    pytest.importorskip("onnx")
    path = tmp_path / "qconvnet.xml"
    openvino.save_model(openvino.Core().read_model(str(EXAMPLES / "qconvnet_qdq.onnx")),
                        str(path), compress_to_fp16=False)
    from lowpass.frontends import read_model_file

    module = read_model_file(path)
    model = lowpass.Core().read_model(module.clone())
    inputs = _inputs(model, 0)
    cpu, request = _run(module, "CPU", inputs, {"PERF_COUNT": True})
    types = _weighted_exec_types(request)
    assert len(types) == 3 and all(t.endswith("_I8") for t in types), types
    onnx_cpu, onnx_request = _run(_read("qconvnet_qdq.onnx"), "CPU", inputs,
                                  {"PERF_COUNT": True})
    np.testing.assert_array_equal(cpu, onnx_cpu)

    def float_passes(rows: list[lowpass.ProfilingInfo]) -> list[str]:
        return [r.node_type for r in rows
                if r.exec_type.startswith("jit_") and r.exec_type.endswith("_FP32")]

    # (no more float passes than the ONNX model's: none left beside the int8 layers)
    ours = float_passes(request.get_profiling_info())
    assert len(ours) <= len(float_passes(onnx_request.get_profiling_info())), ours
    expected, _ = _run(_lpt_copy(module), "REFERENCE", inputs)
    np.testing.assert_allclose(cpu, expected, rtol=1e-5, atol=1e-6)
    theirs = openvino.Core().compile_model(str(path), "CPU").create_infer_request()
    ov_out = theirs.infer(inputs)[0]
    np.testing.assert_allclose(cpu, ov_out, atol=0.05 * float(np.abs(ov_out).max()))
