"""
A generator of valid random `ov` graphs (MLIR text) for the CPU vs REFERENCE differential check.

Kinds:
- `float`: convolutions (+ bias, activation), max/avg pooling, elementwise ops with broadcast
  constants, then a flatten Reshape, MatMul, Transpose and Concat;
- `quant`: the same shapes with FakeQuantize on activations (levels 256) and weights (levels
  255), run through `--lpt` first (u8 x i8 kernels on CPU);
- `state`: an `ov.variable` with read_value / assign around an elementwise step;
- `ti`: a TensorIterator (sliced input, merged state) run through `--low-latency2`.

Every graph is small (compile time dominates) and built from `random.Random(seed)` only, so a
seed names a graph.
"""

from __future__ import annotations

import random
import struct
from dataclasses import dataclass, field

KINDS = ("float", "quant", "state", "ti")
PIPELINES = {"float": [], "quant": ["--lpt"], "state": [], "ti": ["--low-latency2"]}


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
        ins: list[tuple[int, ...]],
        out: tuple[int, ...],
        operands: str,
        attrs: str = "",
        props: str = "",
    ) -> str:
        v = self.name("%v")
        types = ", ".join(_t(s) if isinstance(s, tuple) else s for s in ins)
        attr = f'{{ov.name = "{name}"{", " + attrs if attrs else ""}}}'
        self.lines.append(
            f"    {v} = {text} {operands}{' ' + props if props else ''} {attr} : "
            f"({types}) -> {_t(out)}"
        )
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
    if kind in ("float", "quant"):
        shape = (1, rnd.choice([1, 2, 3]), rnd.choice([4, 6, 8]), rnd.choice([4, 5, 8]))
        x = "%data"
        if kind == "quant":
            x = _fq(g, x, shape, 0.0, 4.0)
        x, out = _image_chain(g, x, shape, kind == "quant")
        x, out = _tail(g, x, out, kind == "quant")
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
