"""
No numpy RuntimeWarning reaches stderr (issue 39: 232 fuzz runs printed `RuntimeWarning`
lines with the package's path, sometimes before the actual error line): NaN and infinities
are values of the model's arithmetic on REFERENCE, in constant folding and in the CPU
pipeline's BatchNorm decomposition (a negative variance gives NaN, as OpenVINO computes it).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from lowpass.tools import lowpass_run, opt_tool

MODEL = """
func.func @main(%x: tensor<1x2x2x2xf32> {ov.name = "x"}) -> (tensor<1x2x2x2xf32> {ov.name = "y"}) {
  %c = ov.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %v = ov.constant dense<[-4.0, 1.0]> : tensor<2xf32>
  %k = ov.constant dense<[[[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]]]>
    : tensor<1x2x2x2xf32>
  %b = ov.batch_norm_inference %k, %c, %c, %c, %v {epsilon = 1.000000e-05 : f64}
    : (tensor<1x2x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>)
    -> tensor<1x2x2x2xf32>
  %y = ov.add %x, %b : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  %s = ov.softmax %y axis = 1 : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  func.return %s : tensor<1x2x2x2xf32>
}
"""


@pytest.mark.parametrize(
    "run",
    [
        ["opt-tool", "--canonicalize"],
        ["lowpass-run", "--device", "REFERENCE"],
        ["lowpass-run", "--device", "CPU"],
    ],
    ids=["fold", "reference", "cpu"],
)
def test_nan_arithmetic_prints_no_numpy_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], run: list[str]
) -> None:
    model = tmp_path / "bn.mlir"
    model.write_text(MODEL)
    x = np.ones((1, 2, 2, 2), np.float32)
    x[0, 0, 0, 0], x[0, 1, 1, 1] = np.nan, np.inf
    np.save(tmp_path / "x.npy", x)
    tool, *flags = run
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # (an exception here: exit 2)
        if tool == "opt-tool":
            code = opt_tool.main([str(model), *flags, "-o", str(tmp_path / "out.mlir")])
        else:
            code = lowpass_run.main(
                [str(model), "--input", f"x={tmp_path / 'x.npy'}", *flags,
                 "--save-outputs", str(tmp_path / "out")]
            )
    _, err = capsys.readouterr()
    assert (code, err) == (0, "")
    if tool == "lowpass-run":
        y = np.load(tmp_path / "out" / "y.npy")
        assert np.isnan(y).any()  # (the negative variance's channel)


def test_lpt_folding_a_nan_constant_prints_no_numpy_warning() -> None:
    # A generated quantized graph as OpenVINO IR (fuzz seed 3915, issue 39) with a mutated
    # constant: a multiplier folded into a dequantization scale by lpt (the CPU device runs it
    # while compiling) where the product is NaN: numpy's "invalid value" warning is an error
    # here, so it failed before the fold was computed under np.errstate.
    model = Path(__file__).parent / "Inputs" / "lpt_nan_constant.xml"
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        assert lowpass_run.main([str(model), "--random-inputs", "42", "--device", "CPU"]) == 0


def test_zero_check_of_a_nan_constant_prints_no_numpy_warning() -> None:
    # The CPU compiler asks whether a quantization constant is all +0.0; `np.any` of a
    # signaling NaN raised numpy's "invalid value encountered in reduce" (a fuzz campaign,
    # seed 2612, on a mutation of Inputs/lpt_nan_constant.xml)
    from lowpass.lowering.ops.quantization import _positive_zeros

    signaling_nan = np.array([0, 0x7F800001], np.uint32).view(np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        assert not _positive_zeros(signaling_nan)
        assert _positive_zeros(np.zeros(3, np.float32))
        assert not _positive_zeros(np.array([-0.0], np.float32))
