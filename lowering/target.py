"""
The host CPU as LLVM sees it: name, features (AVX2, FMA, AVX-512, VNNI), a target machine for
it, and the O3 pipeline.

llvmlite 0.50 facts (../shared/specs/performance.md §2): `llvm.initialize()` raises, the
native target/asmprinter/asmparser initializers still work (the asmparser is needed for
inline asm); MCJIT takes ownership of its TargetMachine, so every engine gets a fresh one.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import llvmlite.binding as llvm


@cache
def _initialize() -> None:
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    llvm.initialize_native_asmparser()


@dataclass(frozen=True)
class HostCpu:
    """What the kernels may use on this machine."""

    name: str  # LLVM's CPU name, e.g. "znver3"
    features: frozenset[str]  # the enabled features, without '+'
    triple: str

    @property
    def avx2(self) -> bool:
        return "avx2" in self.features

    @property
    def fma(self) -> bool:
        return "fma" in self.features

    @property
    def avx512(self) -> bool:
        return {"avx512f", "avx512bw", "avx512vl"} <= self.features

    @property
    def vnni(self) -> bool:
        """u8 x s8 dot products without saturation (AVX512-VNNI or AVX-VNNI)."""
        return "avx512vnni" in self.features or "avxvnni" in self.features

    @property
    def isa(self) -> str:
        """OpenVINO's name of the instruction set in execution types (`jit_avx2_I8`)."""
        if self.avx512:
            return "avx512"
        if self.avx2:
            return "avx2"
        return "sse42" if "sse4.2" in self.features else "ref"


@cache
def host_cpu() -> HostCpu:
    _initialize()
    feature_map = llvm.get_host_cpu_features()
    features = frozenset(name for name, enabled in feature_map.items() if enabled)
    return HostCpu(llvm.get_host_cpu_name(), features, llvm.get_process_triple())


def create_target_machine() -> llvm.TargetMachine:
    """A new TargetMachine for the host CPU at O3 (one per engine: MCJIT owns it)."""
    _initialize()
    cpu = host_cpu()
    target = llvm.Target.from_triple(cpu.triple)
    return target.create_target_machine(
        cpu=cpu.name,
        features=llvm.get_host_cpu_features().flatten(),
        opt=3,
        codemodel="jitdefault",
        jit=True,
    )


def optimize(module: llvm.ModuleRef, tm: llvm.TargetMachine) -> None:
    """The new pass manager's O3 pipeline (the JIT engines do not optimize by themselves)."""
    pto = llvm.create_pipeline_tuning_options(speed_level=3)
    pto.loop_vectorization = True
    pto.slp_vectorization = True
    pb = llvm.create_pass_builder(tm, pto)
    pb.getModulePassManager().run(module, pb)
