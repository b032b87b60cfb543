"""
lowering/perf_map.py: with `LOWPASS_JIT_PROFILE=2` every library lowpass loads appends its
functions to /tmp/perf-<pid>.map, where `perf report` finds the JIT code's symbols. The
variable is read once per process, so the runs that set it are child processes.
"""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import llvmlite.binding as llvm
import pytest

from lowpass.lowering import jit, perf_map
from lowpass.lowering.target import create_target_machine, host_cpu

from .typed import lowpass_run_error

ROOT = Path(__file__).resolve().parents[3]
CONVNET = ROOT / "examples" / "convnet.mlir"

# (an internal leaf function, which the external one calls: its code has no relocation, so
# its bytes in memory are those of the object)
_IR = """
define internal i64 @twice(i64 %x) noinline {
  %y = mul i64 %x, 2
  ret i64 %y
}

define i64 @entry(i64 %x) {
  %y = call i64 @twice(i64 %x)
  %z = add i64 %y, 1
  ret i64 %z
}
"""


def _object() -> bytes:
    mod = llvm.parse_assembly(_IR)
    mod.triple = host_cpu().triple
    tm = create_target_machine()
    mod.data_layout = str(tm.target_data)
    return bytes(tm.emit_object(mod))


def _elf_host() -> bool:
    return _object()[:4] == b"\x7fELF"


@pytest.fixture
def flags_from(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """The variable read anew by `jit_profile_flags` (its cache cleared before and after)."""
    perf_map.jit_profile_flags.cache_clear()
    yield monkeypatch
    monkeypatch.undo()
    perf_map.jit_profile_flags.cache_clear()


@pytest.mark.parametrize("value, flags", [("", 0), ("0", 0), ("2", 2), ("06", 6), (" 14 ", 14),
                                          ("1", 1)])
def test_flags_are_onednns(flags_from: pytest.MonkeyPatch, value: str, flags: int) -> None:
    flags_from.setenv(perf_map.JIT_PROFILE_VARIABLE, value)
    assert perf_map.jit_profile_flags() == flags
    # (only the perf-map bit writes the map, on Linux)
    assert perf_map.enabled() == (bool(flags & 2) and sys.platform.startswith("linux"))


@pytest.mark.parametrize("value", ["abc", "-2", "2.0", "0x2"])
def test_a_bad_value_is_an_error(flags_from: pytest.MonkeyPatch, value: str) -> None:
    flags_from.setenv(perf_map.JIT_PROFILE_VARIABLE, value)
    with pytest.raises(ValueError) as error:
        perf_map.jit_profile_flags()
    assert str(error.value) == (
        f"LOWPASS_JIT_PROFILE={value}: expected oneDNN's profiling flags, a non-negative "
        "integer (2: a perf map, /tmp/perf-<pid>.map)")


@pytest.mark.skipif(not _elf_host(), reason="the host's objects are not ELF")
def test_function_symbols_name_every_function() -> None:
    symbols = {name: rest for name, *rest in perf_map.function_symbols(_object())}
    assert set(symbols) == {"twice", "entry"}
    (twice_section, _, twice_size, twice_external) = symbols["twice"]
    (entry_section, _, entry_size, entry_external) = symbols["entry"]
    assert (twice_external, entry_external) == (False, True)
    assert twice_section == entry_section and twice_size > 0 and entry_size > 0


def test_another_format_has_no_symbols() -> None:
    assert perf_map.function_symbols(b"MZ\x90\x00" + bytes(60)) == []


@pytest.mark.skipif(not _elf_host(), reason="the host's objects are not ELF")
def test_each_function_is_placed_at_its_code() -> None:
    data = _object()
    library = jit.load_objects([data], {})
    entry = library.function("entry", ctypes.c_int64, ctypes.c_int64)
    assert entry(20) == 41
    lines = perf_map.perf_map_lines(data, library.engine.get_function_address)
    placed = {}
    for line in lines:
        start, size, name = line.split()
        placed[name] = (int(start, 16), int(size, 16))
    assert set(placed) == {"twice", "entry"}
    assert placed["entry"][0] == library.address("entry")
    # the internal function's bytes where the map says it is are its code in the object
    start, size = placed["twice"]
    assert size > 0 and ctypes.string_at(start, size) in data


_RUN = """
import json, os, sys
from pathlib import Path
import lowpass
path = Path(f"/tmp/perf-{os.getpid()}.map")
path.unlink(missing_ok=True)  # (an earlier process's of the same pid)
compiled = lowpass.Core().compile_model(sys.argv[1], "CPU")
request = compiled.create_infer_request()
library = request.device_request.graph.library
from lowpass.lowering import jit  # (a library of `compile_ir`: MCJIT compiles its module)
kernel = jit.compile_ir("define i64 @perf_map_probe(i64 %x) {\\n  ret i64 %x\\n}\\n")
text = path.read_text() if path.exists() else None
path.unlink(missing_ok=True)
print(json.dumps({"main": library.address("lowpass_main"),
                  "probe": kernel.address("perf_map_probe"), "map": text}))
"""


def _run_convnet(value: str | None) -> dict:
    # (PYTHONPERFSUPPORT: Python 3.12's own perf map would write the same file)
    env = {k: v for k, v in os.environ.items()
           if k not in (perf_map.JIT_PROFILE_VARIABLE, "PYTHONPERFSUPPORT")}
    if value is not None:
        env[perf_map.JIT_PROFILE_VARIABLE] = value
    result = subprocess.run([sys.executable, "-c", _RUN, str(CONVNET)], capture_output=True,
                            text=True, env=env, timeout=600)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


@pytest.mark.skipif(not sys.platform.startswith("linux") or not _elf_host(),
                    reason="perf maps are Linux's")
def test_a_compiled_model_is_in_the_perf_map() -> None:
    run = _run_convnet("2")
    assert run["map"] is not None
    placed = {}
    for line in run["map"].splitlines():
        start, size, name = line.split(" ", 2)
        assert int(size, 16) > 0
        placed[name] = int(start, 16)
    assert placed["lowpass_main"] == run["main"]
    assert placed["perf_map_probe"] == run["probe"]
    # the kernels (internal functions of the graph's objects) by name
    assert any(".micro" in name for name in placed)
    assert any(name.endswith("_im2col") or name.endswith("_nhwc") for name in placed)


def test_nothing_is_written_without_the_flag() -> None:
    assert _run_convnet(None)["map"] is None
    assert _run_convnet("1")["map"] is None  # (VTune's flag: not lowpass's)


@pytest.mark.skipif(not sys.platform.startswith("linux") or not _elf_host(),
                    reason="perf maps are Linux's")
def test_an_unwritable_map_is_a_warning_once(flags_from: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    """Profiling must not stop the code it profiles: a map that cannot be written (here a
    directory in its place) is one warning, and the library loads and runs."""
    flags_from.setenv(perf_map.JIT_PROFILE_VARIABLE, "2")
    flags_from.setattr(perf_map, "perf_map_path", lambda: tmp_path)  # (a directory)
    flags_from.setattr(perf_map, "_unwritable", [])
    data = _object()
    with pytest.warns(RuntimeWarning, match="LOWPASS_JIT_PROFILE: cannot write .*: no perf map"):
        library = jit.load_objects([data], {})
    assert library.function("entry", ctypes.c_int64, ctypes.c_int64)(1) == 3
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (not again)
        jit.load_objects([data], {})


def test_a_bad_value_is_a_one_line_error_of_lowpass_run() -> None:
    assert lowpass_run_error(CONVNET, perf_map.JIT_PROFILE_VARIABLE, "abc") == (
        f"lowpass-run: error: {CONVNET}: LOWPASS_JIT_PROFILE=abc: expected oneDNN's profiling "
        "flags, a non-negative integer (2: a perf map, /tmp/perf-<pid>.map)\n")
