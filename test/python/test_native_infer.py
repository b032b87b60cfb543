"""
The CPU device's native copy-in/copy-out call (runtime/native_infer.py): `infer()` checks and
copies the inputs, runs the graph and copies the outputs in one native call, and falls back
to its Python path (conversions, strides, other sequences, the one-line errors) for inputs
that the native checks refuse.
"""

from __future__ import annotations

import pickle
import sys
import threading
import weakref
from typing import Any

import numpy as np
import pytest

import lowpass
from lowpass import LowpassError
from lowpass.runtime.native_infer import layout_matches

# y = state + x; state := y (one input, one output, one variable)
ACCUMULATOR = """
ov.variable @"acc" : tensor<1x4xf32>
func.func @main(%x: tensor<1x4xf32> {ov.name = "x"}) -> (tensor<1x4xf32> {ov.name = "y"}) {
  %r = ov.read_value @"acc" : tensor<1x4xf32>
  %s = ov.add %r, %x : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  ov.assign @"acc", %s : tensor<1x4xf32>
  func.return %s : tensor<1x4xf32>
}
"""

# two inputs of different types and ranks, two outputs
TWO = """
func.func @main(%a: tensor<2x3xf32> {ov.name = "a"}, %b: tensor<3xi32> {ov.name = "b"})
    -> (tensor<2x3xf32> {ov.name = "s"}, tensor<3xi32> {ov.name = "n"}) {
  %s = ov.multiply %a, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %n = ov.negative %b : (tensor<3xi32>) -> tensor<3xi32>
  func.return %s, %n : tensor<2x3xf32>, tensor<3xi32>
}
"""

CPYTHON = sys.implementation.name == "cpython"


def request(text: str, config: dict[str, Any] | None = None) -> lowpass.InferRequest:
    return lowpass.Core().compile_model(text, "CPU", config or {}).create_infer_request()


def python_path_refused(r: lowpass.InferRequest) -> None:
    """Make the device's Python path (the per-input copies) fail, to see which path ran."""

    def refuse(inputs: Any) -> None:
        raise AssertionError("the Python path ran")

    r.device_request.infer = refuse  # type: ignore[method-assign]


@pytest.mark.skipif(not CPYTHON, reason="the native call reads CPython's layouts")
def test_layout_of_this_interpreter_is_read() -> None:
    assert layout_matches()


@pytest.mark.skipif(not CPYTHON, reason="the native call reads CPython's layouts")
def test_plain_inputs_take_the_native_call() -> None:
    r = request(ACCUMULATOR)
    python_path_refused(r)
    x = np.arange(4, dtype=np.float32).reshape(1, 4)
    first = r.infer({"x": x})["y"]
    second = r.infer([x])["y"]
    r.set_tensor("x", x)
    third = r.infer()["y"]
    np.testing.assert_array_equal(third, 3 * x)
    # the results are fresh arrays: the next infer does not overwrite them
    np.testing.assert_array_equal(first, x)
    np.testing.assert_array_equal(second, 2 * x)
    with pytest.raises(AssertionError, match="Python path"):
        r.infer({"x": x.astype(np.float64)})


def test_results_are_copies_unless_shared() -> None:
    r = request(ACCUMULATOR)
    x = np.ones((1, 4), np.float32)
    a = r.infer({"x": x})["y"]
    b = r.infer({"x": x})["y"]
    assert a is not b and not np.shares_memory(a, b)
    shared = r.infer({"x": x}, share_outputs=True)["y"]
    again = r.infer({"x": x}, share_outputs=True)["y"]
    assert shared is again  # the request's buffer, overwritten by the next run
    np.testing.assert_array_equal(again, 4 * x)
    np.testing.assert_array_equal(a, x)
    np.testing.assert_array_equal(b, 2 * x)
    a[...] = 100  # the caller's own array
    np.testing.assert_array_equal(r.infer({"x": x})["y"], 5 * x)


@pytest.mark.skipif(not CPYTHON, reason="the native call reads CPython's layouts")
def test_dropped_results_are_reused_held_ones_never() -> None:
    # the outputs of the call before the last one are written again when nothing holds them
    # (runtime/native_infer.py, `_take_unshared`); held results, arrays or views keep theirs
    r = request(ACCUMULATOR)
    x = np.ones((1, 4), np.float32)
    first = weakref.ref(r.infer({"x": x})["y"])
    second = weakref.ref(r.infer({"x": x})["y"])
    assert r.infer({"x": x})["y"] is first()  # (not a new array at the same address)
    assert r.infer({"x": x})["y"] is second() is not first()
    results = r.infer({"x": x})  # 5: held as a results object
    array = r.infer({"x": x})["y"]  # 6: one array held
    view = r.infer({"x": x})["y"][0, 1:]  # 7: a view held (it holds its base)
    arrays = r.infer({"x": x}).to_tuple()  # 8: a tuple of the arrays held
    for _ in range(4):
        r.infer({"x": x})
    np.testing.assert_array_equal(results["y"], 5 * x)
    np.testing.assert_array_equal(array, 6 * x)
    np.testing.assert_array_equal(view, 7 * x[0, 1:])
    np.testing.assert_array_equal(arrays[0], 8 * x)
    np.testing.assert_array_equal(r.get_output_tensor(0), 12 * x)
    # 13, 14: their shape and dtype changed, then dropped: fresh arrays instead (the native
    # call checks the form of the arrays it would reuse: `OUTPUTS_CHANGED`)
    reshaped, retyped = r.infer({"x": x})["y"], r.infer({"x": x})["y"]
    reshaped.shape = (4,)
    setattr(retyped, "dtype", np.int32)  # noqa: B010 (numpy allows it; its stubs do not)
    del reshaped, retyped
    for value in (15, 16):
        y = r.infer({"x": x})["y"]
        assert y.shape == (1, 4) and y.dtype == np.float32
        np.testing.assert_array_equal(y, value * x)
    del y
    kept = [r.infer({"x": x})["y"] for _ in range(5)]  # 17..21, all held
    assert len({a.ctypes.data for a in kept}) == 5
    np.testing.assert_array_equal(np.concatenate(kept), np.arange(17, 22)[:, None] * x)
    np.testing.assert_array_equal(results["y"], 5 * x)


def test_inputs_are_copied_in() -> None:
    r = request(ACCUMULATOR)
    x = np.ones((1, 4), np.float32)
    r.infer({"x": x})
    x[...] = 7  # after the call: the state holds the copy of 1s
    np.testing.assert_array_equal(r.query_state()[0].state, np.ones((1, 4), np.float32))
    np.testing.assert_array_equal(r.infer({"x": x})["y"], np.full((1, 4), 8, np.float32))
    r.reset_state()
    np.testing.assert_array_equal(r.infer({"x": x})["y"], x)


class Tagged(np.ndarray):
    """An ndarray subclass: not the exact type the native checks accept."""


@pytest.mark.parametrize(
    "make",
    [
        lambda a: a.astype(np.float64),  # converted (astype)
        lambda a: a.astype(np.int64),
        lambda a: a.astype(">f4"),  # another byte order: another dtype object
        lambda a: np.repeat(a, 2, axis=1)[:, ::2],  # strided
        lambda a: a.tolist(),  # a list
        lambda a: a.view(Tagged),  # a subclass
        lambda a: np.asfortranarray(a.T.copy()).T,  # F-ordered
    ],
    ids=["f64", "i64", "big-endian", "strided", "list", "subclass", "fortran"],
)
def test_other_inputs_take_the_python_path(make: Any) -> None:
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.array([1, -2, 3], np.int32)
    r = request(TWO)
    for _ in range(2):  # the native call refuses first, then the same again
        results = r.infer({"a": make(a), "b": b})
        np.testing.assert_array_equal(results["s"], a * a)
        np.testing.assert_array_equal(results["n"], -b)
    # and back to plain arrays
    results = r.infer({"a": a + 1, "b": b})
    np.testing.assert_array_equal(results["s"], (a + 1) * (a + 1))


def test_wrong_inputs_keep_their_errors() -> None:
    r = request(TWO)
    a = np.zeros((2, 3), np.float32)
    b = np.zeros(3, np.int32)
    with pytest.raises(LowpassError, match=r"^input 'a' has shape \[3, 2\], expected \[2, 3\]$"):
        r.infer({"a": a.T.copy(), "b": b})
    with pytest.raises(LowpassError, match=r"^input 'b' has shape \[1, 3\], expected \[3\]$"):
        r.infer({"a": a, "b": b[None]})
    fresh = request(TWO)
    with pytest.raises(LowpassError, match=r"^input 'b' is not set: the model's inputs are"):
        fresh.infer({"a": a})
    strings = r"^input 'b' has element type <U1, which cannot be converted"
    with pytest.raises(LowpassError, match=strings):
        r.infer({"a": a, "b": np.array(["x", "y", "z"])})
    unknown = r"^the model has no input named 'c': its inputs are 'a', 'b'$"
    with pytest.raises(LowpassError, match=unknown):
        r.infer({"a": a, "c": b})


def test_streams_take_the_native_call_too() -> None:
    compiled = lowpass.Core().compile_model(TWO, "CPU", {"NUM_STREAMS": 2})
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.array([1, 2, 3], np.int32)
    errors: list[BaseException] = []

    def work(k: int) -> None:
        try:
            r = compiled.create_infer_request()
            for i in range(50):
                results = r.infer({"a": a + k + i, "b": b * (k + i)})
                np.testing.assert_array_equal(results["s"], (a + k + i) ** 2)
                np.testing.assert_array_equal(results["n"], -b * (k + i))
        except BaseException as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors[0]


def test_profiling_keeps_the_python_path() -> None:
    # (its stages are timed apart: the native call would report no input/output stage)
    r = request(ACCUMULATOR, {"PERF_COUNT": "YES"})
    r.infer({"x": np.ones((1, 4), np.float32)})
    names = [row.node_name for row in r.get_profiling_info()]
    assert names[:2] == ["1. input preprocessing", "2. input transfer to a device"]


def test_flags_in_openvinos_order() -> None:
    # InferRequest.infer(inputs, share_inputs, share_outputs): the second positional flag is
    # share_inputs (code written for OpenVINO passes it so); the results stay copies
    r = request(ACCUMULATOR)
    x = np.ones((1, 4), np.float32)
    a = r.infer({"x": x}, True)["y"]
    b = r.infer({"x": x}, True)["y"]
    assert not np.shares_memory(a, b)
    np.testing.assert_array_equal(a, x)
    compiled = lowpass.Core().compile_model(ACCUMULATOR, "CPU")
    shared = compiled({"x": x}, share_outputs=True)["y"]
    assert compiled({"x": x}, True, True)["y"] is shared
    np.testing.assert_array_equal(shared, 2 * x)


@pytest.mark.skipif(not CPYTHON, reason="the native call reads CPython's layouts")
def test_fallback_groups_and_their_failures_through_the_native_call() -> None:
    # the integer Divide runs on the reference fallback (a ctypes callback that takes the
    # GIL, which the native call released): its result and its failure come through
    divide = """
    func.func @main(%x: tensor<3xi32> {ov.name = "x"}, %z: tensor<3xi32> {ov.name = "z"})
        -> tensor<3xi32> {
      %y = ov.divide %x, %z {ov.name = "div"} : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
      func.return %y : tensor<3xi32>
    }
    """
    r = request(divide)
    python_path_refused(r)
    x = np.array([6, -7, 9], np.int32)
    np.testing.assert_array_equal(r.infer([x, np.array([3, 2, 4], np.int32)])[0], [2, -4, 2])
    with pytest.raises(LowpassError, match=r"^inference failed in Divide 'div' \(ov.divide\): "):
        r.infer([x, np.array([1, 0, 1], np.int32)])
    np.testing.assert_array_equal(r.infer([x, np.array([1, 1, 3], np.int32)])[0], [6, -7, 3])


@pytest.mark.skipif(not CPYTHON, reason="the native call reads CPython's layouts")
def test_rank_0_inputs_through_the_native_call() -> None:
    scalar = """
    func.func @main(%x: tensor<f32> {ov.name = "x"}) -> tensor<f32> {
      %y = ov.add %x, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
      func.return %y : tensor<f32>
    }
    """
    r = request(scalar)
    python_path_refused(r)
    out = r.infer({"x": np.array(2.5, np.float32)})[0]
    assert out.shape == () and out == 5.0


@pytest.mark.skipif(not CPYTHON, reason="the native call reads CPython's layouts")
def test_unpickled_arrays_take_the_native_call() -> None:
    # an unpickled array (Ray, multiprocessing) carries its own float32 dtype object: the
    # native call compares the type number and the byte order, not only the object
    r = request(ACCUMULATOR)
    python_path_refused(r)
    x = pickle.loads(pickle.dumps(np.arange(4, dtype=np.float32).reshape(1, 4)))
    assert x.dtype is not np.dtype(np.float32)
    np.testing.assert_array_equal(r.infer({"x": x})["y"], x)
    with pytest.raises(AssertionError, match="Python path"):  # (byte-swapped: converted)
        r.infer({"x": x.astype(">f4")})


def _jobs_posted(r: lowpass.InferRequest, inputs: dict[str, np.ndarray], pool: Any,
                 share_outputs: bool = False) -> tuple[int, np.ndarray]:
    """(the jobs an `infer` posted to `pool`, in whichever mode the pool ran them; its `y`,
    a copy)."""
    before = pool.stats
    y = np.array(r.infer(inputs, share_outputs=share_outputs)["y"])
    after = pool.stats
    return (after.jobs + after.inline + after.helped
            - before.jobs - before.inline - before.helped), y


@pytest.mark.skipif(not CPYTHON, reason="the native call reads CPython's layouts")
def test_large_inputs_copied_on_the_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    """On several threads the native call copies an input or an output of
    `PARALLEL_COPY_MIN_BYTES` or more on the request's thread pool (one job each, of
    `COPY_CHUNKS` chunks on 64-byte lines, the last to the end: here 4 bytes past a line; no
    output copy with `share_outputs`), a smaller one on the calling thread; the values are
    the same either way."""
    import lowpass.runtime.cpu as cpu_runtime
    from lowpass.lowering.kernels.threads import available_cores, pool_threads, thread_pool
    from lowpass.runtime.native_infer import PARALLEL_COPY_MIN_BYTES

    if available_cores() < 2:
        pytest.skip("a request of 2 threads needs 2 cores")

    rng = np.random.default_rng(5)
    results = {}
    for elements in (PARALLEL_COPY_MIN_BYTES // 4 + 16001, PARALLEL_COPY_MIN_BYTES // 8):
        text = f"""
func.func @main(%x: tensor<1x{elements}xf32> {{ov.name = "x"}})
    -> (tensor<1x{elements}xf32> {{ov.name = "y"}}) {{
  %y = ov.multiply %x, %x : (tensor<1x{elements}xf32>, tensor<1x{elements}xf32>)
      -> tensor<1x{elements}xf32>
  func.return %y : tensor<1x{elements}xf32>
}}
"""
        x = rng.standard_normal((1, elements)).astype(np.float32)
        compiled = lowpass.Core().compile_model(text, "CPU", {"INFERENCE_NUM_THREADS": 2})
        pooled = compiled.create_infer_request()
        python_path_refused(pooled)
        pooled.infer({"x": x})  # (binds the native call)
        with monkeypatch.context() as patch:
            patch.setattr(cpu_runtime, "_copy_pool", lambda threads: None)
            alone = compiled.create_infer_request()
            python_path_refused(alone)
            alone.infer({"x": x})
        for share_outputs in (False, True):
            (jobs_pooled, y_pooled), (jobs_alone, y_alone) = (
                _jobs_posted(r, {"x": x}, thread_pool(pool_threads()), share_outputs)
                for r in (pooled, alone))
            np.testing.assert_array_equal(y_pooled, x * x)
            np.testing.assert_array_equal(y_alone, x * x)
            results[elements, share_outputs] = jobs_pooled - jobs_alone
    assert list(results.values()) == [2, 1, 0, 0]
