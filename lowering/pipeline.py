"""
The CPU device's compiler as passes over the `ov` graph: each pass writes its decisions as
`cpu` dialect attributes (`dialects/cpu.py`), so every stage can be printed and checked
(`opt-tool -p cpu-fold-constants,cpu-remove-views model.mlir`); `compile_module` runs
`CPU_PIPELINE` on a copy of the module and then emits LLVM IR from what the attributes say
(`GraphCompiler.compile`, which reads them back with `read_plan` / `read_buffers`).

    cpu-decompose        Einsum -> MatMul, ReduceSum, Multiply, Transpose, Reshape
                         (`ov-decompose-einsum`); BatchNormInference, HardSigmoid -> the
                         elementwise ops they compute;
                         FakeQuantize(Convert(x: u8/i8)) that gives back x -> x; a
                         requantization of a Concat of requantized parts -> one per part;
                         an exact i32 MatMul of codes (MatMulInteger) -> int8 / f32 kernels;
                         MVN -> ReduceMean, Subtract, Multiply, Sqrt, Divide; a
                         ConvolutionBackpropData whose kernel is its stride -> a 1x1
                         Convolution and a DepthToSpace
    cpu-fold-constants   {cpu.constant}: the results are known at compile time (no code)
    cpu-remove-views     {cpu.view}: Reshape/Squeeze/Unsqueeze/cast of computed tensors
    cpu-quantize-cells   cpu.quantized = #cpu.quantized_cell<...>: LSTM/RNN cells run in int8
    cpu-fuse-kernels     cpu.kernel = #cpu.kernel<group, "kind">, cpu.fused = #cpu.fused<group>
    cpu-choose-layouts   {cpu.channels_last}: the tensors between convolutions stored NHWC
    cpu-select-kernels   cpu.algorithm = #cpu<algorithm winograd> (convolutions), cpu.gemm =
                         #cpu<gemm vnni> (the GEMM micro-kernel of convolutions, MatMuls and
                         int8 cells), cpu.int8 = #cpu<int8 vpdpbusd> (its int8 instructions),
                         cpu.cell_step = #cpu<cell_step fused> (an int8 cell's step as one
                         parallel job, or `gemms`), cpu.epilogue
                         = #cpu.epilogue<add | relu, fq> (the post-op program of a GEMM,
                         pooling, FakeQuantize or Convert group: kernel | pass)
    cpu-choose-storage   {cpu.bfloat16}: the tensors between bf16 GEMMs stored in bfloat16
    cpu-interleave-rows  cpu.row_bands = #cpu.row_bands<rows 4, groups 5 to 6>: a depthwise
                         convolution and the convolution before it run band by band of rows
    cpu-assign-buffers   cpu.buffers = [#cpu.buffer<...>] per result, #cpu.arena on @main

Each pass reads what the earlier ones wrote (not a Python object), so they run alone on a
printed and re-parsed module as well. They work on the entry function's graph and on the
bodies of its TensorIterator/Loop ops: a body that becomes a loop has its own groups
(numbered from 0) and its own memory (`#cpu.arena` on the op, offsets from it).

A graph a pass cannot handle is a `CompileError` (`CpuPass.run`, which `run_pipeline` calls:
the runtime's error), which the pass as xDSL runs it (`CpuPass.apply`) raises as MLIR's
diagnostic, a `CpuPipelineError` (`file:line:col: error: ...` at the op it names).

The passes analyse the graph through a `GraphAnalysis` (`lowering/analysis.py`); the
translation (`lowering/compiler.py`: `compile_pipelined`, `-t cpu-llvm`'s `LlvmTarget`)
imports this module and runs them, never the other way round.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, UnitAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import PassFailedException

from lowpass.dialects import cpu, ov
from lowpass.dialects.graph import entry_function, get_name, set_name
from lowpass.dialects.ov import LSTMCellOp, RNNCellOp
from lowpass.dialects.ov.base import element_type_of, ints, shape_of, tensor, to_dtype
from lowpass.dialects.ov.base import static_value as ov_static_value
from lowpass.dialects.ov.canonicalization import FoldIdentityFakeQuantize
from lowpass.dialects.ov.infrastructure import SubGraphOp
from lowpass.dialects.ov.quantization import fake_quantize
from lowpass.ir import find_location
from lowpass.lowering.analysis import GraphAnalysis
from lowpass.lowering.bands import BAND_MIN_BYTES, choose_row_bands
from lowpass.lowering.emit import CompileError, KernelChoosing, align, is_constant, static_value
from lowpass.lowering.layouts import choose_channels_last
from lowpass.lowering.ops.matmul import int8_weights
from lowpass.lowering.ops.quantization import dequantizes_lrn_input
from lowpass.lowering.plan import (
    CPU_PIPELINE,
    LOOP_KIND,
    Location,
    Plan,
    block_ops,
    is_view,
    value_dtype,
    value_nbytes,
    value_shape,
)
from lowpass.lowering.storage import choose_bfloat16
from lowpass.passes.convert_if_to_select import ConvertIfToSelect
from lowpass.passes.decompose_einsum import DecomposeEinsum
from lowpass.passes.options import check_option_types
from lowpass.passes.transaction import Transaction

__all__ = [
    "CPU_PIPELINE",
    "AssignBuffersPass",
    "ChooseLayoutsPass",
    "CpuPass",
    "CpuPipelineError",
    "DecomposePass",
    "FoldConstantsPass",
    "FuseKernelsPass",
    "QuantizeCellsPass",
    "RemoveViewsPass",
    "SelectKernelsPass",
    "run_pipeline",
]

_CPU_ATTRIBUTES = (
    cpu.CONSTANT,
    cpu.VIEW,
    cpu.QUANTIZED,
    cpu.KERNEL,
    cpu.FUSED,
    cpu.CHANNELS_LAST,
    cpu.ALGORITHM,
    cpu.CELL_STEP,
    cpu.GEMM,
    cpu.INT8,
    cpu.EPILOGUE,
    cpu.ROW_BANDS,
    cpu.BUFFERS,
    cpu.ARENA,
)


_CHECKED_MODULE: ContextVar[ModuleOp | None] = ContextVar("_CHECKED_MODULE", default=None)
"""The module whose shapes `run_pipeline` has checked already (its passes change no shape)."""


def _compiler(module: ModuleOp) -> GraphAnalysis:
    """The analyses of the CPU compiler on `module`, after checking that its shapes are static
    (every pass checks, as any of them may run alone; in `run_pipeline`, the first)."""
    compiler = GraphAnalysis(module)
    if _CHECKED_MODULE.get() is not module:
        compiler.check_static()
    return compiler


def _graph(compiler: GraphAnalysis) -> tuple[list[Operation], list]:
    block = compiler.function.body.block
    ret = block.last_op
    if not isinstance(ret, func.ReturnOp):
        raise CompileError(f"@{compiler.function.sym_name.data} does not end with func.return",
                           compiler.function)
    return block_ops(block), list(ret.arguments)


def _blocks(compiler: GraphAnalysis) -> list[list[Operation]]:
    """The ops of the graph and of every TensorIterator/Loop body in it."""
    blocks = [_graph(compiler)[0]]
    for o in compiler.function.body.walk():
        if isinstance(o, SubGraphOp):
            blocks.append(block_ops(o.body_block))
    return blocks


def _set(op: Operation, name: str, value: Attribute | None) -> None:
    if value is None:
        op.attributes.pop(name, None)
    else:
        op.attributes[name] = value


class _DecomposeBatchNorm(RewritePattern):
    """BatchNormInference on known statistics -> Multiply(x, a) and Add(b), per channel, with
    a = gamma / sqrt(variance + epsilon) and b = beta - mean * a folded in float64 and rounded
    once (as the ONNX frontend reads BatchNormalization, and as OpenVINO's CPU plugin runs it:
    a scale and shift fused into the convolution before it)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ov.BatchNormInferenceOp, rewriter: PatternRewriter) -> None:
        params = [ov_static_value(v) for v in (op.gamma, op.beta, op.mean, op.variance)]
        if any(p is None for p in params):
            self._computed(op, rewriter)
            return
        gamma, beta, mean, variance = (np.asarray(p) for p in params)
        a, b = ov.batch_norm_scale_shift(gamma, beta, mean, variance, op.epsilon.value.data)
        dtype = to_dtype(element_type_of(op.x))
        shape = (1, -1) + (1,) * (len(shape_of(op.x)) - 2)
        name = get_name(op)
        scale = ov.ConstantOp(a.astype(dtype).reshape(shape), _suffixed(name, "scale"))
        shift = ov.ConstantOp(b.astype(dtype).reshape(shape), _suffixed(name, "shift"))
        mul = ov.MultiplyOp(op.x, scale.result, name=_suffixed(name, "multiply"))
        add = ov.AddOp(mul.result, shift.result, name=name)
        operands = list(op.operands[1:])
        rewriter.replace(op, [scale, shift, mul, add], [add.result])
        _erase_unused_constants(rewriter, operands)

    @staticmethod
    def _computed(op: ov.BatchNormInferenceOp, rewriter: PatternRewriter) -> None:
        """Computed statistics (tf2onnx's Keras LayerNormalization): the float32 operations
        of `BatchNormInferenceOp.evaluate` in its order, `(x - mean) / sqrt(variance + eps) *
        gamma + beta`, each [C] operand viewed as [1, C, 1, ...]: the element-wise kernels,
        bit for bit (f16 keeps the op: its reference computes in float32)."""
        if element_type_of(op.x) != ov.f32 or any(d < 0 for d in shape_of(op.x)):
            return
        name = get_name(op)
        rank = len(shape_of(op.x))
        view = ov.ConstantOp(np.array([1, -1] + [1] * (rank - 2), np.int64),
                             _suffixed(name, "channels"))
        new: list[Operation] = [view]

        def channels(value: SSAValue, what: str) -> SSAValue:
            new.append(ov.ReshapeOp(value, view.result, False, name=_suffixed(name, what)))
            return new[-1].results[0]

        gamma, beta, mean, variance = (channels(v, w) for v, w in (
            (op.gamma, "gamma"), (op.beta, "beta"), (op.mean, "mean"), (op.variance, "variance")))
        eps = ov.ConstantOp(np.array(np.float32(op.epsilon.value.data)),
                            _suffixed(name, "epsilon"))
        centred = ov.SubtractOp(op.x, mean, name=_suffixed(name, "centred"))
        spread = ov.AddOp(variance, eps.result, name=_suffixed(name, "variance_epsilon"))
        deviation = ov.SqrtOp(spread.result, name=_suffixed(name, "deviation"))
        normalized = ov.DivideOp(centred.result, deviation.result,
                                 name=_suffixed(name, "normalized"))
        scaled = ov.MultiplyOp(normalized.result, gamma, name=_suffixed(name, "scaled"))
        shifted = ov.AddOp(scaled.result, beta, name=name)
        new += [eps, centred, spread, deviation, normalized, scaled, shifted]
        rewriter.replace(op, new, [shifted.result])


class _FloatConvolutionOfCodes(RewritePattern):
    """A Convolution that reads u8/i8 codes as float (type-relaxed, as LPT leaves one) with
    weights that are not int8 (u8 weights less their zero point: -255..255, as onnxruntime's
    QDQ with `weight_type=QUInt8` gives, which LPT folds to float) reads the codes converted
    to float32 instead: the float kernels run it (exactly: every code is a float), where no
    int8 kernel can, and the reference fallback had run it 8x slower than the whole model
    without LPT (a user trial; OpenVINO's CPU plugin runs such a layer in float too)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ov.ConvolutionOp | ov.GroupConvolutionOp,
                          rewriter: PatternRewriter) -> None:
        x = op.operands[0]
        if element_type_of(x) not in (ov.ui8, ov.i8) or element_type_of(op.results[0]) != ov.f32:
            return
        weights = static_value(op.operands[1], {})  # (folded: weights of any size)
        if weights is None or int8_weights(np.asarray(weights)) is not None:
            return
        convert = ov.ConvertOp(x, ov.f32, name=_suffixed(get_name(op), "float_input"))
        rewriter.insert(convert, InsertPoint.before(op))
        op.operands[0] = convert.results[0]
        rewriter.handle_operation_modification(op)


class _DeconvolutionOfBlocks(RewritePattern):
    """A 2-D transposed convolution whose kernel is its stride (k = s, no padding, dilation
    1, one group: U-Net's, PP-OCR's DBNet head's and CenterFace's 2x2 upsampling) writes each
    input position's products into its own s x s block of the output, with no overlap:

        y[n, o, i s + a, j s + b] = sum_c x[n, c, i, j] w[c, o, a, b]

    that is a 1x1 Convolution by the weights as [o s s + a s + b, c] and a DepthToSpace
    (`depth_first`, block s) of its O s^2 channels. The convolution kernels run it (u8/i8
    codes as LPT leaves them included: the int8 GEMM, exact), where the reference fallback
    had taken 80% of PP-OCRv6's detector (a user trial). The sums of the float32 GEMM are
    float32 (the reference's float64, rounded once: within float32 rounding)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ov.ConvolutionBackpropDataOp,
                          rewriter: PatternRewriter) -> None:
        x, w = op.input, op.filter
        x_shape, out_shape = shape_of(x), shape_of(op.result)
        if op.output_shape is not None or len(x_shape) != 4 or len(out_shape) != 4:
            return
        weights = ov_static_value(w)
        if weights is None or any(d == ov.DYNAMIC for d in (*x_shape, *out_shape)):
            return
        weights = np.asarray(weights)
        if element_type_of(x) in (ov.ui8, ov.i8) and weights.dtype != np.int8:
            return  # (codes by float weights: no kernel of the 1x1 convolution either)
        c_in, c_out, kh, kw = weights.shape
        block = kh
        if (kw != block or ints(op.strides) != (block, block) or ints(op.dilations) != (1, 1)
                or any(op.output_padding_values())):
            return
        if op.auto_pad.data == ov.AutoPad.EXPLICIT and any((*ints(op.pads_begin),
                                                            *ints(op.pads_end))):
            return
        n, _, h, width = x_shape
        if tuple(out_shape) != (n, c_out, h * block, width * block):
            return
        name = get_name(op)
        gemm_weights = ov.ConstantOp(
            np.ascontiguousarray(weights.transpose(1, 2, 3, 0)).reshape(
                c_out * block * block, c_in, 1, 1),
            _suffixed(name, "weights"),
        )
        out_type = element_type_of(op.result)
        conv = ov.ConvolutionOp(
            x, gemm_weights.result, strides=[1, 1], pads_begin=[0, 0], pads_end=[0, 0],
            dilations=[1, 1], result_type=tensor([n, c_out * block * block, h, width], out_type),
            name=_suffixed(name, "blocks"),
        )
        spread = ov.DepthToSpaceOp(conv.result, ov.DepthToSpaceMode.DEPTH_FIRST, block,
                                   result_type=op.result.type, name=name)
        rewriter.replace(op, [gemm_weights, conv, spread], [spread.result])
        _erase_unused_constants(rewriter, [w])


class _DecomposeMVN(RewritePattern):
    """
    MVN of float32 data with known axes -> `c = x - ReduceMean(x)`, then, normalizing the
    variance, `c / Sqrt(ReduceMean(c * c) + eps)` (`inside_sqrt`) or `c / (Sqrt(ReduceMean(c
    * c)) + eps)` (`outside_sqrt`): the ops that have kernels (reductions and element-wise
    groups), where MVN had none and ran on the reference fallback (each LayerNormalization of
    a transformer, which OpenVINO's ONNX frontend reads as MVN, Multiply, Add). The formula
    of the reference, in float32 where it computes in float64: within float32 rounding of it
    where the squares of the centered values are normal float32 numbers (as for any float32
    kernel, OpenVINO's too: values near 1e20 overflow them, near 1e-20 underflow them with eps
    0, and a row equal to a few ulps cancels). An MVN of u8/i8 data to float32 (LPT moves a
    dequantization after it, type-relaxed) reads them converted to float32 first (exactly).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ov.MVNOp, rewriter: PatternRewriter) -> None:
        axes = ov_static_value(op.axes)
        codes = element_type_of(op.x) in (ov.ui8, ov.i8)
        if (element_type_of(op.results[0]) != ov.f32 or axes is None
                or not (codes or element_type_of(op.x) == ov.f32)):
            return
        name = get_name(op)
        new: list[Operation] = [
            ov.ConstantOp(np.asarray(axes, np.int64).reshape(-1), _suffixed(name, "axes"))]
        x = op.x
        if codes:
            new.append(ov.ConvertOp(x, ov.f32, name=_suffixed(name, "float_input")))
            x = new[-1].results[0]
        axes_v = new[0].results[0]
        new.append(ov.ReduceMeanOp(x, axes_v, keep_dims=True, name=_suffixed(name, "mean")))
        new.append(ov.SubtractOp(x, new[-1].results[0], name=_suffixed(name, "centered")
                                 if op.normalize_variance.value.data else name))  # fmt: skip
        centered = new[-1].results[0]
        if op.normalize_variance.value.data:
            eps = ov.ConstantOp(np.array(np.float32(op.eps.value.data)), _suffixed(name, "eps"))
            square = ov.MultiplyOp(centered, centered, name=_suffixed(name, "square"))
            var = ov.ReduceMeanOp(square.results[0], axes_v, keep_dims=True,
                                  name=_suffixed(name, "variance"))  # fmt: skip
            new += [eps, square, var]
            if op.eps_mode.data == ov.MVNEpsMode.INSIDE_SQRT:
                new.append(ov.AddOp(var.results[0], eps.results[0], name=_suffixed(name, "add")))
                new.append(ov.SqrtOp(new[-1].results[0], name=_suffixed(name, "sqrt")))
            else:
                new.append(ov.SqrtOp(var.results[0], name=_suffixed(name, "sqrt")))
                new.append(ov.AddOp(new[-1].results[0], eps.results[0],
                                    name=_suffixed(name, "add")))  # fmt: skip
            new.append(ov.DivideOp(centered, new[-1].results[0], name=name))
        operands = [op.axes]
        rewriter.replace(op, new, [new[-1].results[0]])
        _erase_unused_constants(rewriter, operands)


class _DecomposeScaledDotProductAttention(RewritePattern):
    """
    ScaledDotProductAttention of float32 (what OpenVINO's `ovc` makes of a transformer's
    attention) -> the ops of its specification's formula, which have kernels: `MatMul(Q, K,
    transpose_b)`, a Multiply by the scale (1 / sqrt(E) in float32 where the op has none),
    the Add of the bias (the float mask; a Select of 0 and -inf by a boolean one; -inf above
    the diagonal, a constant, where causal: the scores' [L, S] are static when the CPU
    compiles), Softmax along the last axis and the MatMul by V. The op had run on the
    reference fallback. Within float32 rounding of the reference's float64 formula, as any
    float32 kernel (OpenVINO's CPU plugin runs a fused kernel of its own; its
    `ScaledDotProductAttentionDecomposition` builds the same ops for other devices).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ov.ScaledDotProductAttentionOp,
                          rewriter: PatternRewriter) -> None:
        q, k = shape_of(op.query), shape_of(op.key)
        causal = bool(op.causal.value.data)
        if (element_type_of(op.results[0]) != ov.f32
                or (causal and min(q[-2], k[-2]) < 0) or (op.scale is None and q[-1] < 0)):
            return
        name = get_name(op)
        new: list[Operation] = [
            ov.MatMulOp(op.query, op.key, transpose_b=True, name=_suffixed(name, "scores"))]
        scale = op.scale
        if scale is None:
            factor = np.float32(1) / np.sqrt(np.float32(q[-1]))
            new.append(ov.ConstantOp(np.asarray(factor, np.float32), _suffixed(name, "scale")))
            scale = new[-1].results[0]
        scaled = ov.MultiplyOp(new[0].results[0], scale, name=_suffixed(name, "scaled"))
        new.append(scaled)
        bias: SSAValue | None = None
        mask = None if causal else op.attention_mask
        if causal:
            above = np.arange(k[-2])[None, :] > np.arange(q[-2])[:, None]
            new.append(ov.ConstantOp(np.where(above, -np.inf, 0.0).astype(np.float32),
                                     _suffixed(name, "causal_mask")))  # fmt: skip
            bias = new[-1].results[0]
        elif mask is not None and element_type_of(mask) == ov.i1:
            zero = ov.ConstantOp(np.zeros((), np.float32), _suffixed(name, "zero"))
            minus_inf = ov.ConstantOp(np.full((), -np.inf, np.float32),
                                      _suffixed(name, "minus_inf"))  # fmt: skip
            select = ov.SelectOp(mask, zero.result, minus_inf.result, name=_suffixed(name, "bias"))
            new += [zero, minus_inf, select]
            bias = select.results[0]
        elif mask is not None:
            bias = mask
        if bias is not None:
            new.append(ov.AddOp(scaled.results[0], bias, name=_suffixed(name, "biased")))
        new.append(ov.SoftmaxOp(new[-1].results[0], -1, name=_suffixed(name, "softmax")))
        new.append(ov.MatMulOp(new[-1].results[0], op.value, name=name))
        rewriter.replace(op, new, [new[-1].results[0]])


_EXACT_F32 = float(1 << 24)  # (every integer up to this is a float32)


class _IntegerMatMulOnInt8Kernels(RewritePattern):
    """
    `Convert(MatMul(i32(a) - i32(za), i32(B) - zb), f32)` (ONNX MatMulInteger then Cast, as
    onnxruntime's `quantize_dynamic` writes a linear layer: a of u8/i8 codes, their zero
    point `za` computed at run time by DynamicQuantizeLinear, B constant) -> `MatMul(a, B -
    zb) - f32(za) * colsum(B - zb)` with the int8 kernels' u8/i8 x i8 MatMul to float32
    where `B - zb` is int8, else `MatMul(f32(a) - f32(za), f32(B - zb))` on the float32
    kernels (u8 weights with a zero point: -255..255): both exact where every sum is an
    integer of at most 2^24, i.e. `255 * sum_k |B - zb|` <= 2^24 for every column (|a|,
    |za|, |a - za| <= 255: za of a's type, one value per row of the product, a of rank 2
    or more; a float32 sum of such integers is exact in any order). The i32
    MatMul ran on the reference fallback (bert_tiny so quantized: 5x the time of its float
    model; OpenVINO's CPU plugin runs it as a float32 FullyConnected).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ov.ConvertOp, rewriter: PatternRewriter) -> None:
        mm = op.x.owner
        if (element_type_of(op.results[0]) != ov.f32 or not isinstance(mm, ov.MatMulOp)
                or element_type_of(mm.results[0]) != ov.i32 or not mm.results[0].has_one_use()):
            return
        codes = _codes_less_zero_point(mm.operands[0])
        b = static_value(mm.operands[1], {})  # (the compiler's folding: weights of any size)
        shapes = (mm.operands[0], mm.operands[1], mm.results[0])
        if codes is None or b is None or any(d < 0 for v in shapes for d in shape_of(v)):
            return
        a, za = codes
        weights = np.asarray(b, np.int64)
        known = None if za is None else static_value(za, {})
        if weights.ndim < 2 or len(shape_of(a)) < 2:
            return  # (a 1-D operand's axis is dropped from the result: not `a @ B - z*s`)
        if za is not None and not _zero_point_per_row(a, za, known,
                                                      bool(mm.transpose_a.value.data)):
            return
        oriented = np.swapaxes(weights, -1, -2) if mm.transpose_b.value.data else weights
        if 255.0 * float(np.abs(oriented).sum(axis=-2).max()) > _EXACT_F32:
            return
        name = get_name(mm)
        int8 = weights.min() >= -128 and weights.max() <= 127
        new: list[Operation] = []
        if not int8:  # (the float32 kernels: a and za as floats, subtracted first)
            new.append(ov.ConvertOp(a, ov.f32, name=_suffixed(name, "float_input")))
            a = new[-1].results[0]
            if za is not None:
                new.append(ov.ConstantOp(np.asarray(known, np.float32), _suffixed(
                    name, "zero_point")) if known is not None else ov.ConvertOp(
                        za, ov.f32, name=_suffixed(name, "zero_point")))  # fmt: skip
                new.append(ov.SubtractOp(a, new[-1].results[0], name=_suffixed(name, "shifted")))
                a, za = new[-1].results[0], None
        new.append(ov.ConstantOp(weights.astype(np.int8 if int8 else np.float32),
                                 _suffixed(name, "weights")))  # fmt: skip
        product = ov.MatMulOp(a, new[-1].results[0], transpose_a=bool(mm.transpose_a.value.data),
                              transpose_b=bool(mm.transpose_b.value.data),
                              result_type=tensor(shape_of(mm.results[0]), ov.f32), name=name)
        new.append(product)
        colsum = oriented.sum(axis=-2, keepdims=True).astype(np.float32)
        out = _less_zero_point_sums(new, product, za, known, colsum, name, get_name(op))
        rewriter.replace(op, new, [out])
        _erase_unused(rewriter, mm)


class _IntegerConvolutionOnInt8Kernels(RewritePattern):
    """
    `Convert(Convolution(i32(x) - i32(zx), i32(w) - zw), f32)` (ONNX ConvInteger then Cast,
    as onnxruntime's `quantize_dynamic` writes a convolution: x of u8/i8 codes, their zero
    point computed at run time, w constant) -> `Convolution(Pad(x, zx), w - zw) - f32(zx) *
    sum(w - zw)` on the int8 kernels (a u8/i8 x i8 convolution to float32), where `w - zw`
    is int8 and every sum an integer of at most 2^24 (`255 * sum |w - zw|` per output
    channel): exact, as for MatMulInteger. The input is padded by its zero point first, so
    that the padded positions add `zx - zx = 0` as in the i32 form (the int8 kernel pads
    with zeros). Group convolutions alike. The i32 convolution ran on the reference fallback
    (a user trial: a quantize_dynamic ViT's patch embedding 0.4 ms, the model 9x
    onnxruntime's time).
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ov.ConvertOp, rewriter: PatternRewriter) -> None:
        conv = op.x.owner
        if (element_type_of(op.results[0]) != ov.f32
                or not isinstance(conv, ov.ConvolutionOp | ov.GroupConvolutionOp)
                or element_type_of(conv.results[0]) != ov.i32
                or not conv.results[0].has_one_use()):
            return
        codes = _codes_less_zero_point(conv.operands[0])
        w = static_value(conv.operands[1], {})
        shapes = (conv.operands[0], conv.operands[1], conv.results[0])
        if codes is None or w is None or any(d < 0 for v in shapes for d in shape_of(v)):
            return
        x, zx = codes
        known = None if zx is None else static_value(zx, {})
        shape = tuple(shape_of(x))
        if len(shape) < 3 or (zx is not None and not _one_zero_point(x, zx, known)):
            return
        weights = np.asarray(w, np.int64)
        grouped = isinstance(conv, ov.GroupConvolutionOp)
        channel_axes = 2 if grouped else 1  # (the output channels: [G, O/G] or [O])
        if weights.min(initial=0) < -128 or weights.max(initial=0) > 127:
            return
        sums = weights.reshape(int(np.prod(weights.shape[:channel_axes])), -1)
        if 255.0 * float(np.abs(sums).sum(axis=1).max(initial=0)) > _EXACT_F32:
            return
        name = get_name(conv)
        begin, end = conv.forward_pads(shape[2:], weights.shape[channel_axes + 1:])
        new: list[Operation] = []
        if zx is not None and any(begin + end):
            pads = [ov.ConstantOp(np.array([0, 0, *p], np.int64), _suffixed(name, f"pads_{k}"))
                    for k, p in (("begin", begin), ("end", end))]  # fmt: skip
            new += pads
            if known is not None:
                scalar = np.asarray(known).reshape(()).astype(to_dtype(element_type_of(x)))
                new.append(ov.ConstantOp(scalar, _suffixed(name, "pad_value")))
            else:  # (the zero point as a scalar: the pad value)
                new.append(ov.ConstantOp(np.zeros((0,), np.int64), _suffixed(name, "scalar")))
                new.append(ov.ReshapeOp(zx, new[-1].results[0], False,
                                        name=_suffixed(name, "pad_value")))  # fmt: skip
            padded = tensor([d + b + e for d, b, e in zip(
                shape, [0, 0, *begin], [0, 0, *end], strict=True)], element_type_of(x))
            new.append(ov.PadOp(x, pads[0].results[0], pads[1].results[0], new[-1].results[0],
                                result_type=padded, name=_suffixed(name, "padded")))
            x, begin, end = new[-1].results[0], [0] * len(begin), [0] * len(end)
        new.append(ov.ConstantOp(weights.astype(np.int8), _suffixed(name, "weights")))
        kind = ov.GroupConvolutionOp if grouped else ov.ConvolutionOp
        product = kind(x, new[-1].results[0], strides=list(ints(conv.strides)),
                       pads_begin=begin, pads_end=end, dilations=list(ints(conv.dilations)),
                       result_type=tensor(shape_of(conv.results[0]), ov.f32), name=name)
        new.append(product)
        rank = len(shape_of(conv.results[0]))
        columns = sums.sum(axis=1).astype(np.float32).reshape(1, -1, *[1] * (rank - 2))
        if known is not None:
            known = np.asarray(known).reshape(())  # (one value: a scalar times the sums)
        out = _less_zero_point_sums(new, product, zx, known, columns, name, get_name(op))
        rewriter.replace(op, new, [out])
        _erase_unused(rewriter, conv)


def _less_zero_point_sums(new: list[Operation], product: Operation, zero_point: SSAValue | None,
                          known: Any, sums: np.ndarray, name: str | None,
                          out_name: str | None) -> SSAValue:  # fmt: skip
    """`product - f32(zero_point) * sums` (a constant where the zero point is `known`), its
    ops appended to `new`, named `out_name` (the replaced Convert's); `product` itself, so
    named, without a zero point."""
    if zero_point is None:
        if out_name is not None:
            set_name(product, out_name)
        return product.results[0]
    if known is not None:
        new.append(ov.ConstantOp(np.asarray(known, np.float32) * sums,
                                 _suffixed(name, "zero_point_sums")))  # fmt: skip
    else:
        new += [ov.ConvertOp(zero_point, ov.f32, name=_suffixed(name, "zero_point")),
                ov.ConstantOp(sums, _suffixed(name, "column_sums"))]  # fmt: skip
        new.append(ov.MultiplyOp(new[-2].results[0], new[-1].results[0],
                                 name=_suffixed(name, "zero_point_sums")))  # fmt: skip
    new.append(ov.SubtractOp(product.results[0], new[-1].results[0], name=out_name))
    return new[-1].results[0]


def _one_zero_point(a: SSAValue, za: SSAValue, known: Any) -> bool:
    """Whether `za` is one value of a's integer range that keeps a's shape (see
    `_zero_point_per_row`)."""
    if int(np.prod(shape_of(za), dtype=np.int64)) != 1:
        return False
    return _zero_point_per_row(a, za, known, True)


def _zero_point_per_row(a: SSAValue, za: SSAValue, known: Any, transpose_a: bool) -> bool:
    """Whether `a - za` keeps a's shape with `za` one value per row of the product (a
    scalar, or `[..., M, 1]`; a scalar only with `transpose_a`), so that `(a - za) @ B = a @
    B - za * colsum(B)`, and of a's integer range (`|a - za| <= 255`, the bound's premise):
    za of a's type, or constant within it."""
    a_shape, z_shape = tuple(shape_of(a)), tuple(shape_of(za))
    try:
        if np.broadcast_shapes(a_shape, z_shape) != a_shape:
            return False
    except ValueError:
        return False
    padded = (1,) * (len(a_shape) - len(z_shape)) + z_shape
    if padded[-1] != 1 or (transpose_a and any(d != 1 for d in padded)):
        return False
    if known is None:
        return element_type_of(za) == element_type_of(a)
    low, high = (0, 255) if element_type_of(a) == ov.ui8 else (-128, 127)
    values = np.asarray(known, np.int64)
    return bool(values.size == 0 or (values.min() >= low and values.max() <= high))


def _codes_less_zero_point(value: SSAValue) -> tuple[SSAValue, SSAValue | None] | None:
    """`i32(a)` or `i32(a) - za` with a of u8/i8 and za of u8/i8 (`i32(za)`) or a constant:
    (a, za as u8/i8 or the constant), else None."""
    owner = value.owner
    za: SSAValue | None = None
    if isinstance(owner, ov.SubtractOp):
        value, za = owner.operands
        zp = za.owner
        if isinstance(zp, ov.ConvertOp) and element_type_of(zp.x) in (ov.ui8, ov.i8):
            za = zp.x
        elif static_value(za, {}) is None:
            return None
        owner = value.owner
    if not isinstance(owner, ov.ConvertOp) or element_type_of(owner.x) not in (ov.ui8, ov.i8):
        return None
    return owner.x, za


def _erase_unused(rewriter: PatternRewriter, op: Operation) -> None:
    """`op` and then each op before it that only it used (the replaced chain)."""
    if any(r.uses for r in op.results):
        return
    operands = list(op.operands)
    rewriter.erase(op)
    for value in operands:
        if isinstance(value.owner, Operation):
            _erase_unused(rewriter, value.owner)


class _DecomposeHardSigmoid(RewritePattern):
    """HardSigmoid with known alpha and beta -> Multiply, Add, Minimum(1, t), Maximum(0, .):
    the reference's operations in its order (bit for bit; `ov.minimum`'s `std::min` rule
    with the constant first turns a NaN `t` into 1, as HardSigmoid does, where a Clamp would
    give its lower bound 0)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ov.HardSigmoidOp, rewriter: PatternRewriter) -> None:
        alpha, beta = ov_static_value(op.alpha), ov_static_value(op.beta)
        if alpha is None or beta is None:
            return
        dtype = to_dtype(element_type_of(op.data))
        name = get_name(op)
        a = ov.ConstantOp(np.asarray(alpha, dtype).reshape(()), _suffixed(name, "alpha"))
        b = ov.ConstantOp(np.asarray(beta, dtype).reshape(()), _suffixed(name, "beta"))
        mul = ov.MultiplyOp(op.data, a.result, name=_suffixed(name, "multiply"))
        add = ov.AddOp(mul.result, b.result, name=_suffixed(name, "add"))
        one = ov.ConstantOp(np.ones((), dtype), _suffixed(name, "one"))
        zero = ov.ConstantOp(np.zeros((), dtype), _suffixed(name, "zero"))
        low = ov.MinimumOp(one.result, add.result, name=_suffixed(name, "minimum"))
        high = ov.MaximumOp(zero.result, low.result, name=name)
        operands = list(op.operands[1:])
        rewriter.replace(op, [a, b, mul, add, one, zero, low, high], [high.result])
        _erase_unused_constants(rewriter, operands)


class _RequantizeConcatParts(RewritePattern):
    """FakeQuantize(Convert(Concat(parts)) to float) to u8/i8 -> Concat of each part's
    FakeQuantize(Convert(part)), the limits cut along the Concat's axis, where every part is
    the u8/i8 result of a FakeQuantize that only the Concat reads: the requantization then
    ends each part's post-op program (a `cast` step and the FakeQuantize) instead of running
    as a pass over the concatenated tensor, after each fire module of a quantized SqueezeNet
    (onnxruntime's QDQ: the Concat's output takes its own scale). Element by element the same
    operations: the same bits."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ov.FakeQuantizeOp, rewriter: PatternRewriter) -> None:
        convert = op.x.owner
        if not isinstance(convert, ov.ConvertOp) or not convert.result.has_one_use():
            return
        concat = convert.x.owner
        if not isinstance(concat, ov.ConcatOp) or not concat.result.has_one_use():
            return
        if str(element_type_of(op.result)) not in ("ui8", "i8") or any(
                isinstance(use.operation, func.ReturnOp) for use in op.result.uses):
            return
        parts = list(concat.operands)
        if not all(isinstance(part.owner, ov.FakeQuantizeOp) and part.has_one_use()
                   and str(element_type_of(part)) in ("ui8", "i8") for part in parts):
            return
        if any(d < 0 for v in (*parts, concat.result) for d in shape_of(v)):
            return  # (a dynamic size: the limits are cut by the parts' sizes)
        limits = [ov_static_value(v) for v in op.limits()]
        if any(limit is None for limit in limits):
            return
        shape = shape_of(concat.result)
        axis = concat.axis.value.data % len(shape)
        name = get_name(op)
        new_ops: list[Operation] = []
        requantized: list[SSAValue] = []
        start = 0
        for k, part in enumerate(parts):
            size = shape_of(part)[axis]
            cut: list[SSAValue] = []
            for role, value, limit in zip(ov.LIMIT_NAMES, op.limits(), limits, strict=True):
                array = np.asarray(limit)
                full = array.reshape((1,) * (len(shape) - array.ndim) + array.shape)
                if full.shape[axis] == 1:  # (the same for every part)
                    cut.append(value)
                    continue
                piece = ov.ConstantOp(np.ascontiguousarray(
                    np.take(full, range(start, start + size), axis=axis)).astype(array.dtype),
                    _suffixed(name, f"part{k}/{role}"))
                new_ops.append(piece)
                cut.append(piece.result)
            as_float = ov.ConvertOp(part, convert.destination_type,
                                    name=_suffixed(get_name(convert), f"part{k}"))
            low, high, out_low, out_high = cut
            fq = ov.FakeQuantizeOp(as_float.result, low, high, out_low, out_high,
                                   op.levels.value.data,
                                   auto_broadcast=op.auto_broadcast.data,
                                   element_type=element_type_of(op.result),
                                   name=_suffixed(name, f"part{k}"))
            new_ops += [as_float, fq]
            requantized.append(fq.result)
            start += size
        joined = ov.ConcatOp(requantized, concat.axis.value.data, name=get_name(concat))
        operands = list(op.limits())
        rewriter.replace(op, [*new_ops, joined], [joined.result])
        rewriter.erase(convert)
        rewriter.erase(concat)
        _erase_unused_constants(rewriter, operands)


class _DequantizeInLRN(RewritePattern):
    """FakeQuantize(x) with a float32 result that only an LRN reads -> FakeQuantize(x) onto
    its u8 levels 0 .. L - 1, Convert to float32, and a FakeQuantize of [0, L - 1] onto the
    output limits, which the LRN's kernel runs on the levels it reads
    (`normalization.LRNLowering`): the group before (inception_v1's 64->192 3x3 layer) then
    writes u8 levels instead of float32, a quarter of the bytes. Only where each level gives
    the same bits (`_levels_round_trip`), and not after a Convert of u8/i8 (the LRN's
    kernel reads that one's bytes as they are)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ov.FakeQuantizeOp, rewriter: PatternRewriter) -> None:
        if not dequantizes_lrn_input(op):  # (an LRN's kernel can run the dequantization)
            return
        levels = op.levels.value.data
        source = op.x.owner
        if not 2 <= levels <= 256 or (isinstance(source, ov.ConvertOp)
                                      and str(element_type_of(source.x)) in ("ui8", "i8")):
            return
        limits = [ov_static_value(v) for v in op.limits()]
        if any(limit is None for limit in limits):
            return
        il, ih, ol, oh = (np.asarray(limit) for limit in limits)
        if not _levels_round_trip(il, ih, ol, oh, levels):
            return
        name = get_name(op)
        low = ov.ConstantOp(np.zeros((), np.float32), _suffixed(name, "levels/low"))
        high = ov.ConstantOp(np.full((), levels - 1, np.float32), _suffixed(name, "levels/high"))
        # (numpy broadcast, as `dequantizes_lrn_input` asks)
        quantize = ov.FakeQuantizeOp(op.x, op.input_low, op.input_high, low.result,
                                     high.result, levels, element_type=ov.ui8,
                                     name=_suffixed(name, "levels"))
        as_float = ov.ConvertOp(quantize.result, element_type_of(op.result),
                                name=_suffixed(name, "convert"))
        dequantize = ov.FakeQuantizeOp(as_float.result, low.result, high.result,
                                       op.output_low, op.output_high, levels, name=name)
        rewriter.replace(op, [low, high, quantize, as_float, dequantize], [dequantize.result])


def _levels_round_trip(il: npt.ArrayLike, ih: npt.ArrayLike, ol: npt.ArrayLike,
                       oh: npt.ArrayLike, levels: int) -> bool:
    """Whether FakeQuantize(il, ih, ol, oh) in float32 equals, bit for bit and on every x,
    FakeQuantize(il, ih, 0, L - 1) rounded to u8, then FakeQuantize(0, L - 1, ol, oh) (both
    as the reference computes them, `fake_quantize`): the first gives x's level k, whose
    float value rounds back to k (the selects give 0 below il and L - 1 above ih, NaN 0),
    and the second gives level k's value, fl(fl(k / (L - 1)) (oh - ol)) + ol, for k
    inside and `ol` / `oh` at the ends, which must then be the value of levels 0 and L - 1
    where the one FakeQuantize selects its limits below and above the input range
    (fl(fl(oh - ol) + ol) need not be oh, fl(0 (oh - ol)) + ol is +0.0 for an ol of -0.0).
    Finite limits with il < ih and a finite width ih - il (per channel, broadcast) only."""
    arrays = np.broadcast_arrays(*(np.asarray(a, np.float32) for a in (il, ih, ol, oh)))
    il, ih, ol, oh = (a.reshape(1, -1) for a in arrays)
    with np.errstate(over="ignore"):
        width = ih - il  # (x - il <= width for every x in range: no infinity, no NaN level)
    if not (np.all(np.isfinite(np.concatenate([il, ih, ol, oh, width]))) and np.all(il < ih)):
        return False
    steps = np.float32(levels - 1)
    k = np.arange(levels, dtype=np.float32)[:, None]
    with np.errstate(all="ignore"):
        value = k / steps * (oh - ol) + ol  # (level k's, inside the input range)
        rounds_back = np.array_equal(np.rint(k / steps * steps), k)
    second = fake_quantize(np.broadcast_to(k, value.shape), np.zeros((), np.float32),
                           np.asarray(steps), ol, oh, levels)
    second, value, top = (a.view(np.uint32) for a in (second, value, oh))
    return (rounds_back and np.array_equal(second, value)  # (level 0's is ol: a select)
            and np.array_equal(second[-1:], np.broadcast_to(top, second[-1:].shape)))


def _erase_unused_constants(rewriter: PatternRewriter, values: list[SSAValue]) -> None:
    """The constants that only the decomposed op used (now folded into new ones): gone in this
    run, so that running the pipeline again changes nothing."""
    for value in values:
        owner = value.owner
        if isinstance(owner, ov.ConstantOp) and not owner.result.uses:
            rewriter.erase(owner)


def _suffixed(name: str | None, suffix: str) -> str | None:
    return None if name is None else f"{name}/{suffix}"


class CpuPipelineError(PassFailedException):
    """
    A `CompileError` of the CPU pipeline (a cpu-* pass, or `-t cpu-llvm`, which runs them and
    the translation) as MLIR's diagnostic: `file:line:col: error: message` at the op the error
    is about where that op (or a parent) has a position, which `--verify-diagnostics` reads;
    else `<name>: error: message`, the form of lowpass's other passes (`ov-reshape: error:
    ...`; opt-tool puts the file in front). `error` is the `CompileError`, its op included.
    """

    def __init__(self, error: CompileError, name: str) -> None:
        located = error.op is not None and find_location(error.op) is not None
        super().__init__(error.located() if located else f"{name}: error: {error}")
        self.error = error


@dataclass(frozen=True)
class CpuPass(ModulePass):
    """
    A pass of the CPU pipeline. `run` does its work and raises `CompileError`, the error of
    the runtime's compile path (`run_pipeline` calls it); `apply`, the pass as xDSL runs it,
    raises that as a `CpuPipelineError`, a `PassFailedException`, so that opt-tool reports it
    as it reports any pass's diagnostic (at the op, per `--split-input-file` chunk, expected
    by `--verify-diagnostics`), the module as it was before the pass (a `Transaction`,
    as every lowpass pass; the runtime's `run_pipeline` calls `run`: no copy per pass).
    """

    def __post_init__(self) -> None:
        check_option_types(self)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        transaction = Transaction(op)
        try:
            self.run(ctx, op)
        except CompileError as e:
            transaction.rollback()
            if e.op is not None:  # (the op as it is in the module put back)
                e.op = transaction.snapshot_of(e.op) or e.op
            raise CpuPipelineError(e, self.name) from None
        except BaseException:
            transaction.rollback()
            raise

    @abstractmethod
    def run(self, ctx: Context, op: ModuleOp) -> None:
        """The pass's work on `op`; a graph it cannot handle raises `CompileError`."""


@dataclass(frozen=True)
class DecomposePass(CpuPass):
    """
    Rewrites the ops that the CPU device runs as other ops (OpenVINO's CPU plugin decomposes
    them too): BatchNormInference on constant statistics into a per-channel Multiply and Add,
    which fuse into the convolution before them; HardSigmoid with constant alpha and beta into
    Multiply, Add, Minimum and Maximum (NaN -> 1, see `_DecomposeHardSigmoid`). A FakeQuantize
    of a converted u8/i8 tensor that gives back every value (the `ov` canonicalization
    `FoldIdentityFakeQuantize`) is replaced by that tensor: no kernel computes nothing. A
    requantization of a Concat of requantized parts moves onto the parts
    (`_RequantizeConcatParts`); a FakeQuantize with a float32 result before an LRN is split
    into its u8 levels and their dequantization, which the LRN's kernel runs
    (`_DequantizeInLRN`); a Convolution of u8/i8 codes by weights that are not int8 reads
    them converted to float (`_FloatConvolutionOfCodes`); an i32 MatMul of codes less a zero
    point by constant weights, converted to float32, runs on the int8 or float32 kernels
    where that is exact (`_IntegerMatMulOnInt8Kernels`); MVN becomes the reductions and
    element-wise ops of its formula (`_DecomposeMVN`), ScaledDotProductAttention its
    MatMuls, Softmax and the element-wise ops between them
    (`_DecomposeScaledDotProductAttention`), Einsum its MatMuls, ReduceSums, Multiplys,
    Transposes and Reshapes (`ov-decompose-einsum`'s pattern; the equations it leaves run on the
    reference fallback); a 2-D ConvolutionBackpropData whose kernel is its stride a 1x1
    Convolution and a DepthToSpace (`_DeconvolutionOfBlocks`); an If of two small bodies
    that cannot fail both bodies and a Select (`ov-convert-if-to-select`'s pattern: a Loop
    body's `break`, which ran the whole Loop on the reference fallback). The other passes
    then see only ops they have kernels for. Also in TensorIterator/Loop bodies.
    """

    name = "cpu-decompose"

    def run(self, ctx: Context, op: ModuleOp) -> None:
        patterns = GreedyRewritePatternApplier(
            [_DecomposeBatchNorm(), _DecomposeHardSigmoid(), FoldIdentityFakeQuantize(),
             _RequantizeConcatParts(), _DequantizeInLRN(), _FloatConvolutionOfCodes(),
             _IntegerMatMulOnInt8Kernels(), _IntegerConvolutionOnInt8Kernels(),
             _DeconvolutionOfBlocks(), _DecomposeMVN(), _DecomposeScaledDotProductAttention(),
             DecomposeEinsum(), ConvertIfToSelect()]
        )
        PatternRewriteWalker(patterns, apply_recursively=False).rewrite_module(op)


@dataclass(frozen=True)
class FoldConstantsPass(CpuPass):
    """
    Marks `{cpu.constant}` every op of the entry function (and of its TensorIterator/Loop
    bodies) whose results are known at compile time: `ov.shape_of` of static shapes and pure
    ops of known operands (the folding of the CPU compiler, `GraphAnalysis.fold`);
    `ov.constant` needs no mark. The ops stay (the profiling rows report them as not run);
    their values are computed again when the code is emitted. Checks first that every shape
    is static.
    """

    name = "cpu-fold-constants"

    def run(self, ctx: Context, op: ModuleOp) -> None:
        compiler = _compiler(op)
        for ops in _blocks(compiler):
            constants = compiler.fold_constants(ops)
            for o in ops:
                known = bool(o.results) and all(r in constants for r in o.results)
                plain = is_constant(o) and cpu.CONSTANT not in o.attributes
                _set(o, cpu.CONSTANT, UnitAttr() if known and not plain else None)


@dataclass(frozen=True)
class RemoveViewsPass(CpuPass):
    """
    Marks `{cpu.view}` the Reshape/Squeeze/Unsqueeze/tensor.cast ops of computed tensors (in
    the graph and its bodies): their result is their input's memory with another shape, no
    code (a view of a view is a view of the first input).
    """

    name = "cpu-remove-views"

    def run(self, ctx: Context, op: ModuleOp) -> None:
        compiler = _compiler(op)
        for ops in _blocks(compiler):
            constants = {r for o in ops if is_constant(o) for r in o.results}
            for o in ops:
                view = not is_constant(o) and is_view(o, constants)
                _set(o, cpu.VIEW, UnitAttr() if view else None)


@dataclass(frozen=True)
class QuantizeCellsPass(CpuPass):
    """
    Marks `cpu.quantized = #cpu.quantized_cell<...>` the LSTMCell and RNNCell ops (also in
    TensorIterator/Loop bodies) that run in int8: X and H from per-tensor FakeQuantizes with
    constant limits, W and R constants on an int8 grid (`lowering/ops/rnn.py`,
    `cell_quantization`). Other cells run in fp32 on the FakeQuantized floats: nothing is
    quantized that the model does not quantize.
    """

    name = "cpu-quantize-cells"

    def run(self, ctx: Context, op: ModuleOp) -> None:
        from lowpass.lowering.ops.rnn import RecurrentLowering, cell_quantization, weight_operands

        lowering = RecurrentLowering()
        memo = lowering._memo
        for cell in entry_function(op).body.walk():
            if not isinstance(cell, LSTMCellOp | RNNCellOp):
                continue
            quantization = None
            if lowering.unsupported(cell) is None:
                w, r = (static_value(v, memo) for v in weight_operands(cell)[:2])
                if w is not None and r is not None:
                    quantization = cell_quantization(cell, w, r, memo)
            attr = None
            if quantization is not None:
                q = quantization
                weights = max(int(np.abs(g.q.astype(np.int16)).max(initial=0)) for g in (q.w, q.r))
                attr = cpu.QuantizedCellAttr(q.x.levels, q.h.levels, weights, 2 if q.split else 1)
            _set(cell, cpu.QUANTIZED, attr)


@dataclass(frozen=True)
class FuseKernelsPass(CpuPass):
    """
    Forms the groups: each op that is neither constant nor a view, in graph order, is offered
    to the lowerings (`lowering/ops/__init__.py`, in that order); the first that accepts it
    takes it with the ops it absorbs (its epilogue) when that is a valid fusion
    (docs/lowering.md). The first op gets `cpu.kernel = #cpu.kernel<group, "kind">` (kind: the
    lowering; "loop" a TensorIterator/Loop whose body lowers; "reference" no lowering: the
    reference fallback), the absorbed ops `cpu.fused = #cpu.fused<group>`; the body of a
    "loop" gets its own groups, numbered from 0.
    """

    name = "cpu-fuse-kernels"

    def run(self, ctx: Context, op: ModuleOp) -> None:
        compiler = _compiler(op)
        compiler.body_source = "marks"
        ops, results = _graph(compiler)
        constants = compiler.fold_constants([o for o in ops if is_constant(o)])
        plan = compiler.form_groups(
            compiler.function.body.block, ops, results, constants,
            lambda o: cpu.VIEW in o.attributes,
        )  # fmt: skip
        for o in compiler.function.body.walk():
            _set(o, cpu.KERNEL, None)
            _set(o, cpu.FUSED, None)
        _mark_groups(compiler, plan)


def _mark_groups(compiler: GraphAnalysis, plan: Plan) -> None:
    """The groups of a graph or body (numbered from 0 in each), and of the bodies of its
    TensorIterator/Loop groups."""
    for index, group in enumerate(plan.groups):
        first, *rest = group.ops
        _set(first, cpu.KERNEL, cpu.KernelAttr(index, compiler.kernel_kind(group)))
        for member in rest:
            _set(member, cpu.VIEW, None)  # absorbed: computed by the group
            _set(member, cpu.FUSED, cpu.FusedAttr(index))
        if group.lowering is compiler.subgraph_lowering:
            _mark_groups(compiler, compiler.subgraph_lowering.plans[first])


class ChooseLayoutsPass(CpuPass):
    """
    Marks `cpu.channels_last` the ops whose result the CPU device stores NHWC: the tensors
    that convolutions pass to each other, directly or through element-wise groups, so that
    neither side reorders them (`lowering/layouts.py` has the rules). Entry function only;
    graph inputs and outputs stay NCHW.
    """

    name = "cpu-choose-layouts"

    def run(self, ctx: Context, op: ModuleOp) -> None:
        compiler = _compiler(op)
        _, results = _graph(compiler)
        for o in compiler.function.body.walk():
            _set(o, cpu.CHANNELS_LAST, None)
        for o in choose_channels_last(compiler.function.body.block, results):
            _set(o, cpu.CHANNELS_LAST, UnitAttr())


@dataclass(frozen=True)
class SelectKernelsPass(CpuPass):
    """
    Writes the kernel of each convolution, MatMul and int8 cell group on its op (a cell's:
    `cpu.gemm`, `cpu.int8` and `cpu.cell_step`, lowering/ops/rnn.py): `cpu.algorithm =
    #cpu<algorithm ...>` (a convolution: `im2col`, `winograd` where it applies and `winograd`
    is true, or `depthwise`) and `cpu.gemm = #cpu<gemm ...>` (the GEMM micro-kernel: `f32`,
    or for int8 `vnni` on a VNNI host, else `u8s8` when every weight is in [-64, 63], else
    `s16`), for an int8 GEMM `cpu.int8 = #cpu<int8 ...>` (its instructions: `vpmaddubsw`,
    `vpmaddwd`, `vpdpbusd` or `amx`) and `cpu.epilogue = #cpu.epilogue<...>` (the group's
    post-op program, the steps its kernel runs before the `|`, those a pass after it runs
    after the `|`); the `cpu.epilogue` of each pooling, FakeQuantize and Convert group on its
    first op (a pooling's loop runs the whole program; the others are one loop: no `|`).
    The translation emits what they name: an edited value is honoured where the op can run
    it (`im2col` instead of `winograd`; `s16`/`u8s8` instead of `vnni`; `vpdpbusd` instead
    of `amx`; fewer steps in the GEMM or pooling kernel), and is an error naming the op
    otherwise; the epilogue's steps must be the program of the group's fused ops. The
    groups are checked first
    (`check_fusions`: a grouping edited after `cpu-fuse-kernels`). Also in TensorIterator/Loop
    bodies that become loops. Runs after `cpu-choose-layouts` (Winograd writes an NHWC
    output).
    """

    name = "cpu-select-kernels"

    winograd: bool = True
    """Whether Winograd is chosen where it applies (the compile option `winograd`)."""

    bf16: bool = False
    """Whether float32 GEMMs of constant weights take `#cpu<gemm bf16>` where the host has
    AVX512-BF16 (the compile option `bf16`)."""

    def run(self, ctx: Context, op: ModuleOp) -> None:
        compiler = _compiler(op)
        _, results = _graph(compiler)
        for o in compiler.function.body.walk():
            for name in (cpu.ALGORITHM, cpu.CELL_STEP, cpu.GEMM, cpu.INT8, cpu.EPILOGUE):
                _set(o, name, None)
        plan = compiler.read_plan(compiler.function.body.block, results, check=False)
        _select_kernels(compiler, plan, {"winograd": self.winograd, "bf16": self.bf16})


def _select_kernels(compiler: GraphAnalysis, plan: Plan, options: dict[str, bool]) -> None:
    """The kernels of the groups of a graph or body, each group checked first (an edited
    grouping: `check_fusions`)."""
    compiler.check_fusions(plan, loops=False)
    for group in plan.groups:
        first = group.ops[0]
        if isinstance(group.lowering, KernelChoosing):
            chosen_op, choices = group.lowering.kernel_choices(group.ops, compiler.cpu, options)
            for name, values in choices.items():
                chosen_op.attributes[name] = values[0]
        kernel = first.attributes.get(cpu.KERNEL)
        if (isinstance(first, SubGraphOp) and isinstance(kernel, cpu.KernelAttr)
                and kernel.kind.data == LOOP_KIND):
            body = compiler.read_plan(first.body_block, list(first.body_results()), check=False)
            _select_kernels(compiler, body, options)


class ChooseStoragePass(CpuPass):
    """
    Marks `cpu.bfloat16` the ops whose result the CPU device stores in bfloat16: the
    tensors that a `#cpu<gemm bf16>` convolution's epilogue writes and only such
    convolutions read, each of which rounds its input to bfloat16 anyway (`lowering/
    storage.py` has the rules): the same bits in half the bytes. Entry function only;
    after `cpu-select-kernels` (it reads their kernels), before `cpu-assign-buffers`
    (which gives these tensors half the bytes).
    """

    name = "cpu-choose-storage"

    def run(self, ctx: Context, op: ModuleOp) -> None:
        _mark_entry(op, cpu.BFLOAT16,
                    lambda plan: dict.fromkeys(choose_bfloat16(plan), UnitAttr()))


def _mark_entry(module: ModuleOp, name: str,
                marks: Callable[[Plan], Mapping[Operation, Attribute]]) -> None:
    """The attribute `name` on the entry function's ops that `marks` gives for its plan (the
    attribute taken off every other op first: the pass runs again on its own output)."""
    compiler = _compiler(module)
    _, results = _graph(compiler)
    for o in compiler.function.body.walk():
        _set(o, name, None)
    plan = compiler.read_plan(compiler.function.body.block, results, check=False)
    for o, value in marks(plan).items():
        _set(o, name, value)


@dataclass(frozen=True)
class InterleaveRowsPass(CpuPass):
    """
    Marks `cpu.row_bands = #cpu.row_bands<rows R, groups A to B>` the depthwise convolutions
    (group B) that run together with the convolution before them (group A), band by
    band of R output rows, so that the tensor between them (1.6-4.8 MB in MobileNetV2 at
    224x224) is read while it is in L2 (`lowering/bands.py` has the rules). Entry function
    only; after `cpu-select-kernels` and `cpu-choose-storage` (it reads their kernels),
    before `cpu-assign-buffers` (a band's tensors live through all of it).
    """

    name = "cpu-interleave-rows"

    min_bytes: int = BAND_MIN_BYTES
    """The smallest tensor between the two convolutions that a band keeps in L2 (the option
    `min-bytes`: 0 bands tensors of any size, as the tests do)."""

    def run(self, ctx: Context, op: ModuleOp) -> None:
        _mark_entry(op, cpu.ROW_BANDS, lambda plan: choose_row_bands(plan, self.min_bytes))


@dataclass(frozen=True)
class AssignBuffersPass(CpuPass):
    """
    Gives each result of the groups its memory, `cpu.buffers = [#cpu.buffer<...>, ...]` (one
    per result): a graph output that a group computes goes to the request's output buffer
    (`#cpu.buffer<output PORT, SIZE>`), every other tensor used outside its group to a
    64-byte aligned place in the arena (`#cpu.buffer<arena OFFSET, SIZE>`, first fit by
    liveness in group order: tensors whose lifetimes do not overlap share bytes; a
    convolution whose kernel adds a residual tensor that dies in its group, all its post-op
    program in the kernel, writes its output in that tensor's bytes:
    `MemoryPlanner.in_place_residual`), values used
    only inside their group nowhere (`#cpu.buffer<none>`). The entry function gets
    `cpu.arena = #cpu.arena<BYTES>`, the arena bytes of the tensors; a "loop" body is placed
    the same way in the body's own memory, whose size is the loop op's `cpu.arena`.
    """

    name = "cpu-assign-buffers"

    def run(self, ctx: Context, op: ModuleOp) -> None:
        compiler = _compiler(op)
        _, results = _graph(compiler)
        for o in compiler.function.body.walk():
            _set(o, cpu.BUFFERS, None)
            if isinstance(o, SubGraphOp):
                _set(o, cpu.ARENA, None)
        plan = compiler.read_plan(compiler.function.body.block, results, check=False)
        locations, tensor_bytes = compiler.assign_buffers(plan)
        _write_buffers(compiler, plan, locations)
        compiler.function.attributes[cpu.ARENA] = cpu.ArenaAttr(tensor_bytes)


def _write_buffers(
    compiler: GraphAnalysis, plan: Plan, locations: dict[SSAValue, Location]
) -> None:
    """`cpu.buffers` of the groups of a graph or body; a TensorIterator/Loop group's body
    gets its own plan (offsets from the body's memory, `cpu.arena` on the op)."""
    for group in plan.groups:
        for member in group.ops:
            if not member.results:
                continue
            buffers = []
            for r in member.results:
                loc = locations.get(r)
                if loc is None:
                    buffers.append(cpu.BufferAttr("none"))
                elif loc.kind == "arena":
                    size = align(max(value_nbytes(r), 1))
                    buffers.append(cpu.BufferAttr("arena", loc.index, size))
                else:
                    buffers.append(cpu.BufferAttr(loc.kind, loc.index, value_nbytes(r)))
            member.attributes[cpu.BUFFERS] = ArrayAttr(buffers)
        first = group.ops[0]
        if isinstance(first, SubGraphOp) and cpu.KERNEL in first.attributes:
            kernel = first.attributes[cpu.KERNEL]
            if not (isinstance(kernel, cpu.KernelAttr) and kernel.kind.data == LOOP_KIND):
                continue
            body = compiler.read_plan(first.body_block, list(first.body_results()), check=False)
            params: dict[SSAValue, Location] = {
                p: Location("param", 0, value_shape(p), value_dtype(p))
                for p in first.body_block.args
            }
            body_locations, body_bytes = compiler.plan_arena(body, params, 0)
            _write_buffers(compiler, body, body_locations)
            first.attributes[cpu.ARENA] = cpu.ArenaAttr(align(body_bytes))


PASSES: tuple[type[CpuPass], ...] = (
    DecomposePass,
    FoldConstantsPass,
    RemoveViewsPass,
    QuantizeCellsPass,
    FuseKernelsPass,
    ChooseLayoutsPass,
    SelectKernelsPass,
    ChooseStoragePass,
    InterleaveRowsPass,
    AssignBuffersPass,
)
assert ",".join(p.name for p in PASSES) == CPU_PIPELINE


def run_pipeline(module: ModuleOp, options: dict[str, Any] | None = None) -> None:
    """Run `CPU_PIPELINE` on `module` (in place); `options`: the compile options
    (`winograd` and `bf16` go to `cpu-select-kernels`; `row_bands` false leaves out
    `cpu-interleave-rows`)."""
    ctx = Context()
    _compiler(module)  # (the shapes checked once for all the passes)
    token = _CHECKED_MODULE.set(module)
    winograd = bool((options or {}).get("winograd", True))
    bf16 = bool((options or {}).get("bf16", False))
    row_bands = bool((options or {}).get("row_bands", True))
    try:
        for cls in PASSES:
            if cls is InterleaveRowsPass and not row_bands:
                for o in module.walk():
                    _set(o, cpu.ROW_BANDS, None)
                continue
            (SelectKernelsPass(winograd, bf16) if cls is SelectKernelsPass else cls()
             ).run(ctx, module)  # (CompileError: the runtime's error, not a diagnostic)
    finally:
        _CHECKED_MODULE.reset(token)


def strip(module: ModuleOp) -> None:
    """Remove every attribute the pipeline wrote."""
    for o in module.walk():
        for name in _CPU_ATTRIBUTES:
            o.attributes.pop(name, None)
