"""The CPU device's compiler: `ov` graph -> passes over the `cpu` dialect -> LLVM IR -> JIT."""

from collections.abc import Callable

from xdsl.passes import ModulePass
from xdsl.utils.target import Target


def _pass(name: str) -> Callable[[], type[ModulePass]]:
    def factory() -> type[ModulePass]:
        from lowpass.lowering.pipeline import PASSES

        return next(p for p in PASSES if p.name == name)

    return factory


def get_cpu_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Name -> factory of the passes of the CPU pipeline (`lowering/pipeline.py`), registered
    lazily like `lowpass.passes.get_all_passes`."""
    names = (
        "cpu-assign-buffers",
        "cpu-choose-layouts",
        "cpu-choose-storage",
        "cpu-decompose",
        "cpu-fold-constants",
        "cpu-fuse-kernels",
        "cpu-interleave-rows",
        "cpu-quantize-cells",
        "cpu-remove-views",
        "cpu-select-kernels",
    )
    return {name: _pass(name) for name in names}


def _llvm_target() -> type[Target]:
    from lowpass.lowering.compiler import LlvmTarget

    return LlvmTarget


def get_cpu_targets() -> dict[str, Callable[[], type[Target]]]:
    """`-t cpu-llvm`: the module translated for the CPU device (`lowering/compiler.py`)."""
    return {"cpu-llvm": _llvm_target}
