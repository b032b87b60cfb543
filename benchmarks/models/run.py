"""
Runs the model suite (benchmarks/models/suite.py) through lowpass and its peers and writes the
table of docs/models.md.

For each model and variant (`onnx`: the fp32 ONNX model; `ov-ir`: the same model read by
OpenVINO and written with `openvino.save_model`; `qdq`: quantized by onnxruntime's
quantize_static; `nncf`: FakeQuantize by nncf.quantize on the OpenVINO model): import it into
lowpass, apply `lpt` where quantized, run it on REFERENCE and CPU, and compare the first
output with onnxruntime (ONNX variants, `qdq` unoptimized so that it computes the QDQ formula;
`ov-ir` against the fp32 ONNX model) and OpenVINO's
CPU plugin (f32 inference precision; int8 variants only where OpenVINO's int8 kernels are
exact on this host: the `openvino_int8_exact` probe). A failure is one line in its cell. A
model with a dynamic dimension may have a second set of inputs (`Spec.more_feeds`): both run
on the same compiled model and the cell is the larger difference. A shipped file
(`Spec.source`) is read with its `Spec.shapes` and `Spec.constants` (`Core.read_model`), and
OpenVINO converts it with the same shapes (`openvino.convert_model(path, input=...)`).

    nice -n 10 python benchmarks/models/run.py                   # all models -> docs/models.md
    python benchmarks/models/run.py --small --table /tmp/t.md    # the CI models only
    python benchmarks/models/run.py --only squeezenet,bert_tiny --variants onnx
"""

from __future__ import annotations

import argparse
import logging
import multiprocessing
import re
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

import suite  # noqa: E402

OV_CONFIG = {"INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": 1}
INT8_VARIANTS = ("qdq", "nncf")


@dataclass
class Row:
    model: str
    variant: str
    ops: str = ""
    imported: str = ""
    int8: str = ""
    diffs: dict[str, str] = field(default_factory=dict[str, str])
    time_ms: str = ""
    note: str = ""


MISSING = (
    re.compile(r"node '([^']*)' \(#\d+, (\w+)\): unsupported operator"),
    re.compile(r"layer '([^']*)' \(id \d+, type (\w+)\): unknown layer type"),
)


def one_line(e: BaseException) -> str:
    """The error in one short line; an unsupported op as `missing op: TYPE (node 'NAME')`;
    OpenVINO's ONNX frontend's conversion failure as the ops and its last reason."""
    text = " ".join(str(e).split()) or type(e).__name__
    text = re.sub(r"^\S+\.(?:onnx|xml)(?::\d+)?: error: ", "", text)  # the row's model
    # OpenVINO's exceptions: the message without its source locations
    text = re.sub(r"Exception from \S+:\d+: ", "", text)
    text = re.sub(r"Check '.*?' failed at \S+:\d+: ", "", text)
    for pattern in MISSING:
        if m := pattern.search(text):
            return f"missing op: {m.group(2)} (node '{m.group(1)}')"
    if m := re.search(r"Conversion is failed for: (.*)$", text):
        log = text.split("Failed operations detailed log:")[-1].split("Summary:")[0]
        reason = log.strip().split(": ")[-1]  # the last message's last sentence
        return f"OpenVINO's ONNX frontend fails to convert {m.group(1)}: {reason}"[:220]
    return text[:220]


def openvino_read(spec: suite.Spec, path: Path) -> object:
    """OpenVINO's model of the file; a shipped file with dynamic inputs is converted with the
    spec's shapes (`openvino.convert_model(path, input=...)`, ovc's `--input`), as its users
    would."""
    import openvino

    if spec.shapes and path.suffix == ".onnx":
        return openvino.convert_model(path, input=spec.shapes)
    return openvino.Core().read_model(path)


def variant_files(spec: suite.Spec, out: Path, variants: list[str]) -> dict[str, Path | str]:
    """Build each variant's file; a variant that cannot be built maps to its reason."""
    import openvino

    files: dict[str, Path | str] = {}
    onnx_path = suite.build(spec.name, out)
    ir_path = out / f"{spec.name}.xml"
    if "onnx" in variants:
        files["onnx"] = onnx_path
    try:
        if not ir_path.exists():
            model = openvino_read(spec, onnx_path)
            openvino.save_model(model, ir_path, compress_to_fp16=False)
        if "ov-ir" in variants:
            files["ov-ir"] = ir_path
    except Exception as e:
        files["ov-ir"] = f"OpenVINO cannot read the ONNX model: {one_line(e)}"
    if not spec.cnn:
        return files
    if "qdq" in variants:
        qdq = out / f"{spec.name}.qdq.onnx"
        try:
            files["qdq"] = qdq if qdq.exists() else suite.quantize_qdq(spec, onnx_path, qdq)
        except Exception as e:
            files["qdq"] = f"quantize_static failed: {one_line(e)}"
    if "nncf" in variants:
        fq = out / f"{spec.name}.nncf.xml"
        if not suite.nncf_available():
            files["nncf"] = "nncf is not installed (pip install nncf)"
        elif isinstance(files.get("ov-ir"), str):
            files["nncf"] = "no OpenVINO model"
        else:
            try:
                files["nncf"] = fq if fq.exists() else suite.quantize_nncf(spec, ir_path, fq)
            except Exception as e:
                files["nncf"] = f"nncf.quantize failed: {one_line(e)}"
    return files


def op_counts(path: Path) -> Counter[str]:
    if path.suffix == ".onnx":
        import onnx

        return Counter(n.op_type for n in onnx.load(path).graph.node)
    import xml.etree.ElementTree as ET

    layers = ET.parse(path).getroot().iter("layer")
    return Counter(
        str(layer.get("type"))
        for layer in layers
        if layer.get("type") not in ("Parameter", "Result")
    )


COUNTED_TYPES = ("Convolution", "GroupConvolution", "MatMul")
# OpenVINO's runtime model names a GroupConvolution `Convolution`, a MatMul with constant
# weights `FullyConnected`.
OPENVINO_COUNTED = ("Convolution", "GroupConvolution", "MatMul", "FullyConnected", "Deconvolution")


def cpu_int8_coverage(graph: object) -> tuple[int, int]:
    """(int8, all) convolutions/MatMuls of lowpass's compiled CPU graph: int8 when the kernel
    that runs it is an int8 one (`jit_*_I8`; an op fused into another op's group, such as a
    convolution behind its activation zero-point Subtract, has that group's kernel)."""
    exec_of = {id(op): g.exec_type for g in graph.groups for op in g.ops}  # type: ignore[attr-defined]
    rows = [r for r in graph.rows if r.type_name in COUNTED_TYPES]  # type: ignore[attr-defined]
    return sum(exec_of.get(id(r.op), "").endswith("_I8") for r in rows), len(rows)


def openvino_int8_coverage(compiled: object) -> tuple[int, int]:
    """(int8, all) convolutions/MatMuls of OpenVINO's runtime model whose data input is u8/i8.
    Its `runtimePrecision` says u8 also for a FullyConnected with f32 data and u8 weights that
    it decompresses to f32 (onnxruntime's per-tensor asymmetric Gemm weights): not int8."""
    import openvino

    int8_types = (openvino.Type.u8, openvino.Type.i8)
    int8 = total = 0
    for op in compiled.get_runtime_model().get_ordered_ops():  # type: ignore[attr-defined]
        info = op.get_rt_info()
        if "layerType" not in info or info["layerType"].astype(str) not in OPENVINO_COUNTED:
            continue
        total += 1
        int8 += op.input(0).get_element_type() in int8_types
    return int8, total


def read_lowpass(spec: suite.Spec, path: Path) -> object:
    """The file as lowpass reads it: `read_model_file`, or `Core.read_model` with the spec's
    shapes and constants (a shipped file, read unedited)."""
    import lowpass
    from lowpass.frontends import read_model_file

    if spec.shapes or spec.constants:
        model = lowpass.Core().read_model(path, shapes=spec.shapes, constants=spec.constants)
        return model.module
    return read_model_file(path)


def feed_sets(spec: suite.Spec) -> list[dict[str, np.ndarray]]:
    """The inputs the model runs on: its feeds, and those of other shapes (`more_feeds`)."""
    sets = [spec.feeds(np.random.default_rng(0))]
    if spec.more_feeds is not None:
        sets.append(spec.more_feeds(np.random.default_rng(1)))
    return sets


def run_variant(
    spec: suite.Spec, variant: str, path: Path, sets: list[dict[str, np.ndarray]], exact: bool
) -> Row:
    import lowpass
    from lowpass.passes import get_all_passes

    row = Row(spec.name, variant)
    counts = op_counts(path)
    row.ops = ", ".join(sorted(counts))
    frozen = set(spec.constants or ())
    try:
        module = read_lowpass(spec, path)
        row.imported = "ok"
    except Exception as e:
        row.imported = "no"
        row.note = one_line(e)
        return row
    if variant in INT8_VARIANTS:
        try:
            get_all_passes()["lpt"]()().apply(lowpass.make_context(), module)
            lowpass.verify_module(module)
        except Exception as e:
            row.note = f"lpt: {one_line(e)}"
            return row

    # Each peer's first output on each set of inputs (the peers are fed the frozen inputs too).
    peers: dict[str, list[np.ndarray] | str] = {}
    onnx_peer = path if path.suffix == ".onnx" else suite.build(spec.name, path.parent)
    if variant != "nncf":
        try:
            import onnxruntime as ort

            options = ort.SessionOptions()
            # (no spinning after each run: its threads would take a core from lowpass's)
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            options.add_session_config_entry("session.inter_op.allow_spinning", "0")
            if variant == "qdq":
                # The QDQ formula, not onnxruntime's int8 kernels (they saturate on AVX2
                # hosts without VNNI).
                options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
            sess = ort.InferenceSession(str(onnx_peer), options, providers=["CPUExecutionProvider"])
            peers["onnxruntime"] = [np.asarray(sess.run(None, f)[0]) for f in sets]
        except Exception as e:
            peers["onnxruntime"] = one_line(e)
    peers["OpenVINO"], openvino_int8 = openvino_isolated(spec.name, path, sets)
    if variant in INT8_VARIANTS and not exact and not isinstance(peers["OpenVINO"], str):
        # its precisions only (a failure to compile or run stays the cell)
        peers["OpenVINO"] = "not exact on this host (int8 without VNNI)"

    for device in ("REFERENCE", "CPU"):
        try:
            # (one thread, as OpenVINO's OV_CONFIG: the table's CPU ms stays comparable; each
            # shape of a dynamic model compiled at its first inference, not run on the
            # interpreter until AUTO finds it worth compiling: the table is the compiled code's)
            config: dict[str, object] = (
                {"INFERENCE_NUM_THREADS": 1, "LP_SHAPE_COMPILE_THRESHOLD": 1}
                if device == "CPU" else {}
            )  # fmt: skip
            request = lowpass.Core().compile_model(module, device, config).create_infer_request()
            ours_sets = []
            for f in sets:
                ours_sets.append(
                    np.asarray(request.infer({k: v for k, v in f.items() if k not in frozen})[0])
                )
            start = time.perf_counter()
            request.infer({k: v for k, v in sets[0].items() if k not in frozen})
            elapsed = time.perf_counter() - start
            if device == "CPU":
                row.time_ms = f"{elapsed * 1e3:.3g}"
                if variant in INT8_VARIANTS:
                    k, n = cpu_int8_coverage(request.device_request.graph)
                    row.int8 = f"{k}/{n}"
                    if openvino_int8 is not None:
                        row.int8 += f" (OpenVINO {openvino_int8[0]}/{openvino_int8[1]})"
        except Exception as e:
            for peer in peers:
                row.diffs[f"{device} vs {peer}"] = one_line(e)
            row.note = row.note or f"{device}: {one_line(e)}"
            continue
        for peer, theirs_sets in peers.items():
            key = f"{device} vs {peer}"
            if isinstance(theirs_sets, str):
                row.diffs[key] = theirs_sets
                continue
            worst = 0.0
            for ours, theirs in zip(ours_sets, theirs_sets, strict=True):
                if theirs.shape != ours.shape:
                    row.diffs[key] = f"shape {ours.shape} vs {theirs.shape}"
                    break
                worst = max(worst, float(np.max(np.abs(ours - theirs))))
            else:
                row.diffs[key] = f"{worst:.2e}"
    return row


def _openvino_first_output(
    name: str, path: Path, sets: list[dict[str, np.ndarray]]
) -> tuple[list[np.ndarray] | str, tuple[int, int] | None]:
    import openvino

    try:
        model = openvino_read(suite.specs()[name], path)
        compiled = openvino.Core().compile_model(model, "CPU", OV_CONFIG)
        outs = [np.asarray(compiled(f)[0]) for f in sets]
        return outs, openvino_int8_coverage(compiled)
    except Exception as e:
        return one_line(e), None


def openvino_isolated(
    name: str, path: Path, sets: list[dict[str, np.ndarray]]
) -> tuple[list[np.ndarray] | str, tuple[int, int] | None]:
    """OpenVINO's CPU plugin on the model in a child process (its first output and its int8
    convolutions/MatMuls): OpenVINO 2026.4 crashes (SIGSEGV in compile_model) on
    onnxruntime's QDQ densenet121; that is the peer's cell, not the row."""
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        try:
            return pool.submit(_openvino_first_output, name, path, sets).result()
        except BrokenProcessPool:
            return "OpenVINO crashed (a signal in compile_model or infer)", None


def _run_in_child(name: str, variant: str, path: Path, exact: bool) -> Row:
    spec = suite.specs()[name]
    return run_variant(spec, variant, path, feed_sets(spec), exact)


def run_isolated(name: str, variant: str, path: Path, exact: bool) -> Row:
    """run_variant in a child process: a crash (a signal in a native library) is a row."""
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        try:
            return pool.submit(_run_in_child, name, variant, path, exact).result()
        except BrokenProcessPool:
            return Row(
                name, variant, imported="?", note="the run crashed (a native library's signal)"
            )


COLUMNS = (
    "REFERENCE vs onnxruntime",
    "CPU vs onnxruntime",
    "REFERENCE vs OpenVINO",
    "CPU vs OpenVINO",
)


def table(rows: list[Row]) -> str:
    head = ["model", "variant", "import", "int8 (OpenVINO)", *COLUMNS, "CPU ms", "failure"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [r.model, r.variant, r.imported, r.int8 or "-"]
        cells += [r.diffs.get(c, "-") for c in COLUMNS]
        cells += [r.time_ms or "-", r.note or ""]
        lines.append("| " + " | ".join(c.replace("|", "/") for c in cells) + " |")
    return "\n".join(lines)


def ops_table(rows: list[Row]) -> str:
    lines = ["| model | variant | ops |", "|---|---|---|"]
    lines += [f"| {r.model} | {r.variant} | {r.ops} |" for r in rows]
    return "\n".join(lines)


BEGIN, END = "<!-- models table: begin -->", "<!-- models table: end -->"


def write_table(path: Path, rows: list[Row], header: str) -> None:
    body = f"{BEGIN}\n{header}\n\n{table(rows)}\n\nOps of each model:\n\n{ops_table(rows)}\n{END}"
    text = path.read_text() if path.exists() else f"# Models\n\n{BEGIN}\n{END}\n"
    if BEGIN not in text:
        text += f"\n{BEGIN}\n{END}\n"
    start, end = text.index(BEGIN), text.index(END) + len(END)
    path.write_text(text[:start] + body + text[end:])


def host_int8_exact() -> bool:
    sys.path.insert(0, str(ROOT / "test/python"))
    from conftest import probe_openvino_int8

    return probe_openvino_int8() < 1e-5


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="", help="comma-separated model names")
    parser.add_argument("--small", action="store_true", help="only the CI models")
    parser.add_argument("--variants", default="onnx,ov-ir,qdq,nncf")
    parser.add_argument("--out", type=Path, help="where the model files go (default: a temp dir)")
    parser.add_argument("--table", type=Path, default=ROOT / "docs/models.md")
    args = parser.parse_args(argv)
    logging.getLogger().setLevel(logging.ERROR)  # quantize_static's advice, once per model
    specs = suite.specs()
    names = [n for n in args.only.split(",") if n] or [
        n for n, s in specs.items() if s.small or not args.small
    ]
    unknown = [n for n in names if n not in specs]
    if unknown:
        raise SystemExit(
            f"run.py: error: unknown model(s) {', '.join(unknown)}: {', '.join(specs)}"
        )
    variants = args.variants.split(",")
    out = args.out or Path(tempfile.mkdtemp(prefix="lowpass-models-"))
    exact = host_int8_exact()
    rows: list[Row] = []
    done: list[str] = []
    for name in names:
        spec = specs[name]
        try:
            files = variant_files(spec, out, variants)
        except Exception as e:
            files = {"onnx": f"the suite cannot build it: {one_line(e)}"}
        for variant, path in files.items():
            if variant not in variants:
                continue
            if isinstance(path, str):
                rows.append(Row(name, variant, imported="-", note=path))
            else:
                rows.append(run_isolated(name, variant, path, exact))
            r = rows[-1]
            print(f"{name:20} {variant:6} {r.imported:3} {r.int8:7} {r.diffs} {r.note}", flush=True)
        done.append(name)
        # Written after each model, so that an interrupted run leaves the models it ran.
        header = (
            f"Generated by `python benchmarks/models/run.py` (models: {', '.join(done)}; "
            f"OpenVINO int8 exact on the generating host: {'yes' if exact else 'no'}). Max abs "
            "difference of the first output; CPU ms is one lowpass CPU inference after a first one."
        )
        write_table(args.table, rows, header)
    print(f"wrote {args.table}")


if __name__ == "__main__":
    main()
