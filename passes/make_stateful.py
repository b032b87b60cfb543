"""
`make-stateful`: OpenVINO's `MakeStateful` transformation (openvinotoolkit/openvino,
src/core/src/pass/make_stateful.cpp; Python `openvino.passes.MakeStateful(pairs)`).

A model written with explicit state (silero-vad's `state` input and `stateN` output, an
exported GRU/LSTM step with `h0`/`hn`) carries its state through the caller. Given pairs of
graph input and output names, the pass turns each pair into a state variable: the input
becomes an `ov.read_value` of the variable (no initializer: zeros of the input's shape until
something is assigned), the output an `ov.assign` of the value it returned. The input and
the output are removed from the graph; the State API (`query_state`, `reset_state`) and the
one-step infer request then carry the state between inferences.

As upstream:
- a pair names ports by any of their names (`ov.name` or an alias: OpenVINO's tensor names);
- the variable id is the input name followed by the output name, as given
  (`state` + `stateN` -> `statestateN`);
- the pairs are processed in the order of their input names (upstream keeps them in a
  `std::map`), which is the order of the variables (`query_state()`);
- the variable has the input's type, dynamic dimensions included; the ReadValue and the
  Assign are unnamed (OpenVINO names them `ReadValue_<n>` / `Assign_<n>`).

Where upstream asserts with a message about its internals, this pass reports the pair: an
unknown input or output name (listing the graph's names), an input or output paired twice,
an output whose type cannot be stored in the input's variable. The module is then unchanged.

Besides explicit pairs, `rule="IN->OUT"` pairs ports by a name rule, `*` standing for the
common part: `rule="*->*N"` pairs `state` with `stateN`, `rule="h0_*->hn_*"` `h0_enc` with
`hn_enc`. Inputs whose counterpart does not exist are left as they are.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, ModuleOp
from xdsl.ir import Attribute
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import PassFailedException

from lowpass.dialects import ov
from lowpass.dialects.graph import (
    entry_function,
    graph_input_all_names,
    graph_input_names,
    graph_output_all_names,
    graph_output_names,
)
from lowpass.dialects.guards import is_tensor
from lowpass.dialects.ov.state import relaxes
from lowpass.ir import inherit_location
from lowpass.passes.options import check_option_types


@dataclass(frozen=True)
class MakeStatefulPass(ModulePass):
    """
    Turns pairs of graph input/output into ReadValue/Assign state variables (OpenVINO
    MakeStateful).
    """

    name = "make-stateful"

    pairs: tuple[str, ...] = ()
    """`"INPUT:OUTPUT"` per state: the graph input and the graph output (by `ov.name` or
    alias) that carry it. Several entries may also be given in one string, separated by
    commas."""

    rule: str = ""
    """`"IN->OUT"`: pair every input matching IN with the output named OUT, `*` in both
    standing for the same text (`"*->*N"`: `state` with `stateN`)."""

    def __post_init__(self) -> None:
        check_option_types(self)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pairs = parse_pairs(self.pairs)
        if self.rule:
            function = _entry(op)
            known = {p[0] for p in pairs}
            pairs += [p for p in rule_pairs(function, self.rule) if p[0] not in known]
        if not pairs and self.rule:  # (a rule given, and no input/output it pairs)
            raise PassFailedException(
                f"make-stateful: error: rule=\"{self.rule}\" pairs no graph input with a graph "
                f"output: the inputs are {_quoted(graph_input_names(_entry(op)))}, the "
                f"outputs {_quoted(graph_output_names(_entry(op)))}"
            )
        if not pairs:
            raise PassFailedException(
                'make-stateful: error: no pairs: give pairs="INPUT:OUTPUT" or a rule such as '
                'rule="*->*N"'
            )
        make_stateful(op, dict(pairs))


def make_stateful(module: ModuleOp, pairs: dict[str, str]) -> None:
    """
    Apply MakeStateful to `module` in place: `pairs` maps graph input names to graph output
    names. Raises PassFailedException (module unchanged) on a bad pair.
    """
    function = _entry(module)
    inputs = graph_input_all_names(function)
    outputs = graph_output_all_names(function)
    block = function.body.block
    ret = block.last_op
    assert isinstance(ret, func.ReturnOp)

    # Resolve every pair before changing anything.
    resolved: list[tuple[str, int, int]] = []  # variable id, input index, output index
    used_inputs: dict[int, str] = {}
    used_outputs: dict[int, str] = {}
    for in_name, out_name in sorted(pairs.items()):
        i = _find(inputs, in_name, "input", in_name, out_name)
        o = _find(outputs, out_name, "output", in_name, out_name)
        if i in used_inputs:
            raise _error(
                in_name, out_name, f"input '{in_name}' is already paired ({used_inputs[i]})"
            )
        if o in used_outputs:
            raise _error(
                in_name, out_name, f"output '{out_name}' is already paired ({used_outputs[o]})"
            )
        used_inputs[i] = used_outputs[o] = f"'{in_name}' -> '{out_name}'"
        in_type: Attribute = block.args[i].type
        out_type: Attribute = ret.operands[o].type
        if not relaxes(in_type, out_type):
            raise _error(
                in_name,
                out_name,
                f"output '{out_name}' of type {out_type} cannot be stored in the state of input "
                f"'{in_name}' of type {in_type} (same element type and rank, each input "
                "dimension dynamic or equal)",
            )
        variable_id = in_name + out_name
        if SymbolTable.lookup_symbol(module, variable_id) is not None:
            raise _error(in_name, out_name, f"variable '{variable_id}' already exists")
        resolved.append((variable_id, i, o))
    if len({v for v, _, _ in resolved}) != len(resolved):
        names = [v for v, _, _ in resolved]
        dup = next(v for v in names if names.count(v) > 1)
        raise PassFailedException(f"make-stateful: error: two pairs make the variable '{dup}'")

    first_func = next(o for o in module.body.block.ops if not isinstance(o, ov.VariableOp))
    head = InsertPoint.at_start(block)
    for variable_id, i, o in resolved:
        arg = block.args[i]
        assert is_tensor(arg.type)
        variable = ov.VariableOp(variable_id, arg.type)
        Rewriter.insert_op(variable, InsertPoint.before(first_func))
        read = ov.ReadValueOp(variable)
        assign = ov.AssignOp(variable, ret.operands[o])
        inherit_location([variable, read, assign], function)
        Rewriter.insert_op(read, head)
        head = InsertPoint.after(read)
        Rewriter.insert_op(assign, InsertPoint.before(ret))
        arg.replace_all_uses_with(read.result)

    # Remove the ports, highest index first, with their attributes.
    drop_in = sorted((i for _, i, _ in resolved), reverse=True)
    drop_out = {o for _, _, o in resolved}
    arg_attrs = list(function.arg_attrs.data) if function.arg_attrs is not None else None
    for i in drop_in:
        block.erase_arg(block.args[i])
        if arg_attrs is not None:
            del arg_attrs[i]
    keep = [k for k in range(len(ret.operands)) if k not in drop_out]
    new_ret = func.ReturnOp(*[ret.operands[k] for k in keep])
    Rewriter.replace_op(ret, new_ret)
    if arg_attrs is not None:
        function.arg_attrs = ArrayAttr(arg_attrs)
    if function.res_attrs is not None:
        function.res_attrs = ArrayAttr([function.res_attrs.data[k] for k in keep])
    function.update_function_type()


def parse_pairs(entries: Iterable[str]) -> list[tuple[str, str]]:
    """`"IN:OUT"` entries (or comma-separated lists of them) -> (IN, OUT) pairs."""
    out: list[tuple[str, str]] = []
    for entry in entries:
        for item in str(entry).split(","):
            item = item.strip()
            if not item:
                continue
            in_name, colon, out_name = item.rpartition(":")
            if not colon or not in_name or not out_name:
                raise PassFailedException(
                    f"make-stateful: error: bad pairs entry '{item}': expected INPUT:OUTPUT such "
                    'as state:stateN (quote it in the pass options: pairs="state:stateN")'
                )
            out.append((in_name, out_name))
    names = [p[0] for p in out]
    for name in names:
        if names.count(name) > 1:
            raise PassFailedException(f"make-stateful: error: pairs names input '{name}' twice")
    return out


def rule_pairs(function: func.FuncOp, rule: str) -> list[tuple[str, str]]:
    """The (input, output) pairs of `function` that the name rule `IN->OUT` matches."""
    pattern, arrow, template = rule.partition("->")
    if not arrow or pattern.count("*") != 1 or template.count("*") != 1:
        raise PassFailedException(
            f"make-stateful: error: bad rule '{rule}': expected IN->OUT with one '*' on each "
            "side, such as *->*N"
        )
    prefix, suffix = pattern.split("*")
    outputs = {n for names in graph_output_all_names(function) for n in names}
    pairs: list[tuple[str, str]] = []
    for names in graph_input_all_names(function):
        for name in names:
            if (
                len(name) >= len(prefix) + len(suffix)
                and name.startswith(prefix)
                and name.endswith(suffix)
            ):
                middle = name[len(prefix) : len(name) - len(suffix)]
                target = template.replace("*", middle)
                if target in outputs:
                    pairs.append((name, target))
                    break
    return pairs


def _entry(module: ModuleOp) -> func.FuncOp:
    try:
        return entry_function(module)
    except ValueError as e:
        raise PassFailedException(f"make-stateful: error: {e}") from None


def _find(
    ports: Sequence[tuple[str, ...]], name: str, what: str, in_name: str, out_name: str
) -> int:
    for index, names in enumerate(ports):
        if name in names:
            return index
    listed = ", ".join(f"'{n}'" for names in ports for n in names) or "none"
    raise _error(
        in_name, out_name, f"'{name}' is not the name of a graph {what} (the {what}s: {listed})"
    )


def _error(in_name: str, out_name: str, message: str) -> PassFailedException:
    return PassFailedException(f"make-stateful: error: pair '{in_name}' -> '{out_name}': {message}")


def _quoted(names: list[str]) -> str:
    return ", ".join(f"'{n}'" for n in names) or "none"
