"""
`CompiledModel.get_runtime_model()`: the executed graph as OpenVINO's runtime model gives it.
On the CPU device a node per fused group (the quantized convolution with its zero point and
requantization, `runtimePrecision` u8), per constant, view, Parameter and Result; edges that
follow the graph; `execTimeMcs` from the last profiled inference; the same graph from a
CACHE_DIR blob (rows without ops: planned again); REFERENCE one node per op;
`lowpass.serialize` as OpenVINO's execution graph XML; and against openvino's runtime model of
the same QDQ model where it is installed (the keys, the convolutions' names and precisions).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest

import lowpass
from lowpass.lowering import compiler
from lowpass.runtime.cpu import CpuCompiledModel

QDQ = Path(__file__).resolve().parents[2] / "examples" / "qconvnet_qdq.onnx"
KEYS = {"execOrder", "execTimeMcs", "layerType", "originalLayersNames", "outputLayouts",
        "outputPrecisions", "primitiveType", "runtimePrecision"}


def _feeds(compiled: lowpass.CompiledModel) -> dict[int, np.ndarray]:
    shape = [int(d) for d in compiled.input(0).shape if d is not None]
    return {0: np.random.default_rng(0).random(shape, dtype=np.float32)}


def _rt(node: Any) -> dict[str, str]:
    return {k: v.astype(str) for k, v in node.get_rt_info().items()}


def test_cpu_nodes_are_the_fused_groups(core: lowpass.Core) -> None:
    compiled = core.compile_model(str(QDQ), "CPU", {"PERF_COUNT": True})
    model = compiled.get_runtime_model()
    nodes = model.get_ordered_ops()
    assert all(set(_rt(n)) == KEYS for n in nodes)
    assert [int(_rt(n)["execOrder"]) for n in nodes] == list(range(len(nodes)))
    convs = [n for n in nodes if _rt(n)["layerType"] == "Convolution"]
    assert [n.get_friendly_name() for n in convs] == ["conv1/WithoutBiases",
                                                      "conv2/WithoutBiases"]
    for conv in convs:
        info = _rt(conv)
        assert conv.get_type_name() == "ExecutionNode"
        assert info["runtimePrecision"] == "u8"  # (it reads u8 codes)
        assert info["outputPrecisions"] == "u8"  # (its requantization fused)
        assert info["primitiveType"].endswith("_I8")
        assert conv.get_friendly_name() in info["originalLayersNames"].split(",")
        assert len(info["originalLayersNames"].split(",")) > 2
    # every op the device runs is named by exactly one node (Results name graph outputs)
    names = [name for n in nodes if n.get_type_name() != "Result"
             for name in _rt(n)["originalLayersNames"].split(",")]
    assert len(names) == len(set(names))
    # edges: each input is an output of an earlier node; the Results read the graph outputs
    position = {id(n): i for i, n in enumerate(nodes)}
    for i, node in enumerate(nodes):
        for source in node.input_values():
            assert position[id(source.get_node())] < i
            assert source.get_index() < source.get_node().get_output_size()
    assert [p.get_friendly_name() for p in model.get_parameters()] == ["data"]
    results = model.get_results()
    assert [r.get_friendly_name() for r in results] == [p.name for p in compiled.outputs]
    assert [str(r.input_value(0).get_partial_shape()) for r in results] == \
        [str(p.partial_shape) for p in compiled.outputs]
    prob = next(r for r in results if r.get_friendly_name() == "prob")
    assert _rt(prob.input_value(0).get_node())["layerType"] == "Softmax"
    # not run yet: no times
    assert {_rt(n)["execTimeMcs"] for n in nodes} == {"not_executed"}


def test_cpu_times_come_from_the_last_profiled_inference(core: lowpass.Core) -> None:
    compiled = core.compile_model(str(QDQ), "CPU", {"PERF_COUNT": True})
    request = compiled.create_infer_request()
    request.infer(_feeds(compiled))
    nodes = compiled.get_runtime_model().get_ordered_ops()
    rows = {r.node_name: r.real_time for r in request.get_profiling_info()}
    for node in nodes:
        info = _rt(node)
        if node.get_type_name() == "ExecutionNode" and info["layerType"] != "Const" \
                and info["primitiveType"].startswith("jit_"):
            want = round(rows[node.get_friendly_name()].total_seconds() * 1e6)
            assert info["execTimeMcs"] == str(want)
        elif info["layerType"] in ("Const", "Input", "Output"):
            assert info["execTimeMcs"] == "not_executed"
    # without PERF_COUNT nothing is timed, as in OpenVINO
    plain = core.compile_model(str(QDQ), "CPU")
    plain.create_infer_request().infer(_feeds(plain))
    assert {_rt(n)["execTimeMcs"] for n in plain.get_runtime_model().get_ordered_ops()} == \
        {"not_executed"}


def test_amx_kernels_are_named_so(core: lowpass.Core) -> None:
    """A group whose GEMMs run on AMX tiles says so in its exec type, as OpenVINO's
    `brgconv_avx512_amx_I8`: the example's convolutions (K padded to 64, 256 and 64 output
    positions) on an AMX host; its fully connected layer (one row) runs `vpdpbusd`. No exec
    type names AMX on a host without it."""
    from lowpass.lowering.target import host_cpu

    compiled = core.compile_model(str(QDQ), "CPU")
    types = {n.get_friendly_name(): _rt(n)["primitiveType"]
             for n in compiled.get_runtime_model().get_ordered_ops()}
    isa = host_cpu().isa
    if not host_cpu().amx:
        assert not [t for t in types.values() if "amx" in t]
        assert types["conv1/WithoutBiases"] == f"jit_{isa}_I8"
        return
    assert types["conv1/WithoutBiases"] == types["conv2/WithoutBiases"] == f"jit_{isa}_amx_I8"
    assert types["fc/WithoutBiases"] == f"jit_{isa}_I8"


TINY = """
func.func @main(%x: tensor<1x8xf32> {ov.name = "x"}) -> (tensor<1x8xf32> {ov.name = "y"},
                                                         tensor<2xi64> {ov.name = "s"}) {
  %sq = ov.multiply %x, %x {ov.name = "sq"} : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  %s = ov.shape_of %x {ov.name = "shape"} : (tensor<1x8xf32>) -> tensor<2xi64>
  func.return %sq, %s : tensor<1x8xf32>, tensor<2xi64>
}
"""

DYNAMIC_IDENTITY = """
func.func @main(%x: tensor<?x8xf32> {ov.name = "x"}) -> (tensor<?x8xf32> {ov.name = "y"}) {
  func.return %x : tensor<?x8xf32>
}
"""


def test_small_models_constants_and_identities(core: lowpass.Core) -> None:
    """A model whose every op takes under half a microsecond is still timed (0 us, as
    OpenVINO writes it, not `not_executed`); a folded op is a `Const` of its own precision
    with no inputs; the fused-in constants of a kernel are not its inputs; a dynamic model
    of no ops describes its last shapes."""
    compiled = core.compile_model(core.read_model(TINY), "CPU", {"PERF_COUNT": True})
    request = compiled.create_infer_request()
    request.infer({"x": np.ones((1, 8), np.float32)})
    nodes = {n.get_friendly_name(): n for n in compiled.get_runtime_model().get_ordered_ops()
             if n.get_type_name() == "ExecutionNode"}
    assert _rt(nodes["sq"])["execTimeMcs"].isdigit()
    assert [s.get_node().get_friendly_name() for s in nodes["sq"].input_values()] == ["x", "x"]
    shape = _rt(nodes["shape"])
    assert shape["layerType"] == "Const" and nodes["shape"].get_input_size() == 0
    assert shape["runtimePrecision"] == shape["outputPrecisions"] == "i64"
    assert shape["primitiveType"] == "unknown_i64"
    conv = next(n for n in core.compile_model(str(QDQ), "CPU").get_runtime_model()
                .get_ordered_ops() if n.get_friendly_name() == "conv1/WithoutBiases")
    assert [s.get_node().get_friendly_name() for s in conv.input_values()] == \
        ["data/DQ", "conv1/weights_q"]  # (OpenVINO's: data, weights, its folded bias)
    with pytest.raises(lowpass.LowpassError, match="it cannot be compiled"):
        core.compile_model(cast(Any, compiled.get_runtime_model()), "CPU")
    dynamic = core.compile_model(core.read_model(DYNAMIC_IDENTITY), "CPU")
    dynamic.create_infer_request().infer({"x": np.ones((3, 8), np.float32)})
    model = dynamic.get_runtime_model()
    assert [n.get_type_name() for n in model.get_ordered_ops()] == ["Parameter", "Result"]
    assert _rt(model.get_results()[0])["outputLayouts"] == "undef"


def _summary(model: Any) -> list[tuple[str, str, str, str, list[tuple[str, int]]]]:
    return [(n.get_type_name(), n.get_friendly_name(), _rt(n)["layerType"],
             _rt(n)["originalLayersNames"],
             [(s.get_node().get_friendly_name(), s.get_index()) for s in n.input_values()])
            for n in model.get_ordered_ops()]


def test_a_graph_loaded_from_cache_dir_describes_the_same_graph(
    core: lowpass.Core, tmp_path: Path
) -> None:
    config = {"CACHE_DIR": str(tmp_path)}
    fresh = _summary(core.compile_model(str(QDQ), "CPU", config).get_runtime_model())
    compiler.clear_cache()
    loaded = core.compile_model(str(QDQ), "CPU", config)
    graph = cast("CpuCompiledModel", loaded.device_model).graph
    assert any(row.op is None for row in graph.rows)  # (loaded from the blob)
    assert _summary(loaded.get_runtime_model()) == fresh


def test_reference_runs_one_node_per_op(core: lowpass.Core) -> None:
    model = core.read_model(str(QDQ))
    compiled = core.compile_model(model, "REFERENCE")
    request = compiled.create_infer_request()  # (its times: a request still alive)
    request.infer(_feeds(compiled))
    nodes = compiled.get_runtime_model().get_ordered_ops()
    ops = [n for n in model.get_ordered_ops() if n.get_type_name() not in ("Parameter", "Result")]
    executed = [n for n in nodes if n.get_type_name() == "ExecutionNode"]
    assert [n.get_friendly_name() for n in executed] == [op.get_friendly_name() for op in ops]
    for node in executed:
        info = _rt(node)
        assert info["originalLayersNames"] == node.get_friendly_name()
        if info["layerType"] == "Const":
            assert info["execTimeMcs"] == "not_executed"
        else:
            assert info["primitiveType"].startswith("ref_")
            assert info["execTimeMcs"].isdigit()


def test_serialize_writes_the_execution_graph(core: lowpass.Core, tmp_path: Path) -> None:
    compiled = core.compile_model(str(QDQ), "CPU")
    model = compiled.get_runtime_model()
    path = tmp_path / "exec.xml"
    lowpass.serialize(model, path)
    root = ET.parse(path).getroot()
    layers = root.findall("./layers/layer")
    nodes = model.get_ordered_ops()
    assert [(la.get("name"), la.get("type")) for la in layers] == \
        [(n.get_friendly_name(), _rt(n)["layerType"]) for n in nodes]
    data = layers[0].find("data")
    assert data is not None and data.get("shape") == "1,3,16,16"
    assert data.get("element_type") == "f32"
    conv = next(la for la in layers if la.get("type") == "Convolution").find("data")
    assert conv is not None and conv.get("runtimePrecision") == "u8"
    edges = root.findall("./edges/edge")
    assert len(edges) == sum(n.get_input_size() for n in nodes)
    for edge in edges:  # (ports: a layer's inputs first, then its outputs)
        source = layers[int(edge.get("from-layer", "-1"))]
        target = layers[int(edge.get("to-layer", "-1"))]
        assert source.find(f"./output/port[@id='{edge.get('from-port')}']") is not None
        assert target.find(f"./input/port[@id='{edge.get('to-port')}']") is not None


def test_keys_and_convolutions_as_openvino(core: lowpass.Core) -> None:
    openvino = pytest.importorskip("openvino")
    theirs = openvino.Core().compile_model(str(QDQ), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    ours = core.compile_model(str(QDQ), "CPU")

    def convolutions(model: Any) -> list[tuple[str, str, str]]:
        return [(n.get_friendly_name(), _rt(n)["runtimePrecision"], _rt(n)["outputPrecisions"])
                for n in model.get_ordered_ops()
                if _rt(n)["layerType"] == "Convolution"]

    their_model = theirs.get_runtime_model()
    assert {k for n in their_model.get_ordered_ops() for k in n.get_rt_info()} == KEYS
    assert convolutions(ours.get_runtime_model()) == convolutions(their_model)
    assert [n.get_type_name() for n in ours.get_runtime_model().get_ordered_ops()][:1] == \
        [n.get_type_name() for n in their_model.get_ordered_ops()][:1] == ["Parameter"]


def test_lowpass_run_writes_the_execution_graph(tmp_path: Path,
                                                capfd: pytest.CaptureFixture[str]) -> None:
    from lowpass.tools.lowpass_run import main

    path = tmp_path / "g.xml"
    assert main([str(QDQ), "-niter", "2", "-exec_graph_path", str(path)]) in (0, None)
    err = capfd.readouterr()
    assert "Turn on performance counters for CPU device due to execution graph dumping." in \
        err.out + err.err
    layers = ET.parse(path).getroot().findall("./layers/layer")
    conv = next(la for la in layers if la.get("type") == "Convolution").find("data")
    assert conv is not None and conv.get("execTimeMcs", "").isdigit()
