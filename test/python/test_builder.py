"""GraphBuilder: graphs built from Python verify, print, parse back and run."""

from __future__ import annotations

import numpy as np

import lowpass
from lowpass.builder import GraphBuilder
from lowpass.dialects.ov import AddOp, MultiplyOp


def test_built_graph_round_trips_and_runs() -> None:
    g = GraphBuilder("net")
    x = g.input("data", [2, 3])
    s = g.input("scale/in", [3])
    c = g.constant(np.array([1, 2, 3], np.float32), name="bias")
    y = g.value(AddOp(x, c, name="add"))
    z = g.value(MultiplyOp(y, s, name="mul"))
    g.output(z, "out")
    g.output(y)
    module = g.module()
    lowpass.verify_module(module)
    text = lowpass.print_module(module)
    assert '{ov.name = "scale/in"}' in text and "ov.add" in text
    assert lowpass.read_module(text).is_structurally_equivalent(module)
    model = lowpass.Core().read_model(module)
    assert [p.name for p in model.inputs] == ["data", "scale/in"]
    assert [p.name for p in model.outputs] == ["out", "add"]
    xv = np.arange(6, dtype=np.float32).reshape(2, 3)
    sv = np.array([2, 2, 2], np.float32)
    out = lowpass.Core().compile_model(model, "REFERENCE")({"data": xv, "scale/in": sv})
    np.testing.assert_allclose(out["out"], (xv + [1, 2, 3]) * 2)
    np.testing.assert_allclose(out["add"], xv + [1, 2, 3])
