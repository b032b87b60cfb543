# lit configuration of the lowpass FileCheck tests (run: `lit test/`).
# The RUN lines call the installed `opt-tool`, `lowpass-run` and the Python `filecheck`.
from __future__ import annotations

import atexit
import importlib.util
import os
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import lit.formats
import lit.util

if TYPE_CHECKING:
    from lit.LitConfig import LitConfig
    from lit.TestingConfig import TestingConfig

# The two names that lit defines when it runs this file, typed.
config: TestingConfig = globals()["config"]
lit_config: LitConfig = globals()["lit_config"]

config.name = "lowpass"
# lit >= 23 rejects ShTest(execute_external=True); the internal shell handles pipes.
config.test_format = lit.formats.ShTest()
config.suffixes = [".mlir"]
config.excludes = ["Inputs", "python", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(os.environ.get("LOWPASS_LIT_OUT", "lit-out"))
config.environment["PATH"] = os.environ["PATH"]
# The ISA caps (docs/lowering.md): `LOWPASS_MAX_CPU_ISA=avx2 ONEDNN_MAX_CPU_ISA=AVX2 lit test/`
# runs the tools as on an AVX2 host.
for var in ("VIRTUAL_ENV", "PYTHONPATH", "HOME", "LOWPASS_MAX_CPU_ISA", "ONEDNN_MAX_CPU_ISA"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
if shutil.which("filecheck") is None:
    lit_config.fatal("the `filecheck` command is missing: pip install filecheck")
if shutil.which("opt-tool") is None:
    lit_config.fatal("the `opt-tool` command is missing: pip install .")


def serve_tools() -> None:
    """
    `opt-tool`, `lowpass-run` and `filecheck` from a pre-imported server that forks per RUN
    line (test/tool_server.py: the tests' time was mostly Python start-up). The servers
    (lowpass's tools, filecheck) start here with the tests' environment and stop when lit
    exits; the tests' PATH starts with their clients. `LOWPASS_LIT_FRESH_PROCESSES=1` runs
    fresh processes.
    """
    spec = importlib.util.spec_from_file_location(
        "lowpass_lit_tool_server", os.path.join(os.path.dirname(__file__), "tool_server.py")
    )
    assert spec is not None and spec.loader is not None
    tool_server = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool_server)
    directory = Path(tempfile.mkdtemp(prefix="lowpass-lit-"))
    servers = tool_server.start(list(tool_server.SERVERS), directory,
                                dict(config.environment))  # fmt: skip

    def stop() -> None:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait()
        shutil.rmtree(directory, ignore_errors=True)

    atexit.register(stop)
    config.environment["PATH"] = os.pathsep.join([str(directory), config.environment["PATH"]])


if os.environ.get("LOWPASS_LIT_FRESH_PROCESSES", "") in ("", "0"):
    serve_tools()
# Round trip through the generic form and back (like xDSL's XDSL_ROUNDTRIP and MLIR's ops.mlir).
config.substitutions.append(
    ("%roundtrip", "opt-tool %s --print-op-generic | opt-tool | filecheck %s")
)
# A hung test must fail, not hang the run; a slow one under load must pass. lit enforces the
# limit only with psutil (the `test` extra installs it: it kills the test's processes);
# without psutil lit's timer thread raises instead of stopping the test, so the limit is set
# only where it works. 600 s: the slowest tests (passes/reshape.mlir: 8 opt-tool runs, each
# a Python start) took 40-60 s under a load of 12-16 on 2 cores (`lit --time-tests`; the
# former 60 s limit failed reshape.mlir there), so ten times that, and a hang fails in 10 min.
if lit.util.killProcessAndChildrenIsSupported()[0]:
    config.maxIndividualTestTime = 600

# Host features, as the kernels see them (after LOWPASS_MAX_CPU_ISA's cap): a test of what
# only some hosts run says `// REQUIRES: avx512-bf16` (the bf16 GEMM kernels), its
# counterpart for the other hosts `// UNSUPPORTED: avx512-bf16`.
from lowpass.lowering.target import host_cpu  # noqa: E402

if host_cpu().avx512_bf16:
    config.available_features.add("avx512-bf16")

# Optional peers: tests that read .onnx files say `// REQUIRES: onnx`.
if importlib.util.find_spec("onnx") is not None:
    config.available_features.add("onnx")
