"""The dialects of lowpass, registered lazily like xDSL's `get_all_dialects`."""

from collections.abc import Callable

from xdsl.ir import Dialect


def get_cpu() -> Dialect:
    from lowpass.dialects.cpu import CPU

    return CPU


def get_ov() -> Dialect:
    from lowpass.dialects.ov import OV

    return OV


def get_tfl() -> Dialect:
    from lowpass.dialects.tfl import TFL

    return TFL


def get_all_dialects() -> dict[str, Callable[[], Dialect]]:
    """Name -> factory of every lowpass dialect."""
    return {
        "cpu": get_cpu,
        "ov": get_ov,
        "tfl": get_tfl,
    }
