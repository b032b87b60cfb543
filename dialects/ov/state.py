"""State ops of the OpenVINO opset: Variable, ReadValue, Assign (being written)."""

OPS: tuple[type, ...] = ()
