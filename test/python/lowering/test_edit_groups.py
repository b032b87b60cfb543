"""
Edited groupings and kernel choices (issue 41): the translation compiles any valid grouping
the IR states (`PlanReader.check_fusion`), e.g. a convolution whose bias Add, Relu and
FakeQuantize a user splits into three groups, with the REFERENCE device's results; the int8
kernel named by `cpu.int8` is checked against the GEMM kind and the host.
"""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import cpu, ov
from lowpass.dialects.graph import entry_function, get_name
from lowpass.lowering.compiler import clear_cache
from lowpass.lowering.emit import CompileError
from lowpass.lowering.ops.matmul import ShiftedGemmLowering, int8_kernels
from lowpass.lowering.pipeline import (
    AssignBuffersPass,
    ChooseLayoutsPass,
    SelectKernelsPass,
    run_pipeline,
)
from lowpass.lowering.target import HostCpu

RNG = np.random.default_rng(41)
LEVEL = np.float32(3.0 / 255)  # the FakeQuantize's step


def _model() -> lowpass.Model:
    """x -> Convolution (3x3) -> bias Add -> Relu -> FakeQuantize (f32, 256 levels on [0, 3])."""
    g = GraphBuilder()
    x = g.input("x", [1, 3, 9, 9])
    w = (RNG.standard_normal((8, 3, 3, 3)) / np.sqrt(27)).astype(np.float32)
    y = g.value(ov.ConvolutionOp(x, g.constant(w), strides=[1, 1], pads_begin=[1, 1],
                                 pads_end=[1, 1], dilations=[1, 1], name="conv"))
    bias = (RNG.standard_normal((1, 8, 1, 1)) * 0.5).astype(np.float32)
    y = g.value(ov.AddOp(y, g.constant(bias), name="biased"))
    y = g.value(ov.ReluOp(y, name="relu"))
    lo, hi = g.constant(np.float32(0.0)), g.constant(np.float32(3.0))
    y = g.value(ov.FakeQuantizeOp(y, lo, hi, lo, hi, 256, name="fq"))
    g.output(y, "y")
    return lowpass.Model(g.module())


def _ops(module: ModuleOp) -> dict[str, Operation]:
    """The entry function's named ops by name."""
    ops: dict[str, Operation] = {}
    for op in entry_function(module).body.block.ops:
        name = get_name(op)
        if name is not None:
            ops[name] = op
    return ops


def _edited(model: lowpass.Model) -> lowpass.Model:
    """The pipeline's module with the Relu and the FakeQuantize made groups of their own (the
    convolution keeps its bias Add), then cpu-choose-layouts, cpu-select-kernels and
    cpu-assign-buffers run again on the edit."""
    module = model.module.clone()
    run_pipeline(module)
    ops = _ops(module)
    for name, index, kind in (("relu", 1, "elementwise"), ("fq", 2, "fake-quantize")):
        op = ops[name]
        del op.attributes[cpu.FUSED]
        op.attributes[cpu.KERNEL] = cpu.KernelAttr(index, kind)
    for p in (ChooseLayoutsPass(), SelectKernelsPass(), AssignBuffersPass()):
        p.apply(Context(), module)
    return lowpass.Model(module)


def _run(model: lowpass.Model, device: str, x: np.ndarray) -> tuple[np.ndarray, list]:
    config = {"PERF_COUNT": True} if device == "CPU" else {}
    compiled = lowpass.Core().compile_model(model, device, config)
    request = compiled.create_infer_request()
    out = np.asarray(request.infer({"x": x}).to_tuple()[0]).copy()
    rows = [(p.node_name, p.exec_type) for p in request.get_profiling_info()] if config else []
    return out, rows


def test_an_edited_grouping_gives_the_reference_results() -> None:
    model = _model()
    edited = _edited(model)
    ops = _ops(edited.module)
    epilogue = ops["conv"].attributes[cpu.EPILOGUE]
    assert isinstance(epilogue, cpu.EpilogueAttr) and epilogue.kinds == ["add"]
    clear_cache()
    for seed in range(3):
        x = np.random.default_rng(seed).standard_normal((1, 3, 9, 9)).astype(np.float32)
        want, _ = _run(model, "REFERENCE", x)
        got, rows = _run(edited, "CPU", x)
        default, _ = _run(model, "CPU", x)
        kernels = dict(rows)
        assert kernels["relu"] != "undef" and kernels["fq"] != "undef"  # (their own groups)
        assert kernels["biased"] == "undef"  # (fused into the convolution)
        # the same operations on the same float32 values as the fused program: bit for bit
        np.testing.assert_array_equal(got, default)
        # the GEMM's sums may round otherwise than the reference's: one level at most
        assert np.all(np.abs(got - want) <= LEVEL * 1.001)
        assert np.count_nonzero(got != want) <= got.size // 100


HOST_VNNI = HostCpu("test", frozenset({"avx", "avx2", "fma", "avx512f", "avx512bw", "avx512vl",
                                       "avx512vnni"}), "x86_64-unknown-linux-gnu")
HOST_AMX = HostCpu("test", HOST_VNNI.features | {"amx-tile", "amx-int8"}, HOST_VNNI.triple)


def _conv_with(int8: cpu.Int8Kernel | None) -> ov.ConvolutionOp:
    g = GraphBuilder()
    x = g.input("x", [1, 2, 4, 4])
    op = ov.ConvolutionOp(x, g.constant(np.ones((2, 2, 1, 1), np.float32)), strides=[1, 1],
                          pads_begin=[0, 0], pads_end=[0, 0], dilations=[1, 1], name="c")
    if int8 is not None:
        op.attributes[cpu.INT8] = cpu.Int8KernelAttr(int8)
    return op


def test_the_int8_kernels_of_each_gemm_kind() -> None:
    assert int8_kernels(cpu.GemmKind.VNNI, HOST_AMX) == [cpu.Int8Kernel.AMX,
                                                         cpu.Int8Kernel.VPDPBUSD]
    assert int8_kernels(cpu.GemmKind.VNNI, HOST_VNNI) == [cpu.Int8Kernel.VPDPBUSD]
    assert int8_kernels(cpu.GemmKind.S16, HOST_AMX) == [cpu.Int8Kernel.VPMADDWD]
    assert int8_kernels(cpu.GemmKind.F32, HOST_AMX) == []


def test_vpdpbusd_over_amx_takes_the_tiles_away() -> None:
    op = _conv_with(cpu.Int8Kernel.VPDPBUSD)
    assert not ShiftedGemmLowering._int8_host(op, cpu.GemmKind.VNNI, HOST_AMX).amx
    op = _conv_with(cpu.Int8Kernel.AMX)
    assert ShiftedGemmLowering._int8_host(op, cpu.GemmKind.VNNI, HOST_AMX).amx


@pytest.mark.parametrize(("int8", "kind", "message"), [
    (cpu.Int8Kernel.AMX, cpu.GemmKind.VNNI, "Convolution 'c': #cpu<int8 amx> is not supported "
     "by this host (it takes vpdpbusd)"),
    (cpu.Int8Kernel.VPMADDUBSW, cpu.GemmKind.S16, "Convolution 'c': #cpu<int8 vpmaddubsw> "
     "does not run #cpu<gemm s16> (it takes vpmaddwd)"),
    (cpu.Int8Kernel.VPDPBUSD, cpu.GemmKind.F32, "Convolution 'c': #cpu<int8 vpdpbusd> does not "
     "run #cpu<gemm f32> (it takes none: an fp32 GEMM)"),
    (None, cpu.GemmKind.U8S8, "Convolution 'c' has no #cpu<int8 ...>; run cpu-select-kernels"),
])
def test_an_int8_kernel_that_cannot_run_is_refused(
        int8: cpu.Int8Kernel | None, kind: cpu.GemmKind, message: str) -> None:
    with pytest.raises(CompileError) as error:
        ShiftedGemmLowering._int8_host(_conv_with(int8), kind, HOST_VNNI)
    assert str(error.value) == message
