"""
Extracts silero-vad's ONNX models from the `silero-vad` wheel without installing the package
(it requires torch, which lowpass does not need):

    python examples/get_silero_vad.py [folder]        # default: ./silero_vad_models
    LOWPASS_SILERO_VAD_DIR=silero_vad_models pytest test/python/frontends/test_silero_vad.py

`pip download --no-deps silero-vad` fetches the wheel (about 11 MB) into a temporary folder;
its `silero_vad/data/*.onnx` files are written to the folder. Alternatively `pip install
--no-deps silero-vad` puts the same files in site-packages, where the tests find them too.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path


def extract(wheel: Path, folder: Path) -> list[Path]:
    """Write the wheel's `silero_vad/data/*.onnx` files into `folder`; return their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    with zipfile.ZipFile(wheel) as z:
        for name in z.namelist():
            if name.startswith("silero_vad/data/") and name.endswith(".onnx"):
                target = folder / Path(name).name
                target.write_bytes(z.read(name))
                written.append(target)
    return written


def main(argv: list[str]) -> int:
    folder = Path(argv[1] if len(argv) > 1 else "silero_vad_models")
    with tempfile.TemporaryDirectory() as tmp:
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "silero-vad", "-d", tmp]
        if subprocess.run(command, check=False).returncode != 0:
            print("error: pip download silero-vad failed", file=sys.stderr)
            return 1
        wheels = sorted(Path(tmp).glob("silero_vad-*.whl"))
        if not wheels:
            print("error: pip download gave no silero_vad wheel", file=sys.stderr)
            return 1
        written = extract(wheels[-1], folder)
    for path in written:
        print(path)
    return 0 if written else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
