"""One infer request runs one inference at a time (without a lock, on the CPU device 10 of 600
results were the other thread's): as OpenVINO 2026.4's request, a second thread's infer(),
set_tensor() or reset_state() while a synchronous infer() runs waits for it, so threads that
share a request (or `compiled(inputs)`) run one after the other; while an asynchronous
inference runs they raise "busy" (test_runtime_ov_api.py)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import lowpass

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("device", ["REFERENCE", "CPU"])
def test_second_thread_waits_while_infer_runs(
    device: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    compiled = lowpass.Core().compile_model(EXAMPLES / "convnet.mlir", device)
    request = compiled.create_infer_request()
    rng = np.random.default_rng(0)
    x, other = (rng.random((1, 3, 32, 32), dtype=np.float32) for _ in range(2))
    want = request.infer({"data": x})["prob"].copy()
    want_other = request.infer({"data": other})["prob"].copy()

    inside, release = threading.Event(), threading.Event()
    run = request._infer
    blocked = [True]

    def waiting_infer(*args: Any) -> Any:
        if blocked[0]:  # (the first call waits inside, holding the request)
            blocked[0] = False
            inside.set()
            release.wait(60)
        return run(*args)

    monkeypatch.setattr(request, "_infer", waiting_infer)
    results: list[np.ndarray] = []
    worker = threading.Thread(target=lambda: results.append(request.infer({"data": x})["prob"]))
    worker.start()
    assert inside.wait(60)
    second: list[np.ndarray] = []
    done = threading.Event()

    def second_thread() -> None:
        request.set_tensor("data", other)
        second.append(request.infer()["prob"])
        request.reset_state()
        done.set()

    waiter = threading.Thread(target=second_thread)
    waiter.start()
    try:
        assert not done.wait(0.3)  # (it waits for the first inference, which is held)
    finally:
        release.set()
        worker.join(60)
        waiter.join(60)
    assert done.is_set()
    np.testing.assert_array_equal(results[0], want)
    np.testing.assert_array_equal(second[0], want_other)
    monkeypatch.undo()
    np.testing.assert_array_equal(request.infer({"data": x})["prob"], want)  # usable again


def test_threads_sharing_a_request_or_the_compiled_model_get_their_own_results() -> None:
    """A web handler's `compiled(inputs)` from several threads, as with OpenVINO: every call
    runs (no "busy"), each with its own inputs' results."""
    compiled = lowpass.Core().compile_model(EXAMPLES / "convnet.mlir", "CPU")
    request = compiled.create_infer_request()
    rng = np.random.default_rng(2)
    inputs = [rng.random((1, 3, 32, 32), dtype=np.float32) for _ in range(3)]
    want = [compiled.create_infer_request().infer({"data": x})["prob"].copy() for x in inputs]
    wrong: list[int] = []

    def work(i: int) -> None:
        for k in range(40):
            run = compiled if k % 2 else request.infer
            if not np.array_equal(run({"data": inputs[i]})["prob"], want[i]):
                wrong.append(i)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not wrong


def test_requests_of_one_model_run_concurrently() -> None:
    """The rule is per request: one request per thread is the supported way."""
    compiled = lowpass.Core().compile_model(EXAMPLES / "convnet.mlir", "CPU")
    rng = np.random.default_rng(1)
    inputs = [rng.random((1, 3, 32, 32), dtype=np.float32) for _ in range(4)]
    want = [compiled.create_infer_request().infer({"data": x})["prob"].copy() for x in inputs]
    got: dict[int, list[np.ndarray]] = {i: [] for i in range(4)}

    def work(i: int) -> None:
        request = compiled.create_infer_request()
        for _ in range(50):
            got[i].append(request.infer({"data": inputs[i]})["prob"].copy())

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    for i in range(4):
        assert len(got[i]) == 50
        for value in got[i]:
            np.testing.assert_array_equal(value, want[i])
