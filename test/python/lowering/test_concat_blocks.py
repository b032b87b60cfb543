"""
The CPU device's Concat copies its inputs' rows block by block (`CONCAT_BLOCK_BYTES`,
lowering/ops/movement.py): the output is numpy's concatenation, bit for bit, whatever the
rows' count against a block's (fewer, a multiple, a remainder), on one thread and two; a
Concat of empty rows (a zero dimension after the axis) compiles and gives an empty output.
"""

from __future__ import annotations

import numpy as np
import pytest

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects import ov
from lowpass.lowering.ops.movement import CONCAT_BLOCK_BYTES, CONCAT_BLOCK_MIN_ROWS

RNG = np.random.default_rng(62)


def _concat(shapes: list[list[int]], axis: int, threads: int) -> None:
    g = GraphBuilder()
    inputs = [g.input(f"x{k}", shape) for k, shape in enumerate(shapes)]
    g.output(g.value(ov.ConcatOp(inputs, axis, name="cat")), "y")
    feeds = {f"x{k}": RNG.standard_normal(shape).astype(np.float32)
             for k, shape in enumerate(shapes)}
    compiled = lowpass.Core().compile_model(lowpass.Model(g.module()), "CPU",
                                            {"INFERENCE_NUM_THREADS": threads})
    for _ in range(3):  # (with two threads, once the pool's helper is awake too)
        got = np.asarray(compiled.create_infer_request().infer(feeds).to_tuple()[0])
        np.testing.assert_array_equal(got, np.concatenate(list(feeds.values()), axis))


# rows of 64 + 64 floats (512 bytes: blocks of 4 rows, at least 8), of 3 + 5 + 24 floats, of
# 1 KiB + 4 bytes; row counts below a block, a multiple of it and with a remainder
ROW_CASES = [([[1, 64, 64, 1], [1, 64, 64, 1]], 1), ([[1, 3, 200, 8], [1, 5, 200, 8]], 1),
             ([[37, 3], [37, 5], [37, 24]], 1), ([[5, 256], [5, 1]], 1),
             ([[3000, 16], [3000, 16]], 1), ([[4, 7, 9], [4, 2, 9]], 1)]


@pytest.mark.parametrize(("shapes", "axis"), ROW_CASES)
@pytest.mark.parametrize("threads", [1, 2])
def test_concat_by_blocks_is_the_concatenation(shapes: list[list[int]], axis: int,
                                               threads: int) -> None:
    assert CONCAT_BLOCK_BYTES // 512 < CONCAT_BLOCK_MIN_ROWS  # (the minimum counts above)
    _concat(shapes, axis, threads)


@pytest.mark.parametrize(("shape", "axis"), [([2, 3, 0], 1), ([1, 0, 4], 0)])
def test_concat_of_empty_rows(shape: list[int], axis: int) -> None:
    _concat([shape, shape], axis, 1)
