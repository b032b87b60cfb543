"""Type (conversion) ops of the OpenVINO opset (being written)."""

OPS: tuple[type, ...] = ()
