"""ov.constant: numpy <-> dense attribute, compact printing, large constants."""

from __future__ import annotations

import time

import numpy as np
import pytest

import lowpass
from lowpass.dialects.ov import ConstantOp, array_from_dense, dense_from_array

DTYPES = [np.float32, np.float16, np.int64, np.int32, np.int8, np.uint8, np.bool_]


@pytest.mark.parametrize("dtype", DTYPES)
def test_dense_round_trip(dtype: type, rng: np.random.Generator) -> None:
    data = (rng.standard_normal((3, 4)) * 50).astype(dtype)
    back = array_from_dense(dense_from_array(data))
    assert back.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(back, data)


@pytest.mark.parametrize("dtype", DTYPES)
def test_constant_prints_and_parses_back(dtype: type, rng: np.random.Generator) -> None:
    for n in (5, 300):  # below and above the hex threshold
        data = (rng.standard_normal(n) * 50).astype(dtype)
        module = lowpass.read_module(_module_text(data))
        text = lowpass.print_module(module)
        if n > 100 and dtype is not np.bool_:
            assert 'dense<"0x' in text
        else:
            assert 'dense<"0x' not in text
        again = lowpass.read_module(text)
        const = next(op for op in again.walk() if isinstance(op, ConstantOp))
        np.testing.assert_array_equal(const.array(), data)
        assert again.is_structurally_equivalent(module)


def _module_text(data: np.ndarray) -> str:
    op = ConstantOp.from_array(data, name="c")
    t = op.result.type
    body = lowpass.print_module(op).strip().split(" = ", 1)[1]  # drop the "%0 = " of a lone op
    return f"func.func @main() -> {t} {{\n  %c = {body}\n  func.return %c : {t}\n}}\n"


def test_splat_prints_compactly() -> None:
    text = _module_text(np.zeros((64, 64), np.float32))
    assert "dense<0.000000e+00> : tensor<64x64xf32>" in text


def test_ten_million_elements_parse_and_print_in_seconds() -> None:
    data = np.random.default_rng(0).standard_normal(10_000_000).astype(np.float32)
    start = time.process_time()
    text = _module_text(data)
    module = lowpass.read_module(text)
    printed = lowpass.print_module(module)
    elapsed = time.process_time() - start
    const = next(op for op in module.walk() if isinstance(op, ConstantOp))
    np.testing.assert_array_equal(const.array(), data)
    assert printed.count('dense<"0x') == 1
    # The bar is "seconds, not minutes"; measured about 4 s on the CI machine.
    assert elapsed < 60, f"10M-element constant took {elapsed:.1f} s"


@pytest.mark.parametrize("literal", [
    "1.5 : tensor<1000x1000xf32>", "-0.0 : tensor<5000xf32>", "0x7FC00000 : tensor<5000xf32>",
    "65504.0 : tensor<5000xf16>", "true : tensor<5000xi1>", "200 : tensor<5000xi8>",
    "-3 : tensor<5000xi64>", "255 : tensor<5000xui8>",
])
def test_large_splats_are_read_and_printed_without_a_list_of_their_elements(
        literal: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # xDSL's parser repeats a splat's value in a Python list of every element and its printer
    # unpacks every element (a splat of 50 million floats: 9-16 s and 4 GB in opt-tool); the
    # same bytes as xDSL's path, in memory of the data's size
    import tracemalloc

    import lowpass.ir as lowpass_ir

    value, t = literal.split(" : ")
    text = f"func.func @main() -> {t} {{\n  %c = ov.constant dense<{value}> : {t}\n" \
           f"  func.return %c : {t}\n}}\n"
    tracemalloc.start()
    try:
        module = lowpass.read_module(text)
        const = next(op for op in module.walk() if isinstance(op, ConstantOp))
        size = len(const.value.data.data)
        _, peak = tracemalloc.get_traced_memory()
        assert peak < 2 * size + (1 << 20), (peak, size)
        tracemalloc.reset_peak()
        printed = lowpass.print_module(module)
        _, peak = tracemalloc.get_traced_memory()
        assert peak < size + (1 << 20), (peak, size)
    finally:
        tracemalloc.stop()
    again = next(op for op in lowpass.read_module(printed).walk() if isinstance(op, ConstantOp))
    assert again.value.data.data == const.value.data.data
    monkeypatch.setattr(lowpass_ir, "LARGE_SPLAT", 1 << 40)  # (xDSL's own path)
    by_xdsl = next(op for op in lowpass.read_module(text).walk() if isinstance(op, ConstantOp))
    assert by_xdsl.value.data.data == const.value.data.data
