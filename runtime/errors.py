"""
`LowpassError`, the error of the runtime API, in a module of its own so that the modules
`runtime/core.py` uses (`runtime/model_inputs.py`) raise it without importing Core.
`lowpass.LowpassError`, `lowpass.runtime.LowpassError` and `lowpass.runtime.core.LowpassError`
are this class.
"""


class LowpassError(RuntimeError):
    """An error of the runtime API (bad input name, shape, device...)."""
