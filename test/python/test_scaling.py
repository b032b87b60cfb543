"""Models with many inputs and outputs are handled in linear time (issue 18, defect 11: 20k
inputs in one model took roughly quadratic time). Twice the size must take less than four
times the CPU time (a quadratic step gives four times; linear work two times), measured with
`time.process_time`, the best of three, so that load on the machine does not matter. The larger
size is measured only until one measurement is under the bound: the best of three is under it
exactly when one of the three is, so the verdict is the same at a third of the cost."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

import numpy as np

import lowpass
from lowpass.dialects.graph import entry_function, graph_input_names, graph_output_names
from lowpass.frontends.ov_ir import read_ov_ir_bytes, serialize_ov_ir
from lowpass.ir import parse_module, print_module, verify_module


def _many(n: int) -> str:
    args = ", ".join(f"%a{i}: tensor<2xf32> {{ov.name = \"in/{i}\"}}" for i in range(n))
    body = "\n".join(
        f'  %r{i} = ov.relu %a{i} {{ov.name = "relu/{i}"}} : (tensor<2xf32>) -> tensor<2xf32>'
        for i in range(n)
    )
    results = ", ".join(f"%r{i}" for i in range(n))
    types = ", ".join("tensor<2xf32>" for _ in range(n))
    return (
        f"func.func @main({args}) -> ({types}) {{\n{body}\n"
        f"  func.return {results} : {types}\n}}\n"
    )


def _work(n: int) -> Callable[[], None]:
    text = _many(n)

    def run() -> None:
        module, _ = parse_module(text)
        verify_module(module)
        function = entry_function(module)
        assert len(graph_input_names(function)) == n
        assert len(graph_output_names(function)) == n
        print_module(module)
        xml, weights = serialize_ov_ir(module)
        read_ov_ir_bytes(xml, weights)
        compiled = lowpass.Core().compile_model(module, "REFERENCE")
        request = compiled.create_infer_request()
        request.infer({f"in/{i}": np.ones(2, np.float32) for i in range(n)})

    return run


def _cpu_seconds(work: Callable[[], None], under: float = 0.0, tries: int = 3) -> float:
    """The best of `tries` CPU times of `work`; with `under`, the first one below it if any.
    The garbage collector is off while it runs: a full collection of a test worker's heap
    (tens of ms, from the objects of the tests before) that lands in one measurement and not
    the other made linear work look 8.4x slower at 4x the size."""
    best = float("inf")
    enabled = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        for _ in range(tries):
            start = time.process_time()
            work()
            best = min(best, time.process_time() - start)
            if best < under:
                break
    finally:
        if enabled:
            gc.enable()
    return best


def test_many_inputs_scale_linearly() -> None:
    small = _cpu_seconds(_work(400))
    large = _cpu_seconds(_work(800), under=4 * small)
    assert large < 4 * small, f"400 inputs: {small:.2f} s, 800 inputs: {large:.2f} s"


def test_default_output_names_scale_linearly() -> None:
    """Default output names (the producing op's `<type>_<position>`): the position was
    `list.index` per output, quadratic (2000 -> 8000 outputs took 18 times as long). Four
    times the outputs must take less than ten times the CPU time (linear: four; quadratic:
    sixteen)."""

    def names(n: int) -> Callable[[], None]:
        text = _many(n).replace(' {ov.name = "relu/', ' {ov.note = "relu/')
        function = entry_function(parse_module(text)[0])

        def run() -> None:
            assert graph_output_names(function)[-1] == f"Relu_{n - 1}"
            graph_input_names(function)

        return run

    # (best of 7: each takes milliseconds, and the other test worker on the machine's second
    # vCPU made one CI run's 4000 take 9.3x its 1000; another's 8.4x with the best of 7.
    # Idle, the best of 7 of each size still goes 4.1-8x: the work leaves the caches
    # between the sizes)
    small = _cpu_seconds(names(1000), tries=7)
    large = _cpu_seconds(names(4000), under=10 * small, tries=7)
    assert large < 10 * small, f"1000 outputs: {small:.4f} s, 4000 outputs: {large:.4f} s"
