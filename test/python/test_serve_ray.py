"""examples/serve_ray.py: 200 concurrent requests through a local Ray Serve deployment, each
answer bit for bit the direct `infer()` of its input on the CPU device. Skipped where ray
(`pip install -e '.[serve]'`) is absent; CI does not install it."""

from __future__ import annotations

import importlib.util
import json
import socket
import time
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np
import pytest

import lowpass

ray = pytest.importorskip("ray")
serve = pytest.importorskip("ray.serve")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "serve_ray.py"
REQUESTS = 200
# One Ray instance at a time (its ports, the 2 cores): everything runs in one test function,
# so `pytest -n 2` (CI's load distribution) never starts two Ray instances for this file; the
# group keeps it with any later Ray test under `--dist loadgroup`.
pytestmark = pytest.mark.xdist_group("ray")


def _example():
    # Loaded from its path and not put in sys.modules: Ray pickles the deployment class by
    # value, so the replicas need no `examples` on their path.
    spec = importlib.util.spec_from_file_location("lowpass_serve_ray_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def http_port():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        port = _free_port()  # Serve's own HTTP proxy, on the loopback only
        serve.start(http_options={"host": "127.0.0.1", "port": port})
        yield port
    finally:
        serve.shutdown()
        ray.shutdown()


def _post(port: int, route: str, body: object) -> tuple[int, dict]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{route}", data=json.dumps(body).encode(), method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_200_concurrent_requests_equal_direct_infer(http_port: int) -> None:
    example = _example()
    for batch in (False, True):  # each call, then calls gathered by @serve.batch
        _check_mode(example, http_port, batch)


def _check_mode(example, http_port: int, batch: bool) -> None:
    model = example.DEFAULT_MODEL
    name = f"lowpass-{batch}"
    app = example.LowpassModel.options(num_replicas=1).bind(model, None, batch, 4)
    handle = serve.run(app, name=name, route_prefix=f"/{name}")
    try:
        rng = np.random.default_rng(7)
        xs = [rng.standard_normal((1, 3, 32, 32)).astype(np.float32) for _ in range(REQUESTS)]
        start = time.monotonic()
        responses = [handle.remote({"data": x}) for x in xs]  # all in flight at once
        answers = [r.result(timeout_s=60) for r in responses]
        assert time.monotonic() - start < 90
        compiled = lowpass.Core().compile_model(model, "CPU")
        request = compiled.create_infer_request()
        for x, answer in zip(xs, answers, strict=True):
            assert set(answer) == {"prob"}
            expected = request.infer({"data": x})["prob"]
            assert answer["prob"].dtype == expected.dtype
            np.testing.assert_array_equal(answer["prob"], expected)
        # Distinct inputs give distinct answers: a mix-up of requests would show.
        assert len({a["prob"].tobytes() for a in answers}) == REQUESTS

        # A bad input fails its own call only (its request goes back to the pool).
        with pytest.raises(Exception, match=r"input 'data' has shape \[1, 3, 8, 8\]"):
            handle.remote({"data": np.zeros((1, 3, 8, 8), np.float32)}).result(timeout_s=60)
        # Over Serve's HTTP proxy: JSON lists, the same bits (float32 -> JSON -> float32).
        status, body = _post(http_port, f"/{name}", {"data": xs[0].tolist()})
        assert status == 200, body
        np.testing.assert_array_equal(np.asarray(body["prob"], np.float32), answers[0]["prob"])
        status, body = _post(http_port, f"/{name}", {"data": [[1.0, 2.0]]})
        assert status == 400 and "input 'data' has shape [1, 2]" in body["error"], body
        status, body = _post(http_port, f"/{name}", [1.0])
        assert status == 400 and "JSON object" in body["error"], body
    finally:
        serve.delete(name)
