"""The types of the passes' options, checked when a pass is made from Python
(`lowpass.passes.options`): a value of another type is a `TypeError` naming the option, not
an option read the wrong way (a non-empty string as true, a string as a tuple of
characters); the text of a pipeline converts to the same types."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from xdsl.passes import ModulePass, PassPipeline
from xdsl.universe import Universe

from lowpass.lowering.pipeline import InterleaveRowsPass, SelectKernelsPass
from lowpass.passes.inline import InlinePass
from lowpass.passes.low_latency2 import LowLatency2Pass
from lowpass.passes.lpt import LptPass
from lowpass.passes.make_stateful import MakeStatefulPass
from lowpass.passes.prepare_composite_functions import PrepareCompositeFunctionsPass
from lowpass.passes.reshape import ReshapePass


@pytest.mark.parametrize(("cls", "option", "value", "message"), [
    (LowLatency2Pass, "use_const_initializer", "false",
     "low-latency2: option use-const-initializer takes true or false, got the string 'false'"),
    (ReshapePass, "inputs", "X:1x1x16",
     "ov-reshape: option inputs takes a tuple of strings, got the string 'X:1x1x16'"),
    (ReshapePass, "replace_constants", ("a:1", 2),
     "ov-reshape: option replace-constants takes a tuple of strings, got ('a:1', 2)"),
    (LptPass, "keep_markup", "yes",
     "lpt: option keep-markup takes true or false, got the string 'yes'"),
    (LptPass, "deq_precision", 16, "lpt: option deq-precision takes a string, got 16"),
    (MakeStatefulPass, "pairs", ["x:y", 3],
     "make-stateful: option pairs takes a tuple of strings, got ('x:y', 3)"),
    (PrepareCompositeFunctionsPass, "fuse_cifg", 1,
     "prepare-composite-functions: option fuse-cifg takes true or false, got 1"),
    (InlinePass, "inlining_threshold", True,
     "inline: option inlining-threshold takes an integer, got True"),
    (InterleaveRowsPass, "min_bytes", "4096",
     "cpu-interleave-rows: option min-bytes takes an integer, got the string '4096'"),
    (SelectKernelsPass, "winograd", None,
     "cpu-select-kernels: option winograd takes true or false, got None"),
])
def test_an_option_of_another_type_is_refused(
    cls: type[ModulePass], option: str, value: Any, message: str
) -> None:
    with pytest.raises(TypeError) as info:
        cls(**{option: value})
    assert str(info.value) == message


def test_options_of_their_types_and_pipeline_text_are_taken() -> None:
    assert not ReshapePass(inputs=("X:1x1x16",)).replace_constants
    assert LowLatency2Pass(use_const_initializer=False).use_const_initializer is False
    # (values that spell the type otherwise: a list of strings, numpy's bools and integers)
    spelled: dict[str, Any] = {
        "inputs": ["X:1x1x16"], "use_const_initializer": np.False_,
        "inlining_threshold": np.int64(3),
    }  # fmt: skip
    assert ReshapePass(inputs=spelled["inputs"]).inputs == ("X:1x1x16",)
    numpy_false = LowLatency2Pass(use_const_initializer=spelled["use_const_initializer"])
    assert numpy_false.use_const_initializer is False
    threshold = InlinePass(inlining_threshold=spelled["inlining_threshold"]).inlining_threshold
    assert type(threshold) is int
    passes = Universe.get_multiverse().all_passes
    pipeline = PassPipeline.parse_spec(passes, (
        'ov-reshape{inputs="X:1x1x16"},low-latency2{use-const-initializer=false},'
        "lpt{keep-markup=true only=add,mat-mul},inline{inlining-threshold=3},"
        "cpu-interleave-rows{min-bytes=64}"
    ))
    reshape, low_latency, lpt, inline, interleave = pipeline.passes
    assert isinstance(reshape, ReshapePass) and reshape.inputs == ("X:1x1x16",)
    assert isinstance(low_latency, LowLatency2Pass) and not low_latency.use_const_initializer
    assert isinstance(lpt, LptPass) and lpt.keep_markup and lpt.only == ("add", "mat-mul")
    assert isinstance(inline, InlinePass) and inline.inlining_threshold == 3
    assert isinstance(interleave, InterleaveRowsPass) and interleave.min_bytes == 64
