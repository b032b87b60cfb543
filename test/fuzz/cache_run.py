"""
`python -m fuzz.cache_run MODEL CACHE_DIR OUT.npz SEED`: compile MODEL on the CPU device with
`CACHE_DIR`, run it on random inputs drawn from SEED and save the outputs (`np.savez`). The
fuzz harness runs it twice around a damaged blob (harness.py, `_cache`): the second run must
load or recompile, never crash, hang or compute something else (issue 39).
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Sequence

import numpy as np

_DTYPES = {"f32": "float32", "f16": "float16", "f64": "float64", "i64": "int64",
           "i32": "int32", "i8": "int8", "u8": "uint8", "boolean": "bool"}


def static_shape(dims: Sequence[int | None]) -> tuple[int, ...]:
    """A port's shape with every dimension known; a dynamic one raises TypeError, as `int(None)`
    did before."""
    shape = tuple(d for d in dims if d is not None)
    if len(shape) != len(dims):
        raise TypeError(f"a dynamic dimension in {tuple(dims)}")
    return shape


def main(argv: list[str] | None = None) -> int:
    import lowpass
    from lowpass.lowering import compiler

    model, cache_dir, out, seed = argv if argv is not None else sys.argv[1:]
    compiler.clear_cache()  # (the in-memory cache would hide the disk)
    core = lowpass.Core()
    with warnings.catch_warnings():
        # a folder in place of the blob cannot be replaced: the cache's own warning
        warnings.filterwarnings("ignore", "CACHE_DIR", UserWarning)
        compiled = core.compile_model(model, "CPU", {"CACHE_DIR": cache_dir})
    rng = np.random.default_rng(int(seed))
    feeds = {}
    for i, port in enumerate(compiled.inputs):
        shape = static_shape(port.shape)
        dtype = np.dtype(_DTYPES.get(str(port.element_type), "float32"))
        if dtype.kind == "f":
            feeds[i] = rng.standard_normal(shape).astype(dtype)
        else:
            feeds[i] = rng.integers(0, 4, shape).astype(dtype)
    request = compiled.create_infer_request()
    results = request.infer(feeds)
    np.savez(out, *[np.asarray(results[i]) for i in range(len(compiled.outputs))])
    return 0


if __name__ == "__main__":
    sys.exit(main())
