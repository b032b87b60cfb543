"""
Gather with indices computed at run time (an embedding lookup of token ids) on the CPU
device (`GatherLowering`): equal to REFERENCE bit for bit, with negative indices and indices
out of range (zeros), i32 and i64 indices, axis 0 and an inner axis, f32 and u8 data, and no
group on the reference fallback.
"""

from __future__ import annotations

import numpy as np
import pytest

import lowpass

from .typed import cpu_graph


def _gather(data: tuple[int, ...], dt: str, indices: tuple[int, ...], it: str, axis: int) -> str:
    a = axis % len(data)
    out = (*data[:a], *indices, *data[a + 1 :])

    def t(shape: tuple[int, ...], e: str) -> str:
        return f"tensor<{'x'.join(map(str, shape))}x{e}>"

    td, ti, to = t(data, dt), t(indices, it), t(out, dt)
    signature = f'%d: {td} {{ov.name = "d"}}, %i: {ti} {{ov.name = "i"}}'
    return f"""
builtin.module {{
  func.func @main({signature}) -> ({to} {{ov.name = "y"}}) {{
    %ax = ov.constant dense<{axis}> : tensor<i64>
    %y = ov.gather %d, %i, %ax {{ov.name = "g"}} : ({td}, {ti}, tensor<i64>) -> {to}
    func.return %y : {to}
  }}
}}
"""


@pytest.mark.parametrize("data, dt, indices, it, axis", [
    ((50, 8), "f32", (1, 12), "i64", 0),      # an embedding table and token ids
    ((2, 7, 3), "f32", (4,), "i32", 1),
    ((3, 9), "ui8", (2, 2), "i64", -1),
])  # fmt: skip
def test_gather_of_run_time_indices_equals_reference(
    data: tuple[int, ...], dt: str, indices: tuple[int, ...], it: str, axis: int
) -> None:
    core = lowpass.Core()
    model = core.read_model(_gather(data, dt, indices, it, axis))
    r = np.random.default_rng(3)
    d = (r.integers(0, 256, data).astype(np.uint8) if dt == "ui8"
         else r.standard_normal(data).astype(np.float32))  # fmt: skip
    dim = data[axis]
    idx = r.integers(-dim - 3, dim + 3, indices).astype(np.int64 if it == "i64" else np.int32)
    idx.reshape(-1)[:3] = [-1, dim, -dim - 1][: idx.size]  # (the last, one past, one before)
    feeds = {"d": d, "i": idx}
    want = np.asarray(core.compile_model(model, "REFERENCE")(feeds)["y"])
    compiled = core.compile_model(model, "CPU")
    np.testing.assert_array_equal(np.asarray(compiled(feeds)["y"]), want)
    assert not cpu_graph(compiled).fallback_groups
