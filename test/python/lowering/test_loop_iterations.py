"""
How many iterations a Loop runs on the CPU device (issue 14, section 3): every combination of
trip count (0, 1, n, -1), execution condition (true, false) and body condition (constant true,
constant false: a do-while, data-dependent), with trip count and execution condition given as
constants or as graph inputs. The Loop is built with OpenVINO's Python API and read from its
IR; the CPU device must equal the REFERENCE device, an independent numpy model of OpenVINO's
Loop-5 semantics, and OpenVINO's CPU plugin.

A do-while Loop (body condition constant false) has `num_iterations() == 1` (OpenVINO's shape
rule) but runs no iteration when its trip count is 0: its last-value outputs are then the
initial values of their back edges, not zeros.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

import lowpass
from lowpass.frontends.ov_ir import read_ov_ir

from .typed import cpu_graph

openvino = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

WEIGHTS = np.array([[0.5, -1.0, 2.0]], np.float32)
TRIPS = (0, 1, 4, -1)
BODIES = ("true", "false", "data")
SOURCES = ("constant", "input")


def openvino_loop(trip_source: str, go_source: str, body: str, trip: int, go: bool) -> Any:
    """
    Loop over A0 [1, 3] and C0 [1] (back edges acc, c): acc' = acc * WEIGHTS + i (i: the
    current iteration), c' = c - 1, body condition `true`, `false` or `c' != 0` (data).
    Outputs: out0 = last acc', out1 = last c', out2 = last acc (a body parameter returned).
    `trip` and `go` are used when their source is "constant", else they are the inputs
    "trip" and "go".
    """
    a0 = ops.parameter([1, 3], np.float32, name="A0")
    c0 = ops.parameter([1], np.float32, name="C0")
    params = [a0, c0]
    if trip_source == "input":
        trip_count = ops.parameter([], np.int64, name="trip")
        params.append(trip_count)
    else:
        trip_count = ops.constant(np.array(trip, np.int64))
    if go_source == "input":
        execution = ops.parameter([], np.bool_, name="go")
        params.append(execution)
    else:
        execution = ops.constant(np.array(go))
    i = ops.parameter([], np.int64, name="i")
    acc = ops.parameter([1, 3], np.float32, name="acc")
    c = ops.parameter([1], np.float32, name="c")
    acc_new = ops.add(ops.multiply(acc, ops.constant(WEIGHTS)), ops.convert(i, "f32"))
    c_new = ops.subtract(c, ops.constant(np.array([1.0], np.float32)))
    if body == "data":
        cond = ops.convert(c_new, "boolean")
    else:
        cond = ops.constant(np.array([body == "true"]))
    r_acc, r_cond, r_c, r_prev = (ops.result(v) for v in (acc_new, cond, c_new, acc))
    loop = ops.loop(trip_count, execution)
    loop.set_function(openvino.Model([r_acc, r_cond, r_c, r_prev], [i, acc, c], "body"))
    loop.set_special_body_ports([0, 1])
    loop.set_merged_input(acc, a0.output(0), r_acc.output(0))
    loop.set_merged_input(c, c0.output(0), r_c.output(0))
    results = []
    for k, r in enumerate((r_acc, r_c, r_prev)):
        out = loop.get_iter_value(r.output(0), -1)
        out.get_tensor().set_names({f"out{k}"})
        results.append(ops.result(out))
    return openvino.Model(results, params, "loop")


def expected(body: str, trip: int, go: bool, a0: np.ndarray, c0: np.ndarray) -> dict:
    """OpenVINO's Loop-5: while (trip < 0 or i < trip) and condition: body; condition = body's."""
    acc, c, prev = a0, c0, a0
    i, condition = 0, go
    while (trip < 0 or i < trip) and condition:
        prev = acc
        acc = acc * WEIGHTS + np.float32(i)
        c = c - np.float32(1)
        condition = {"true": True, "false": False, "data": bool(c[0] != 0)}[body]
        i += 1
    return {"out0": acc, "out1": c, "out2": prev}


def cases() -> list[tuple[str, str, str]]:
    return list(itertools.product(SOURCES, SOURCES, BODIES))


@pytest.mark.parametrize(("trip_source", "go_source", "body"), cases())
def test_loop_iterations_equal_reference_and_openvino(
    tmp_path: Path, trip_source: str, go_source: str, body: str
) -> None:
    rng = np.random.default_rng(14)
    # a constant trip count or condition needs one model per value; inputs take them all
    models: dict[tuple[int, bool], ModuleOp] = {}
    theirs: dict[tuple[int, bool], Any] = {}
    for trip, go in itertools.product(TRIPS, (True, False)):
        if body == "true" and trip < 0:
            continue  # never ends
        key = (trip if trip_source == "constant" else 0, go if go_source == "constant" else True)
        if key not in models:
            xml = tmp_path / f"loop_{len(models)}.xml"
            openvino.save_model(
                openvino_loop(trip_source, go_source, body, *key), str(xml), compress_to_fp16=False
            )
            models[key] = read_ov_ir(xml)
            theirs[key] = openvino.Core().compile_model(
                openvino.Core().read_model(xml), "CPU", {"INFERENCE_PRECISION_HINT": "f32"}
            )
        module = models[key]
        feeds: dict[str, np.ndarray] = {
            "A0": rng.uniform(-2, 2, (1, 3)).astype(np.float32),
            "C0": np.array([2.0], np.float32),
        }
        if trip_source == "input":
            feeds["trip"] = np.array(trip, np.int64)
        if go_source == "input":
            feeds["go"] = np.array(go)
        want = expected(body, trip, go, feeds["A0"], feeds["C0"])
        case = f"trip={trip} go={go} body={body}"
        for device in ("REFERENCE", "CPU"):
            compiled = lowpass.Core().compile_model(module, device)
            if device == "CPU":
                groups = cpu_graph(compiled).groups
                (group,) = [g for g in groups if g.ops[0].name == "ov.loop"]
                assert not group.fallback  # the Loop is lowered, not run by the reference
            got = compiled.create_infer_request().infer(feeds).to_dict()
            for name, value in want.items():
                np.testing.assert_array_equal(got[name], value, err_msg=f"{device} {case} {name}")
        if go_source == "constant" and not go:
            # OpenVINO's CPU plugin gives a Loop whose execution condition is a constant false
            # empty [0, ...] outputs (its shape inference takes 0 iterations), not values of
            # the declared shapes; there is nothing to compare
            continue
        result = theirs[key](feeds)
        for port in theirs[key].outputs:
            name = port.get_any_name()
            np.testing.assert_array_equal(
                np.asarray(result[port]), want[name], err_msg=f"OpenVINO {case} {name}"
            )
