"""
The conditional op of the OpenVINO opset: If (`If-8`), a sub-graph op with two bodies.

`ov.if` takes a condition (i1, one element) and data inputs; each body (`then_body`,
`else_body`) is an isolated single-block region whose parameters are described by
`#ov.invariant<input = i, param = p>` (input `i` counts all operands: data inputs start at 1,
as OpenVINO's If ports) and whose `ov.yield` operands (the body Results) feed the op's
results through `#ov.body_output<result = r, output = o>`. The body for the condition's value
runs; the other does not. When the condition is not known statically, a result's shape is
the two bodies' result shapes merged (a dimension that differs is dynamic; a rank that
differs is a dynamic rank, `tensor<*xf32>`), as OpenVINO's shape inference (`If::
validate_and_infer_types`, `resolve_shape` in openvino src/core/src/op/if.cpp); when it is
known, the taken body's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, cast

import numpy as np
from xdsl.dialects.builtin import ArrayAttr, TensorType, i1
from xdsl.interpreter import Interpreter
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.irdl.operations import ParsePropInAttrDict
from xdsl.traits import IsolatedFromAbove, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException

from lowpass.dialects.interpret import run_region

from .base import (
    DYNAMIC,
    PLACEHOLDER_TYPE,
    AnyTensorType,
    OvOp,
    element_type_of,
    is_ranked,
    shape_of,
    static_value,
    tensor,
    unranked,
)
from .infrastructure import (
    BodyOutputAttr,
    BodyRunner,
    InvariantInputAttr,
    YieldOp,
    check_output_indices,
    yield_parent,
)

BODIES = ("then", "else")


def _array(values: Sequence[Attribute] | ArrayAttr) -> ArrayAttr:
    return values if isinstance(values, ArrayAttr) else ArrayAttr(list(values))


def _region(body: Block | Region) -> Region:
    if isinstance(body, Region):
        return body
    if body.parent is not None:
        body.parent.detach_block(body)
    return Region(body)


def merge_types(a: Attribute, b: Attribute) -> Attribute | None:
    """The type both `a` and `b` fit (OpenVINO's If, `resolve_shape`: differing dims become
    dynamic, differing or dynamic ranks a dynamic rank); None if the element types differ."""
    if element_type_of(a) != element_type_of(b):
        return None
    if not (is_ranked(a) and is_ranked(b)):
        return unranked(element_type_of(a))
    sa, sb = shape_of(a), shape_of(b)
    if len(sa) != len(sb):
        return unranked(element_type_of(a))
    return tensor([x if x == y else DYNAMIC for x, y in zip(sa, sb, strict=True)],
                  element_type_of(a))  # fmt: skip


@yield_parent
@irdl_op_definition
class IfOp(OvOp):
    """
    Runs one of two bodies by a condition (OpenVINO `If-8`).

    ```
    %y = ov.if(%c, %a, %b) attributes {
        then_inputs = [#ov.invariant<input = 1, param = 0>, #ov.invariant<input = 2, param = 1>],
        else_inputs = [#ov.invariant<input = 1, param = 0>],
        then_outputs = [#ov.body_output<result = 0, output = 0>],
        else_outputs = [#ov.body_output<result = 0, output = 0>]}
      : (tensor<i1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32> {
    ^bb0(%x: tensor<3xf32>, %z: tensor<3xf32>):
      %s = ov.add %x, %z : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      ov.yield %s : tensor<3xf32>
    } else {
    ^bb0(%x: tensor<3xf32>):
      ov.yield %x : tensor<3xf32>
    }
    ```

    `cond` is an i1 scalar or 1-element tensor. Every body parameter is described by one
    `#ov.invariant` of its body and has the outer input's type; a data input may feed either
    body, both or none. Each result of the op is described once per body by an
    `#ov.body_output` (`iteration` stays -1).
    """

    name = "ov.if"
    cond = operand_def(TensorType)
    inputs = var_operand_def(AnyTensorType)
    outputs = var_result_def(AnyTensorType)
    then_inputs = prop_def(ArrayAttr)
    else_inputs = prop_def(ArrayAttr)
    then_outputs = prop_def(ArrayAttr)
    else_outputs = prop_def(ArrayAttr)
    then_body = region_def("single_block")
    else_body = region_def("single_block")

    irdl_options = (ParsePropInAttrDict(),)
    traits = traits_def(RecursiveMemoryEffect(), IsolatedFromAbove())

    assembly_format = (
        "`(` $cond (`,` $inputs^)? `)` attr-dict-with-keyword `:` "
        "functional-type(operands, results) $then_body `else` $else_body"
    )

    STATIC_EVAL: ClassVar[bool] = False

    def __init__(
        self,
        cond: SSAValue,
        inputs: Sequence[SSAValue],
        then_body: Block | Region,
        else_body: Block | Region,
        then_inputs: Sequence[Attribute] | ArrayAttr,
        else_inputs: Sequence[Attribute] | ArrayAttr,
        then_outputs: Sequence[Attribute] | ArrayAttr,
        else_outputs: Sequence[Attribute] | ArrayAttr,
        result_types: Sequence[Attribute] | None = None,
        name: str | None = None,
    ) -> None:
        then_out = _array(then_outputs)
        count = max((cast(BodyOutputAttr, d).output_index for d in then_out.data), default=-1) + 1
        types = list(result_types) if result_types is not None else [PLACEHOLDER_TYPE] * count
        super().__init__(
            operands=[cond, list(inputs)],
            result_types=[types],
            properties={
                "then_inputs": _array(then_inputs),
                "else_inputs": _array(else_inputs),
                "then_outputs": then_out,
                "else_outputs": _array(else_outputs),
            },
            regions=[_region(then_body), _region(else_body)],
        )
        self.finish_build(name, infer=result_types is None)

    # ---- accessors -------------------------------------------------------------------------

    def body(self, which: str) -> Region:
        return self.then_body if which == "then" else self.else_body

    def body_block(self, which: str) -> Block:
        return self.body(which).block

    def body_results(self, which: str) -> tuple[SSAValue, ...]:
        last = self.body_block(which).last_op
        return tuple(last.operands) if isinstance(last, YieldOp) else ()

    def input_descriptions(self, which: str) -> list[InvariantInputAttr]:
        attr = self.then_inputs if which == "then" else self.else_inputs
        return [cast(InvariantInputAttr, a) for a in attr.data]

    def output_descriptions(self, which: str) -> list[BodyOutputAttr]:
        attr = self.then_outputs if which == "then" else self.else_outputs
        return [cast(BodyOutputAttr, a) for a in attr.data]

    def static_condition(self) -> bool | None:
        """The condition if it is known statically (a constant or a shape computation)."""
        v = static_value(self.cond)
        if v is None or v.size != 1:
            return None
        return bool(np.asarray(v).reshape(-1)[0])

    def body_result_for(self, which: str, output: int) -> SSAValue | None:
        results = self.body_results(which)
        for d in self.output_descriptions(which):
            if d.output_index == output and 0 <= d.result_index < len(results):
                return results[d.result_index]
        return None

    # ---- verification and shapes -----------------------------------------------------------

    def verify_attrs(self) -> None:
        t = self.cond.type
        shape = shape_of(t)
        if element_type_of(t) != i1 or not (len(shape) == 0 or tuple(shape) == (1,)):
            raise VerifyException(f"cond must be an i1 scalar or 1-element 1-D tensor, got {t}")
        for which in BODIES:
            self._verify_body(which)

    def _verify_body(self, which: str) -> None:
        body = self.body(which)
        if len(body.blocks) != 1:
            raise VerifyException(f"{which}_body must have exactly one block")
        block = body.block
        if not isinstance(block.last_op, YieldOp):
            raise VerifyException(f"{which}_body must end with ov.yield (the body Results)")
        params = block.args
        seen_param: dict[int, int] = {}
        seen_input: dict[int, int] = {}
        raw_inputs = self.then_inputs if which == "then" else self.else_inputs
        for k, desc in enumerate(raw_inputs.data):  # (verified here: not the typed accessor)
            what = f"{which}_inputs #{k} ({desc})"
            if not isinstance(desc, InvariantInputAttr):
                raise VerifyException(f"{which}_inputs #{k} must be #ov.invariant, got {desc}")
            i, p = desc.input_index, desc.parameter_index
            if not 1 <= i < len(self.operands):
                raise VerifyException(
                    f"{what}: input {i} is out of range, expected a data input index in "
                    f"[1, {len(self.operands) - 1}] (input 0 is the condition)"
                )
            if not 0 <= p < len(params):
                raise VerifyException(
                    f"{what}: param {p} is out of range, the body has {len(params)} parameters"
                )
            if p in seen_param:
                raise VerifyException(
                    f"{what}: body parameter #{p} is already described by {which}_inputs "
                    f"#{seen_param[p]}"
                )
            if i in seen_input:
                raise VerifyException(
                    f"{what}: input {i} is already described by {which}_inputs #{seen_input[i]}"
                )
            seen_param[p], seen_input[i] = k, k
            outer = self.operands[i].type
            if params[p].type != outer:
                raise VerifyException(
                    f"{what}: body parameter #{p} has type {params[p].type}, expected the "
                    f"outer input type {outer}"
                )
        for p in range(len(params)):
            if p not in seen_param:
                raise VerifyException(
                    f"{which}_body parameter #{p} is not described by any {which}_inputs entry"
                )
        results = self.body_results(which)
        seen_output: dict[int, int] = {}
        raw_outputs = self.then_outputs if which == "then" else self.else_outputs
        for k, desc in enumerate(raw_outputs.data):  # (verified here: not the typed accessor)
            what = f"{which}_outputs #{k} ({desc})"
            if not isinstance(desc, BodyOutputAttr):
                raise VerifyException(f"{which}_outputs #{k} must be #ov.body_output, got {desc}")
            r, o = desc.result_index, desc.output_index
            if desc.get("iteration") != -1:
                raise VerifyException(f"{what}: iteration must be -1 (If runs a body once)")
            check_output_indices(what, r, o, len(results), len(self.results))
            if o in seen_output:
                raise VerifyException(
                    f"{what}: result #{o} is already described by {which}_outputs "
                    f"#{seen_output[o]}"
                )
            seen_output[o] = k
        for o in range(len(self.results)):
            if o not in seen_output:
                raise VerifyException(
                    f"result #{o} is not described by any {which}_outputs entry"
                )

    def infer_result_types(self) -> Sequence[Attribute]:
        taken = self.static_condition()
        out: list[Attribute] = []
        for o in range(len(self.results)):
            then_v = self.body_result_for("then", o)
            else_v = self.body_result_for("else", o)
            if then_v is None or else_v is None:
                out.append(self.results[o].type)  # reported by the verifier
                continue
            if taken is not None:
                # the body that does not run must still give a compatible type
                chosen, other = (then_v, else_v) if taken else (else_v, then_v)
                if merge_types(chosen.type, other.type) is None:
                    raise VerifyException(self._mismatch(o, then_v, else_v))
                out.append(chosen.type)
                continue
            merged = merge_types(then_v.type, else_v.type)
            if merged is None:
                raise VerifyException(self._mismatch(o, then_v, else_v))
            out.append(merged)
        return out

    @staticmethod
    def _mismatch(o: int, then_v: SSAValue, else_v: SSAValue) -> str:
        return (
            f"result #{o}: the bodies give {then_v.type} (then) and {else_v.type} (else), "
            "expected one element type"
        )

    # ---- semantics -------------------------------------------------------------------------

    def run(self, run_body: BodyRunner, inputs: Sequence[Any]) -> Sequence[Any]:
        """`ov::reference::if_reference`: run the body the condition picks on its inputs."""
        which = "then" if bool(np.asarray(inputs[0]).reshape(-1)[0]) else "else"
        block = self.body_block(which)
        args: list[Any] = [None] * len(block.args)
        for d in self.input_descriptions(which):
            args[d.parameter_index] = inputs[d.input_index]
        values = run_body(self.body(which), tuple(args), f"{self.name}.{which}")
        out: list[Any] = [None] * len(self.results)
        for d in self.output_descriptions(which):
            out[d.output_index] = values[d.result_index]
        return out

    def evaluate(
        self, inputs: Sequence[np.ndarray], run_body: BodyRunner | None = None
    ) -> Sequence[np.ndarray]:
        if run_body is None:
            run_body = run_region
        return self.run(run_body, inputs)

    def interpret(self, interpreter: Interpreter, inputs: Sequence[Any]) -> Sequence[Any]:
        """The interpreter runs the body itself (its variables, listeners and profiling)."""
        return self.run(interpreter.run_ssacfg_region, inputs)


OPS = (IfOp,)

__all__ = ["IfOp", "merge_types"]
