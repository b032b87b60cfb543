"""
The analyses of the CPU compiler on one module, as the pipeline's passes run them
(`lowering/pipeline.py`) and as the translation reads their decisions back
(`lowering/compiler.py`, whose `GraphCompiler` is a `GraphAnalysis`): the static-shape check,
constants, views and groups (`PlanReader`), buffers (`MemoryPlanner`), with the op lowerings
that decide the groups and the TensorIterator/Loop lowering, which plans a body here and
emits it through the `BodyEmitter` it is given (the translation's; none for the passes).
"""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue

from lowpass.dialects.graph import entry_function
from lowpass.dialects.ov.state import module_variables
from lowpass.lowering.emit import OpLowering
from lowpass.lowering.loops import BodyEmitter, SubGraphLowering
from lowpass.lowering.memory import MemoryPlanner
from lowpass.lowering.planning import PlanReader
from lowpass.lowering.target import host_cpu


class GraphAnalysis(PlanReader, MemoryPlanner):
    """The state the analyses share on `module`: its entry function and variables, the host,
    the op lowerings (with one constant-folding memo) and the TensorIterator/Loop lowering."""

    def __init__(self, module: ModuleOp, body_emitter: BodyEmitter | None = None) -> None:
        self.module = module
        self.function = entry_function(module)
        self.cpu = host_cpu()
        self.lowerings = _lowerings()
        # One constant-folding memo for every lowering that asks `static_value`: the weights'
        # dequantization chains are folded once per compilation, not once per lowering that
        # looks at them (answers depend on the value alone; the IR does not change while a
        # compiler reads it).
        self.fold_memo: dict[SSAValue, np.ndarray | None] = {}
        for lowering in self.lowerings:
            if hasattr(lowering, "_memo"):
                setattr(lowering, "_memo", self.fold_memo)  # noqa: B010 (not in OpLowering)
        self.subgraph_lowering = SubGraphLowering(self, body_emitter)
        self.variables = module_variables(module)
        self.body_source = "analyse"
        """How TensorIterator/Loop bodies are planned: "analyse" (the compiler's analysis),
        "marks" (constants and views as cpu-fold-constants / cpu-remove-views marked them:
        cpu-fuse-kernels), "ir" (everything as the pipeline wrote it: the translation)."""


def _lowerings() -> list[OpLowering]:
    from lowpass.lowering.ops import LOWERINGS

    return [cls() for cls in LOWERINGS]
