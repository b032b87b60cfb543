"""The attributes of the `cpu` dialect (dialects/cpu.py): printed and parsed back, and each
rejects bad parameters where it is parsed."""

from __future__ import annotations

import pytest
from xdsl.utils.exceptions import VerifyException

import lowpass
from lowpass.dialects import cpu

GRAPH = """
builtin.module {{
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {{
    %r = ov.relu %x {{{attr}}} : (tensor<4xf32>) -> tensor<4xf32>
    func.return %r : tensor<4xf32>
  }}
}}
"""


@pytest.mark.parametrize(
    "attr",
    [
        cpu.KernelAttr(3, "fake-quantize"),
        cpu.FusedAttr(0),
        cpu.BufferAttr("arena", 128, 4096),
        cpu.BufferAttr("output", 1, 16),
        cpu.BufferAttr("none"),
        cpu.ArenaAttr(0),
        cpu.QuantizedCellAttr(256, 255, 63, 2),
        cpu.EpilogueAttr(["mul", "add", "relu", "fq"]),
        cpu.EpilogueAttr([]),
        cpu.EpilogueAttr(["mul", "add", "relu", "fq"], 2),
        cpu.EpilogueAttr(["add"], 0),
        cpu.Int8KernelAttr(cpu.Int8Kernel.AMX),
    ],
    ids=str,
)
def test_printed_and_parsed_back(attr: object) -> None:
    module = lowpass.read_module(GRAPH.format(attr=f"a = {attr}"))
    (relu,) = [op for op in module.walk() if op.name == "ov.relu"]
    assert relu.attributes["a"] == attr


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("#cpu.buffer<arena 100, 64>", "arena offset 100 is not a multiple of 64"),
        ("#cpu.buffer<heap 0, 64>", "unknown buffer kind 'heap'; expected one of arena, output"),
        ("#cpu.buffer<arena -64, 64>", "Expected integer literal"),
        ("#cpu.arena<100>", "#cpu.arena: 100 bytes is not a multiple of 64"),
        ('#cpu.kernel<0, "">', "#cpu.kernel: empty kind"),
        ("#cpu.quantized_cell<x 300, h 256, weights 127, gemms 1>", "300 levels (expected 2..256)"),
        ("#cpu.quantized_cell<x 256, h 256, weights 127, gemms 3>", "3 gemms (expected 1, 2)"),
        ("#cpu.quantized_cell<x 256, w 256, weights 127, gemms 1>", "expected 'h'"),
        ("#cpu.epilogue<add, bias>", "unknown epilogue step 'bias'; expected one of mul, add"),
        ("#cpu.epilogue<add,>", "identifier expected"),
        ("#cpu.epilogue<mul | add | fq>", "a second '|': one splits the kernel's steps from"),
        ("#cpu.epilogue<mul |>", "identifier expected"),
        ("#cpu<int8 avx512>", "Expected `vpmaddubsw`, `vpmaddwd`, `vpdpbusd`, or `amx`."),
    ],
)
def test_bad_parameters_are_parse_errors(text: str, message: str) -> None:
    with pytest.raises(Exception) as error:
        lowpass.read_module(GRAPH.format(attr=f"a = {text}"))
    assert message in str(error.value)
    assert "Traceback" not in str(error.value)


def test_an_epilogue_runs_at_most_its_steps_in_the_kernel() -> None:
    with pytest.raises(VerifyException, match=r"#cpu.epilogue: 3 steps in the kernel of a "
                       r"program of 2"):
        cpu.EpilogueAttr(["mul", "add"], 3)
