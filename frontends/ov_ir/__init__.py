"""
OpenVINO IR v10/v11 (`.xml` + `.bin`): reader and writer.

    from lowpass.frontends.ov_ir import read_ov_ir, write_ov_ir
    module = read_ov_ir("model.xml")            # weights from model.bin
    write_ov_ir(module, "out.xml")              # writes out.xml and out.bin

See docs/frontends.md ("OpenVINO IR") for what is read and written.
"""

from lowpass.frontends.ov_ir.reader import read_ov_ir, read_ov_ir_bytes, tensor_producers
from lowpass.frontends.ov_ir.writer import serialize_ov_ir, write_ov_ir

__all__ = ["read_ov_ir", "read_ov_ir_bytes", "serialize_ov_ir", "tensor_producers",
           "write_ov_ir"]
