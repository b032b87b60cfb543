"""
Serves a lowpass-compiled model with Ray Serve: one compiled model per replica, requests
answered one by one or gathered by `@serve.batch`. All the network side is Ray Serve's (its
HTTP proxy, or a `DeploymentHandle` from Python); nothing here listens on a socket.

    pip install -e '.[serve]'                  # ray[serve]
    python examples/serve_ray.py               # local Ray, a few requests through the handle
    python examples/serve_ray.py --http        # then keep serving on Serve's HTTP proxy:
    curl -s 127.0.0.1:8000/ -d '{"data": [[[[0.5, ...]]]]}'   # -> {"prob": [[...]]}
    serve run examples.serve_ray:app_builder model=examples/convnet.mlir batch=1  # Serve's CLI

A request is a mapping input name -> array (numpy through the handle; nested lists as JSON
over HTTP); the answer maps each output's primary name to its array (lists over HTTP). A bad
request (a wrong shape, an unknown input) raises its `LowpassError` to the handle's caller, or
is an HTTP 400 `{"error": "..."}`; the replica goes on serving.

Each replica compiles the model once, in `__init__` (with `CACHE_DIR` in the config, the
replicas after the first load the compiled code instead of compiling), and keeps a pool of
infer requests (`OPTIMAL_NUMBER_OF_INFER_REQUESTS` of them, or `requests=`): a call takes an
idle request, starts it (`start_async`: the native code runs on the request's worker thread,
without the GIL) and awaits its callback, so the replica's event loop never blocks on an
inference and its requests run at the same time.

Batching (`batch=True`): `@serve.batch` gathers up to `max_batch_size` calls; the models
here have a fixed batch of 1 (convnet: `data` is 1x3x32x32), so a gathered batch runs as
its calls one by one over the request pool, not as one stacked tensor. With a dynamic batch
dimension, stacking would make each distinct batch size a new compilation on the CPU device
(it compiles per shape), so it would need padding to a few fixed sizes: not done here.
Without batching, each call goes to the pool as it comes, which for a batch-1 model is as
fast; `batch=True` shows the wiring for a model compiled for larger batches.

See docs/runtime.md, "Serving with Ray Serve", for how a fleet runs it.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path
from typing import Any

import numpy as np
from ray import serve
from starlette.requests import Request
from starlette.responses import JSONResponse

import lowpass
from lowpass import LowpassError

DEFAULT_MODEL = str(Path(__file__).resolve().parent / "convnet.mlir")


class _RequestPool:
    """Idle infer requests of one compiled model, taken and given back from asyncio code."""

    def __init__(self, compiled: Any, size: int) -> None:
        self._idle: asyncio.Queue[Any] = asyncio.Queue()
        for _ in range(max(1, size)):
            self._idle.put_nowait(compiled.create_infer_request())

    async def infer(self, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        request = await self._idle.get()
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()

        def ended(_: object) -> None:  # on the request's worker thread
            loop.call_soon_threadsafe(lambda: done.done() or done.set_result(None))

        started = False
        try:
            request.set_callback(ended, None)
            request.start_async(inputs)  # (a bad input raises here)
            started = True
            await asyncio.shield(done)
            request.wait()  # the callback has run: returns at once, raises a failed run's error
            return request.results.to_dict()  # new arrays for each run
        finally:
            if started and not done.done():  # (cancelled while it runs: give it back after)
                done.add_done_callback(lambda _: self._idle.put_nowait(request))
            else:
                self._idle.put_nowait(request)


def _as_inputs(payload: Any) -> dict[str, np.ndarray]:
    if not isinstance(payload, dict):
        raise ValueError("a request is a JSON object / dict: input name -> array")
    return {str(name): np.asarray(value) for name, value in payload.items()}


@serve.deployment(ray_actor_options={"num_cpus": 1}, max_ongoing_requests=64)
class LowpassModel:
    """One compiled model per replica. `model`: a .mlir / .xml / .onnx path; `config`: the CPU
    device's properties (`INFERENCE_NUM_THREADS`, `PERFORMANCE_HINT`, `CACHE_DIR`, ...)."""

    def __init__(
        self,
        model: str = DEFAULT_MODEL,
        config: dict[str, Any] | None = None,
        batch: bool = False,
        requests: int = 0,
    ) -> None:
        self.compiled = lowpass.Core().compile_model(model, "CPU", dict(config or {}))
        size = requests or int(self.compiled.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS"))
        self._pool = _RequestPool(self.compiled, size)
        self._batch = batch

    async def __call__(self, payload: Any) -> Any:
        if not isinstance(payload, Request):  # a DeploymentHandle call: errors are raised
            return await self._infer(_as_inputs(payload))
        try:  # from Serve's HTTP proxy: JSON in and out, a bad request is a 400 with its error
            outputs = await self._infer(_as_inputs(await payload.json()))
        except (ValueError, LowpassError) as e:
            return JSONResponse({"error": str(e)}, status_code=400)
        return {k: v.tolist() for k, v in outputs.items()}

    async def _infer(self, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        return await (self._batched(inputs) if self._batch else self._pool.infer(inputs))

    @serve.batch(max_batch_size=8, batch_wait_timeout_s=0.002)
    async def _batched(self, batch: list[dict[str, np.ndarray]]) -> list[dict[str, np.ndarray]]:
        # A fixed-batch-1 model: the gathered calls run one by one, concurrently, on the pool.
        return list(await asyncio.gather(*(self._pool.infer(x) for x in batch)))


def app_builder(args: dict[str, str]) -> Any:
    """For Serve's CLI: `serve run examples.serve_ray:app_builder model=... batch=1`."""
    return LowpassModel.options(num_replicas=int(args.get("replicas", 1))).bind(
        args.get("model", DEFAULT_MODEL),
        {"CACHE_DIR": args["cache_dir"]} if "cache_dir" in args else None,
        args.get("batch", "0") not in ("0", "", "false", "False"),
    )


def main(argv: list[str] | None = None) -> None:
    import ray

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].strip() if __doc__ else None)
    p.add_argument("--model", default=DEFAULT_MODEL)
    p.add_argument("--replicas", type=int, default=1)
    p.add_argument("--batch", action="store_true", help="gather calls with @serve.batch")
    p.add_argument("--cache-dir", help="CACHE_DIR of the replicas (shared storage in a fleet)")
    p.add_argument("--http", action="store_true", help="keep serving on 127.0.0.1:8000")
    args = p.parse_args(argv)

    ray.init(num_cpus=max(2, args.replicas))
    config = {"CACHE_DIR": args.cache_dir} if args.cache_dir else None
    app = LowpassModel.options(num_replicas=args.replicas).bind(args.model, config, args.batch)
    handle = serve.run(app, name="lowpass", route_prefix="/")
    model = lowpass.Core().read_model(args.model)
    rng = np.random.default_rng(0)
    inputs = {
        p.name: rng.random([d or 1 for d in p.shape]).astype(np.float32) for p in model.inputs
    }
    answers = [handle.remote(inputs) for _ in range(8)]
    for name, value in answers[-1].result().items():
        print(name, value.shape, value.ravel()[:4])
    if args.http:
        print("serving on http://127.0.0.1:8000/ (Ctrl-C to stop)")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    serve.shutdown()
    ray.shutdown()


if __name__ == "__main__":
    main()
