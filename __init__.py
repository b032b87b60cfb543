"""lowpass: low-latency and low-precision passes for xDSL, with an OpenVINO-like runtime."""

from ._version import __version__

__all__ = ["__version__"]
