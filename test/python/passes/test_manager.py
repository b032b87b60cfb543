"""
OpenVINO's Python pass manager (`openvino.passes`) as lowpass offers it (`lowpass.passes`:
passes/manager.py): a State API script's `Manager().register_pass(LowLatency2())`,
`run_passes(model)`, and `MakeStateful` of names or of nodes, on a `lowpass.Model`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

import lowpass
from lowpass import passes
from lowpass.passes.low_latency2 import LowLatency2Pass
from lowpass.passes.make_stateful import MakeStatefulPass

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


def _one_step_lstm() -> lowpass.Model:
    model = lowpass.Core().read_model(EXAMPLES / "lstm.mlir")
    model.reshape({"X": [1, 1, 16]})
    return model


def test_low_latency2_through_the_manager_is_the_pass() -> None:
    """The State API's recipe: the model's ports and variables follow, the request keeps the
    state; the IR equals the pass run directly (`use_const_initializer` passed on)."""
    for use_const_initializer in (True, False):
        model, direct = _one_step_lstm(), _one_step_lstm()
        manager = passes.Manager()
        registered = manager.register_pass(passes.LowLatency2(use_const_initializer))
        assert isinstance(registered, LowLatency2Pass)
        assert manager.run_passes(model) is True
        LowLatency2Pass(use_const_initializer).apply(lowpass.make_context(), direct.module)
        assert str(model.module) == str(direct.module)
    assert len(model.get_variables()) == 2
    request = lowpass.Core().compile_model(model, "CPU").create_infer_request()
    zeros = np.zeros((1, 32), np.float32)
    x = np.ones((1, 1, 16), np.float32)
    first = request.infer({"X": x, "H0": zeros, "C0": zeros})["Y"].copy()
    second = request.infer({"X": x, "H0": zeros, "C0": zeros})["Y"]
    assert not np.array_equal(first, second)  # (the second step starts from the first's state)


def test_make_stateful_of_names_or_of_nodes() -> None:
    by_names = lowpass.Core().read_model(EXAMPLES / "lstm.mlir")
    manager = passes.Manager()
    manager.register_pass(passes.MakeStateful({"H0": "H", "C0": "C"}))
    manager.run_passes(by_names)
    by_nodes = lowpass.Core().read_model(EXAMPLES / "lstm.mlir")
    parameters, results = by_nodes.get_parameters(), by_nodes.get_results()
    manager = passes.Manager()
    manager.register_pass(passes.MakeStateful([(parameters[1], results[1]),
                                               (parameters[2], results[2])]))  # fmt: skip
    manager.run_passes(by_nodes.module)  # (a ModuleOp too)
    assert str(by_names.module) == str(by_nodes.module)
    assert [p.get_friendly_name() for p in by_names.get_parameters()] == ["X"]
    assert [r.get_friendly_name() for r in by_names.get_results()] == ["Y"]
    assert passes.MakeStateful({"H0": "H"}).pairs == MakeStatefulPass(pairs=("H0:H",)).pairs


def test_errors_name_what_is_wrong() -> None:
    manager = passes.Manager()
    manager.register_pass(passes.MakeStateful({"nope": "H"}))
    with pytest.raises(RuntimeError, match="'nope' is not the name of a graph input") as info:
        manager.run_passes(lowpass.Core().read_model(EXAMPLES / "lstm.mlir"))
    assert isinstance(info.value, PassFailedException)  # (OpenVINO's type, and xDSL's)
    with pytest.raises(TypeError, match="register_pass: expected a pass"):
        passes.Manager().register_pass(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"run_passes: expected a lowpass\.Model or a ModuleOp"):
        passes.Manager().run_passes("model.xml")
    with pytest.raises(ValueError, match="no pairs"):
        passes.MakeStateful({})
    with pytest.raises(AttributeError, match="no attribute 'ConstantFolding'"):
        getattr(passes, "ConstantFolding")  # noqa: B009 (not offered: said so)
    # (the string "false" ran as True; OpenVINO's binding refuses it, takes a number's truth)
    with pytest.raises(TypeError, match="use-const-initializer takes true or false"):
        passes.LowLatency2("false")  # pyright: ignore[reportArgumentType]
    assert passes.LowLatency2(0).use_const_initializer is False
    assert passes.LowLatency2(None).use_const_initializer is False
    assert passes.LowLatency2(1.5).use_const_initializer is True
    with pytest.raises(TypeError, match="use-const-initializer takes true or false"):
        passes.LowLatency2([True])  # pyright: ignore[reportArgumentType]
    assert passes.LowLatency2(np.bool_(True)).use_const_initializer is True


def test_any_xdsl_pass_registers_and_validation_can_be_off() -> None:
    from xdsl.transforms.canonicalize import CanonicalizePass

    model = lowpass.Core().read_model(EXAMPLES / "convnet.mlir")
    manager = passes.Manager()
    manager.set_per_pass_validation(False)
    assert isinstance(manager.register_pass(CanonicalizePass()), ModulePass)
    assert manager.run_passes(model)


def test_the_names_are_openvinos() -> None:
    openvino_passes = pytest.importorskip("openvino.passes")
    for name in ("Manager", "LowLatency2", "MakeStateful"):
        assert hasattr(openvino_passes, name)
    for method in ("register_pass", "run_passes", "set_per_pass_validation"):
        assert hasattr(openvino_passes.Manager, method) and hasattr(passes.Manager, method)
