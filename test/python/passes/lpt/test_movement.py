"""
The transformations that move an explicit dequantization (`ui8 -> convert -> [subtract] ->
multiply`) through one op (movement.py, split.py, transparent.py): the graph before and after
`lpt-<name>` in the reference interpreter on random u8 inputs. No new quantization happens, so
the results agree to float rounding (1e-5), except a precision-preserved AvgPool, which now
averages u8 values and rounds (half a quantization step: 0.5 * scale).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pytest

import lowpass
from lowpass.dialects.ov import element_type_of, f32, op_type_name, ui8
from lowpass.passes.lpt import run_lpt
from lowpass.passes.lpt.passes import pass_name

from .test_prerequisites import static_shape

IN = (1, 4, 4, 4)
PER_CHANNEL_ZP = np.array([128.0, 127.0, 126.0, 125.0], np.float32).reshape(1, 4, 1, 1)
PER_CHANNEL_S = np.array([0.01, 0.02, 0.03, 0.04], np.float32).reshape(1, 4, 1, 1)


def tensor(shape, et: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + et + ">"


def dense(values: np.ndarray | np.floating, et: str = "f32") -> str:
    v = np.asarray(values)
    if np.issubdtype(v.dtype, np.floating):
        v = np.vectorize(lambda z: float(str(np.float32(z))), otypes=[object])(v)
    body = str(v.tolist())
    return f"dense<{body}> : {tensor(v.shape, et)}"


@dataclass
class Case:
    transformation: str
    op: str
    """The op's lines: `%m` is the dequantized input, results `%y` (or `%y0, %y1`)."""
    outs: list[str]
    """The function result types."""
    sub: np.ndarray | None = None
    mul: np.ndarray | np.floating | None = field(default_factory=lambda: np.float32(0.02))
    moved: bool = True
    tol: float = 1e-5
    in_shape: tuple[int, ...] = IN
    extra: str = ""
    """Lines after the op (consumers of `%y`), returning `%z`."""

    def text(self) -> str:
        t_in = tensor(self.in_shape, "f32")
        lines = [
            f"    %c = ov.convert %x destination_type = f32 : ({tensor(self.in_shape, 'ui8')})"
            f" -> {t_in}"
        ]
        data = "%c"
        if self.sub is not None:
            lines.append(f"    %zp = ov.constant {dense(self.sub)}")
            lines.append(
                f"    %sb = ov.subtract %c, %zp : ({t_in}, {tensor(np.shape(self.sub), 'f32')})"
                f" -> {t_in}"
            )
            data = "%sb"
        if self.mul is None:  # a DQ without Multiply: the Subtract feeds the op
            lines[-1] = lines[-1].replace("%sb = ", "%m = ")
        else:
            lines.append(f"    %s = ov.constant {dense(self.mul)}")
            lines.append(
                f"    %m = ov.multiply {data}, %s : ({t_in}, {tensor(np.shape(self.mul), 'f32')})"
                f" -> {t_in}"
            )
        lines.append(self.op)
        if self.extra:
            lines.append(self.extra)
        results = ["%z"] if self.extra else (["%y"] if len(self.outs) == 1 else ["%y0", "%y1"])
        outs = ", ".join(f'{t} {{ov.name = "r{i}"}}' for i, t in enumerate(self.outs))
        return f"""builtin.module {{
  func.func @main(%x: {tensor(self.in_shape, "ui8")} {{ov.name = "x"}}) -> ({outs}) {{
{chr(10).join(lines)}
    func.return {", ".join(results)} : {", ".join(self.outs)}
  }}
}}
"""


T = tensor(IN, "f32")
POOL = "strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>"
POOL += ", kernel = array<i64: 2, 2>"
T_POOL = tensor((1, 4, 2, 2), "f32")
AVG_POOL = f"    %y = ov.avg_pool %m {{{POOL}, exclude_pad = true}} : ({T}) -> {T_POOL}"
MAX_POOL = f"    %y = ov.max_pool %m {{{POOL}}} : ({T}) -> {T_POOL}"
# a quantized Convolution after the AvgPool makes it precision preserved (markup 4.5)
CONV_AFTER = f"""    %w = ov.constant {dense(np.eye(4, dtype=np.int64).reshape(4, 4, 1, 1), "i8")}
    %wc = ov.convert %w destination_type = f32 : ({tensor((4, 4, 1, 1), "i8")}) -> \
{tensor((4, 4, 1, 1), "f32")}
    %ws = ov.constant dense<0.5> : tensor<f32>
    %wm = ov.multiply %wc, %ws : ({tensor((4, 4, 1, 1), "f32")}, tensor<f32>) -> \
{tensor((4, 4, 1, 1), "f32")}
    %z = ov.convolution %y, %wm {{strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, \
pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>}} : ({T_POOL}, \
{tensor((4, 4, 1, 1), "f32")}) -> {T_POOL}"""


def const_line(name: str, values: np.ndarray, et: str = "i64") -> str:
    return f"    %{name} = ov.constant {dense(np.asarray(values), et)}"


def unary(text: str, out_shape=IN) -> tuple[str, list[str]]:
    return f"    %y = {text} : ({T}) -> {tensor(out_shape, 'f32')}", [tensor(out_shape, "f32")]


def with_consts(
    consts: list[tuple[str, np.ndarray]], text: str, operand_types: str, out_shape, in_shape=IN
):
    lines = [const_line(n, v) for n, v in consts]
    t_in = tensor(in_shape, "f32")
    lines.append(f"    %y = {text} : ({t_in}, {operand_types}) -> {tensor(out_shape, 'f32')}")
    return "\n".join(lines), [tensor(out_shape, "f32")]


def i64(*shape: int) -> str:
    return tensor(shape, "i64")


CASES: dict[str, Case] = {}


def add(key: str, transformation: str, op_outs, **kw) -> None:
    op, outs = op_outs
    CASES[key] = Case(transformation, op, outs, **kw)


# ---- transparent.py ------------------------------------------------------------------------
add(
    "max_pool", "MaxPoolTransformation", (MAX_POOL, [T_POOL]), sub=PER_CHANNEL_ZP, mul=PER_CHANNEL_S
)
add(
    "max_pool_negative_scale",
    "MaxPoolTransformation",
    (MAX_POOL, [T_POOL]),
    mul=np.float32(-0.02),
    moved=False,
)
add("relu", "ReluTransformation", unary("ov.relu %m"), mul=PER_CHANNEL_S)
add(
    "relu_with_subtract",
    "ReluTransformation",
    unary("ov.relu %m"),
    sub=np.float32(128),
    moved=False,
)
add(
    "reshape",
    "ReshapeTransformation",
    with_consts(
        [("sh", np.array([1, 4, 16]))],
        "ov.reshape %m, %sh special_zero = false",
        i64(3),
        (1, 4, 16),
    ),
    sub=PER_CHANNEL_ZP,
    mul=PER_CHANNEL_S,
)
add(
    "transpose",
    "TransposeTransformation",
    with_consts([("o", np.array([0, 1, 3, 2]))], "ov.transpose %m, %o", i64(4), IN),
    sub=PER_CHANNEL_ZP,
    mul=PER_CHANNEL_S,
)
# a per-channel DQ whose channels agree is scalar-like (NetworkHelper::isScalarLike): it moves
# through a Reshape that mixes the channels and a Transpose that moves them, as upstream
EQUAL_ZP = np.full((1, 4, 1, 1), 128.0, np.float32)
EQUAL_S = np.full((1, 4, 1, 1), 0.02, np.float32)
add(
    "reshape_scalar_like_per_channel",
    "ReshapeTransformation",
    with_consts(
        [("sh", np.array([2, 32]))],
        "ov.reshape %m, %sh special_zero = false",
        i64(2),
        (2, 32),
    ),
    sub=EQUAL_ZP,
    mul=EQUAL_S,
)
add(
    "reshape_per_channel_mixed_refused",
    "ReshapeTransformation",
    with_consts(
        [("sh", np.array([2, 32]))],
        "ov.reshape %m, %sh special_zero = false",
        i64(2),
        (2, 32),
    ),
    sub=PER_CHANNEL_ZP,
    mul=PER_CHANNEL_S,
    moved=False,
)
add(
    "transpose_scalar_like_per_channel",
    "TransposeTransformation",
    with_consts([("o", np.array([0, 2, 1, 3]))], "ov.transpose %m, %o", i64(4), IN),
    sub=EQUAL_ZP,
    mul=EQUAL_S,
)
add(
    "transpose_per_channel_moving_channels_refused",
    "TransposeTransformation",
    with_consts([("o", np.array([0, 2, 1, 3]))], "ov.transpose %m, %o", i64(4), IN),
    sub=PER_CHANNEL_ZP,
    mul=PER_CHANNEL_S,
    moved=False,
)
add(
    "squeeze",
    "SqueezeTransformation",
    with_consts([("a", np.array([0]))], "ov.squeeze %m, %a", i64(1), (4, 4, 4)),
    sub=PER_CHANNEL_ZP,
    mul=PER_CHANNEL_S,
)
add(
    "squeeze_rank4_scalar",
    "SqueezeTransformation",
    with_consts([("a", np.array([0]))], "ov.squeeze %m, %a", i64(1), (4, 4, 4)),
    sub=np.full((1, 1, 1, 1), 128, np.float32),
    mul=np.full((1, 1, 1, 1), 0.02, np.float32),
)
add(
    "max_pool_subtract_only",
    "MaxPoolTransformation",
    (MAX_POOL, [T_POOL]),
    sub=np.float32(128),
    mul=None,
    moved=False,
)
add(
    "unsqueeze",
    "UnsqueezeTransformation",
    with_consts([("a", np.array([4]))], "ov.unsqueeze %m, %a", i64(1), (1, 4, 4, 4, 1)),
    sub=PER_CHANNEL_ZP,
    mul=PER_CHANNEL_S,
)

# ---- movement.py ---------------------------------------------------------------------------
add(
    "avg_pool", "AvgPoolTransformation", (AVG_POOL, [T_POOL]), sub=PER_CHANNEL_ZP, mul=PER_CHANNEL_S
)
add(
    "avg_pool_precision_preserved",
    "AvgPoolTransformation",
    (AVG_POOL, [T_POOL]),
    sub=np.float32(128),
    mul=np.float32(0.02),
    extra=CONV_AFTER,
    tol=0.5 * 0.02 * 0.5 + 1e-5,
)
add(
    "clamp",
    "ClampTransformation",
    unary("ov.clamp %m min = 0.0 max = 1.5"),
    sub=np.float32(128),
    mul=np.float32(0.02),
)
add(
    "clamp_negative_scale",
    "ClampTransformation",
    unary("ov.clamp %m min = -1.0 max = 0.5"),
    sub=np.float32(100),
    mul=np.float32(-0.02),
)
add(
    "clamp_per_channel",
    "ClampTransformation",
    unary("ov.clamp %m min = 0.0 max = 1.5"),
    mul=PER_CHANNEL_S,
    moved=False,
)
add(
    "batch_to_space",
    "BatchToSpaceTransformation",
    with_consts(
        [
            ("b", np.array([1, 1, 1, 1])),
            ("cb", np.array([0, 0, 0, 1])),
            ("ce", np.array([0, 0, 1, 0])),
        ],
        "ov.batch_to_space %m, %b, %cb, %ce",
        f"{i64(4)}, {i64(4)}, {i64(4)}",
        (1, 4, 3, 3),
    ),
    sub=np.float32(128),
)
add(
    "batch_to_space_subtract_only",
    "BatchToSpaceTransformation",
    with_consts(
        [
            ("b", np.array([1, 1, 2, 1])),
            ("cb", np.array([0, 0, 0, 0])),
            ("ce", np.array([0, 0, 0, 0])),
        ],
        "ov.batch_to_space %m, %b, %cb, %ce",
        f"{i64(4)}, {i64(4)}, {i64(4)}",
        (1, 4, 4, 4),
        in_shape=(2, 4, 2, 4),
    ),
    sub=np.float32(100),
    mul=None,
    in_shape=(2, 4, 2, 4),
)
add(
    "batch_to_space_per_channel",
    "BatchToSpaceTransformation",
    with_consts(
        [
            ("b", np.array([1, 1, 1, 1])),
            ("cb", np.array([0, 0, 0, 1])),
            ("ce", np.array([0, 0, 1, 0])),
        ],
        "ov.batch_to_space %m, %b, %cb, %ce",
        f"{i64(4)}, {i64(4)}, {i64(4)}",
        (1, 4, 3, 3),
    ),
    mul=PER_CHANNEL_S,
    moved=False,
)
add(
    "space_to_batch",
    "SpaceToBatchTransformation",
    with_consts(
        [
            ("b", np.array([1, 1, 2, 2])),
            ("pb", np.array([0, 0, 0, 2])),
            ("pe", np.array([0, 0, 0, 0])),
        ],
        "ov.space_to_batch %m, %b, %pb, %pe",
        f"{i64(4)}, {i64(4)}, {i64(4)}",
        (4, 4, 2, 3),
    ),
    mul=np.float32(0.03),
)
add(
    "space_to_batch_padded_zero_point",
    "SpaceToBatchTransformation",
    with_consts(
        [
            ("b", np.array([1, 1, 2, 2])),
            ("pb", np.array([0, 0, 0, 2])),
            ("pe", np.array([0, 0, 0, 0])),
        ],
        "ov.space_to_batch %m, %b, %pb, %pe",
        f"{i64(4)}, {i64(4)}, {i64(4)}",
        (4, 4, 2, 3),
    ),
    sub=np.float32(128),
    moved=False,
)
add(
    "depth_to_space",
    "DepthToSpaceTransformation",
    unary('ov.depth_to_space %m mode = blocks_first block_size = 2', (1, 1, 8, 8)),
    sub=np.full((1, 4, 1, 1), 128, np.float32),
    mul=np.float32(0.02),
)
add(
    "depth_to_space_per_channel",
    "DepthToSpaceTransformation",
    unary('ov.depth_to_space %m mode = depth_first block_size = 2', (1, 1, 8, 8)),
    mul=PER_CHANNEL_S,
    moved=False,
)
add(
    "shuffle_channels",
    "ShuffleChannelsTransformation",
    unary("ov.shuffle_channels %m axis = 1 group = 2"),
    sub=PER_CHANNEL_ZP,
    mul=PER_CHANNEL_S,
)
add(
    "gather_channels",
    "GatherTransformation",
    with_consts(
        [("i", np.array([3, 0, -1])), ("a", np.array(1))],
        "ov.gather %m, %i, %a",
        f"{i64(3)}, {i64()}",
        (1, 3, 4, 4),
    ),
    sub=PER_CHANNEL_ZP,
    mul=PER_CHANNEL_S,
)
add(
    "gather_spatial_2d_indices",
    "GatherTransformation",
    with_consts(
        [("i", np.array([[0, 1], [3, 3]])), ("a", np.array(3))],
        "ov.gather %m, %i, %a",
        f"{i64(2, 2)}, {i64()}",
        (1, 4, 4, 2, 2),
    ),
    sub=PER_CHANNEL_ZP,
    mul=PER_CHANNEL_S,
)
add(
    "gather_channels_2d_indices",
    "GatherTransformation",
    with_consts(
        [("i", np.array([[0, 1]])), ("a", np.array(1))],
        "ov.gather %m, %i, %a",
        f"{i64(1, 2)}, {i64()}",
        (1, 1, 2, 4, 4),
    ),
    mul=PER_CHANNEL_S,
    moved=False,
)
add(
    "strided_slice",
    "StridedSliceTransformation",
    with_consts(
        [
            ("b", np.array([0, 1, 0, 0])),
            ("e", np.array([1, 4, 4, 3])),
            ("st", np.array([1, 2, 1, 1])),
        ],
        "ov.strided_slice %m, %b, %e, %st",
        f"{i64(4)}, {i64(4)}, {i64(4)}",
        (1, 2, 4, 3),
    ),
    sub=PER_CHANNEL_ZP,
    mul=PER_CHANNEL_S,
)
add(
    "strided_slice_shrink",
    "StridedSliceTransformation",
    with_consts(
        [("b", np.array([0, 2])), ("e", np.array([1, 3]))],
        "ov.strided_slice %m, %b, %e {shrink_axis_mask = array<i64: 0, 1>}",
        f"{i64(2)}, {i64(2)}",
        (1, 4, 4),
    ),
    sub=PER_CHANNEL_ZP,
    mul=PER_CHANNEL_S,
)
add(
    "interpolate",
    "InterpolateTransformation",
    with_consts(
        [("sz", np.array([8, 6])), ("ax", np.array([2, 3]))],
        "ov.interpolate %m, %sz, %ax {mode = #ov<interpolate_mode nearest>, "
        "shape_calculation_mode = #ov<shape_calculation_mode sizes>}",
        f"{i64(2)}, {i64(2)}",
        (1, 4, 8, 6),
    ),
    sub=PER_CHANNEL_ZP,
    mul=PER_CHANNEL_S,
)
add(
    "interpolate_linear",
    "InterpolateTransformation",
    with_consts(
        [("sz", np.array([8, 6])), ("ax", np.array([2, 3]))],
        "ov.interpolate %m, %sz, %ax {mode = #ov<interpolate_mode linear>, "
        "shape_calculation_mode = #ov<shape_calculation_mode sizes>}",
        f"{i64(2)}, {i64(2)}",
        (1, 4, 8, 6),
    ),
    mul=np.float32(0.02),
    moved=False,
)
add(
    "reduce_max",
    "ReduceMaxTransformation",
    with_consts([("a", np.array([2, 3]))], "ov.reduce_max %m, %a", i64(2), (1, 4)),
    sub=PER_CHANNEL_ZP,
    mul=PER_CHANNEL_S,
)
add(
    "reduce_max_keep_dims",
    "ReduceMaxTransformation",
    with_consts(
        [("a", np.array([-1]))], "ov.reduce_max %m, %a keep_dims = true", i64(1), (1, 4, 4, 1)
    ),
    sub=PER_CHANNEL_ZP,
    mul=PER_CHANNEL_S,
)
add(
    "reduce_max_over_channels",
    "ReduceMaxTransformation",
    with_consts([("a", np.array([1]))], "ov.reduce_max %m, %a", i64(1), (1, 4, 4)),
    mul=PER_CHANNEL_S,
    moved=False,
)
add(
    "reduce_max_negative_scale",
    "ReduceMaxTransformation",
    with_consts([("a", np.array([2, 3]))], "ov.reduce_max %m, %a", i64(2), (1, 4)),
    mul=np.float32(-0.02),
    moved=False,
)
add(
    "reduce_min",
    "ReduceMinTransformation",
    with_consts([("a", np.array([0, 2]))], "ov.reduce_min %m, %a", i64(2), (4, 4)),
    sub=PER_CHANNEL_ZP,
    mul=PER_CHANNEL_S,
)

# ---- split.py ------------------------------------------------------------------------------
T_HALF = tensor((1, 2, 4, 4), "f32")
add(
    "split_channels",
    "SplitTransformation",
    (
        f"{const_line('a', np.array(1))}\n    %y0, %y1 = ov.split %m, %a num_splits = 2 : "
        f"({T}, {i64()}) -> ({T_HALF}, {T_HALF})",
        [T_HALF, T_HALF],
    ),
    sub=PER_CHANNEL_ZP,
    mul=PER_CHANNEL_S,
)
add(
    "split_spatial",
    "SplitTransformation",
    (
        f"{const_line('a', np.array(-1))}\n    %y0, %y1 = ov.split %m, %a num_splits = 2 : "
        f"({T}, {i64()}) -> ({tensor((1, 4, 4, 2), 'f32')}, {tensor((1, 4, 4, 2), 'f32')})",
        [tensor((1, 4, 4, 2), "f32")] * 2,
    ),
    sub=PER_CHANNEL_ZP,
    mul=PER_CHANNEL_S,
)
add(
    "variadic_split",
    "VariadicSplitTransformation",
    (
        f"{const_line('a', np.array(1))}\n{const_line('l', np.array([1, -1]))}\n"
        f"    %y0, %y1 = ov.variadic_split %m, %a, %l : ({T}, {i64()}, {i64(2)}) -> "
        f"({tensor((1, 1, 4, 4), 'f32')}, {tensor((1, 3, 4, 4), 'f32')})",
        [tensor((1, 1, 4, 4), "f32"), tensor((1, 3, 4, 4), "f32")],
    ),
    sub=np.float32(128),
    mul=PER_CHANNEL_S,
)


def run_transformation(text: str, transformation: str):
    module = lowpass.read_module(text)
    run_lpt(module, steps=("markup", "main"), main=(transformation,))
    lowpass.verify_module(module)
    return module


def target_op(module, transformation: str):
    """The op the transformation is about (by its OpenVINO type name)."""
    want = transformation.removesuffix("Transformation").lower()
    for op in module.walk():
        if op_type_name(op).lower() == want:
            return op
    raise AssertionError(f"no {want} op in the module")


def test_pass_names_exist():
    from lowpass.passes.lpt.passes import single_transformation_passes

    names = single_transformation_passes()
    for case in CASES.values():
        assert pass_name(case.transformation) in names


@pytest.mark.parametrize("key", sorted(CASES))
def test_equivalence(key: str):
    case = CASES[key]
    text = case.text()
    original = lowpass.read_module(text)
    module = run_transformation(text, case.transformation)
    op = target_op(module, case.transformation)
    expected_in = ui8 if case.moved else f32
    assert element_type_of(op.operands[0]) == expected_in
    core = lowpass.Core()
    a = core.compile_model(lowpass.Model(original), "REFERENCE")
    b = core.compile_model(lowpass.Model(module), "REFERENCE")
    rng = np.random.default_rng(0)
    for _ in range(4):
        inputs = {
            p.get_any_name(): rng.integers(0, 256, static_shape(p.shape)).astype(np.uint8)
            for p in a.inputs
        }
        ra, rb = a(inputs), b(inputs)
        for x, y in zip(ra.values(), rb.values(), strict=True):
            assert x.shape == y.shape
            np.testing.assert_allclose(y, x, rtol=0, atol=case.tol)
