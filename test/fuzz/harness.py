"""
The fuzz driver: seeds, mutation, the tool runs, outcome classes and the corpus of bad cases.

Outcome classes of one tool run (see docs/fuzzing.md):
- `ok`: exit 0;
- `clean-error`: exit 1, no traceback, and the diagnostic's first line locates the problem in
  the input (`names_input`): `file:LINE[:COL]` of an input file, an input file's path or
  name, or a layer, node, op, port, input or output by name (`layer 'conv1'`, `'ov.relu' op`,
  `inference failed in Relu 'r'`);
- `vague-error`: exit 1 but the first line names none of those (an output file's path, a
  quoted word that says not what it is, numpy's or the OS's bare text: issue 39 item 6);
- `internal-error`: exit 2, any other exit code, a traceback or 'internal error';
- `hang`: no answer within the timeout (confirmed in a fresh subprocess);
- `signal`: the process died of a signal (confirmed in a fresh subprocess);
- `wrong-result`: CPU and REFERENCE disagree beyond the stated tolerance (or an emitted
  OpenVINO IR computes something else than the MLIR it came from);
- `wrong-nan`: the same with NaN/Inf inputs (NaN/Inf positions must agree);
- `overflow-order` (not bad): a `wrong-nan` where REFERENCE computed a value within a factor
  OVERFLOW_MARGIN of the f32 limit on the way (a window of NaNs gives -3.4e38 in MaxPool):
  whether a sum of such values overflows depends on the order the device adds them in;
- `leftover-file`: a failing run left an output file behind;
- `noise`: a run that exits 0 or 1 but printed a Python warning with a source path
  (`.../x.py:12: RuntimeWarning: ...`) on stderr.

Everything but `ok` and `clean-error` is bad. A bad case matching a known open defect
(`KNOWN`) is recorded as known and does not fail the short run.
"""

from __future__ import annotations

import json
import os
import random
import re
import select
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import numpy as np

from . import generate, mutate
from .cache_run import static_shape
from .worker import clip_stream

REPO = Path(__file__).resolve().parents[2]
FUZZ_DIR = Path(__file__).resolve().parent
BAD = (
    "vague-error",
    "internal-error",
    "hang",
    "signal",
    "wrong-result",
    "wrong-nan",
    "leftover-file",
    "noise",
)

PIPELINES: list[list[str]] = [
    [],
    ["--canonicalize"],
    ["--lpt"],
    ["--low-latency2"],
    ["-p", "canonicalize,cse,dce"],
    ["--lpt", "--low-latency2"],
    ["--ov-reshape=inputs=data:1x3x8x8"],
    ["--convert-tfl-to-ov"],
    ["--prepare-composite-functions", "--allow-unregistered-dialect"],
]

FLOAT_RTOL = 1e-3
"""CPU vs REFERENCE on float graphs: |cpu - ref| <= FLOAT_ATOL * max(1, max |ref|) + FLOAT_RTOL
|ref| (the CPU kernels sum in another order and use vectorized exp/tanh)."""
FLOAT_ATOL = 1e-4
QUANT_TOLERANCE = (1e-6, 1e-5)
"""(atol, rtol) on the f32 outputs of `--lpt` graphs: the u8 x i8 sums are exact integers on both
devices; only the dequantization Multiply and the bias Add round (in another order)."""


@dataclass
class Outcome:
    cls: str
    detail: str
    known: str | None = None


@dataclass
class Case:
    """One fuzz input: its files (name -> bytes) and how it was made."""

    label: str
    files: dict[str, bytes]
    main: str
    text: str = ""  # the MLIR text when there is one (for the known-defect checks)


# (class, regex on the detail, description): open defects recorded but not failing the run.
KNOWN: list[tuple[str, str, str]] = []
"""(outcome class, pattern of its detail, what) of open defects; none today. The last two
(dimensions above the int64 range: OverflowError; tfl ops with `none` operands on CPU:
AssertionError) are fixed and fail a run again."""


def _known(outcome: Outcome, case: Case, tool: str, argv: list[str]) -> str | None:
    for cls, pattern, what in KNOWN:
        if outcome.cls == cls and re.search(pattern, outcome.detail):
            return what
    return None


TRACEBACK = "Traceback (most recent call last):"

_FILE_LINE = re.compile(r"(?:^|[\s(])(<stdin>|[^\s:()]+):\d+(?::\d+)?(?::|$|\s)")
"""`file:LINE:` or `file:LINE:COL:` (MLIR text, an OpenVINO IR's XML line; at the end of the
line when xDSL's parse error quotes the source below)."""
_NAMED = re.compile(
    r"\b(?:layer|node|op|operation|input|output|port|initializer|variable|function|attribute)"
    r" '[^']+'|'[\w.$-]+' op\b|inference failed in \S|\bin op '"
)
"""A layer, node, op, port or variable named: `layer 'conv1'`, `node 'Conv_3'`, `'ov.relu' op`
(MLIR's verifier), `input 'x'`, a runtime failure `inference failed in ov.add 'a'`."""
_PREFIX = re.compile(r"^[\w.-]+: (?:internal )?error: ")


def names_input(first: str, inputs: Sequence[str] = ()) -> bool:
    """Whether a diagnostic's first line locates the problem in the input (issue 39 item 6):
    `file:LINE[:COL]:` of an input file (or `<stdin>`), the input file itself, or a layer,
    node, op, port or variable by name. A path of an OUTPUT file (`-o`, `--save-outputs`,
    `--view-graph`) is no location, nor a quoted word without saying what it names. With no
    `inputs` given, any `file:LINE:` counts as a location but a bare file name does not."""
    text = _PREFIX.sub("", first)
    names = {n for path in inputs for n in (path, Path(path).name) if n}
    for m in _FILE_LINE.finditer(text):
        if m.group(1) == "<stdin>" or not inputs or m.group(1) in names:
            return True
    if _NAMED.search(text):
        return True
    return any(re.search(rf"(?:^|[\s'\"(]){re.escape(n)}(?:$|[\s'\":,)])", text) for n in names)


_WARNING = re.compile(r"^\S+\.py:\d+: \w*Warning: .*$", re.MULTILINE)
"""A Python warning as `warnings.showwarning` prints it (issue 39: numpy RuntimeWarnings)."""


def classify(rc: int | None, stderr: str, inputs: Sequence[str] = ()) -> Outcome:
    """The outcome class of one finished run (exit code and stderr); `inputs` are the paths of
    the files the run read (see `names_input`)."""
    first = stderr.strip().split("\n")[0] if stderr.strip() else ""
    if rc is None:
        return Outcome("hang", "no answer within the timeout")
    if rc < 0:
        return Outcome("signal", f"killed by signal {-rc}")
    warning = _WARNING.search(stderr) if rc in (0, 1) else None
    if warning is not None:
        return Outcome("noise", warning.group(0).strip())
    if rc == 0:
        return Outcome("ok", "")
    if rc == 1 and TRACEBACK not in stderr and "internal error:" not in stderr:
        if first and names_input(first, inputs):
            return Outcome("clean-error", first)
        return Outcome("vague-error", first or "(no message)")
    detail = next((line for line in stderr.split("\n") if "internal error" in line), "")
    if not detail:
        lines = [line for line in stderr.strip().split("\n") if line.strip()]
        detail = lines[-1] if lines else f"exit code {rc}"
    return Outcome("internal-error", detail)


class Runner:
    """Runs tool jobs in a long-lived worker process, with a timeout per job; a timeout or a
    crash is confirmed by running the job alone in a fresh subprocess."""

    def __init__(self, timeout: float = 30.0, restart_every: int = 300) -> None:
        self.timeout = timeout
        self.restart_every = restart_every
        self.proc: subprocess.Popen[str] | None = None
        self.jobs = 0

    def _env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.pop("LOWPASS_DEBUG", None)
        env["PYTHONPATH"] = str(FUZZ_DIR.parent) + os.pathsep + env.get("PYTHONPATH", "")
        return env

    def _start(self) -> subprocess.Popen[str]:
        if self.proc is None or self.proc.poll() is not None or self.jobs >= self.restart_every:
            self.close()
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "fuzz.worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                env=self._env(),
                cwd=str(FUZZ_DIR.parent),
            )
            self.jobs = 0
        return self.proc

    def close(self) -> None:
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            self.proc = None

    def run(self, tool: str, argv: list[str]) -> tuple[int | None, str, str]:
        """(exit code or None for a hang, stdout, stderr)."""
        proc = self._start()
        self.jobs += 1
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(json.dumps({"tool": tool, "argv": argv}) + "\n")
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], self.timeout)
            line = proc.stdout.readline() if ready else ""
        except (BrokenPipeError, OSError):
            line = ""
        if line:
            result = json.loads(line)
            return int(result["rc"]), result["stdout"], result["stderr"]
        self.close()  # hung or died: confirm alone
        return self.run_alone(tool, argv)

    # The tools as modules of this interpreter: a run that is not started from an activated
    # venv has no `opt-tool` on PATH (a campaign stopped so on its first confirmation).
    MODULES: ClassVar[dict[str, str]] = {
        "cache-run": "fuzz.cache_run",
        "opt-tool": "lowpass.tools.opt_tool",
        "lowpass-run": "lowpass.tools.lowpass_run",
    }

    def run_alone(self, tool: str, argv: list[str]) -> tuple[int | None, str, str]:
        command = [sys.executable, "-m", self.MODULES[tool]] if tool in self.MODULES else [tool]
        try:
            r = subprocess.run(
                [*command, *argv],
                capture_output=True,
                text=True,
                errors="replace",
                timeout=self.timeout * 2,
                env=self._env(),
                cwd=str(FUZZ_DIR.parent),
            )
        except subprocess.TimeoutExpired:
            return None, "", ""
        return r.returncode, r.stdout[-2000:], clip_stream(r.stderr)


def input_paths(argv: Sequence[str], outputs: Sequence[Path]) -> list[str]:
    """The files a run reads: the arguments (or the `NAME=PATH` values) that are existing
    files before it runs, except its outputs."""
    skip = {str(p) for p in outputs}
    paths = []
    for arg in argv:
        path = arg.split("=", 1)[-1]
        if path not in skip and os.path.isfile(path):
            paths.append(path)
    return paths


# --- seeds ---------------------------------------------------------------------------------------


def collect_seeds(max_bytes: int = 40_000) -> dict[str, list[Case]]:
    """The examples and lit tests of the repository (split at `// -----`), read at run time,
    plus the small seeds committed beside this file."""
    seeds: dict[str, list[Case]] = {"mlir": [], "xml": [], "onnx": []}
    paths = sorted((REPO / "test").rglob("*.mlir")) + sorted((REPO / "examples").glob("*.mlir"))
    paths += sorted((FUZZ_DIR / "Inputs").glob("*.mlir"))
    for path in paths:
        if "lit-out" in path.parts or "Output" in path.parts:
            continue
        text = path.read_text(errors="replace")
        for i, chunk in enumerate(text.split("// -----")):
            if chunk.strip() and len(chunk) <= max_bytes:
                rel = path.relative_to(REPO)
                seeds["mlir"].append(
                    Case(f"{rel}#{i}", {"in.mlir": chunk.encode()}, "in.mlir", chunk)
                )
    for xml in sorted((REPO / "examples").glob("*.xml")) + sorted((REPO / "test").rglob("*.xml")):
        files = {"model.xml": xml.read_bytes()}
        if xml.with_suffix(".bin").is_file():
            files["model.bin"] = xml.with_suffix(".bin").read_bytes()
        seeds["xml"].append(Case(str(xml.relative_to(REPO)), files, "model.xml"))
    for onnx_file in sorted((REPO / "examples").glob("*.onnx")) + sorted(
        (REPO / "test").rglob("*.onnx")
    ):
        seeds["onnx"].append(
            Case(
                str(onnx_file.relative_to(REPO)),
                {"model.onnx": onnx_file.read_bytes()},
                "model.onnx",
            )
        )
    return seeds


# --- the fuzz loop -------------------------------------------------------------------------------


@dataclass
class Stats:
    outcomes: Counter[str] = field(default_factory=Counter)
    runs: int = 0
    inputs: int = 0
    bad: list[dict[str, object]] = field(default_factory=list)


class Fuzzer:
    def __init__(
        self,
        seed: int,
        corpus: Path,
        timeout: float = 30.0,
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.rnd = random.Random(seed)
        self.seed = seed
        self.corpus = corpus
        self.runner = Runner(timeout)
        self.stats = Stats()
        self.seeds = collect_seeds()
        self.log = log or (lambda s: None)
        try:
            import onnx  # noqa: F401

            self.have_onnx = True
            for i, data in enumerate(generate.onnx_models(seed)):
                self.seeds["onnx"].append(
                    Case(f"generate.onnx_models({seed})[{i}]", {"model.onnx": data}, "model.onnx")
                )
        except ImportError:
            self.have_onnx = False
        self.xml_made = False
        try:
            import openvino  # noqa: F401

            self.have_openvino = True
        except ImportError:
            self.have_openvino = False

    def close(self) -> None:
        self.runner.close()

    # one tool run on a case in a fresh folder, with the leftover check
    def _tool(
        self, case: Case, work: Path, tool: str, argv: list[str], outputs: list[Path]
    ) -> tuple[Outcome, int | None]:
        inputs = input_paths(argv, outputs)
        rc, _, stderr = self.runner.run(tool, argv)
        self.stats.runs += 1
        outcome = classify(rc, stderr, inputs)
        if rc not in (0, None) and outcome.cls in ("clean-error", "vague-error", "internal-error"):
            left = [p for p in outputs if p.exists() and not (p.is_dir() and not any(p.iterdir()))]
            if left:
                outcome = Outcome(
                    "leftover-file",
                    f"{left[0].name} left by a failed run ({outcome.cls}: {outcome.detail})",
                )
        self._record(case, work, tool, argv, outcome)
        return outcome, rc

    def _record(self, case: Case, work: Path, tool: str, argv: list[str], outcome: Outcome) -> None:
        self.stats.outcomes[outcome.cls] += 1
        if outcome.cls not in BAD:
            return
        outcome.known = _known(outcome, case, tool, argv)
        key = f"{outcome.cls}-{len(self.stats.bad):05d}"
        folder = self.corpus / key
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in case.files.items():
            (folder / name).write_bytes(data)
        for arg in argv:  # the files the run reads (inputs, an emitted model)
            path = Path(arg.split("=", 1)[-1])
            if path.is_dir() and not path.is_symlink() and work in path.parents:
                for inner in path.iterdir():  # (a cache folder: its blob, not a FIFO)
                    if inner.is_file() and not inner.is_symlink():
                        target = folder / path.relative_to(work) / inner.name
                        target.parent.mkdir(parents=True, exist_ok=True)
                        shutil.copy(inner, target)
            if path.is_file() and work in path.parents:
                target = folder / path.relative_to(work)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(path, target)
                if path.suffix == ".xml" and path.with_suffix(".bin").is_file():
                    shutil.copy(path.with_suffix(".bin"), target.with_suffix(".bin"))
        args = [a.replace(str(work), ".") for a in argv]
        command = (f"PYTHONPATH={FUZZ_DIR.parent} python -m fuzz.cache_run"
                   if tool == "cache-run" else tool)
        repro = f"cd {folder} && {command} {shlex.join(args)}"
        (folder / "repro.sh").write_text(
            f"#!/bin/sh\n# {outcome.cls}: {outcome.detail}\n# from {case.label}\n{repro}\n"
        )
        entry = {
            "class": outcome.cls,
            "detail": outcome.detail[:300],
            "known": outcome.known,
            "case": case.label,
            "repro": repro,
        }
        self.stats.bad.append(entry)
        self.log(
            f"{outcome.cls}{' (known)' if outcome.known else ''}: {outcome.detail[:160]}"
            f"\n    {repro}"
        )

    def one(self) -> None:
        """One fuzz input through the tools."""
        self.stats.inputs += 1
        r = self.rnd.random()
        with tempfile.TemporaryDirectory(prefix="lowpass-fuzz-") as tmp:
            work = Path(tmp)
            if r < 0.03:
                self._cache(work)
            elif r < 0.2:
                self._generated(work)
            elif r < 0.33 and self.seeds["xml"]:
                self._mutated_xml(work)
            elif r < 0.41 and self.have_onnx and self.seeds["onnx"]:
                self._mutated_onnx(work)
            else:
                self._mutated_mlir(work)

    def _write(self, case: Case, work: Path) -> Path:
        for name, data in case.files.items():
            (work / name).write_bytes(data)
        return work / case.main

    def _opt(self, case: Case, work: Path, flags: list[str]) -> tuple[Outcome, Path | None]:
        model = self._write(case, work)
        out_dir = work / "out"
        if self.rnd.random() < 0.25:
            out = out_dir / "out.xml"
            outputs = [out, out.with_suffix(".bin")]
            argv = [str(model), *flags, "--emit=ov-ir", "-o", str(out)]
        else:
            out = out_dir / "out.mlir"
            outputs = [out]
            argv = [str(model), *flags, "-o", str(out)]
        out_dir.mkdir()
        outputs.append(out_dir)
        outcome, rc = self._tool(case, work, "opt-tool", argv, outputs)
        return outcome, (out if rc == 0 else None)

    def _mutated_mlir(self, work: Path) -> None:
        seed = self.rnd.choice(self.seeds["mlir"])
        text = seed.text
        if self.rnd.random() < 0.9:
            text = mutate.mutate_mlir(text, self.rnd)
        case = Case(
            seed.label, {"in.mlir": text.encode("utf-8", "surrogateescape")}, "in.mlir", text
        )
        if self.rnd.random() < 0.05:  # raw bytes: invalid UTF-8
            raw = bytearray(case.files["in.mlir"])
            if raw:
                raw[self.rnd.randrange(len(raw))] = 0xFF
            case.files["in.mlir"] = bytes(raw)
        _outcome, out = self._opt(case, work, self.rnd.choice(PIPELINES))
        if (
            out is not None
            and len(text) < 20_000
            and "func.func @main" in text
            and self.rnd.random() < 0.3
        ):
            self._run_devices(case, work, out, nan=False)

    def _mutated_xml(self, work: Path) -> None:
        seed = self.rnd.choice(self.seeds["xml"])
        xml, bin_data = mutate.mutate_ov_ir(
            seed.files["model.xml"].decode(errors="replace"),
            seed.files.get("model.bin", b""),
            self.rnd,
        )
        files = {"model.xml": xml.encode()}
        if "model.bin" in seed.files:
            files["model.bin"] = bin_data
        case = Case(seed.label, files, "model.xml")
        outcome, _out = self._opt(case, work, self.rnd.choice(PIPELINES[:4]))
        if outcome.cls == "ok" and self.rnd.random() < 0.2:
            self._run_devices(case, work, work / "model.xml", nan=False)

    def _mutated_onnx(self, work: Path) -> None:
        seed = self.rnd.choice(self.seeds["onnx"])
        data = mutate.mutate_onnx(seed.files["model.onnx"], self.rnd)
        case = Case(seed.label, {"model.onnx": data}, "model.onnx")
        outcome, _out = self._opt(case, work, self.rnd.choice(PIPELINES[:3]))
        if outcome.cls == "ok" and self.rnd.random() < 0.2:
            self._run_devices(case, work, work / "model.onnx", nan=False)

    def _generated(self, work: Path) -> None:
        gseed = self.rnd.randrange(1 << 30)
        kind, text, flags = generate.generate(gseed)
        case = Case(f"generate({gseed}) [{kind}]", {"in.mlir": text.encode()}, "in.mlir", text)
        model = self._write(case, work)
        out = work / "out" / "out.mlir"
        out.parent.mkdir()
        _outcome, rc = self._tool(
            case, work, "opt-tool", [str(model), *flags, "-o", str(out)], [out]
        )
        if rc != 0:
            return
        nan = self.rnd.random() < 0.25
        tolerance = QUANT_TOLERANCE if kind == "quant" else (FLOAT_ATOL, FLOAT_RTOL)
        self._run_devices(case, work, out, nan=nan, tolerance=tolerance)
        if not nan and self.rnd.random() < 0.3:  # the emitted OpenVINO IR computes the same
            xml = work / "ir" / "model.xml"
            xml.parent.mkdir()
            _o, rc = self._tool(
                case,
                work,
                "opt-tool",
                [str(out), "--emit=ov-ir", "-o", str(xml)],
                [xml, xml.with_suffix(".bin")],
            )
            if rc == 0:
                self._compare_models(case, work, out, xml)
                if self.rnd.random() < 0.5:
                    self._port_precision(case, work, out, xml)
                if self.have_openvino and self.rnd.random() < 0.5:
                    self._openvino_saved(case, work, out, xml)
        if not self.xml_made and len(self.seeds["xml"]) < 40 and self.rnd.random() < 0.3:
            # generated graphs become OpenVINO IR seeds too
            xml = work / "seed.xml"
            rc2, _, _ = self.runner.run("opt-tool", [str(out), "--emit=ov-ir", "-o", str(xml)])
            if rc2 == 0:
                self.seeds["xml"].append(
                    Case(
                        case.label,
                        {
                            "model.xml": xml.read_bytes(),
                            "model.bin": xml.with_suffix(".bin").read_bytes(),
                        },
                        "model.xml",
                    )
                )

    def _inputs(self, case: Case, work: Path, model: Path, nan: bool) -> list[str] | None:
        """--input arguments of random data (with NaN/Inf when `nan`), or --random-inputs."""
        if not nan:
            return ["--random-inputs", str(self.rnd.randrange(1000))]
        try:
            import lowpass

            compiled = lowpass.Core().compile_model(lowpass.Core().read_model(model), "REFERENCE")
        except Exception:
            return None
        args = []
        rng = np.random.default_rng(self.rnd.randrange(1 << 30))
        for i, port in enumerate(compiled.inputs):
            shape = static_shape(port.shape)
            x = rng.standard_normal(shape).astype(np.float32)
            flat = x.reshape(-1)
            for _ in range(max(1, flat.size // 8)):
                flat[rng.integers(flat.size)] = rng.choice([np.nan, np.inf, -np.inf])
            path = work / f"input{i}.npy"
            np.save(path, x)
            args += ["--input", f"{port.name}={path}"]
        return args

    def _run_devices(
        self,
        case: Case,
        work: Path,
        model: Path,
        nan: bool,
        tolerance: tuple[float, float] = (FLOAT_ATOL, FLOAT_RTOL),
    ) -> None:
        inputs = self._inputs(case, work, model, nan)
        if inputs is None:
            return
        results = {}
        reference = _reference_model(work, model)
        for device in ("REFERENCE", "CPU"):
            save = work / f"saved-{device}"
            runs = reference if device == "REFERENCE" else model
            argv = [str(runs), *inputs, "--device", device, "--save-outputs", str(save)]
            if "ov.variable" in case.text or "low-latency2" in case.label:
                argv += ["--iterations", "3"]
            _outcome, rc = self._tool(case, work, "lowpass-run", argv, [save])
            if rc != 0:
                return
            results[device] = {p.name: np.load(p) for p in save.glob("*.npy")}
        cls = "wrong-nan" if nan else "wrong-result"
        if nan and compare_outputs(results["REFERENCE"], results["CPU"], False, *tolerance):
            peak = reference_peak(model, inputs)
            if peak is not None and peak > np.finfo(np.float32).max / OVERFLOW_MARGIN:
                cls = "overflow-order"
        self._compare(
            case,
            work,
            model,
            results["REFERENCE"],
            results["CPU"],
            cls,
            [str(model), *inputs, "--device", "CPU"],
            "compare with --device REFERENCE",
            tolerance=tolerance,
        )

    def _cache(self, work: Path) -> None:
        """A generated graph compiled on CPU with CACHE_DIR (`cache_run.py`), its blob damaged
        (`mutate.damage_blob`: a header field, a bit anywhere or in a section, a consistent
        blob of another graph, a truncated file, a FIFO, folder, device or dangling link in
        its place), then compiled and run again: a miss or a hit, never a crash, a hang or
        other outputs (exactly the same: a miss compiles the same code)."""
        gseed = self.rnd.randrange(1 << 30)
        kind, text, flags = generate.generate(gseed)
        case = Case(f"generate({gseed}) [{kind}] CACHE_DIR", {"in.mlir": text.encode()},
                    "in.mlir", text)
        model = self._write(case, work)
        if flags:
            out = work / "out" / "out.mlir"
            out.parent.mkdir()
            _o, rc = self._tool(case, work, "opt-tool", [str(model), *flags, "-o", str(out)],
                                [out])
            if rc != 0:
                return
            model = out
        cache = work / "cache"
        cache.mkdir()
        seed = str(self.rnd.randrange(1000))
        first = work / "first.npz"
        _o, rc = self._tool(case, work, "cache-run", [str(model), str(cache), str(first), seed],
                            [])
        blobs = sorted(cache.glob("*.blob"))
        if rc != 0 or not blobs:
            return
        what = mutate.damage_blob(blobs[0], self.rnd)
        second = work / "second.npz"
        argv = [str(model), str(cache), str(second), seed]
        _o, rc = self._tool(case, work, "cache-run", argv, [])
        if rc != 0:
            return
        with np.load(first) as a, np.load(second) as b:
            want, got = dict(a), dict(b)
        self._compare(case, work, model, want, got, "wrong-result", argv,
                      f"CACHE_DIR blob damaged: {what}", exact=True)

    def _port_precision(self, case: Case, work: Path, mlir: Path, xml: Path) -> None:
        """The emitted IR with one op's output port `precision` changed computes the same:
        OpenVINO infers the op's type and does not use it (issue 39: an I32 MatMul port made
        an integer MatMul)."""
        import xml.etree.ElementTree as ET

        root = ET.fromstring(xml.read_text())
        if not mutate.set_port_precision(root, self.rnd):
            return
        changed = work / "precision" / "model.xml"
        changed.parent.mkdir()
        changed.write_text(ET.tostring(root, encoding="unicode"))
        shutil.copy(xml.with_suffix(".bin"), changed.with_suffix(".bin"))
        self._compare_models(case, work, mlir, changed, "a port's precision changed")

    def _openvino_saved(self, case: Case, work: Path, mlir: Path, xml: Path) -> None:
        """The emitted IR read and saved by OpenVINO itself (`openvino.save_model`, no fp16
        compression) reads and computes the same in lowpass."""
        import openvino as ov

        saved = work / "openvino" / "model.xml"
        saved.parent.mkdir()
        try:
            ov.save_model(ov.Core().read_model(str(xml)), str(saved), compress_to_fp16=False)
        except Exception:
            return  # (OpenVINO refuses what it refuses: not ours to judge here)
        self._compare_models(case, work, mlir, saved, "saved by openvino.save_model",
                             exact=False)

    def _compare_models(
        self, case: Case, work: Path, mlir: Path, xml: Path, what: str = "",
        exact: bool = True,
    ) -> None:
        """The OpenVINO IR written by --emit=ov-ir computes what the MLIR did (REFERENCE)."""
        inputs = ["--random-inputs", "7"]
        results = []
        for model in (mlir, xml):
            save = work / f"saved-{model.parent.name}-{model.suffix[1:]}"
            _outcome, rc = self._tool(
                case,
                work,
                "lowpass-run",
                [str(model), *inputs, "--device", "REFERENCE", "--save-outputs", str(save)],
                [save],
            )
            if rc != 0:
                return
            results.append({p.name: np.load(p) for p in save.glob("*.npy")})
        self._compare(
            case,
            work,
            xml,
            results[0],
            results[1],
            "wrong-result",
            [str(xml), *inputs, "--device", "REFERENCE"],
            f"REFERENCE on the emitted IR{f' ({what})' if what else ''}; compare with "
            f"lowpass-run {mlir.name} {inputs[0]} 7 --device REFERENCE",
            exact=exact,
        )

    def _compare(
        self,
        case: Case,
        work: Path,
        model: Path,
        want: dict[str, np.ndarray],
        got: dict[str, np.ndarray],
        cls: str,
        argv: list[str],
        note: str,
        exact: bool = False,
        tolerance: tuple[float, float] = (FLOAT_ATOL, FLOAT_RTOL),
    ) -> None:
        problem = compare_outputs(want, got, exact, *tolerance)
        outcome = Outcome(cls, f"{problem} ({note})") if problem else Outcome("ok", "")
        self._record(case, work, "lowpass-run", argv, outcome)

    def run(
        self,
        inputs: int,
        seconds: float | None = None,
        progress: Callable[[Stats, float], None] | None = None,
        every: int = 500,
    ) -> Stats:
        """Fuzz `inputs` inputs (or for `seconds`); `progress(stats, elapsed)` every `every`."""
        start = time.monotonic()
        try:
            for i in range(inputs):
                if seconds is not None and time.monotonic() - start > seconds:
                    break
                self.one()
                if progress is not None and (i + 1) % every == 0:
                    progress(self.stats, time.monotonic() - start)
        finally:
            self.close()
        return self.stats


OVERFLOW_MARGIN = 100.0


def reference_peak(model: Path, inputs: list[str]) -> float | None:
    """The largest finite magnitude of any f32 value REFERENCE computes for the model on the
    `--input name=file` arguments (None if it cannot run it in this process)."""
    import lowpass
    from lowpass.runtime.interpreter import OpTiming, ReferenceExecutor

    class Peak(OpTiming):
        value = 0.0

        def will_interpret_op(self, op: object, args: tuple[object, ...]) -> None:
            pass

        def did_interpret_op(self, op: object, results: tuple[object, ...]) -> None:
            for r in results:
                a = np.asarray(r)
                if a.dtype == np.float32 and a.size:
                    finite = np.abs(a[np.isfinite(a)])
                    if finite.size:
                        self.value = max(self.value, float(finite.max()))

    try:
        files = dict(arg.split("=", 1) for arg in inputs if "=" in arg)
        model_obj = lowpass.Core().read_model(model)
        arrays = [np.load(files[p.name]) for p in model_obj.inputs]
        peak = Peak()
        with np.errstate(all="ignore"):  # the run's overflows are what it looks for
            ReferenceExecutor(model_obj.module, timing=peak).run(arrays)
        return peak.value
    except Exception:
        return None


def compare_outputs(
    want: dict[str, np.ndarray],
    got: dict[str, np.ndarray],
    exact: bool = False,
    atol: float = FLOAT_ATOL,
    rtol: float = FLOAT_RTOL,
) -> str:
    """'' when `got` matches `want`: integers (and `exact`) bit for bit, floats within
    atol * max(1, max |want|) + rtol |want|, NaN and +-Inf at the same places."""
    if sorted(want) != sorted(got):
        return f"outputs {sorted(got)} instead of {sorted(want)}"
    for name in sorted(want):
        w, g = want[name], got[name]
        if w.shape != g.shape or w.dtype != g.dtype:
            return f"{name}: {g.dtype}{list(g.shape)} instead of {w.dtype}{list(w.shape)}"
        if w.dtype.kind != "f" or exact:
            if not np.array_equal(w, g, equal_nan=w.dtype.kind == "f"):
                bad = np.argwhere(
                    ~((w == g) | (np.isnan(w) & np.isnan(g)) if w.dtype.kind == "f" else (w == g))
                )
                i = tuple(bad[0])
                return f"{name}{list(i)}: {g[i]!r} instead of {w[i]!r} (exact)"
            continue
        w64, g64 = w.astype(np.float64), g.astype(np.float64)
        special = ~np.isfinite(w64) | ~np.isfinite(g64)
        same_special = (np.isnan(w64) & np.isnan(g64)) | (w64 == g64)
        if (special & ~same_special).any():
            i = tuple(np.argwhere(special & ~same_special)[0])
            return f"{name}{list(i)}: {g[i]!r} instead of {w[i]!r}"
        finite = np.where(special, 0.0, w64)
        scale = max(1.0, float(np.abs(finite).max(initial=0.0)))
        err = np.abs(np.where(special, 0.0, g64) - finite)
        limit = atol * scale + rtol * np.abs(finite)
        if (err > limit).any():
            i = tuple(np.argwhere(err > limit)[0])
            return f"{name}{list(i)}: {g[i]!r} instead of {w[i]!r} (error {err[i]:.3g})"
    return ""


def summary(stats: Stats, seconds: float) -> str:
    bad = Counter(str(b["class"]) + (" (known)" if b["known"] else "") for b in stats.bad)
    lines = [
        f"{stats.inputs} inputs, {stats.runs} tool runs in {seconds:.0f} s",
        "outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(stats.outcomes.items())),
    ]
    if bad:
        lines.append("bad cases: " + ", ".join(f"{k} {v}" for k, v in sorted(bad.items())))
    return "\n".join(lines)


def _reference_model(work: Path, model: Path) -> Path:
    """The model that REFERENCE runs for a comparison with CPU: the CPU device runs `lpt` on
    a quantized model that did not go through it (LP_TRANSFORMS_MODE, as OpenVINO's plugin),
    so REFERENCE runs the `lpt` of it; any other model as it is (also one that cannot be
    read or transformed: the CPU run then reports that)."""
    try:
        from lowpass.frontends import read_model_file
        from lowpass.ir import print_module
        from lowpass.passes.lpt import is_low_precision, is_quantized, run_lpt

        module = read_model_file(model)
        if not is_quantized(module) or is_low_precision(module):
            return model
        run_lpt(module)
        out = work / "reference-lpt" / "model.mlir"
        out.parent.mkdir(exist_ok=True)
        out.write_text(print_module(module))
        return out
    except Exception:
        return model
