"""
The host CPU as LLVM sees it: name, features (AVX2, FMA, AVX-512, VNNI, AMX), a target machine
for it, and the O3 pipeline.

`LOWPASS_MAX_CPU_ISA` (read once per process, like oneDNN's `ONEDNN_MAX_CPU_ISA`) caps the
features that LLVM and the kernels may use, so that an AVX-512/VNNI machine compiles and runs
what an AVX2 machine would: `avx2`, `avx2_vnni`, `avx512_core`, `avx512_core_vnni`,
`avx512_core_amx` or `all`.

AMX tiles are usable only once the process has asked Linux for them
(`arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)`, Linux 5.16 and later: the tile data
is 8 KiB of extra state per thread, so the kernel enables it on request only). `host_cpu()`
asks when the CPU has AMX, and drops the AMX features when the request is refused: the
kernels then take the AVX-512 VNNI path, and LLVM is told not to use AMX either.

llvmlite 0.50 facts: `llvm.initialize()` raises, the native target/asmprinter/asmparser
initializers still work (the asmparser is needed for inline asm); MCJIT takes ownership of
its TargetMachine, so every engine gets a fresh one.
"""

from __future__ import annotations

import ctypes
import os
import platform
import sys
from collections.abc import Callable
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
    def avx512_vnni(self) -> bool:
        """`vpdpbusd` on zmm registers (AVX512-VNNI; AVX-VNNI has the ymm form only)."""
        return self.avx512 and "avx512vnni" in self.features

    @property
    def avx512_bf16(self) -> bool:
        """`vdpbf16ps` and `vcvtneps2bf16` on zmm registers (AVX512-BF16: Cooper Lake, Sapphire
        Rapids and later, AMD Zen 4 and Zen 5): the `bf16` GEMM kernels."""
        return self.avx512 and "avx512bf16" in self.features

    @property
    def amx(self) -> bool:
        """Intel AMX int8 tiles (`tdpbusd`), with the AVX512-VNNI kernels around them."""
        return self.avx512_vnni and {"amx-tile", "amx-int8"} <= self.features

    @property
    def amx_bf16(self) -> bool:
        """Intel AMX bfloat16 tiles (`tdpbf16ps`), with the AVX512-BF16 kernels around them:
        the `bf16` GEMMs whose A is in bfloat16 (`gemm.amx_applies`)."""
        return self.avx512_bf16 and {"amx-tile", "amx-bf16"} <= self.features

    @property
    def zen_vector_pipes(self) -> bool:
        """The vector unit of AMD Zen 4 and Zen 5 (LLVM's `znver4`, `znver5`): a zmm
        `vpdpbusd`, FMA or multiplication takes the multiply pipes, and additions, compares,
        conversions and shuffles run beside it on pipes of their own (Zen 4 runs a 512-bit
        operation as two 256-bit halves, Zen 5 whole; measured on Zen 4: 16 `vpdpbusd` and
        12 such operations in 16 cycles), where an Intel core runs both kinds on the same
        two 512-bit ports; a zmm `vreduceps` takes two cycles of its pipes, `vrndscaleps` one
        (measured on Zen 4).
        The kernels then overlap a tile's requantization with the next tile's products
        (`_GemmKernel.vnni_groups`) and round and truncate by `vrndscaleps`
        (`quantization._fake_quantize`). On a Zen 5 host (same-process A/B, the same bits)
        the two made resnet50 int8 0.951x the time, squeezenet 0.957x, mobilenet_v2 0.957x,
        inception_v1 0.978x (the overlap alone 0.960-0.988x, the rounding alone
        0.965-0.984x)."""
        return self.name in ("znver4", "znver5")

    @property
    def isa(self) -> str:
        """OpenVINO's name of the instruction set in execution types (`jit_avx2_I8`)."""
        if self.avx512:
            return "avx512"
        if self.avx2:
            return "avx2"
        return "sse42" if "sse4.2" in self.features else "ref"


MAX_ISA_VARIABLE = "LOWPASS_MAX_CPU_ISA"


def _avx512(feature: str) -> bool:
    """AVX-512 and what needs its EVEX encoding or comes after it (AVX10, AMX)."""
    return feature.startswith(("avx512", "avx10", "amx")) or feature == "evex512"


def _vex_vnni(feature: str) -> bool:
    """The VEX-encoded AVX-VNNI family (Alder Lake and later): absent from AVX2 hosts."""
    return feature in ("avxvnni", "avxvnniint8", "avxvnniint16", "avxifma", "avxneconvert")


_AVX512_CORE = frozenset({"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl", "evex512"})

MAX_ISAS: dict[str, Callable[[str], bool]] = {
    # ISA name (oneDNN's spelling, any case) -> the features the cap removes
    "avx2": lambda f: _avx512(f) or _vex_vnni(f),
    "avx2_vnni": lambda f: _avx512(f) or (_vex_vnni(f) and f != "avxvnni"),
    "avx512_core": lambda f: _vex_vnni(f) or (_avx512(f) and f not in _AVX512_CORE),
    "avx512_core_vnni": lambda f: (
        _vex_vnni(f) or (_avx512(f) and f not in _AVX512_CORE | {"avx512vnni"})
    ),
    "avx512_core_bf16": lambda f: (
        _vex_vnni(f) or (_avx512(f) and f not in _AVX512_CORE | {"avx512vnni", "avx512bf16"})
    ),
    "avx512_core_amx": lambda f: (
        _vex_vnni(f)
        or (_avx512(f) and f not in _AVX512_CORE | {"avx512vnni", "avx512bf16", "amx-tile",
                                                     "amx-int8", "amx-bf16"})
    ),
    "all": lambda f: False,
}


def cap_features(features: frozenset[str], max_isa: str) -> frozenset[str]:
    """`features` without those above `max_isa` (a key of MAX_ISAS, any case)."""
    drop = MAX_ISAS.get(max_isa.strip().lower())
    if drop is None:
        raise ValueError(
            f"{MAX_ISA_VARIABLE}={max_isa}: unknown instruction set; expected one of "
            + ", ".join(MAX_ISAS)
        )
    return frozenset(f for f in features if not drop(f))


_ARCH_REQ_XCOMP_PERM = 0x1023
_XFEATURE_XTILEDATA = 18
_SYS_ARCH_PRCTL = 158  # x86-64


def _request_amx_tiles() -> bool:
    """Whether Linux lets this process use the AMX tile registers (it asks, once; the
    permission is process-wide, so the pool's threads have it too)."""
    if not sys.platform.startswith("linux") or platform.machine() not in ("x86_64", "AMD64"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.syscall(_SYS_ARCH_PRCTL, _ARCH_REQ_XCOMP_PERM, _XFEATURE_XTILEDATA) == 0
    except (OSError, AttributeError):
        return False


@cache
def host_cpu() -> HostCpu:
    """The host CPU, with its features capped by LOWPASS_MAX_CPU_ISA when that is set, and
    without AMX when Linux refuses this process the tile registers."""
    _initialize()
    feature_map = llvm.get_host_cpu_features()
    features = frozenset(name for name, enabled in feature_map.items() if enabled)
    max_isa = os.environ.get(MAX_ISA_VARIABLE, "")
    if max_isa:
        features = cap_features(features, max_isa)
    if "amx-tile" in features and not _request_amx_tiles():
        features = frozenset(f for f in features if not f.startswith("amx"))
    return HostCpu(llvm.get_host_cpu_name(), features, llvm.get_process_triple())



GDS_STATUS = "/sys/devices/system/cpu/vulnerabilities/gather_data_sampling"
"""Linux's word on Gather Data Sampling (Intel's "Downfall", Skylake to Ice Lake and Tiger
Lake): "Mitigation: Microcode" where the microcode makes every gather several times slower."""


@cache
def gathers_microcoded() -> bool:
    """Whether this host's gathers run the slow microcode of the Gather Data Sampling
    mitigation (`GDS_STATUS`): the table lookups then go one by one, as on AVX2 hosts
    (`quantization.emit_table_lookup`). A host that does not say (another OS, an older
    kernel) is taken as not mitigated."""
    try:
        with open(GDS_STATUS, encoding="ascii") as status:
            return status.read().startswith("Mitigation: Microcode")
    except OSError:
        return False

def create_target_machine() -> llvm.TargetMachine:
    """A new TargetMachine for the host CPU at O3 (one per engine: MCJIT owns it), with
    exactly host_cpu()'s features: a capped feature is disabled explicitly ('-avx512f'), so
    LLVM does not take it from the CPU name either."""
    return target_machine_for(*target_spec())


def target_spec() -> tuple[str, str, str]:
    """(triple, CPU name, feature string) of `create_target_machine`: what a compile worker
    process (`lowering/compile_worker.py`) needs to generate the same code."""
    _initialize()
    cpu = host_cpu()
    names = set(llvm.get_host_cpu_features()) | cpu.features
    features = ",".join(("+" if f in cpu.features else "-") + f for f in sorted(names))
    return cpu.triple, cpu.name, features


def target_machine_for(triple: str, cpu_name: str, features: str) -> llvm.TargetMachine:
    """An O3 TargetMachine for the JIT (`target_spec`'s fields)."""
    _initialize()
    target = llvm.Target.from_triple(triple)
    return target.create_target_machine(
        cpu=cpu_name,
        features=features,
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
