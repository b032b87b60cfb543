"""
Native kernels emitted as LLVM IR: the GEMMs (int8 and fp32, packed constant weights, fused
epilogue) and the worker pool that splits them between threads without OpenMP or Python
(`threads.py`; `parallel.py` splits the op lowerings' loops over ranges of units on it).
"""

from lowpass.lowering.kernels.gemm import (
    Epilogue,
    emit_gemm,
    gemm_kernel_kind,
    gemm_reference,
)
from lowpass.lowering.kernels.threads import ThreadPool, emit_parallel_call, thread_pool

__all__ = [
    "Epilogue",
    "ThreadPool",
    "emit_gemm",
    "emit_parallel_call",
    "gemm_kernel_kind",
    "gemm_reference",
    "thread_pool",
]
