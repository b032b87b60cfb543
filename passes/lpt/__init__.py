"""
Low Precision Transformations (OpenVINO LPT) as xDSL passes.

* `lpt`: the whole pipeline (prerequisites, markup, main, cleanup, folding);
  `lpt{only=convolution,mat-mul}` runs only the named transformations (and the whole markup);
* `test-lpt-markup`: the markup step alone, its attributes written into the IR (`lpt.*`);
* `test-lpt-<transformation>`: one transformation alone (a test pass, as MLIR's `test-*`). A
  main-step transformation runs after the full markup, like upstream's unit-test harness
  (SimpleLowPrecisionTransformer); a markup
  transformation runs the markup up to itself and prints the attributes; prerequisites and
  cleanup transformations run alone.

Python API: `run_lpt(module, LptParams(...))`; `is_quantized(module)` (upstream's
`isFunctionQuantized`) says whether LPT has something to do on a model.
"""

from .detection import is_low_precision, is_quantized
from .params import (
    LptParams,
    PrecisionsRestriction,
    QuantizationGranularityRestriction,
    cpu_precision_restrictions,
    cpu_quantization_restrictions,
)
from .passes import LptMarkupPass, LptPass, single_transformation_passes
from .pipeline import run_lpt

__all__ = [
    "LptMarkupPass",
    "LptParams",
    "LptPass",
    "PrecisionsRestriction",
    "QuantizationGranularityRestriction",
    "cpu_precision_restrictions",
    "cpu_quantization_restrictions",
    "is_low_precision",
    "is_quantized",
    "run_lpt",
    "single_transformation_passes",
]
