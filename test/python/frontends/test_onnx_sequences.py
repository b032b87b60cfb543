"""
ONNX sequences (frontends/onnx/sequence.py): the ops on known tensors, a list built in a Loop
(SequenceEmpty, SequenceInsert in the body, ConcatFromSequence after it: a concatenated
output of the `ov.loop`), a tensor iterated in a Loop (SplitToSequence, SequenceLength,
SequenceAt at the iteration number: a Gather), and what `torch.onnx.export` writes for a
scripted module. Each is run on REFERENCE and CPU and compared with onnxruntime (graph
optimizations off) and, for the Loop pattern OpenVINO reads, with OpenVINO at f32.

Tolerances: the graphs move data (exact) or compute the same f32 operations in the same
order as the peers (rtol 1e-6); the torch models' MatMuls sum in another order (rtol 1e-5,
atol 1e-6 for the outputs near 0).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

if TYPE_CHECKING:
    import onnx
else:
    onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

from onnx import TensorProto as T  # noqa: E402
from onnx import helper  # noqa: E402

import lowpass  # noqa: E402
from lowpass.dialects import ov  # noqa: E402
from lowpass.frontends import FrontendError  # noqa: E402
from lowpass.frontends.onnx import read_onnx  # noqa: E402

from .test_onnx_loop import const, model, vi  # noqa: E402
from .test_onnx_structural import run_ort  # noqa: E402

R = np.random.default_rng(11)


def seq_vi(name: str) -> onnx.ValueInfoProto:
    return helper.make_tensor_sequence_value_info(name, T.FLOAT, None)


def run_openvino(m: onnx.ModelProto, feeds: dict[str, np.ndarray], tmp: Path) -> list[np.ndarray]:
    ovr = pytest.importorskip("openvino")
    path = tmp / "m.onnx"
    onnx.save(m, str(path))
    # (f32: OpenVINO's CPU plugin computes MatMuls in bfloat16 on a host that has it)
    compiled = ovr.Core().compile_model(str(path), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    results = compiled(list(feeds.values()))
    return [np.asarray(results[o]) for o in compiled.outputs]


def check(m: onnx.ModelProto, feeds: dict[str, np.ndarray], tmp: Path | None = None,
          rtol: float = 1e-6, atol: float = 0) -> list[str]:  # fmt: skip
    """Compares lowpass's REFERENCE and CPU devices with onnxruntime (and OpenVINO where
    `tmp` is given); the CPU device's exec types of its Loop rows."""
    refs = [("onnxruntime", run_ort(m, feeds))]
    if tmp is not None:
        refs.append(("openvino", run_openvino(m, feeds, tmp)))
    loop_rows: list[str] = []
    for device in ("REFERENCE", "CPU"):
        config = {"PERF_COUNT": True} if device == "CPU" else {}
        compiled = lowpass.Core().compile_model(read_onnx(m), device, config)
        request = compiled.create_infer_request()
        results = request.infer(feeds)
        got = [np.asarray(results[p.name]) for p in compiled.outputs]
        for who, expected in refs:
            assert len(got) == len(expected), (device, who)
            for g, w in zip(got, expected, strict=True):
                assert g.shape == w.shape, (device, who, g.shape, w.shape)
                np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, err_msg=f"{device}/{who}")
        if device == "CPU":
            loop_rows = [p.exec_type for p in request.get_profiling_info()
                         if p.node_type == "Loop"]  # fmt: skip
    return loop_rows


def body(nodes: list, inputs: list[onnx.ValueInfoProto], outputs: list[onnx.ValueInfoProto],
         inits: list | None = None) -> onnx.GraphProto:  # fmt: skip
    """A Loop body: inputs i and c_in, then `inputs`; outputs c_out, then `outputs`."""
    return helper.make_graph(nodes, "body", [vi("i", T.INT64, []), vi("c_in", T.BOOL, []), *inputs],
                             [vi("c_out", T.BOOL, []), *outputs], inits or [])  # fmt: skip


def _appending_loop(initial: list, axis: int, new_axis: int, trip: str = "M") -> list:
    """Nodes: s0 = `initial` (SequenceEmpty, or the SequenceConstruct of its inputs);
    for i < M: s.append(2 * x[i]); y = ConcatFromSequence(s, axis, new_axis)."""
    b = body(
        [
            helper.make_node("Gather", ["x", "i"], ["row"], axis=0),
            helper.make_node("Mul", ["row", "two"], ["twice"]),
            helper.make_node("SequenceInsert", ["s_in", "twice"], ["s_out"]),
            helper.make_node("Identity", ["c_in"], ["c_out"]),
        ],
        [seq_vi("s_in")], [seq_vi("s_out")], [const("two", np.float32(2))],
    )
    start = (helper.make_node("SequenceConstruct", initial, ["s0"]) if initial
             else helper.make_node("SequenceEmpty", [], ["s0"], dtype=T.FLOAT))  # fmt: skip
    return [
        start,
        helper.make_node("Loop", [trip, "", "s0"], ["s"], name="loop", body=b),
        helper.make_node("ConcatFromSequence", ["s"], ["y"], axis=axis, new_axis=new_axis),
    ]


@pytest.mark.parametrize(("axis", "new_axis"), [(0, 1), (1, 1), (-1, 1), (0, 0), (1, 0), (-1, 0)])
def test_a_list_built_in_a_loop_is_a_concatenated_output(axis: int, new_axis: int,
                                                         tmp_path: Path) -> None:  # fmt: skip
    m = model(_appending_loop([], axis, new_axis), [vi("x", T.FLOAT, [4, 3, 2])], ["y"],
              [const("M", np.int64(4))])  # fmt: skip
    rows = check(m, {"x": R.standard_normal((4, 3, 2)).astype(np.float32)}, tmp_path)
    assert rows and not any(r.startswith("ref_") for r in rows)  # compiled, not interpreted
    loop = next(op for op in read_onnx(m).walk() if isinstance(op, ov.LoopOp))
    assert [type(d) for d in loop.output_descriptions] == [ov.ConcatOutputAttr]
    # the sequence is no input of the loop: x, which the body reads, is its only one
    assert [type(d) for d in loop.input_descriptions] == [ov.InvariantInputAttr]


@pytest.mark.parametrize("trip", [0, 1, 3])
def test_a_list_that_starts_with_tensors(trip: int) -> None:
    """s = [a, b]; s.append(...) M times; its length, first and last tensors and stack."""
    nodes = _appending_loop(["a", "b"], 0, 1)
    nodes += [
        helper.make_node("SequenceLength", ["s"], ["n"]),
        helper.make_node("SequenceAt", ["s", "zero"], ["first"]),
        helper.make_node("SequenceAt", ["s", "last"], ["final"]),
    ]
    m = model(nodes, [vi("x", T.FLOAT, [3, 3, 2]), vi("a", T.FLOAT, [3, 2]),
                      vi("b", T.FLOAT, [3, 2]), vi("M", T.INT64, [])],
              ["y", "n", "first", "final"],
              [const("zero", np.int64(0)), const("last", np.int64(-1))])  # fmt: skip
    feeds = {n: R.standard_normal(s).astype(np.float32)
             for n, s in (("x", (3, 3, 2)), ("a", (3, 2)), ("b", (3, 2)))}  # fmt: skip
    check(m, {**feeds, "M": np.array(trip, np.int64)})


def test_a_body_that_appends_and_scans_its_passed_through_condition() -> None:
    """The condition passed through becomes a constant true in the body; a body output that
    is the condition itself (appended, and a scan output) takes that constant too (it had
    referred to the erased argument: an internal error, a review found)."""
    b = helper.make_graph(
        [helper.make_node("SequenceInsert", ["s_in", "c_in"], ["s_out"]),
         helper.make_node("Identity", ["c_in"], ["c_out"])],
        "body", [vi("i", T.INT64, []), vi("c_in", T.BOOL, []),
                 helper.make_tensor_sequence_value_info("s_in", T.BOOL, None)],
        [vi("c_out", T.BOOL, []), helper.make_tensor_sequence_value_info("s_out", T.BOOL, None),
         vi("c_in", T.BOOL, [])],
    )  # fmt: skip
    nodes = [
        helper.make_node("SequenceEmpty", [], ["s0"], dtype=T.BOOL),
        helper.make_node("Loop", ["M", "", "s0"], ["s", "scan"], name="loop", body=b),
        helper.make_node("ConcatFromSequence", ["s"], ["y"], axis=0, new_axis=1),
    ]
    check(model(nodes, [], ["y", "scan"], [const("M", np.int64(3))]), {})


@pytest.mark.parametrize("keepdims", [0, 1])
def test_a_tensor_iterated_in_a_loop(keepdims: int) -> None:
    """`for t in x.unbind(0)` as torch.onnx.export writes it: SplitToSequence (a scalar split
    of 1, keepdims applied as onnxruntime applies it), SequenceLength as the trip count,
    SequenceAt at the iteration number; x's first dimension is dynamic."""
    b = body(
        [
            helper.make_node("SequenceAt", ["parts", "i"], ["part"]),
            helper.make_node("Mul", ["part", "part"], ["square"]),
            helper.make_node("SequenceInsert", ["s_in", "square"], ["s_out"]),
            helper.make_node("Identity", ["c_in"], ["c_out"]),
        ],
        [seq_vi("s_in")], [seq_vi("s_out")],
    )
    nodes = [
        helper.make_node("SplitToSequence", ["x", "one"], ["parts"], axis=0, keepdims=keepdims),
        helper.make_node("SequenceLength", ["parts"], ["n"]),
        helper.make_node("SequenceEmpty", [], ["s0"], dtype=T.FLOAT),
        helper.make_node("Loop", ["n", "", "s0"], ["s"], name="loop", body=b),
        helper.make_node("ConcatFromSequence", ["s"], ["y"], axis=0),
    ]
    m = model(nodes, [vi("x", T.FLOAT, ["T", 3])], ["y"], [const("one", np.int64(1))])
    for steps in (1, 5):
        rows = check(m, {"x": R.standard_normal((steps, 3)).astype(np.float32)})
        assert rows and not any(r.startswith("ref_") for r in rows)


def test_chunks_of_a_static_axis_beside_a_dynamic_one() -> None:
    """torch.chunk's split sizes are computed from `x.size(2)`: static where the chunked axis
    is, though x's time axis is dynamic, so SplitToSequence gets them as constants."""
    nodes = [
        helper.make_node("Shape", ["x"], ["shape"]),
        helper.make_node("Gather", ["shape", "two"], ["d"], axis=0),
        helper.make_node("Div", ["d", "three"], ["q"]),
        helper.make_node("Unsqueeze", ["q", "zero"], ["q1"]),
        helper.make_node("Mul", ["q", "two"], ["q2"]),
        helper.make_node("Sub", ["d", "q2"], ["rest"]),
        helper.make_node("Unsqueeze", ["rest", "zero"], ["rest1"]),
        helper.make_node("Concat", ["q1", "q1", "rest1"], ["split"], axis=0),
        helper.make_node("SplitToSequence", ["x", "split"], ["parts"], axis=2),
        helper.make_node("SequenceAt", ["parts", "last"], ["y"]),
    ]
    m = model(nodes, [vi("x", T.FLOAT, [2, "T", 7])], ["y"],
              [const("two", np.int64(2)), const("three", np.int64(3)),
               const("zero", np.array([0], np.int64)), const("last", np.int64(-1))])  # fmt: skip
    for steps in (1, 4):
        check(m, {"x": R.standard_normal((2, steps, 7)).astype(np.float32)})


def test_long_chains_of_shape_computations_read_in_linear_time() -> None:
    """Shape, then 40 rounds of Gather and Concat of its parts, then a Reshape by it: each
    op's static value is asked once per verification; through partial values of the whole
    chain that was exponential in its length (a review found 8 rounds took minutes)."""
    nodes = [helper.make_node("Shape", ["x"], ["v0"])]
    for k in range(40):
        nodes += [helper.make_node("Gather", [f"v{k}", "first"], [f"a{k}"], axis=0),
                  helper.make_node("Gather", [f"v{k}", "rest"], [f"b{k}"], axis=0),
                  helper.make_node("Concat", [f"a{k}", f"b{k}"], [f"v{k + 1}"], axis=0)]
    nodes.append(helper.make_node("Reshape", ["x", "v40"], ["y"]))
    m = model(nodes, [vi("x", T.FLOAT, ["N", 3, 4])], ["y"],
              [const("first", np.array([0], np.int64)), const("rest", np.array([1, 2], np.int64))])
    module = read_onnx(m)  # (before the fix: not done in hours)
    out = next(op for op in module.walk() if isinstance(op, ov.ReshapeOp)).results[0]
    assert len(ov.shape_of(out)) == 3


def _one_op_model(nodes: list, inputs: list, inits: list | None = None) -> onnx.ModelProto:
    return model(nodes, inputs, [nodes[-1].output[0]], inits)


ABC = [vi("a", T.FLOAT, [2, 3]), vi("b", T.FLOAT, [2, 3]), vi("c", T.FLOAT, [2, 3])]
KNOWN_CASES = {
    "construct-concat-axis1": ([
        helper.make_node("SequenceConstruct", ["a", "b", "c"], ["s"]),
        helper.make_node("ConcatFromSequence", ["s"], ["y"], axis=1),
    ], []),
    "construct-stack-last": ([
        helper.make_node("SequenceConstruct", ["a", "b", "c"], ["s"]),
        helper.make_node("ConcatFromSequence", ["s"], ["y"], axis=-1, new_axis=1),
    ], []),
    "insert-at-position": ([
        helper.make_node("SequenceConstruct", ["a", "b"], ["s"]),
        helper.make_node("SequenceInsert", ["s", "c", "p"], ["t"]),
        helper.make_node("ConcatFromSequence", ["t"], ["y"], axis=0),
    ], [const("p", np.int32(-1))]),
    "erase-first": ([
        helper.make_node("SequenceConstruct", ["a", "b", "c"], ["s"]),
        helper.make_node("SequenceErase", ["s", "p"], ["t"]),
        helper.make_node("ConcatFromSequence", ["t"], ["y"], axis=0),
    ], [const("p", np.int64(0))]),
    "at-run-time-position": ([
        helper.make_node("SequenceConstruct", ["a", "b", "c"], ["s"]),
        helper.make_node("SequenceAt", ["s", "k"], ["y"]),
    ], []),
    "split-list-of-sizes": ([
        helper.make_node("SplitToSequence", ["a", "sizes"], ["s"], axis=1, keepdims=0),
        helper.make_node("SequenceAt", ["s", "p"], ["y"]),
    ], [const("sizes", np.array([1, 2], np.int64)), const("p", np.int64(1))]),
    "split-scalar-with-remainder": ([
        helper.make_node("SplitToSequence", ["a", "two"], ["s"], axis=1),
        helper.make_node("SequenceLength", ["s"], ["y"]),
    ], [const("two", np.int64(2))]),
    "split-keepdims-concat-again": ([
        helper.make_node("SplitToSequence", ["a"], ["s"], axis=1),
        helper.make_node("ConcatFromSequence", ["s"], ["y"], axis=1),
    ], []),
    "split-keepdims-concat-other-axis": ([
        helper.make_node("SplitToSequence", ["a"], ["s"], axis=1),
        helper.make_node("ConcatFromSequence", ["s"], ["y"], axis=0),
    ], []),
    "split-stack-other-axis": ([
        helper.make_node("SplitToSequence", ["a"], ["s"], axis=0, keepdims=0),
        helper.make_node("ConcatFromSequence", ["s"], ["y"], axis=1, new_axis=1),
    ], []),
    "split-then-append": ([
        helper.make_node("SplitToSequence", ["a"], ["s"], axis=1, keepdims=0),
        helper.make_node("SequenceInsert", ["s", "col"], ["t"]),
        helper.make_node("ConcatFromSequence", ["t"], ["y"], axis=1, new_axis=1),
    ], [const("col", np.ones(2, np.float32))]),
}


@pytest.mark.parametrize("case", KNOWN_CASES)
def test_sequence_ops_match_onnxruntime(case: str) -> None:
    nodes, inits = KNOWN_CASES[case]
    used = {i for n in nodes for i in n.input}
    inputs = [v for v in ABC if v.name in used]
    if case == "at-run-time-position":
        inputs.append(vi("k", T.INT64, []))
    m = _one_op_model(nodes, inputs, inits)
    feeds = {v.name: R.standard_normal((2, 3)).astype(np.float32) for v in ABC if v.name in used}
    if case == "at-run-time-position":
        for k in (0, 2, -3):
            check(m, {**feeds, "k": np.array(k, np.int64)})
    else:
        check(m, feeds)


def test_the_sequence_ops_leave_no_sequence_in_the_ir() -> None:
    nodes, inits = KNOWN_CASES["split-stack-other-axis"]
    text = str(read_onnx(_one_op_model(nodes, ABC, inits)))
    # a split stacked on another axis is a transpose of the split tensor
    assert "ov.transpose" in text and "Sequence" not in text


def _carried_read_in_body() -> onnx.ModelProto:
    b = body(
        [
            helper.make_node("SequenceLength", ["s_in"], ["n"]),
            helper.make_node("Cast", ["n"], ["f"], to=T.FLOAT),
            helper.make_node("SequenceInsert", ["s_in", "f"], ["s_out"]),
            helper.make_node("Identity", ["c_in"], ["c_out"]),
        ],
        [seq_vi("s_in")], [seq_vi("s_out")],
    )
    return model([
        helper.make_node("SequenceEmpty", [], ["s0"]),
        helper.make_node("Loop", ["M", "", "s0"], ["s"], name="loop", body=b),
        helper.make_node("ConcatFromSequence", ["s"], ["y"], axis=0, new_axis=1),
    ], [], ["y"], [const("M", np.int64(3))])  # fmt: skip


BAD = {
    "carried sequence read in the body": (
        _carried_read_in_body,
        "node 'n' (#0, SequenceLength) in the body of node 'loop' (#1, Loop): input 0 is the "
        "body's loop-carried sequence #0 ('s_in'): lowpass reads it in the Loop body only to "
        "append to it",
    ),
    "sequence as graph output": (
        lambda: model([helper.make_node("SequenceConstruct", ["a"], ["s"])], ABC[:1], ["s"]),
        "graph output 's' is a sequence, expected a tensor",
    ),
    "position out of range": (
        lambda: _one_op_model([
            helper.make_node("SequenceConstruct", ["a", "b"], ["s"]),
            helper.make_node("SequenceAt", ["s", "p"], ["y"]),
        ], ABC[:2], [const("p", np.int64(2))]),
        "(#1, SequenceAt): position 2 is out of range for a sequence of 2 tensors",
    ),
    "concat of an empty sequence": (
        lambda: _one_op_model([
            helper.make_node("SequenceEmpty", [], ["s"]),
            helper.make_node("ConcatFromSequence", ["s"], ["y"], axis=0),
        ], []),
        "(#1, ConcatFromSequence): the sequence is empty, expected at least one tensor",
    ),
    "tensor where a sequence is expected": (
        lambda: _one_op_model([helper.make_node("SequenceAt", ["a", "p"], ["y"])], ABC[:1],
                              [const("p", np.int64(0))]),
        "(#0, SequenceAt): input 'a' is not a sequence that a node produces",
    ),
    "sequence where a tensor is expected": (
        lambda: _one_op_model([
            helper.make_node("SequenceConstruct", ["a"], ["s"]),
            helper.make_node("Relu", ["s"], ["y"]),
        ], ABC[:1]),
        "(#1, Relu): input 's' is a sequence, expected a tensor",
    ),
}


@pytest.mark.parametrize("case", BAD)
def test_bad_sequences_get_one_line(case: str) -> None:
    make, message = BAD[case]
    with pytest.raises(FrontendError) as error:
        read_onnx(make())
    text = str(error.value)
    assert "\n" not in text and message in text, text



# Run in a subprocess (torch, where installed, stays out of the test process): two scripted
# modules exported as torch.onnx.export's TorchScript exporter writes them, and each one's
# own result on x (seeded), into the folder given.
EXPORT_SCRIPTED = """
import sys, warnings
import numpy as np, torch
warnings.simplefilter("ignore")
out = sys.argv[1]

class Cell(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = torch.nn.Linear(8, 16)
        self.rec = torch.nn.Linear(16, 16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.zeros(x.shape[1], 16)
        outs: list[torch.Tensor] = []
        for t in range(x.shape[0]):
            h = torch.tanh(self.inp(x[t]) + self.rec(h))
            outs.append(h)
        return torch.stack(outs, dim=1)

class Unbind(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        outs: list[torch.Tensor] = []
        for xt in x.unbind(0):
            outs.append(xt * 2.0)
        return torch.cat(outs, dim=0)

torch.manual_seed(0)
x = torch.randn(5, 3, 8)
for module in (Cell(), Unbind()):
    name = type(module).__name__
    torch.onnx.export(torch.jit.script(module), (x,), f"{out}/{name}.onnx", dynamo=False,
                      input_names=["x"], output_names=["y"], dynamic_axes={"x": {0: "T"}},
                      opset_version=17)
    with torch.no_grad():
        np.savez(f"{out}/{name}.npz", x=x.numpy(), y=module(x).numpy())
"""


def test_scripted_torch_modules(tmp_path: Path) -> None:
    """What torch.onnx.export writes for `torch.jit.script` modules that build a list in a
    loop and stack it (an RNN cell) and that iterate a tensor's unbind: equal to torch's own
    result, onnxruntime's and (the first, which OpenVINO reads) OpenVINO's; the CPU device
    compiles both loops."""
    pytest.importorskip("torch")
    script = tmp_path / "export_scripted.py"  # (torch.jit.script reads the classes' source)
    script.write_text(EXPORT_SCRIPTED)
    subprocess.run([sys.executable, str(script), str(tmp_path)], check=True)
    for name, openvino_reads in (("Cell", True), ("Unbind", False)):
        m = onnx.load(str(tmp_path / f"{name}.onnx"))
        assert {n.op_type for n in m.graph.node} & {"SequenceEmpty", "SplitToSequence"}
        data = np.load(tmp_path / f"{name}.npz")
        feeds = {"x": data["x"]}
        rows = check(m, feeds, tmp_path if openvino_reads else None, rtol=1e-5, atol=1e-6)
        assert rows and not any(r.startswith("ref_") for r in rows)
        got = lowpass.Core().compile_model(read_onnx(m), "CPU")(feeds)
        np.testing.assert_allclose(np.asarray(got["y"]), data["y"], rtol=1e-5, atol=1e-6)
