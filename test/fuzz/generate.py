"""
A generator of valid random `ov` graphs (MLIR text) for the CPU vs REFERENCE differential check.

Kinds:
- `float`: convolutions (+ bias, activation), max/avg pooling, elementwise ops with broadcast
  constants, then a flatten Reshape, MatMul, Transpose and Concat;
- `quant`: the same shapes with FakeQuantize on activations (levels 256) and weights (levels
  255), run through `--lpt` first (u8 x i8 kernels on CPU);
- `state`: an `ov.variable` with read_value / assign around an elementwise step;
- `ti`: a TensorIterator (sliced input, merged state) run through `--low-latency2`;
- `mixed`: reference-fallback groups (CumSum: no kernel) among native ones, and Convolutions
  of a FakeQuantize's u8 result by float weights (once without a lowering, `ref_U8`; now the
  codes converted to float by `cpu-decompose`) between native convolutions, per-channel
  FakeQuantize (BatchNorm-folded limits) and MaxPool;
- `qdq`: convolutions whose weights are a per-tensor u8-style FakeQuantize (asymmetric
  limits: a zero point) on activations with zero points and per-channel limits after a
  BatchNorm (Multiply, Add by per-channel constants), run through `--lpt`.

Every graph is small (compile time dominates) and built from `random.Random(seed)` only, so a
seed names a graph.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Sequence
from dataclasses import dataclass, field

KINDS = ("float", "quant", "state", "ti", "mixed", "qdq")
PIPELINES = {"float": [], "quant": ["--lpt"], "state": [], "ti": ["--low-latency2"],
             "mixed": [], "qdq": ["--lpt"]}


def _t(shape: tuple[int, ...], et: str = "f32") -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + et + ">"


def _hex(values: list[float]) -> str:
    return '"0x' + struct.pack(f"<{len(values)}f", *values).hex().upper() + '"'


@dataclass
class _Graph:
    rnd: random.Random
    lines: list[str] = field(default_factory=list)
    counter: int = 0

    def name(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def const(self, shape: tuple[int, ...], scale: float = 0.5, et: str = "f32") -> str:
        v = self.name("%c")
        n = 1
        for d in shape:
            n *= d
        if et == "i64":
            raise ValueError("use ints()")
        values = [round(self.rnd.gauss(0.0, scale), 4) for _ in range(n)]
        body = _hex(values) if n > 1 else f"{values[0]}"
        self.lines.append(f"    {v} = ov.constant dense<{body}> : {_t(shape, et)}")
        return v

    def ints(self, values: list[int]) -> str:
        v = self.name("%i")
        self.lines.append(f"    {v} = ov.constant dense<{values}> : {_t((len(values),), 'i64')}")
        return v

    def op(
        self,
        text: str,
        name: str,
        ins: Sequence[tuple[int, ...] | str],
        out: tuple[int, ...],
        operands: str,
        attrs: str = "",
        props: str = "",
        out_et: str = "f32",
    ) -> str:
        v = self.name("%v")
        types = ", ".join(_t(s) if isinstance(s, tuple) else s for s in ins)
        attr = f'{{ov.name = "{name}"{", " + attrs if attrs else ""}}}'
        self.lines.append(
            f"    {v} = {text} {operands}{' ' + props if props else ''} {attr} : "
            f"({types}) -> {_t(out, out_et)}"
        )
        return v

    def scalar(self, value: float) -> str:
        v = self.name("%c")
        self.lines.append(f"    {v} = ov.constant dense<{value}> : tensor<f32>")
        return v


def _fq(g: _Graph, x: str, shape: tuple[int, ...], lo: float, hi: float, levels: int = 256) -> str:
    lo_c, hi_c = g.const(()), g.const(())
    # constants of exact values (the random ones above are replaced)
    g.lines[-2] = f"    {lo_c} = ov.constant dense<{lo}> : tensor<f32>"
    g.lines[-1] = f"    {hi_c} = ov.constant dense<{hi}> : tensor<f32>"
    s = "tensor<f32>"
    return g.op(
        "ov.fake_quantize",
        g.name("fq"),
        [shape, s, s, s, s],
        shape,
        f"{x}, {lo_c}, {hi_c}, {lo_c}, {hi_c}",
        props=f"levels = {levels}",
    )


def _fq_typed(g: _Graph, x: str, shape: tuple[int, ...], limits: list[str],
              et: str = "f32") -> str:
    """A FakeQuantize (levels 256) with the given limit constants, of element type `et`."""
    types = [shape, *(_const_type(g, c) for c in limits)]
    return g.op("ov.fake_quantize", g.name("fq"), types, shape, ", ".join([x, *limits]),
                props="levels = 256", out_et=et)


def _const_type(g: _Graph, value: str) -> str:
    line = next(line for line in g.lines if line.startswith(f"    {value} = "))
    return line.rsplit(" : ", 1)[1]


def _per_channel_limits(g: _Graph, c: int) -> list[str]:
    """Per-channel input limits (as a BatchNorm folded into them gives), scalar output ones."""
    rnd = g.rnd
    lows = [round(rnd.uniform(-4.0, 0.0), 3) for _ in range(c)]
    highs = [lo + round(rnd.uniform(1.0, 6.0), 3) for lo in lows]
    il, ih = g.const((1, c, 1, 1)), g.const((1, c, 1, 1))
    g.lines[-2] = f"    {il} = ov.constant dense<{_hex(lows)}> : {_t((1, c, 1, 1))}"
    g.lines[-1] = f"    {ih} = ov.constant dense<{_hex(highs)}> : {_t((1, c, 1, 1))}"
    lo = round(rnd.uniform(-3.0, 0.0), 3)
    return [il, ih, g.scalar(lo), g.scalar(lo + round(rnd.uniform(1.0, 6.0), 3))]


def _conv_op(g: _Graph, x: str, x_type: str, shape: tuple[int, ...], weights: str,
             oc: int, k: int, pad: int) -> tuple[str, tuple[int, ...]]:
    n, c, h, w = shape
    out = (n, oc, h + 2 * pad - k + 1, w + 2 * pad - k + 1)
    y = g.op(
        "ov.convolution", g.name("conv"), [x_type, (oc, c, k, k)], out, f"{x}, {weights}",
        f"strides = array<i64: 1, 1>, pads_begin = array<i64: {pad}, {pad}>, "
        f"pads_end = array<i64: {pad}, {pad}>, dilations = array<i64: 1, 1>",
    )
    return y, out


def _mixed_chain(g: _Graph, x: str, shape: tuple[int, ...]) -> tuple[str, tuple[int, ...]]:
    """2-5 steps, at least one of them a Convolution of u8 data by float weights (once a
    reference fallback, now converted codes: `cpu-decompose`) or a CumSum (a fallback); the
    others native convolutions, FakeQuantize, MaxPool."""
    rnd = g.rnd
    steps = rnd.randint(2, 5)
    forced = rnd.randrange(steps)
    for step in range(steps):
        n, c, h, w = shape
        choice = rnd.choice(["fallback-conv", "cumsum"]) if step == forced else rnd.choice(
            ["conv", "conv", "fallback-conv", "cumsum", "pool", "fq"])
        if choice in ("conv", "fallback-conv"):
            k, oc = rnd.choice([1, 3]), rnd.choice([2, 4, 8])
            x_type = _t(shape)
            if choice == "fallback-conv":  # the u8 codes read directly (no Convert)
                limits = [g.scalar(-2.0), g.scalar(4.0), g.scalar(0.0), g.scalar(255.0)]
                x = _fq_typed(g, x, shape, limits, "ui8")
                x_type = _t(shape, "ui8")
            wt = g.const((oc, c, k, k), 0.3 if choice == "conv" else 0.01)
            x, shape = _conv_op(g, x, x_type, shape, wt, oc, k, k // 2)
            if rnd.random() < 0.5:
                x = g.op("ov.relu", g.name("act"), [shape], shape, x)
            if rnd.random() < 0.7:
                x = _fq_typed(g, x, shape, _per_channel_limits(g, oc))
        elif choice == "cumsum":
            axis = g.name("%i")
            g.lines.append(f"    {axis} = ov.constant dense<1> : tensor<i64>")
            x = g.op("ov.cumsum", g.name("cumsum"), [shape, "tensor<i64>"], shape, f"{x}, {axis}")
        elif choice == "pool" and h >= 2 and w >= 2:
            out = (n, c, h // 2, w // 2)
            x = g.op("ov.max_pool", g.name("pool"), [shape], out, x,
                     "strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, "
                     "pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>")
            shape = out
        else:
            x = _fq_typed(g, x, shape, _per_channel_limits(g, c))
    return x, shape


def _qdq_chain(g: _Graph, x: str, shape: tuple[int, ...]) -> tuple[str, tuple[int, ...]]:
    """2-4 quantized convolutions as an ONNX QDQ model gives them after the frontend: the
    activations' FakeQuantize with a zero point, per-channel limits after a BatchNorm
    (per-channel Multiply and Add), weights behind a per-tensor FakeQuantize with
    asymmetric limits (u8 with a zero point) or symmetric ones (i8)."""
    rnd = g.rnd
    for _ in range(rnd.randint(2, 4)):
        c = shape[1]
        if rnd.random() < 0.5:  # a BatchNorm before the quantization: per-channel limits
            scale, shift = g.const((1, c, 1, 1), 0.5), g.const((1, c, 1, 1), 0.5)
            x = g.op("ov.multiply", g.name("bn_mul"), [shape, (1, c, 1, 1)], shape, f"{x}, {scale}")
            x = g.op("ov.add", g.name("bn_add"), [shape, (1, c, 1, 1)], shape, f"{x}, {shift}")
            x = _fq_typed(g, x, shape, _per_channel_limits(g, c))
        else:  # a zero point: lo / (hi - lo) * 255 away from an integer
            lo = -round(rnd.uniform(0.5, 3.0), 3)
            hi = round(rnd.uniform(0.5, 4.0), 3)
            x = _fq_typed(g, x, shape, [g.scalar(lo), g.scalar(hi), g.scalar(lo), g.scalar(hi)])
        k, oc = rnd.choice([1, 1, 3]), rnd.choice([2, 4, 8])
        wt = g.const((oc, c, k, k), 0.3)
        if rnd.random() < 0.7:  # u8 per tensor with a zero point
            wl, wh = -round(rnd.uniform(0.2, 0.8), 3), round(rnd.uniform(0.2, 0.8), 3)
        else:
            wh = round(rnd.uniform(0.2, 0.8), 3)
            wl = -wh
        limits = [g.scalar(wl), g.scalar(wh), g.scalar(wl), g.scalar(wh)]
        wt = _fq_typed(g, wt, (oc, c, k, k), limits)
        x, shape = _conv_op(g, x, _t(shape), shape, wt, oc, k, k // 2)
        bias = g.const((1, oc, 1, 1), 0.2)
        x = g.op("ov.add", g.name("bias"), [shape, (1, oc, 1, 1)], shape, f"{x}, {bias}")
        if rnd.random() < 0.5:
            x = g.op("ov.relu", g.name("act"), [shape], shape, x)
    return x, shape


def _image_chain(
    g: _Graph, x: str, shape: tuple[int, ...], quant: bool
) -> tuple[str, tuple[int, ...]]:
    rnd = g.rnd
    for _ in range(rnd.randint(1, 3)):
        n, c, h, w = shape
        choice = rnd.random()
        if choice < 0.45:
            k = rnd.choice([1, 3])
            oc = rnd.choice([2, 4, 8])
            stride = rnd.choice([1, 1, 2])
            pad = k // 2 if rnd.random() < 0.7 else 0
            oh, ow = (h + 2 * pad - k) // stride + 1, (w + 2 * pad - k) // stride + 1
            if oh < 1 or ow < 1:
                continue
            wt = g.const((oc, c, k, k), 0.3)
            if quant:
                wt = _fq(g, wt, (oc, c, k, k), -1.0, 1.0, 255)
            out = (n, oc, oh, ow)
            x = g.op(
                "ov.convolution",
                g.name("conv"),
                [shape, (oc, c, k, k)],
                out,
                f"{x}, {wt}",
                f"strides = array<i64: {stride}, {stride}>, pads_begin = array<i64: {pad}, {pad}>, "
                f"pads_end = array<i64: {pad}, {pad}>, dilations = array<i64: 1, 1>",
            )
            shape = out
            bias = g.const((1, oc, 1, 1), 0.2)
            x = g.op("ov.add", g.name("bias"), [shape, (1, oc, 1, 1)], shape, f"{x}, {bias}")
            act = rnd.choice(["ov.relu", "ov.sigmoid", "ov.tanh", None])
            if act:
                x = g.op(act, g.name("act"), [shape], shape, x)
            if quant:
                x = _fq(g, x, shape, 0.0 if act == "ov.relu" else -2.0, 4.0)
        elif choice < 0.7 and h >= 2 and w >= 2:
            k = 2
            out = (n, c, h // 2, w // 2)
            kind = rnd.choice(["ov.max_pool", "ov.avg_pool"])
            extra = ", exclude_pad = false" if kind == "ov.avg_pool" else ""
            x = g.op(
                kind,
                g.name("pool"),
                [shape],
                out,
                x,
                f"strides = array<i64: {k}, {k}>, pads_begin = array<i64: 0, 0>, "
                f"pads_end = array<i64: 0, 0>, kernel = array<i64: {k}, {k}>{extra}",
            )
            shape = out
        else:
            other_shape = rnd.choice([shape, (1, c, 1, 1), (1, 1, 1, w), ()])
            other = g.const(other_shape, 1.0)
            op = rnd.choice(["ov.add", "ov.multiply", "ov.subtract"])
            x = g.op(op, g.name("elt"), [shape, other_shape], shape, f"{x}, {other}")
    return x, shape


def _tail(g: _Graph, x: str, shape: tuple[int, ...], quant: bool) -> tuple[str, tuple[int, ...]]:
    rnd = g.rnd
    n = 1
    for d in shape[1:]:
        n *= d
    flat = (shape[0], n)
    s = g.ints([shape[0], -1])
    x = g.op(
        "ov.reshape",
        g.name("flatten"),
        [shape, "tensor<2xi64>"],
        flat,
        f"{x}, {s}",
        props="special_zero = false",
    )
    shape = flat
    if rnd.random() < 0.8:
        m = rnd.choice([3, 5, 8])
        wt = g.const((n, m), 0.2)
        if quant:
            wt = _fq(g, wt, (n, m), -1.0, 1.0, 255)
        out = (shape[0], m)
        x = g.op("ov.mat_mul", g.name("fc"), [shape, (n, m)], out, f"{x}, {wt}")
        shape = out
    choice = rnd.random()
    if choice < 0.3:
        order = g.ints([1, 0])
        out = (shape[1], shape[0])
        x = g.op("ov.transpose", g.name("tr"), [shape, "tensor<2xi64>"], out, f"{x}, {order}")
        shape = out
    elif choice < 0.6:
        other = g.const(shape, 1.0)
        out = (shape[0], shape[1] * 2)
        x = g.op("ov.concat", g.name("cat"), [shape, shape], out, f"{x}, {other}", props="axis = 1")
        shape = out
    if rnd.random() < 0.4:
        x = g.op("ov.softmax", g.name("prob"), [shape], shape, x, "axis = 1")
    return x, shape


def generate(seed: int, kind: str | None = None) -> tuple[str, str, list[str]]:
    """(kind, MLIR text, opt-tool pass flags run before the comparison) for `seed`."""
    rnd = random.Random(seed)
    kind = kind or rnd.choice(KINDS)
    g = _Graph(rnd)
    if kind in ("float", "quant", "mixed", "qdq"):
        shape = (1, rnd.choice([1, 2, 3]), rnd.choice([4, 6, 8]), rnd.choice([4, 5, 8]))
        x = "%data"
        if kind == "quant":
            x = _fq(g, x, shape, 0.0, 4.0)
        if kind == "mixed":
            x, out = _mixed_chain(g, x, shape)
        elif kind == "qdq":
            x, out = _qdq_chain(g, x, shape)
        else:
            x, out = _image_chain(g, x, shape, kind == "quant")
        x, out = _tail(g, x, out, kind in ("quant", "qdq"))
        head = (
            f'  func.func @main(%data: {_t(shape)} {{ov.name = "data"}})'
            f' -> ({_t(out)} {{ov.name = "out"}}) {{'
        )
        text = "builtin.module {\n" + head + "\n" + "\n".join(g.lines)
        text += f"\n    func.return {x} : {_t(out)}\n  }}\n}}\n"
        return kind, text, PIPELINES[kind]
    if kind == "state":
        width = rnd.choice([1, 4, 8, 16])
        shape = (1, width)
        a = "%a"
        w = g.const(shape, 0.5)
        y = g.op(rnd.choice(["ov.add", "ov.multiply"]), "step", [shape, shape], shape, f"{a}, %x")
        y = g.op("ov.add", "shift", [shape, shape], shape, f"{y}, {w}")
        y = g.op(rnd.choice(["ov.tanh", "ov.sigmoid", "ov.relu"]), "act", [shape], shape, y)
        text = (
            "builtin.module {\n"
            f'  ov.variable @"acc" : {_t(shape)}\n'
            f'  func.func @main(%x: {_t(shape)} {{ov.name = "x"}})'
            f' -> ({_t(shape)} {{ov.name = "y"}}) {{\n'
            f'    %a = ov.read_value @"acc" {{ov.name = "read"}} : {_t(shape)}\n'
            + "\n".join(g.lines)
            + f'\n    ov.assign @"acc", {y} {{ov.name = "write"}} : {_t(shape)}\n'
            f"    func.return {y} : {_t(shape)}\n  }}\n}}\n"
        )
        return kind, text, PIPELINES[kind]
    # ti: a TensorIterator whose body is h' = tanh(x_t W + h R + b), sliced over axis 1
    steps, xin, hid = rnd.choice([1, 2, 3]), rnd.choice([2, 3]), rnd.choice([2, 4])
    g.lines = []
    w = g.const((xin, hid), 0.5)
    r = g.const((hid, hid), 0.5)
    b = g.const((1, hid), 0.5)
    axis = g.ints([1])
    consts = "\n".join("  " + line for line in g.lines)
    body = (
        f"    %xs = ov.squeeze %xt, {axis} : ({_t((1, 1, xin))}, tensor<1xi64>) -> {_t((1, xin))}\n"
        f"    %xw = ov.mat_mul %xs, {w} : ({_t((1, xin))}, {_t((xin, hid))}) -> {_t((1, hid))}\n"
        f"    %hr = ov.mat_mul %ht, {r} : ({_t((1, hid))}, {_t((hid, hid))}) -> {_t((1, hid))}\n"
        f"    %s1 = ov.add %xw, %hr : ({_t((1, hid))}, {_t((1, hid))}) -> {_t((1, hid))}\n"
        f"    %s2 = ov.add %s1, {b} : ({_t((1, hid))}, {_t((1, hid))}) -> {_t((1, hid))}\n"
        f"    %h = ov.tanh %s2 : ({_t((1, hid))}) -> {_t((1, hid))}\n"
        f"    ov.yield %h : {_t((1, hid))}\n"
    )
    text = (
        "builtin.module {\n"
        f'  func.func @main(%x: {_t((1, steps, xin))} {{ov.name = "x"}}, '
        f'%h0: {_t((1, hid))} {{ov.name = "h0"}}) -> ({_t((1, hid))} {{ov.name = "h"}}) {{\n'
        f'    %0 = ov.tensor_iterator(%x, %h0) attributes {{ov.name = "ti",\n'
        "        input_descriptions = [#ov.slice<input = 0, param = 0, axis = 1>,\n"
        "                              #ov.merged<input = 1, param = 1, result = 0>],\n"
        "        output_descriptions = [#ov.body_output<result = 0, output = 0>],\n"
        '        parameter_names = ["X_t", "H_t"]}\n'
        f"        : ({_t((1, steps, xin))}, {_t((1, hid))}) -> {_t((1, hid))} {{\n"
        f"    ^bb0(%xt: {_t((1, 1, xin))}, %ht: {_t((1, hid))}):\n"
        f"{consts}\n{body}"
        "    }\n"
        f"    func.return %0 : {_t((1, hid))}\n  }}\n}}\n"
    )
    return kind, text, PIPELINES[kind]


def onnx_models(seed: int, count: int = 4) -> list[bytes]:
    """Small valid ONNX models (Conv/Relu/MaxPool/Flatten/Gemm, MatMul/Add/Transpose/Concat,
    Reshape/Softmax, QuantizeLinear/DequantizeLinear around a Conv): seeds for the ONNX
    mutator. Needs the `onnx` package."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(seed)

    def init(name: str, shape: tuple[int, ...]) -> onnx.TensorProto:
        return numpy_helper.from_array(rng.standard_normal(shape).astype(np.float32), name)

    def model(nodes: list, inits: list, x: tuple[int, ...], y: tuple[int, ...]) -> bytes:
        graph = helper.make_graph(
            nodes,
            "g",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x))],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(y))],
            inits,
        )
        m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        m.ir_version = 8
        onnx.checker.check_model(m)
        return m.SerializeToString()

    models = [
        model(
            [
                helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1], name="conv"),
                helper.make_node("Relu", ["c"], ["r"], name="relu"),
                helper.make_node("MaxPool", ["r"], ["p"], kernel_shape=[2, 2], strides=[2, 2]),
                helper.make_node("Flatten", ["p"], ["f"], axis=1),
                helper.make_node("Gemm", ["f", "fw", "fb"], ["y"], transB=1, name="fc"),
            ],
            [init("w", (4, 3, 3, 3)), init("b", (4,)), init("fw", (5, 16)), init("fb", (5,))],
            (1, 3, 4, 4),
            (1, 5),
        ),
        model(
            [
                helper.make_node("MatMul", ["x", "m"], ["a"], name="mm"),
                helper.make_node("Add", ["a", "bias"], ["s"], name="add"),
                helper.make_node("Transpose", ["s"], ["t"], perm=[1, 0]),
                helper.make_node("Concat", ["t", "t"], ["y"], axis=0),
            ],
            [init("m", (6, 3)), init("bias", (3,))],
            (2, 6),
            (6, 2),
        ),
        model(
            [
                helper.make_node("Reshape", ["x", "shape"], ["r"]),
                helper.make_node("Sigmoid", ["r"], ["s"]),
                helper.make_node("Softmax", ["s"], ["y"], axis=-1),
            ],
            [numpy_helper.from_array(np.array([2, 3], np.int64), "shape")],
            (1, 2, 3),
            (2, 3),
        ),
    ]
    scale = numpy_helper.from_array(np.array(0.05, np.float32), "scale")
    zero = numpy_helper.from_array(np.array(0, np.uint8), "zero")
    wq = numpy_helper.from_array(np.asarray(rng.integers(-20, 21, (2, 1, 3, 3)), np.int8), "wq")
    wscale = numpy_helper.from_array(np.array(0.02, np.float32), "wscale")
    wzero = numpy_helper.from_array(np.array(0, np.int8), "wzero")
    models.append(
        model(
            [
                helper.make_node("QuantizeLinear", ["x", "scale", "zero"], ["q"]),
                helper.make_node("DequantizeLinear", ["q", "scale", "zero"], ["dq"]),
                helper.make_node("DequantizeLinear", ["wq", "wscale", "wzero"], ["w"]),
                helper.make_node("Conv", ["dq", "w"], ["y"], name="qconv"),
            ],
            [scale, zero, wq, wscale, wzero],
            (1, 1, 5, 5),
            (1, 2, 3, 3),
        )
    )
    return models[:count]
