"""
`prepare-composite-functions`: TensorFlow Lite's `tfl-prepare-composite-funcs-tf`.

TensorFlow marks the functions that implement a known composite op with an attribute
(`tf._implements = "embedding_matmul"`, `"LSTMCellSimple"`, ...; Keras' RNN layers
`tf.api_implements = "lstm_<uuid>"`). This pass reads only their signatures and attributes,
and replaces their bodies (TensorFlow ops, parsed with `--allow-unregistered-dialect`) by the
fused TensorFlow Lite op that computes the same thing:

| attribute | body |
|---|---|
| `tf._implements = "embedding_matmul"` | `tfl.embedding_lookup` (-> `"embedding_lookup"`) |
| `tf._implements = "LSTMCellSimple"` | `tfl.lstm` (Lingvo's cell, one step) |
| `tf._implements = "LayerNormalizedLstmCellSimple"` | `tfl.lstm` with layer norm |
| `tf.api_implements = "lstm_*"` / `"indy_lstm_*"` | `tfl.unidirectional_sequence_lstm` |
| `tf.api_implements = "gru_*"` (lowpass) | `tfl.unidirectional_sequence_gru` |

Dispatch is TensorFlow Lite's: a string `tf._implements` first (exact string equality), then
a function attribute `tf._implements` (out of scope here), then `tf.api_implements`
(prefixes); a function is handled once. Pairs of Keras forward/backward LSTM calls on one
input become one `tfl.bidirectional_sequence_lstm` (`fuse-bidirectional`).

Every check runs before anything changes (so that every diagnostic is reported), and the
changes run in a `module_transaction` (an exception while applying them leaves the module as
it was too). A function that does not fit gets a warning that
says why it is not fused (a `CompositeFunctionWarning`, `file:line:col: warning: ...`;
opt-tool prints it on stderr) and stays as it is; an
inconsistent one (where TensorFlow Lite fails after erasing the body) is an error: the pass
fails and the module is unchanged. Call sites and signatures are unchanged (a result type
that the fused op computes more precisely is `tensor.cast` back to the declared one).
The differences from TensorFlow Lite, and why, are listed in docs/passes.md.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr, UnregisteredAttr
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from lowpass.passes import PassWarning
from lowpass.passes.composite.bidirectional import analyze_bidirectional
from lowpass.passes.composite.common import CallSite, Diagnostic, Diagnostics, call_sites
from lowpass.passes.composite.embedding import EMBEDDING_MATMUL, analyze_embedding
from lowpass.passes.composite.keras import KerasPlan, analyze_keras, kind_of
from lowpass.passes.composite.lingvo import (
    COUPLE_INPUT_FORGET_GATES,
    LINGVO_NAMES,
    analyze_lingvo,
)
from lowpass.passes.options import check_option_types
from lowpass.passes.transaction import module_transaction

OUT_OF_SCOPE = ("non_max_suppression_padded_v2", "addons:DenseImageWarp")
"""`tf._implements` strings TensorFlow Lite fuses and lowpass does not (see docs/passes.md)."""


class CompositeFunctionError(PassFailedException):
    """The pass failed; `diagnostics` holds every warning and error, the message the errors."""

    def __init__(self, diagnostics: Sequence[Diagnostic]) -> None:
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(str(d) for d in self.diagnostics if d.severity == "error"))


class CompositeFunctionWarning(PassWarning):
    """A function the pass leaves unfused; the message is `file:line:col: warning: why`."""


class _Plan(Protocol):
    def apply(self) -> None: ...


@dataclass(frozen=True)
class PrepareCompositeFunctionsPass(ModulePass):
    """
    Replaces the bodies of TensorFlow composite functions (tf._implements, Keras'
    tf.api_implements) by fused TensorFlow Lite ops (TFLite's prepare-composite-funcs-tf).
    """

    name = "prepare-composite-functions"

    fuse_bidirectional: bool = True
    """Fuse a Keras forward LSTM call and a go_backwards one over the same input into one
    tfl.bidirectional_sequence_lstm (TensorFlow Lite keeps two unidirectional ops)."""

    fuse_cifg: bool = False
    """Also fuse `tf._implements = "LSTMCellSimple,CoupleInputForgetGates"` (and the layer-norm
    variant): TensorFlow Lite compares the whole string with "LSTMCellSimple" and so never
    fuses the coupled input-forget gate cell."""

    def __post_init__(self) -> None:
        check_option_types(self)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            diagnostics = prepare_composite_functions(
                op, fuse_bidirectional=self.fuse_bidirectional, fuse_cifg=self.fuse_cifg
            )
        except CompositeFunctionError as e:
            _print_warnings(e.diagnostics)
            raise
        _print_warnings(diagnostics)


def _print_warnings(diagnostics: Sequence[Diagnostic]) -> None:
    for d in diagnostics:
        if d.severity == "warning":
            warnings.warn(str(d), CompositeFunctionWarning, stacklevel=3)


def prepare_composite_functions(
    module: ModuleOp, *, fuse_bidirectional: bool = True, fuse_cifg: bool = False
) -> list[Diagnostic]:
    """
    Run the pass on `module`; return its warnings. On an error raise `CompositeFunctionError`
    and leave the module as it was (everything is checked before the first change).
    """
    diags = Diagnostics()
    sites = call_sites(module)
    plans: list[_Plan] = []
    keras: dict[str, KerasPlan] = {}
    fused: set[func.FuncOp] = set()
    for function in [op for op in module.ops if isinstance(op, func.FuncOp)]:
        plan = _dispatch(function, sites.get(function.sym_name.data, []), diags, fuse_cifg)
        if plan is None:
            continue
        plans.append(plan)
        fused.add(function)
        if isinstance(plan, KerasPlan):
            keras[function.sym_name.data] = plan
    if fuse_bidirectional:
        plans.extend(analyze_bidirectional(module, keras, sites, fused, diags))
    if diags.errors:
        raise CompositeFunctionError(diags.items)
    with module_transaction(module):
        for plan in plans:
            plan.apply()
    return diags.items


def _dispatch(
    function: func.FuncOp, sites: list[CallSite], diags: Diagnostics, fuse_cifg: bool
) -> _Plan | None:
    implements = function.attributes.get("tf._implements")
    if isinstance(implements, StringAttr):
        return _dispatch_implements(function, implements.data, diags, fuse_cifg)
    if isinstance(implements, UnregisteredAttr) and str(implements).startswith("#tf_type.func"):
        # `#tf_type.func<@name, {...}>`: TF.Text, SSD post-processing, MaxUnpooling2D and
        # tfl_fusable_op custom ops in TensorFlow Lite; none of them is fused here.
        match = re.search(r'@"?([^",>\s]+)', str(implements))
        what = match.group(1) if match else str(implements)
        diags.warning(
            function,
            f"lowpass does not fuse '{what}' composite functions (tf._implements function "
            "attributes are out of scope): the function is left unchanged",
        )
        return None
    api = function.attributes.get("tf.api_implements")
    if isinstance(api, StringAttr) and (kind := kind_of(api.data)) is not None:
        return analyze_keras(function, kind, sites, diags)
    return None


def _dispatch_implements(
    function: func.FuncOp, implements: str, diags: Diagnostics, fuse_cifg: bool
) -> _Plan | None:
    if implements == EMBEDDING_MATMUL:
        return analyze_embedding(function, diags)
    if implements in LINGVO_NAMES:
        return analyze_lingvo(function, implements, False, diags)
    if implements in OUT_OF_SCOPE:
        diags.warning(
            function,
            f"lowpass does not fuse '{implements}' composite functions (out of scope): the "
            "function is left unchanged",
        )
        return None
    name, *options = implements.split(",")
    if name not in LINGVO_NAMES:
        return None
    unknown = [o for o in options if o != COUPLE_INPUT_FORGET_GATES]
    if unknown:
        diags.warning(
            function,
            f"we cannot fuse this lstm func because its interface options are unknown: "
            f"{', '.join(repr(o) for o in unknown)} (known: '{COUPLE_INPUT_FORGET_GATES}')",
        )
        return None
    if not fuse_cifg:
        diags.warning(
            function,
            f"'{implements}' is not fused: TensorFlow Lite compares tf._implements with "
            f"'{name}' exactly; pass fuse-cifg=true to fuse this coupled input-forget gate "
            "(CIFG) cell",
        )
        return None
    return analyze_lingvo(function, name, True, diags)
