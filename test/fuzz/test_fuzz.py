"""
The short deterministic fuzz run (fixed seed, well under 60 s) and checks of the harness
itself: the classifier, the output comparison, the mutators, the generator and each kind of
CACHE_DIR blob damage. The long run for release checks is `python test/fuzz/run.py --inputs
25000 --seed 2026` (docs/fuzzing.md).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fuzz import generate, mutate
from fuzz.harness import (
    Fuzzer,
    Runner,
    classify,
    compare_outputs,
    input_paths,
    names_input,
    reference_peak,
    summary,
)

SHORT_INPUTS = 100
"""Inputs of the short run: about 30 s on an idle AVX2 Zen 3 core, under 60 s loaded (700
inputs took ~200 s of pytest time on the loaded 2-core machine); the long run (docs/fuzzing.md)
is for releases."""


SHORT_SEED = 18


def test_short_fuzz_run_finds_no_new_bad_case(tmp_path: Path) -> None:
    fuzzer = Fuzzer(seed=SHORT_SEED, corpus=tmp_path / "corpus")
    stats = fuzzer.run(SHORT_INPUTS)
    print(summary(stats, 0))
    assert stats.inputs == SHORT_INPUTS
    assert stats.outcomes["ok"] > 0 and stats.outcomes["clean-error"] > 0
    new = [b for b in stats.bad if b["known"] is None]
    assert not new, "new bad cases (saved under the corpus folder):\n" + "\n".join(
        f"{b['class']}: {b['detail']}\n  {b['repro']}" for b in new
    )


@pytest.mark.parametrize(
    ("rc", "stderr", "cls"),
    [
        (0, "", "ok"),
        (1, "in.mlir:3:5: error: unexpected token\n  %x = \n    ^", "clean-error"),
        (
            1,
            "opt-tool: error: model.xml: error: layer 'conv1' (id 3, type Convolution): x",
            "clean-error",
        ),
        (1, "lowpass-run: error: something went wrong", "vague-error"),
        (
            2,
            "opt-tool: internal error: KeyError: 3 (set LOWPASS_DEBUG=1 for a traceback)",
            "internal-error",
        ),
        (1, "Traceback (most recent call last):\n  File x\nValueError: y", "internal-error"),
        (1, "in.mlir:3:1: error: operation 'Traceback' is not registered", "clean-error"),
        (None, "", "hang"),
        (-11, "", "signal"),
        (3, "", "internal-error"),
        (
            0,
            "/x/lowpass/dialects/ov/activation.py:316: RuntimeWarning: invalid value "
            "encountered in subtract\n  shifted = x32 - np.max(x32)",
            "noise",
        ),
        (1, "/x/np.py:3: RuntimeWarning: overflow\nin.mlir:3:1: error: x", "noise"),
        (1, "in.mlir:3:1: error: RuntimeWarning: is a word here", "clean-error"),
    ],
)
def test_outcome_classes(rc: int | None, stderr: str, cls: str) -> None:
    assert classify(rc, stderr).cls == cls


IN = ["/tmp/w/in.mlir"]
XML = ["/tmp/w/model.xml", "/tmp/w/model.bin"]


@pytest.mark.parametrize(
    ("first", "inputs", "located"),
    [
        ("/tmp/w/in.mlir:3:5: error: unexpected token", IN, True),
        ("opt-tool: error: /tmp/w/in.mlir: the module must hold a @main function", IN, True),
        ("opt-tool: error: in.mlir: ov.name of input 0 must be a string", IN, True),
        ("<stdin>:1:1: error: x", [], True),
        ("opt-tool: error: /tmp/w/in.mlir:2:3", IN, True),  # xDSL's ParseError, source below
        ("model.xml:4: error: layer 'x' (id 0, type Parameter): bad dim", XML, True),
        ("opt-tool: error: model.onnx: node 'Conv_0' (Conv): pads must be 4 integers", [], True),
        ("lowpass-run: error: inference failed in ov.add 'a' (line 3): shapes differ", IN, True),
        ("lowpass-run: error: input 'x': expected f32[1, 4], got f64[2]", IN, True),
        ("lowpass-run: error: inference failed in Transpose 'tr19' (ov.transpose): order "
         "[-70, -44] is not a permutation of [0, 1]", IN, True),
        # fuzz campaign 16: the same check before the op was named
        ("lowpass-run: error: order [-70, -44] is not a permutation of [0, 1]", IN, False),
        # issue 39 item 6: what the old classifier let through
        ("lowpass-run: error: maximum supported dimension for an ndarray is currently 64", IN,
         False),
        ("lowpass-run: error: negative dimensions are not allowed", IN, False),
        ("lowpass-run: error: out of memory (a tensor too large for this machine?)", IN, False),
        ("lowpass-run: error: --save-outputs /tmp/w/out: cannot write (embedded null byte)", IN,
         False),
        ("opt-tool: error: out/g.dot: cannot write the picture", IN, False),
        ("opt-tool: error: /tmp/w/out/out.xml: Format not implemented for i128", IN, False),
        ("opt-tool: error: unsupported element type 'ui1'", IN, False),
        ("opt-tool: error: the op is not supported", IN, False),
        ("lowpass-run: error: 'abc' is not valid", IN, False),
        ("lowpass-run: error: out.mlir:3:5: error: x", IN, False),  # an output's line
        ("lowpass-run: error: something in.mlir.bak went wrong", IN, False),
    ],
)
def test_a_clean_error_names_the_input(first: str, inputs: list[str], located: bool) -> None:
    assert names_input(first, inputs) == located
    assert classify(1, first + "\n", inputs).cls == ("clean-error" if located else "vague-error")


def test_input_paths_are_the_files_read(tmp_path: Path) -> None:
    model, data, out = tmp_path / "m.xml", tmp_path / "x.npy", tmp_path / "o.xml"
    for path in (model, data, out):
        path.write_text("")
    argv = [str(model), "--input", f"x={data}", "-o", str(out), "--device", "CPU"]
    assert input_paths(argv, [out]) == [str(model), str(data)]


def test_compare_outputs_tolerances() -> None:
    want = {"y.npy": np.array([1.0, 2.0, np.nan, np.inf], np.float32)}
    assert compare_outputs(want, {"y.npy": want["y.npy"] * np.float32(1 + 1e-6)}) == ""
    assert "instead of" in compare_outputs(want, {"y.npy": want["y.npy"] + np.float32(0.01)})
    zero_nan = want["y.npy"].copy()
    zero_nan[2] = 0.0
    assert "instead of" in compare_outputs(want, {"y.npy": zero_nan})
    ints = {"q.npy": np.array([1, 2, 3], np.uint8)}
    assert "exact" in compare_outputs(ints, {"q.npy": np.array([1, 2, 4], np.uint8)})
    assert "exact" in compare_outputs(
        want, {"y.npy": want["y.npy"] * np.float32(1 + 1e-6)}, exact=True
    )


def test_mutators_are_deterministic_and_change_the_input() -> None:
    text = (Path(__file__).parent / "Inputs" / "generated-float.mlir").read_text()
    a = [mutate.mutate_mlir(text, random.Random(i)) for i in range(20)]
    b = [mutate.mutate_mlir(text, random.Random(i)) for i in range(20)]
    assert a == b
    assert sum(m != text for m in a) >= 18


def test_generated_graphs_are_deterministic() -> None:
    assert generate.generate(7) == generate.generate(7)
    kinds = {generate.generate(seed)[0] for seed in range(40)}
    assert kinds == set(generate.KINDS)


def test_runner_answers_and_reports_a_timeout_as_a_hang(tmp_path: Path) -> None:
    model = tmp_path / "in.mlir"
    model.write_text((Path(__file__).parent / "Inputs" / "generated-state.mlir").read_text())
    runner = Runner(timeout=60)
    try:
        rc, out, err = runner.run("opt-tool", [str(model)])
        assert (rc, err) == (0, "") and "ov.read_value" in out
        rc, _, err = runner.run("opt-tool", [str(model), "--no-such-flag"])
        assert rc == 1 and "unknown flag '--no-such-flag'" in err  # a one-line usage error
    finally:
        runner.close()
    # 10 ms is less than a start-up: neither the worker nor the confirming subprocess answers.
    slow = Runner(timeout=0.01)
    try:
        assert slow.run("opt-tool", [str(model)])[0] is None
    finally:
        slow.close()


def test_reference_peak_sees_values_near_the_f32_limit(tmp_path: Path) -> None:
    # A MaxPool window of NaNs gives -3.4e38 (OpenVINO's rule): sums of such values overflow
    # or not depending on the order, so a NaN-input mismatch there is `overflow-order`.
    model = tmp_path / "m.mlir"
    window = "strides = array<i64: 2, 2>, kernel = array<i64: 2, 2>"
    pads = "pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>"
    t, r = "tensor<1x1x2x2xf32>", "tensor<1x1x1x1xf32>"
    model.write_text(f"""func.func @main(%x: {t} {{ov.name = "x"}}) -> {r} {{
  %m = ov.max_pool %x {{{window}, {pads}}} : ({t}) -> {r}
  func.return %m : {r}
}}
""")
    for values, near_limit in ((np.nan, True), (1.5, False)):
        np.save(tmp_path / "x.npy", np.full((1, 1, 2, 2), values, np.float32))
        peak = reference_peak(model, ["--input", f"x={tmp_path / 'x.npy'}"])
        assert peak is not None and (peak > 3e38) == near_limit, peak


def test_cache_campaign_finds_no_bad_case(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each kind of CACHE_DIR blob damage once (issue 39: header fields, constant arrays,
    special files): the second compile is a miss or a hit, same outputs, no crash or hang."""
    fuzzer = Fuzzer(seed=3, corpus=tmp_path / "corpus")
    try:
        for damage in mutate.BLOB_DAMAGES:
            monkeypatch.setattr(mutate, "BLOB_DAMAGES", [damage])
            work = tmp_path / damage
            work.mkdir()
            before = fuzzer.stats.outcomes["ok"]
            fuzzer._cache(work)
            # both compiles and the comparison
            assert fuzzer.stats.outcomes["ok"] - before >= 3, (damage, fuzzer.stats)
    finally:
        fuzzer.close()
    assert not fuzzer.stats.bad, fuzzer.stats.bad


def test_port_precision_and_encoding_mutations() -> None:
    import xml.etree.ElementTree as ET

    xml = (Path(__file__).resolve().parents[2] / "examples" / "qlstm.xml").read_text()
    root = ET.fromstring(xml)
    assert mutate.set_port_precision(root, random.Random(1))
    assert ET.tostring(root, encoding="unicode") != ET.tostring(ET.fromstring(xml),
                                                                encoding="unicode")
    declared = {mutate.declare_encoding(xml, random.Random(i))[:60] for i in range(40)}
    assert any("x-bogus-9" in d for d in declared) and any("Shift_JIS" in d for d in declared)


def test_confirmation_runs_the_tools_without_path(monkeypatch: pytest.MonkeyPatch) -> None:
    # A run confirmed alone starts the tool as a module of this interpreter: a campaign not
    # started from an activated venv (no opt-tool on PATH) stopped with FileNotFoundError.
    monkeypatch.setenv("PATH", "/nonexistent")
    rc, out, _err = Runner(timeout=60).run_alone("opt-tool", ["--help"])
    assert rc == 0 and out  # (the help text, its last 2000 characters)
