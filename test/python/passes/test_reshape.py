"""
reshape preserves the program's meaning where the program is shape-polymorphic: the reshaped
model run on new-shape inputs equals the original run on pieces of them.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import PassPipeline

import lowpass
from lowpass.dialects.graph import printed_names
from lowpass.dialects.ov import LoopOp
from lowpass.passes import get_all_passes
from lowpass.passes.reshape import ReshapeError, ReshapePass, reshape_module

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"

CONVNET = """
func.func @main(%x: tensor<2x1x16xf32> {ov.name = "X"}) -> (tensor<2x10xf32> {ov.name = "prob"}) {
  %w = ov.constant dense<[[[0.5, -1.0, 0.25]], [[1.0, 0.5, -0.5]], [[-0.25, 0.75, 1.0]],
                          [[0.1, 0.2, 0.3]]]> : tensor<4x1x3xf32>
  %c = ov.convolution %x, %w {strides = array<i64: 1>, pads_begin = array<i64: 0>,
      pads_end = array<i64: 0>, dilations = array<i64: 1>, ov.name = "conv"}
      : (tensor<2x1x16xf32>, tensor<4x1x3xf32>) -> tensor<2x4x14xf32>
  %r = ov.relu %c : (tensor<2x4x14xf32>) -> tensor<2x4x14xf32>
  %s = ov.constant dense<[0, -1]> : tensor<2xi64> {ov.name = "flatten/shape"}
  %f = ov.reshape %r, %s special_zero = true {ov.name = "flatten"}
      : (tensor<2x4x14xf32>, tensor<2xi64>) -> tensor<2x56xf32>
  %m = ov.constant dense<0.125> : tensor<56x10xf32>
  %fc = ov.mat_mul %f, %m {ov.name = "fc"}
      : (tensor<2x56xf32>, tensor<56x10xf32>) -> tensor<2x10xf32>
  %b = ov.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]> : tensor<10xf32>
  %a = ov.add %fc, %b : (tensor<2x10xf32>, tensor<10xf32>) -> tensor<2x10xf32>
  %p = ov.softmax %a axis = 1 {ov.name = "prob"} : (tensor<2x10xf32>) -> tensor<2x10xf32>
  func.return %p : tensor<2x10xf32>
}
"""

# A TensorIterator without state over a sequence of 6: each step is computed from its own
# slice only, so running chunks of 2 gives the same per-step outputs as the whole sequence.
TI = """
func.func @main(%x: tensor<6x1x4xf32> {ov.name = "X"}, %w: tensor<4x4xf32> {ov.name = "W"})
    -> (tensor<6x1x4xf32> {ov.name = "Y"}, tensor<1x4xf32> {ov.name = "last"}) {
  %0:2 = ov.tensor_iterator(%x, %w) attributes {
      input_descriptions = [#ov.slice<input = 0, param = 0, axis = 0>,
                            #ov.invariant<input = 1, param = 1>],
      output_descriptions = [#ov.concat_output<result = 0, output = 0, axis = 0>,
                             #ov.body_output<result = 1, output = 1>],
      ov.name = "TI"}
      : (tensor<6x1x4xf32>, tensor<4x4xf32>) -> (tensor<6x1x4xf32>, tensor<1x4xf32>) {
  ^bb0(%xt: tensor<1x1x4xf32>, %wt: tensor<4x4xf32>):
    %s = ov.constant dense<[1, 4]> : tensor<2xi64> {ov.name = "squeeze"}
    %x2 = ov.reshape %xt, %s special_zero = false
        : (tensor<1x1x4xf32>, tensor<2xi64>) -> tensor<1x4xf32>
    %m = ov.mat_mul %x2, %wt : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
    %t = ov.tanh %m : (tensor<1x4xf32>) -> tensor<1x4xf32>
    %u = ov.constant dense<[1, 1, 4]> : tensor<3xi64> {ov.name = "unsqueeze"}
    %y = ov.reshape %t, %u special_zero = false
        : (tensor<1x4xf32>, tensor<3xi64>) -> tensor<1x1x4xf32>
    ov.yield %y, %t : tensor<1x1x4xf32>, tensor<1x4xf32>
  }
  func.return %0#0, %0#1 : tensor<6x1x4xf32>, tensor<1x4xf32>
}
"""

# The same body in a Loop whose trip count is Gather(ShapeOf(X), 0).
LOOP = """
func.func @main(%x: tensor<6x1x4xf32> {ov.name = "X"}) -> (tensor<6x1x4xf32> {ov.name = "Y"}) {
  %shape = ov.shape_of %x : (tensor<6x1x4xf32>) -> tensor<3xi64>
  %zero = ov.constant dense<0> : tensor<i64>
  %trip = ov.gather %shape, %zero, %zero : (tensor<3xi64>, tensor<i64>, tensor<i64>) -> tensor<i64>
  %true = ov.constant dense<true> : tensor<i1>
  %0 = ov.loop(%trip, %true, %x) attributes {
      input_descriptions = [#ov.slice<input = 2, param = 1, axis = 0>],
      output_descriptions = [#ov.concat_output<result = 0, output = 0, axis = 0>],
      special_body_ports = array<i64: 0, 1>, ov.name = "loop"}
      : (tensor<i64>, tensor<i1>, tensor<6x1x4xf32>) -> tensor<6x1x4xf32> {
  ^bb0(%i: tensor<i64>, %xt: tensor<1x1x4xf32>):
    %cond = ov.constant dense<true> : tensor<i1>
    %y = ov.sigmoid %xt : (tensor<1x1x4xf32>) -> tensor<1x1x4xf32>
    ov.yield %y, %cond : tensor<1x1x4xf32>, tensor<i1>
  }
  func.return %0 : tensor<6x1x4xf32>
}
"""

# A Reshape whose constant target hard-codes the sequence length 6.
HARD_CODED = """
func.func @main(%x: tensor<6x1x4xf32> {ov.name = "X"}) -> tensor<6x4xf32> {
  %s = ov.constant dense<[6, 4]> : tensor<2xi64> {ov.name = "seq/shape"}
  %y = ov.reshape %x, %s special_zero = false {ov.name = "seq/squeeze"}
      : (tensor<6x1x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  %r = ov.relu %y : (tensor<6x4xf32>) -> tensor<6x4xf32>
  func.return %r : tensor<6x4xf32>
}
"""


def _module(text: str) -> ModuleOp:
    return lowpass.read_module(text)


def _reshaped(text: str, spec: str) -> ModuleOp:
    """`text` after the pass pipeline `spec` (xDSL syntax, as opt-tool -p)."""
    module = _module(text)
    PassPipeline.parse_spec(get_all_passes(), spec).apply(lowpass.make_context(), module)
    lowpass.verify_module(module)
    return module


def _run(core: lowpass.Core, module: ModuleOp | str, inputs: dict) -> dict[str, np.ndarray]:
    request = core.compile_model(module, "REFERENCE").create_infer_request()
    return {k: np.asarray(v) for k, v in request.infer(inputs).to_dict().items()}


# --------------------------------------------------------------------------------------------
# Meaning
# --------------------------------------------------------------------------------------------


def test_batch_reshape_matches_chunks(core: lowpass.Core, rng: np.random.Generator) -> None:
    reshaped = _reshaped(CONVNET, 'ov-reshape{inputs="X:4x1x16"}')
    x = rng.standard_normal((4, 1, 16)).astype(np.float32)
    whole = _run(core, reshaped, {"X": x})["prob"]
    assert whole.shape == (4, 10)
    chunks = [_run(core, CONVNET, {"X": x[i : i + 2]})["prob"] for i in (0, 2)]
    np.testing.assert_allclose(whole, np.concatenate(chunks), rtol=1e-6, atol=1e-6)


def test_example_convnet_with_replaced_constant(
    core: lowpass.Core, rng: np.random.Generator
) -> None:
    """examples/convnet.mlir flattens with [1, -1]: batch 3 needs that constant replaced."""
    path = EXAMPLES / "convnet.mlir"
    text = path.read_text()
    module = _module(text)
    with pytest.raises(ReshapeError) as info:
        ReshapePass(inputs=("data:3x3x32x32",)).apply(lowpass.make_context(), module)
    message = str(info.value)
    assert "'ov.mat_mul' op \"fc\" inner dimensions do not match" in message
    assert 'ov.constant "flatten/shape" = [1, -1]' in message
    assert 'replace-constants="flatten/shape:-1x1024"' in message
    # Nothing changed on failure.
    assert lowpass.print_module(module) == lowpass.print_module(_module(text))

    reshaped = _reshaped(
        text, 'ov-reshape{inputs="data:3x3x32x32" replace-constants="flatten/shape:-1x1024"}'
    )
    x = rng.standard_normal((3, 3, 32, 32)).astype(np.float32)
    whole = _run(core, reshaped, {"data": x})["prob"]
    rows = [_run(core, text, {"data": x[i : i + 1]})["prob"] for i in range(3)]
    np.testing.assert_allclose(whole, np.concatenate(rows), rtol=1e-5, atol=1e-6)


def test_tensor_iterator_sequence_chunks(core: lowpass.Core, rng: np.random.Generator) -> None:
    reshaped = _reshaped(TI, 'ov-reshape{inputs="X:2x1x4"}')
    text = lowpass.print_module(reshaped)
    assert '-> (tensor<2x1x4xf32> {ov.name = "Y"}, tensor<1x4xf32> {ov.name = "last"})' in text
    x = rng.standard_normal((6, 1, 4)).astype(np.float32)
    w = rng.standard_normal((4, 4)).astype(np.float32)
    whole = _run(core, TI, {"X": x, "W": w})
    steps = [_run(core, reshaped, {"X": x[i : i + 2], "W": w}) for i in (0, 2, 4)]
    np.testing.assert_allclose(
        np.concatenate([s["Y"] for s in steps]), whole["Y"], rtol=1e-6, atol=1e-6
    )
    np.testing.assert_allclose(steps[-1]["last"], whole["last"], rtol=1e-6, atol=1e-6)


def test_loop_trip_count_follows(core: lowpass.Core, rng: np.random.Generator) -> None:
    reshaped = _reshaped(LOOP, 'ov-reshape{inputs="X:2x1x4"}')
    loop = next(op for op in reshaped.walk() if op.name == "ov.loop")
    assert isinstance(loop, LoopOp)
    assert loop.num_iterations() == 2
    x = rng.standard_normal((6, 1, 4)).astype(np.float32)
    whole = _run(core, LOOP, {"X": x})["Y"]
    steps = [_run(core, reshaped, {"X": x[i : i + 2]})["Y"] for i in (0, 2, 4)]
    np.testing.assert_allclose(np.concatenate(steps), whole, rtol=1e-6, atol=1e-6)


def test_replace_constants_follows(core: lowpass.Core, rng: np.random.Generator) -> None:
    reshaped = _reshaped(
        HARD_CODED, 'ov-reshape{inputs="X:2x1x4" replace-constants="seq/shape:-1x4"}'
    )
    x = rng.standard_normal((6, 1, 4)).astype(np.float32)
    whole = _run(core, HARD_CODED, {"X": x})
    out = next(iter(whole.values()))
    for i in (0, 2, 4):
        step = next(iter(_run(core, reshaped, {"X": x[i : i + 2]}).values()))
        np.testing.assert_allclose(step, out[i : i + 2])


UNNAMED_CONSTANTS = """
func.func @main(%x: tensor<2x7x16xf32> {ov.name = "x"}) -> tensor<2x7x4xf32> {
  %cst = ov.constant dense<[14, 16]> : tensor<2xi32>
  %w = ov.constant dense<0.5> : tensor<16x4xf32>
  %cst_1 = ov.constant dense<[2, 7, 4]> : tensor<3xi32>
  %flat = ov.reshape %x, %cst special_zero = false
      : (tensor<2x7x16xf32>, tensor<2xi32>) -> tensor<14x16xf32>
  %y = ov.mat_mul %flat, %w : (tensor<14x16xf32>, tensor<16x4xf32>) -> tensor<14x4xf32>
  %r = ov.reshape %y, %cst_1 special_zero = false
      : (tensor<14x4xf32>, tensor<3xi32>) -> tensor<2x7x4xf32>
  func.return %r : tensor<2x7x4xf32>
}
"""


def test_replace_constants_by_their_printed_ssa_names(
    core: lowpass.Core, rng: np.random.Generator
) -> None:
    """Unnamed constants go by their SSA names as printed: `%cst` and `%cst_1` (both of the
    hint `cst`, the parser drops the suffix; tf-keras models converted by OpenVINO have
    them, a Dense after an LSTM on the sequence) are two names, each replacing its own
    constant: "cst" alone had taken both."""
    spec = 'ov-reshape{inputs="x:2x1x16" replace-constants="cst:2x16","cst_1:2x1x4"}'
    reshaped = _reshaped(UNNAMED_CONSTANTS, spec)
    x = rng.standard_normal((2, 7, 16)).astype(np.float32)
    (whole,) = _run(core, UNNAMED_CONSTANTS, {"x": x}).values()
    (step,) = _run(core, reshaped, {"x": x[:, 3:4]}).values()
    np.testing.assert_allclose(step, whole[:, 3:4], rtol=1e-6)
    with pytest.raises(ReshapeError, match=r"no ov.constant named 'cst_2' \(its named "
                       r"integer constants of rank 0 or 1 are 'cst', 'cst_1'\)"):
        _reshaped(UNNAMED_CONSTANTS, 'ov-reshape{inputs="x:2x1x16" replace-constants="cst_2:1"}')


WITH_A_BODY = """
func.func @main(%x: tensor<2x7x16xf32> {ov.name = "x"}, %s: tensor<3x2xf32> {ov.name = "s"})
    -> (tensor<2x7x4xf32>, tensor<3x2xf32>) {
  %cst = ov.constant dense<[14, 16]> : tensor<2xi32>
  %w = ov.constant dense<0.5> : tensor<16x4xf32>
  %flat = ov.reshape %x, %cst special_zero = false
      : (tensor<2x7x16xf32>, tensor<2xi32>) -> tensor<14x16xf32>
  %y = ov.mat_mul %flat, %w : (tensor<14x16xf32>, tensor<16x4xf32>) -> tensor<14x4xf32>
  %ys = ov.tensor_iterator(%s) attributes {ov.name = "ti", input_descriptions = [
      #ov.slice<input = 0, param = 0, axis = 0>], output_descriptions = [
      #ov.concat_output<result = 0, output = 0, axis = 0>]}
      : (tensor<3x2xf32>) -> (tensor<3x2xf32>) {
  ^bb0(%s_t: tensor<1x2xf32>):
    %cst_1 = ov.constant dense<[1, 2]> : tensor<2xi32>
    %b = ov.reshape %s_t, %cst_1 special_zero = false
        : (tensor<1x2xf32>, tensor<2xi32>) -> tensor<1x2xf32>
    ov.yield %b : tensor<1x2xf32>
  }
  %cst_2 = ov.constant dense<[2, 7, 4]> : tensor<3xi32>
  %r = ov.reshape %y, %cst_2 special_zero = false
      : (tensor<14x4xf32>, tensor<3xi32>) -> tensor<2x7x4xf32>
  func.return %r, %ys : tensor<2x7x4xf32>, tensor<3x2xf32>
}
"""


def test_printed_names_follow_the_printers_scopes(core: lowpass.Core,
                                                 rng: np.random.Generator) -> None:
    """A TensorIterator's body is printed in a naming scope of its own (xDSL's printer,
    `IsolatedFromAbove`): after it, the graph's third `cst` is printed `%cst_1` again, as
    is the body's; replace-constants takes the graph's own (the body's `[1, 2]` had been
    taken, and the name that worked, `cst_2`, was printed nowhere)."""
    module = _module(WITH_A_BODY)
    names = printed_names(module)
    printed = str(module)
    for name in names.values():
        assert f"%{name} = " in printed or f"%{name}: " in printed, name
    spec = 'ov-reshape{inputs="x:2x1x16" replace-constants="cst:2x16","cst_1:2x1x4"}'
    reshaped = _reshaped(WITH_A_BODY, spec)
    x = rng.standard_normal((2, 7, 16)).astype(np.float32)
    s = rng.standard_normal((3, 2)).astype(np.float32)
    whole = _run(core, WITH_A_BODY, {"x": x, "s": s})
    step = _run(core, reshaped, {"x": x[:, 3:4], "s": s})
    for (a, b) in zip(whole.values(), step.values(), strict=True):
        if a.shape == b.shape:
            np.testing.assert_array_equal(a, b)
        else:
            np.testing.assert_allclose(b, a[:, 3:4], rtol=1e-6)


# --------------------------------------------------------------------------------------------
# Idempotence and the Python API
# --------------------------------------------------------------------------------------------


def test_quantized_model_keeps_low_precision_types(
    core: lowpass.Core, rng: np.random.Generator
) -> None:
    """
    After `lpt`, FakeQuantizes declare u8/i8 results and convolutions read them (type relaxed,
    OpenVINO's TypeRelaxed). Reshaping keeps those element types and re-infers only the shapes:
    a batch of 2, and a dynamic batch that the CPU device reshapes per request, give what the
    batch-1 model gives on each sample.
    """
    text = (EXAMPLES / "qconvnet.mlir").read_text()
    flatten = 'replace-constants="flatten/shape:-1x1024"'
    batch1 = _reshaped(text, "lpt")
    batch2 = _reshaped(text, f'lpt,ov-reshape{{inputs="data:2x3x32x32" {flatten}}}')
    dynamic = _reshaped(text, f'lpt,ov-reshape{{inputs="data:?x3x32x32" {flatten}}}')
    low = [line for line in str(batch1).splitlines() if "-> tensor<1x" in line and "xui8>" in line]
    assert low, "lpt made no u8 FakeQuantize"
    for module, batch in ((batch2, "2"), (dynamic, "?")):
        for line in low:
            op = line.split("=", 1)[1].split("%", 1)[0].strip()  # e.g. ov.fake_quantize
            assert any(
                op in kept and f"-> tensor<{batch}x" in kept and "xui8>" in kept
                for kept in str(module).splitlines()
            ), f"{op} lost its u8 result: {line}"
    x = rng.uniform(0.0, 2.55, (2, 3, 32, 32)).astype(np.float32)
    for device in ("REFERENCE", "CPU"):
        one = [
            core.compile_model(batch1, device).create_infer_request().infer({"data": x[i : i + 1]})
            for i in (0, 1)
        ]
        expected = np.concatenate([np.asarray(r.to_dict()["prob"]) for r in one])
        for module in (batch2, dynamic):
            request = core.compile_model(module, device).create_infer_request()
            got = np.asarray(request.infer({"data": x}).to_dict()["prob"])
            np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    ("text", "dims"), [(CONVNET, "2x1x16"), (TI, "6x1x4"), (LOOP, "6x1x4"), (HARD_CODED, "6x1x4")]
)
def test_same_shapes_change_nothing(text: str, dims: str) -> None:
    before = lowpass.print_module(_module(text))
    assert lowpass.print_module(_reshaped(text, f'ov-reshape{{inputs="X:{dims}"}}')) == before
    assert lowpass.print_module(_reshaped(text, "ov-reshape")) == before


def test_twice_is_once() -> None:
    once = lowpass.print_module(_reshaped(TI, 'ov-reshape{inputs="X:2x1x4"}'))
    twice = lowpass.print_module(
        _reshaped(TI, 'ov-reshape{inputs="X:2x1x4"},ov-reshape{inputs="X:2x1x4"}')
    )
    assert once == twice


def test_python_api_dynamic_dims() -> None:
    module = _module(TI)
    reshape_module(module, {"X": [None, 1, 4]})
    text = lowpass.print_module(module)
    assert '(%x: tensor<?x1x4xf32> {ov.name = "X"}' in text
    assert "-> (tensor<?x1x4xf32>, tensor<1x4xf32>)" in text


def test_several_inputs_in_one_string() -> None:
    module = _reshaped(TI, 'ov-reshape{inputs="X:3x1x4,W:4x4"}')
    assert 'tensor<3x1x4xf32> {ov.name = "X"}' in lowpass.print_module(module)


# --------------------------------------------------------------------------------------------
# Errors
# --------------------------------------------------------------------------------------------


def test_hard_coded_constant_diagnostic() -> None:
    module = _module(HARD_CODED)
    before = lowpass.print_module(module)
    with pytest.raises(ReshapeError) as info:
        reshape_module(module, {"X": [2, 1, 4]})
    lines = str(info.value).splitlines()
    assert lines[0] == (
        "ov-reshape: error: 'ov.reshape' op \"seq/squeeze\" cannot reshape [2, 1, 4] (8 elements) "
        "to [6, 4] (24 elements) (after reshape: input 'X' [6, 1, 4] -> [2, 1, 4])"
    )
    assert lines[1] == (
        "ov-reshape: note: the target shape of 'ov.reshape' \"seq/squeeze\" comes from ov.constant "
        '"seq/shape" = [6, 4] : tensor<2xi64>, which may hard-code a shape; replace its values '
        'with the pass option replace-constants="seq/shape:-1x4"'
    )
    assert lowpass.print_module(module) == before


def test_located_diagnostic() -> None:
    module, source_map = lowpass.parse_module(HARD_CODED, filename="hard.mlir")
    with pytest.raises(ReshapeError, match=r"^hard\.mlir:4:3: error: 'ov\.reshape' op"):
        reshape_module(module, {"X": [2, 1, 4]}, source_map=source_map)


def test_inference_error_is_a_located_diagnostic(monkeypatch: pytest.MonkeyPatch) -> None:
    """An op whose shape inference raises a plain exception (not a diagnostic, and its
    verifier finds nothing) still ends in the located one-line error, not a traceback (the
    verifier that the reshaper asks for a better message infers again, and raises the same)."""
    from lowpass.dialects.ov.activation import ReluOp

    def broken(self: ReluOp) -> list:
        raise ValueError("synthetic inference failure")

    module, source_map = lowpass.parse_module(HARD_CODED, filename="hard.mlir")
    monkeypatch.setattr(ReluOp, "infer_result_types", broken)
    with pytest.raises(
        ReshapeError, match=r"^hard\.mlir:6:3: error: 'ov\.relu' op synthetic inference failure"
    ):
        reshape_module(
            module, {"X": [2, 1, 4]}, {"seq/shape": [2, 4]}, source_map=source_map
        )


def test_unknown_input_lists_inputs() -> None:
    with pytest.raises(
        ReshapeError, match=r"no input named 'Z': its inputs are 'X' \[6, 1, 4\], 'W' \[4, 4\]"
    ):
        reshape_module(_module(TI), {"Z": [1]})


def test_unknown_constant_lists_constants() -> None:
    with pytest.raises(
        ReshapeError, match=r"no ov.constant named 'nope' .* are 'squeeze', 'unsqueeze'"
    ):
        reshape_module(_module(TI), {}, {"nope": [1]})


def test_float_constant_is_refused() -> None:
    text = CONVNET.replace(
        "dense<0.125> : tensor<56x10xf32>", 'dense<0.125> : tensor<56x10xf32> {ov.name = "w"}'
    )
    with pytest.raises(ReshapeError, match="only integer constants of rank 0 or 1 can be replaced"):
        reshape_module(_module(text), {}, {"w": [1]})


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        (("X=1x2",), "bad inputs entry 'X=1x2': expected NAME:VALUES"),
        (("X:1xbx2",), "'b' is not a dimension"),
        (("X:1x2", "X:3x4"), "inputs names 'X' twice"),
    ],
)
def test_bad_options(inputs: tuple[str, ...], message: str) -> None:
    module = _module(TI)
    with pytest.raises(ReshapeError, match=message):
        ReshapePass(inputs=inputs).apply(lowpass.make_context(), module)


def test_back_edge_whose_initial_value_is_not_reshaped() -> None:
    text = """
    func.func @main(%x: tensor<4x3x16xf32> {ov.name = "X"}, %h0: tensor<4x16xf32> {ov.name = "H0"})
        -> tensor<4x16xf32> {
      %0 = ov.tensor_iterator(%x, %h0) attributes {
          input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>,
                                #ov.merged<input = 1, param = 1, result = 0>],
          output_descriptions = [#ov.body_output<result = 0, output = 0>]}
          : (tensor<4x3x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32> {
      ^bb0(%xt: tensor<4x1x16xf32>, %ht: tensor<4x16xf32>):
        %s = ov.constant dense<[0, 16]> : tensor<2xi64>
        %x2 = ov.reshape %xt, %s special_zero = true
            : (tensor<4x1x16xf32>, tensor<2xi64>) -> tensor<4x16xf32>
        %h = ov.add %x2, %x2 : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
        ov.yield %h : tensor<4x16xf32>
      }
      func.return %0 : tensor<4x16xf32>
    }
    """
    with pytest.raises(ReshapeError, match="reshape input 'H0' as well"):
        reshape_module(_module(text), {"X": [2, 3, 16]})
    module = _module(text)
    reshape_module(module, {"X": [2, 5, 16], "H0": [2, 16]})
    assert "-> tensor<2x16xf32>" in lowpass.print_module(module)


def test_relax_matmul_reshapes_only_a_reshape_into_a_matmul() -> None:
    """`relax_matmul_reshapes` (OpenVINO's ReshapeAMatMul): a constant 2-D target of a
    Reshape into a 2-D MatMul's `a` becomes [-1, K] ([K, -1] with transpose_a), in a new
    constant for that Reshape alone; a Reshape whose result goes elsewhere is not touched;
    `apply=False` only names them."""
    from lowpass.passes.reshape import relax_matmul_reshapes

    text = """
func.func @main(%x: tensor<1x2x3x4xf32> {ov.name = "x"}) -> (tensor<1x5xf32> {ov.name = "y"}, tensor<24x1xf32> {ov.name = "z"}, tensor<1x5xf32> {ov.name = "w"}) {
  %s = ov.constant dense<[1, -1]> : tensor<2xi64> {ov.name = "s"}
  %t = ov.constant dense<[-1, 1]> : tensor<2xi64> {ov.name = "t"}
  %k = ov.constant dense<[24, 1]> : tensor<2xi64> {ov.name = "k"}
  %b = ov.constant dense<1.0> : tensor<24x5xf32> {ov.name = "b"}
  %a = ov.reshape %x, %s special_zero = false {ov.name = "flat"} : (tensor<1x2x3x4xf32>, tensor<2xi64>) -> tensor<1x24xf32>
  %y = ov.mat_mul %a, %b {ov.name = "fc"} : (tensor<1x24xf32>, tensor<24x5xf32>) -> tensor<1x5xf32>
  %z = ov.reshape %x, %t special_zero = false {ov.name = "col"} : (tensor<1x2x3x4xf32>, tensor<2xi64>) -> tensor<24x1xf32>
  %c = ov.reshape %x, %k special_zero = false {ov.name = "flat_t"} : (tensor<1x2x3x4xf32>, tensor<2xi64>) -> tensor<24x1xf32>
  %w = ov.mat_mul %c, %b transpose_a = true {ov.name = "fc_t"} : (tensor<24x1xf32>, tensor<24x5xf32>) -> tensor<1x5xf32>
  func.return %y, %z, %w : tensor<1x5xf32>, tensor<24x1xf32>, tensor<1x5xf32>
}
"""  # noqa: E501
    module = lowpass.read_module(text)
    before = str(module)
    assert relax_matmul_reshapes(module, apply=False) == ["flat", "flat_t"]
    assert str(module) == before
    assert relax_matmul_reshapes(module) == ["flat", "flat_t"]
    after = str(module)
    assert 'dense<[-1, 24]> : tensor<2xi64> {ov.name = "s/relaxed"}' in after
    assert 'dense<[24, -1]> : tensor<2xi64> {ov.name = "k/relaxed"}' in after
    assert '{ov.name = "t"}' in after and '{ov.name = "s"}' not in after
    assert relax_matmul_reshapes(module) == []
