"""examples/serve_ray.py: 200 concurrent requests through a local Ray Serve deployment, each
answer bit for bit the direct `infer()` of its input on the CPU device. Skipped where ray
(`pip install -e '.[serve]'`) is absent; CI does not install it."""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path

import numpy as np
import pytest

import lowpass

ray = pytest.importorskip("ray")
serve = pytest.importorskip("ray.serve")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "serve_ray.py"
REQUESTS = 200
# One Ray instance at a time (ports, the 2 cores): with `pytest -n 2 --dist loadgroup` the
# file's tests share one worker; the module fixture starts Ray once.
pytestmark = pytest.mark.xdist_group("ray-serve")


def _example():
    # Loaded from its path and not put in sys.modules: Ray pickles the deployment class by
    # value, so the replicas need no `examples` on their path.
    spec = importlib.util.spec_from_file_location("lowpass_serve_ray_example", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        serve.shutdown()
        ray.shutdown()


@pytest.mark.parametrize("batch", [False, True], ids=["unbatched", "batched"])
def test_200_concurrent_requests_equal_direct_infer(local_ray: None, batch: bool) -> None:
    example = _example()
    model = example.DEFAULT_MODEL
    app = example.LowpassModel.options(num_replicas=1).bind(model, None, batch, 4)
    handle = serve.run(app, name=f"lowpass-{batch}", route_prefix=None)
    try:
        rng = np.random.default_rng(7)
        xs = [rng.standard_normal((1, 3, 32, 32)).astype(np.float32) for _ in range(REQUESTS)]
        start = time.monotonic()
        responses = [handle.remote({"data": x}) for x in xs]  # all in flight at once
        answers = [r.result(timeout_s=60) for r in responses]
        assert time.monotonic() - start < 90
        request = lowpass.Core().compile_model(model, "CPU").create_infer_request()
        for x, answer in zip(xs, answers, strict=True):
            assert set(answer) == {"prob"}
            expected = request.infer({"data": x})["prob"]
            assert answer["prob"].dtype == expected.dtype
            np.testing.assert_array_equal(answer["prob"], expected)
        # Distinct inputs give distinct answers: a mix-up of requests would show.
        assert len({a["prob"].tobytes() for a in answers}) == REQUESTS
    finally:
        serve.delete(f"lowpass-{batch}")


def test_bad_input_is_the_callers_error(local_ray: None) -> None:
    example = _example()
    handle = serve.run(
        example.LowpassModel.bind(example.DEFAULT_MODEL), name="lowpass-bad", route_prefix=None
    )
    try:
        bad = handle.remote({"data": np.zeros((1, 3, 8, 8), np.float32)})
        with pytest.raises(Exception, match="data"):
            bad.result(timeout_s=60)
        # The replica goes on serving (its request went back to the pool).
        x = np.ones((1, 3, 32, 32), np.float32)
        good = handle.remote({"data": x}).result(timeout_s=60)
        direct = lowpass.Core().compile_model(example.DEFAULT_MODEL, "CPU")({"data": x})
        np.testing.assert_array_equal(good["prob"], direct["prob"])
    finally:
        serve.delete("lowpass-bad")
