"""Compare the .npy outputs saved by two `lowpass-run --save-outputs` runs (lit helper).

    python3 compare_outputs.py WANT_DIR GOT_DIR [RTOL]

Prints `same <name>` per output when equal (floats: within RTOL relative, 1e-6 absolute;
integers: exactly), `DIFFERENT <name>: ...` otherwise.
"""

import sys
from pathlib import Path

import numpy as np

want_dir, got_dir = Path(sys.argv[1]), Path(sys.argv[2])
rtol = float(sys.argv[3]) if len(sys.argv) > 3 else 1e-5
for path in sorted(want_dir.glob("*.npy")):
    want = np.load(path)
    got = np.load(got_dir / path.name)
    if want.dtype.kind == "f":
        same = want.shape == got.shape and np.allclose(got, want, rtol=rtol, atol=1e-6)
    else:
        same = want.shape == got.shape and np.array_equal(got, want)
    diff = "" if same else f": max |diff| {np.max(np.abs(got.astype(float) - want))}"
    print(f"{'same' if same else 'DIFFERENT'} {path.stem}{diff}")
