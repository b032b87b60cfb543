"""
`lpt` keeps a model's output names (a fuzz campaign, seed 2611): an unnamed output takes its
producer's derived name (`Sigmoid_11`: type and position), and an op that lpt inserts before
the producer shifted it (`Sigmoid_12`), so `opt-tool --lpt` renamed an output that the CPU
device, which runs lpt itself, did not. The shifted output now keeps its name as `ov.name`.
"""

from __future__ import annotations

from pathlib import Path

from lowpass.dialects.graph import entry_function, graph_output_names
from lowpass.frontends import read_model_file
from lowpass.ir import print_module
from lowpass.passes.lpt import run_lpt

MODEL = Path(__file__).resolve().parents[3] / "passes" / "lpt" / "fake-quantize.mlir"


def test_lpt_keeps_derived_output_names() -> None:
    module = read_model_file(MODEL)
    before = graph_output_names(entry_function(module))
    assert before == ["Sigmoid_11"]  # (no ov.name: the producer's type and position)
    run_lpt(module)
    assert graph_output_names(entry_function(module)) == before
    assert 'ov.name = "Sigmoid_11"' in print_module(module)
