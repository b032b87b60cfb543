"""
Writes examples/qlstm.xml + examples/qlstm.bin: the quantized LSTM of `make_qlstm.py`
(examples/qlstm.mlir) as OpenVINO IR v11, the format OpenVINO's tools and `openvino.Core`
read. It is the model of the README's OpenVINO IR round trip:

    opt-tool --lpt --low-latency2 examples/qlstm.xml --emit=ov-ir -o out.xml
    lowpass-run examples/qlstm.xml --random-inputs 0

`python examples/make_ov_ir.py [--out FILE.xml]` (the .bin is written beside the .xml).
"""

from __future__ import annotations

import argparse
from pathlib import Path

try:
    from make_qlstm import build_qlstm
except ImportError:  # imported as examples.make_ov_ir
    from examples.make_qlstm import build_qlstm  # type: ignore[no-redef]

from lowpass.frontends.ov_ir import serialize_ov_ir, write_ov_ir


def qlstm_ov_ir() -> tuple[bytes, bytes]:
    """The .xml and .bin bytes of the shipped quantized LSTM."""
    return serialize_ov_ir(build_qlstm().module, filename="qlstm.xml")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--out", default=str(Path(__file__).parent / "qlstm.xml"))
    args = parser.parse_args()
    write_ov_ir(build_qlstm().module, args.out)
    print(f"wrote {args.out} and {Path(args.out).with_suffix('.bin')}")


if __name__ == "__main__":
    main()
