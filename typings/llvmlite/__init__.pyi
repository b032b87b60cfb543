# Typed stub for the subset of llvmlite that lowpass uses (llvmlite ships no type information).
__version__: str
