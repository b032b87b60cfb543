"""
The model suite (docs/models.md): real architectures as ONNX models built by this script with
seeded weights, and silero-vad as its pip package ships it; no model file is committed.

- `light`: the onnx package's architectures (onnx/backend/test/data/light/*.onnx) with each
  ConstantOfShape weight node replaced by a seeded random initializer (He init for
  Conv/Gemm weights, BatchNormalization statistics near the identity, small biases);
- `mobilenet_v2`, `mobilenet_v3_small`: written with onnx.helper (depthwise convolutions,
  Clip/ReLU6, HardSwish, HardSigmoid, squeeze-excitation), at 32x32 and reduced widths;
  `mobilenet_v2_224`: MobileNetV2 at the paper's size (width 1.0, 224x224);
- `bert_tiny`: a BERT-like encoder (Gather embeddings, LayerNormalization, attention with a
  MatMul of two activations, Softmax, Erf-Gelu, a Where mask) with a dynamic sequence length;
- `deepspeech2`: Conv + bidirectional GRU; `crnn`: Conv + bidirectional LSTM;
- `silero_vad`: the voice-activity detector that the `silero-vad` pip package ships
  (`silero_vad_16k_op15.onnx`, the real model and weights: STFT as a Conv, an LSTM with
  explicit state), with static shapes and the sample rate a constant. It is taken from
  `LOWPASS_SILERO_VAD_DIR` or the installed package, else the package's wheel is fetched with
  `pip download --no-deps` (examples/get_silero_vad.py) into ~/.cache/lowpass;
- `vit_tiny` (a vision transformer), `ocr_det` + `ocr_rec` (a DBNet-like detector and a
  CRNN-like recognizer, of dynamic width, run at two widths), `convnext_tiny` (ConvNeXt-like:
  depthwise 7x7, LayerNorm over channels, Erf-Gelu MLP, layer scale), `efficientnet_b0`
  (MBConv with SiLU and squeeze-excitation): written with onnx.helper;
- `pkg_silero_vad*`: silero-vad's six files as its package ships them, read unedited, their
  shapes and sample rate given to `Core.read_model(path, shapes=..., constants=...)`.

Each CNN (and vit_tiny) is also quantized (`quantize_qdq`: onnxruntime.quantization.quantize_static,
per-channel, seeded calibration data; `quantize_nncf`: nncf.quantize on the OpenVINO model).

    python benchmarks/models/suite.py OUT_DIR [NAME...]   # writes OUT_DIR/NAME.onnx
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 17
F32 = TensorProto.FLOAT


@dataclass(frozen=True)
class Spec:
    """A suite model: its builder, the input feeds it is run with, and its kind."""

    name: str
    build: Callable[[], onnx.ModelProto]
    feeds: Callable[[np.random.Generator], dict[str, np.ndarray]]
    cnn: bool = False
    """A CNN: also quantized (QDQ and NNCF)."""
    small: bool = False
    """Fast enough for CI (the pytest runs it)."""
    notes: list[str] = field(default_factory=list[str])
    source: Callable[[], Path] | None = None
    """A file read as it is shipped (not built, never edited): `build` is then unused."""
    shapes: dict[str, list[int]] | None = None
    """Input shapes given when reading (`Core.read_model(path, shapes=...)`), not in the file."""
    constants: dict[str, object] | None = None
    """Inputs frozen to constants when reading (`Core.read_model(path, constants=...)`); the
    peers are fed them as inputs."""
    more_feeds: Callable[[np.random.Generator], dict[str, np.ndarray]] | None = None
    """A second set of inputs of other shapes (a dynamic dimension): run too, per-shape compile."""


# --------------------------------------------------------------------------------------------
# The onnx package's light architectures
# --------------------------------------------------------------------------------------------

LIGHT = {
    "alexnet": "light_bvlc_alexnet.onnx",
    "zfnet512": "light_zfnet512.onnx",
    "vgg19": "light_vgg19.onnx",
    "squeezenet": "light_squeezenet.onnx",
    "resnet50": "light_resnet50.onnx",
    "inception_v1": "light_inception_v1.onnx",
    "inception_v2": "light_inception_v2.onnx",
    "densenet121": "light_densenet121.onnx",
    "shufflenet": "light_shufflenet.onnx",
}


def light_path(name: str) -> Path:
    return Path(onnx.__file__).parent / "backend/test/data/light" / LIGHT[name]


def light_model(name: str, seed: int = 0) -> onnx.ModelProto:
    """The light model with seeded weights instead of its ConstantOfShape nodes."""
    model = onnx.load(light_path(name))
    graph = model.graph
    rng = np.random.default_rng(seed)
    inits = {i.name: i for i in graph.initializer}
    consumers: dict[str, list[tuple[onnx.NodeProto, int]]] = {}
    for node in graph.node:
        for k, name_in in enumerate(node.input):
            consumers.setdefault(name_in, []).append((node, k))
    weights: list[onnx.TensorProto] = []
    keep: list[onnx.NodeProto] = []
    for node in graph.node:
        if node.op_type != "ConstantOfShape":
            keep.append(node)
            continue
        shape = tuple(int(d) for d in numpy_helper.to_array(inits[node.input[0]]))
        out = node.output[0]
        weights.append(numpy_helper.from_array(_weight(out, shape, consumers, rng), out))
    used = {i for n in keep for i in n.input}
    graph.ClearField("node")
    graph.node.extend(keep)
    old = [i for i in graph.initializer if i.name in used]
    graph.ClearField("initializer")
    graph.initializer.extend(old + weights)
    # Data inputs only: not the old initializers (opset-9 models list them as inputs), not
    # the inputs that no node reads (two of the models have such a queue input).
    data = [i for i in graph.input if i.name not in inits and i.name in used]
    graph.ClearField("input")
    graph.input.extend(data)
    graph.ClearField("value_info")
    model.ir_version = max(model.ir_version, 4)  # initializers need not be inputs
    onnx.checker.check_model(model)
    _calibrate_logits(model, rng)
    return model


LOGIT_STD = 2.0


def _calibrate_logits(
    model: onnx.ModelProto, rng: np.random.Generator, shape: list[int] | None = None
) -> None:
    """
    Scale the classifier (the last Conv/Gemm before the Softmax) so that the logits have a
    standard deviation of LOGIT_STD on a seeded input: with random weights, deep residual
    networks otherwise saturate their Softmax into one-hot vectors, where every comparison
    is trivially exact. The classifier is followed only by positively homogeneous ops (ReLU,
    pooling, reshapes), so scaling its weights and bias scales the logits.
    """
    import onnxruntime as ort

    graph = model.graph
    producer = {o: n for n in graph.node for o in n.output}
    softmax = next((n for n in reversed(graph.node) if n.op_type == "Softmax"), None)
    if softmax is None:
        return  # densenet121 ends with its pooled logits: nothing saturates
    logits = softmax.input[0]
    node = producer[logits]
    inits = {i.name for i in graph.initializer}
    biases: list[str] = []  # the bias Add of a MatMul + Add linear layer
    while node.op_type not in ("Conv", "Gemm", "MatMul"):
        if node.op_type == "Add":
            biases += [i for i in node.input if i in inits]
        node = producer[next(i for i in node.input if i not in inits)]
    graph.output.append(helper.make_tensor_value_info(logits, F32, None))
    data = graph.input[0]
    shape = shape or [d.dim_value for d in data.type.tensor_type.shape.dim]
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    feed = {data.name: rng.standard_normal(shape).astype(np.float32)}
    std = float(np.std(session.run([logits], feed)[0]))
    del graph.output[-1]
    factor = LOGIT_STD / std if std > 0 else 1.0
    for init in graph.initializer:
        if init.name in node.input[1:] or init.name in biases:
            init.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(init) * factor, init.name))


def _weight(
    name: str,
    shape: tuple[int, ...],
    consumers: dict[str, list[tuple[onnx.NodeProto, int]]],
    rng: np.random.Generator,
) -> np.ndarray:
    """He init for Conv/Gemm weights, near-identity BatchNormalization and scales, small biases."""
    uses = consumers.get(name, [])
    node, index = uses[0] if uses else (None, -1)
    # Follow an Unsqueeze (DenseNet's and Inception-v2's scale layers) to its consumer.
    if node is not None and node.op_type == "Unsqueeze":
        after = consumers.get(node.output[0], [])
        node, index = after[0] if after else (None, -1)
    op = node.op_type if node is not None else ""
    if op == "Conv" and index == 1:
        fan_in = int(np.prod(shape[1:]))
        return (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)
    if op == "Gemm" and index == 1:
        trans_b = any(a.name == "transB" and a.i for a in node.attribute)  # type: ignore[union-attr]
        fan_in = shape[1] if trans_b else shape[0]
        return (rng.standard_normal(shape) * np.sqrt(1.0 / fan_in)).astype(np.float32)
    if (op == "BatchNormalization" and index in (1, 4)) or op == "Mul":
        return rng.uniform(0.7, 1.3, shape).astype(np.float32)  # scale, variance
    return (rng.standard_normal(shape) * 0.05).astype(np.float32)  # bias, mean, shift


def _image_feeds(shape: tuple[int, ...], name: str) -> Callable[[np.random.Generator], dict]:
    def feeds(rng: np.random.Generator) -> dict[str, np.ndarray]:
        return {name: rng.standard_normal(shape).astype(np.float32)}

    return feeds


def _light_spec(name: str) -> Spec:
    def build() -> onnx.ModelProto:
        return light_model(name)

    model = onnx.load(light_path(name))
    inits = {i.name for i in model.graph.initializer}
    used = {i for n in model.graph.node for i in n.input}
    data = next(i for i in model.graph.input if i.name not in inits and i.name in used)
    shape = tuple(d.dim_value for d in data.type.tensor_type.shape.dim)
    return Spec(name, build, _image_feeds(shape, data.name), cnn=True)


# --------------------------------------------------------------------------------------------
# Graph writing helpers
# --------------------------------------------------------------------------------------------


class Net:
    """A small onnx.helper graph writer with seeded He-initialised weights."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.nodes: list[onnx.NodeProto] = []
        self.inits: list[onnx.TensorProto] = []
        self.count = 0

    def fresh(self, base: str) -> str:
        self.count += 1
        return f"{base}_{self.count}"

    def const(self, array: np.ndarray, base: str = "c") -> str:
        name = self.fresh(base)
        self.inits.append(numpy_helper.from_array(array, name))
        return name

    def node(self, op: str, inputs: list[str], n_out: int = 1, **attrs: object) -> list[str]:
        outs = [self.fresh(op.lower()) for _ in range(n_out)]
        self.nodes.append(helper.make_node(op, inputs, outs, name=outs[0], **attrs))
        return outs

    def op(self, op: str, *inputs: str, **attrs: object) -> str:
        return self.node(op, list(inputs), **attrs)[0]

    def conv(
        self,
        x: str,
        cin: int,
        cout: int,
        k: int,
        stride: int = 1,
        group: int = 1,
        pad: int | None = None,
    ) -> str:
        fan_in = cin // group * k * k
        w = self.rng.standard_normal((cout, cin // group, k, k)) * np.sqrt(2.0 / fan_in)
        b = self.rng.standard_normal(cout) * 0.05
        pad = k // 2 if pad is None else pad
        return self.op(
            "Conv",
            x,
            self.const(w.astype(np.float32), "w"),
            self.const(b.astype(np.float32), "b"),
            kernel_shape=[k, k],
            strides=[stride, stride],
            pads=[pad, pad, pad, pad],
            group=group,
        )

    def linear(self, x: str, cin: int, cout: int, scale: float = 1.0) -> str:
        w = self.rng.standard_normal((cin, cout)) * np.sqrt(scale / cin)
        b = self.rng.standard_normal(cout) * 0.02
        y = self.op("MatMul", x, self.const(w.astype(np.float32), "w"))
        return self.op("Add", y, self.const(b.astype(np.float32), "b"))

    def batch_norm(self, x: str, c: int) -> str:
        """BatchNormalization near the identity (scale, variance in [0.7, 1.3])."""
        scale = self.rng.uniform(0.7, 1.3, c).astype(np.float32)
        bias = (self.rng.standard_normal(c) * 0.05).astype(np.float32)
        mean = (self.rng.standard_normal(c) * 0.05).astype(np.float32)
        var = self.rng.uniform(0.7, 1.3, c).astype(np.float32)
        return self.op(
            "BatchNormalization",
            x,
            *(
                self.const(v, base)
                for v, base in ((scale, "bn_s"), (bias, "bn_b"), (mean, "bn_m"), (var, "bn_v"))
            ),
            epsilon=1e-5,
        )

    def layer_norm(self, x: str, c: int, axis: int = -1) -> str:
        g = self.const(self.rng.uniform(0.8, 1.2, c).astype(np.float32), "ln_g")
        b = self.const((self.rng.standard_normal(c) * 0.05).astype(np.float32), "ln_b")
        return self.op("LayerNormalization", x, g, b, axis=axis, epsilon=1e-6)

    def gelu(self, x: str) -> str:
        """Gelu as PyTorch exports it: 0.5 * x * (1 + erf(x / sqrt(2)))."""
        erf = self.op("Erf", self.op("Div", x, self.const(np.array(np.sqrt(2.0), np.float32))))
        return self.op(
            "Mul",
            self.op("Mul", x, self.op("Add", erf, self.const(np.array(1.0, np.float32)))),
            self.const(np.array(0.5, np.float32)),
        )

    def silu(self, x: str) -> str:
        """SiLU as PyTorch exports it: x * Sigmoid(x)."""
        return self.op("Mul", x, self.op("Sigmoid", x))

    def resize2(self, x: str, factor: int = 2) -> str:
        """Nearest upsampling of H and W by `factor` (Resize with scales, as torch exports
        `F.interpolate(scale_factor=...)`)."""
        scales = self.const(np.array([1, 1, factor, factor], np.float32), "scales")
        return self.op("Resize", x, "", scales, mode="nearest")

    def relu6(self, x: str) -> str:
        return self.op(
            "Clip", x, self.const(np.array(0, np.float32)), self.const(np.array(6, np.float32))
        )

    def model(
        self, inputs: list[onnx.ValueInfoProto], outputs: list[onnx.ValueInfoProto], name: str
    ) -> onnx.ModelProto:
        graph = helper.make_graph(self.nodes, name, inputs, outputs, self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
        model.ir_version = 8
        onnx.checker.check_model(model)
        return model


# --------------------------------------------------------------------------------------------
# MobileNets
# --------------------------------------------------------------------------------------------

IMAGE = 32


def inverted_residuals(
    n: Net, x: str, cin: int, blocks: list[tuple[int, int, int, int]]
) -> tuple[str, int]:
    """MobileNetV2's inverted residual blocks after `x` (`cin` channels): per (expansion,
    channels, repeats, stride), a 1x1 expansion with ReLU6 (none at expansion 1), a
    depthwise 3x3 with ReLU6 (the stride on the first repeat), a linear 1x1 projection and
    the residual Add where the shapes agree. Returns the output and its channels."""
    for t, c, reps, s in blocks:
        for r in range(reps):
            stride = s if r == 0 else 1
            hidden = cin * t
            y = n.relu6(n.conv(x, cin, hidden, 1)) if t != 1 else x
            y = n.relu6(n.conv(y, hidden, hidden, 3, stride=stride, group=hidden))
            y = n.conv(y, hidden, c, 1)
            x = n.op("Add", x, y) if stride == 1 and cin == c else y
            cin = c
    return x, cin


def mobilenet_v2(seed: int = 1) -> onnx.ModelProto:
    """MobileNetV2 (width 0.25, 32x32 input): inverted residuals with depthwise 3x3 and ReLU6."""
    # (expansion, channels, repeats, stride) as in the paper, shortened.
    blocks = [(1, 8, 1, 1), (6, 8, 2, 2), (6, 16, 2, 2), (6, 24, 1, 1), (6, 40, 1, 2)]
    return _mobilenet_v2(seed, 8, blocks, 64, 10, IMAGE, "mobilenet_v2")


MOBILENET_V2_BLOCKS = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1),
                       (6, 160, 3, 2), (6, 320, 1, 1)]
"""MobileNetV2's inverted residual blocks (expansion, channels, repeats, stride): the paper's
Table 2, width 1.0."""


def mobilenet_v2_224(seed: int = 4) -> onnx.ModelProto:
    """MobileNetV2 as the paper has it (width 1.0, 224x224 input, 1000 classes; ~300 M
    multiply-adds, 3.5 M weights): the depthwise 3x3 layers at their real sizes (112x112x96
    down to 7x7x960), where `mobilenet_v2` is a 32x32 sketch of the same blocks."""
    return _mobilenet_v2(seed, 32, MOBILENET_V2_BLOCKS, 1280, 1000, 224, "mobilenet_v2_224")


def _mobilenet_v2(seed: int, stem: int, blocks: list[tuple[int, int, int, int]], last: int,
                  classes: int, image: int, name: str) -> onnx.ModelProto:
    """A MobileNetV2: a strided 3x3 stem of `stem` channels, the inverted residual `blocks`,
    a 1x1 to `last` channels, global pooling and a linear layer to `classes` with Softmax."""
    n = Net(seed)
    x = n.relu6(n.conv("image", 3, stem, 3, stride=2))
    x, cin = inverted_residuals(n, x, stem, blocks)
    x = n.relu6(n.conv(x, cin, last, 1))
    x = n.op("GlobalAveragePool", x)
    x = n.op("Flatten", x, axis=1)
    x = n.op("Softmax", n.linear(x, last, classes), axis=-1)
    n.nodes[-1].output[0] = "probs"
    return n.model(
        [helper.make_tensor_value_info("image", F32, [1, 3, image, image])],
        [helper.make_tensor_value_info("probs", F32, [1, classes])],
        name,
    )


def mobilenet_v3_small(seed: int = 2) -> onnx.ModelProto:
    """MobileNetV3-small (32x32 input): HardSwish, squeeze-excitation with HardSigmoid."""
    n = Net(seed)
    x = n.op("HardSwish", n.conv("image", 3, 16, 3, stride=2))
    cin = 16
    # (kernel, expanded, out, SE, activation, stride), after the paper's table 2, shortened.
    for k, exp, c, se, act, s in [
        (3, 16, 16, True, "relu", 2),
        (3, 72, 24, False, "relu", 2),
        (3, 88, 24, False, "relu", 1),
        (5, 96, 40, True, "hswish", 2),
        (5, 120, 48, True, "hswish", 1),
    ]:

        def activate(v: str, act: str = act) -> str:
            return n.op("Relu", v) if act == "relu" else n.op("HardSwish", v)

        y = activate(n.conv(x, cin, exp, 1)) if exp != cin else x
        y = activate(n.conv(y, exp, exp, k, stride=s, group=exp))
        if se:
            squeeze = max(8, exp // 4)
            g = n.op("GlobalAveragePool", y)
            g = n.op("Relu", n.conv(g, exp, squeeze, 1))
            g = n.op("HardSigmoid", n.conv(g, squeeze, exp, 1), alpha=1.0 / 6, beta=0.5)
            y = n.op("Mul", y, g)
        y = n.conv(y, exp, c, 1)
        x = n.op("Add", x, y) if s == 1 and cin == c else y
        cin = c
    x = n.op("HardSwish", n.conv(x, cin, 96, 1))
    x = n.op("Flatten", n.op("GlobalAveragePool", x), axis=1)
    x = n.op("HardSwish", n.linear(x, 96, 64))
    n.op("Softmax", n.linear(x, 64, 10), axis=-1)
    n.nodes[-1].output[0] = "probs"
    return n.model(
        [helper.make_tensor_value_info("image", F32, [1, 3, IMAGE, IMAGE])],
        [helper.make_tensor_value_info("probs", F32, [1, 10])],
        "mobilenet_v3_small",
    )


# --------------------------------------------------------------------------------------------
# BERT-like encoder
# --------------------------------------------------------------------------------------------

VOCAB, HID, HEADS, FFN, LAYERS, MAXPOS = 100, 32, 4, 64, 2, 64


def bert_tiny(seed: int = 3) -> onnx.ModelProto:
    """Two BERT encoder layers over input_ids/attention_mask [1, S], S dynamic."""
    n = Net(seed)
    rng = n.rng

    def layer_norm(x: str) -> str:
        g = n.const(rng.uniform(0.8, 1.2, HID).astype(np.float32), "ln_g")
        b = n.const((rng.standard_normal(HID) * 0.05).astype(np.float32), "ln_b")
        return n.op("LayerNormalization", x, g, b, axis=-1, epsilon=1e-12)

    tok = n.const((rng.standard_normal((VOCAB, HID)) * 0.5).astype(np.float32), "tok")
    pos = n.const((rng.standard_normal((MAXPOS, HID)) * 0.5).astype(np.float32), "pos")
    # Positions 0..S-1 from the shape: Shape -> Gather(1) -> Range.
    seq = n.op("Gather", n.op("Shape", "input_ids"), n.const(np.array(1, np.int64)), axis=0)
    positions = n.op("Range", n.const(np.array(0, np.int64)), seq, n.const(np.array(1, np.int64)))
    x = n.op("Add", n.op("Gather", tok, "input_ids", axis=0), n.op("Gather", pos, positions))
    x = layer_norm(x)
    # Additive mask [1, 1, 1, S]: 0 where attended, -10000 where padded (Where on a bool mask).
    keep = n.op("Cast", "attention_mask", to=TensorProto.BOOL)
    bias = n.op(
        "Where",
        keep,
        n.const(np.array(0.0, np.float32)),
        n.const(np.array(-10000.0, np.float32)),
    )
    bias = n.op("Unsqueeze", bias, n.const(np.array([1, 2], np.int64)))
    head = HID // HEADS
    split_shape = n.const(np.array([0, -1, HEADS, head], np.int64))
    merge_shape = n.const(np.array([0, -1, HID], np.int64))
    for _ in range(LAYERS):

        def heads(v: str) -> str:
            return n.op("Transpose", n.op("Reshape", v, split_shape), perm=[0, 2, 1, 3])

        q, k, v = (heads(n.linear(x, HID, HID)) for _ in range(3))
        scores = n.op("MatMul", q, n.op("Transpose", k, perm=[0, 1, 3, 2]))
        scores = n.op("Mul", scores, n.const(np.array(1 / np.sqrt(head), np.float32)))
        probs = n.op("Softmax", n.op("Add", scores, bias), axis=-1)
        ctx = n.op("Transpose", n.op("MatMul", probs, v), perm=[0, 2, 1, 3])
        ctx = n.op("Reshape", ctx, merge_shape)
        x = layer_norm(n.op("Add", x, n.linear(ctx, HID, HID)))
        h = n.linear(x, HID, FFN, scale=2.0)
        # Gelu as exported by PyTorch: 0.5 * h * (1 + erf(h / sqrt(2))).
        erf = n.op("Erf", n.op("Div", h, n.const(np.array(np.sqrt(2.0), np.float32))))
        h = n.op(
            "Mul",
            n.op("Mul", h, n.op("Add", erf, n.const(np.array(1.0, np.float32)))),
            n.const(np.array(0.5, np.float32)),
        )
        x = layer_norm(n.op("Add", x, n.linear(h, FFN, HID)))
    n.nodes[-1].output[0] = "last_hidden_state"
    return n.model(
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, [1, "seq"]),
            helper.make_tensor_value_info("attention_mask", TensorProto.INT64, [1, "seq"]),
        ],
        [helper.make_tensor_value_info("last_hidden_state", F32, [1, "seq", HID])],
        "bert_tiny",
    )


def bert_feeds(rng: np.random.Generator, seq: int = 12) -> dict[str, np.ndarray]:
    mask = np.ones((1, seq), np.int64)
    mask[0, seq - 3 :] = 0  # padding
    return {"input_ids": rng.integers(0, VOCAB, (1, seq)).astype(np.int64), "attention_mask": mask}


# --------------------------------------------------------------------------------------------
# Speech: DeepSpeech2-like (Conv + BiGRU), CRNN-like (Conv + BiLSTM)
# --------------------------------------------------------------------------------------------

FEATS, FRAMES, RNN_HIDDEN = 16, 20, 24


def _rnn(n: Net, kind: str, x: str, cin: int, hidden: int) -> str:
    """A bidirectional ONNX GRU/LSTM over x [T, 1, cin] -> [T, 1, 2 * hidden]."""
    gates = {"GRU": 3, "LSTM": 4}[kind]
    scale = 1 / np.sqrt(hidden)
    w = n.rng.uniform(-scale, scale, (2, gates * hidden, cin)).astype(np.float32)
    r = n.rng.uniform(-scale, scale, (2, gates * hidden, hidden)).astype(np.float32)
    b = n.rng.uniform(-scale, scale, (2, 2 * gates * hidden)).astype(np.float32)
    extra = {"linear_before_reset": 1} if kind == "GRU" else {}
    y = n.node(
        kind,
        [x, n.const(w, "W"), n.const(r, "R"), n.const(b, "B")],
        n_out=1,
        hidden_size=hidden,
        direction="bidirectional",
        **extra,
    )[0]
    # Y [T, 2, 1, H] -> [T, 1, 2, H] -> [T, 1, 2H]
    y = n.op("Transpose", y, perm=[0, 2, 1, 3])
    return n.op("Reshape", y, n.const(np.array([0, 0, 2 * hidden], np.int64)))


def _speech(kind: str, seed: int, name: str, classes: int) -> onnx.ModelProto:
    n = Net(seed)
    # features [1, 1, FEATS, T] -> conv 3x3 stride (2, 1) -> [1, 8, FEATS/2, T]
    x = n.op("Relu", n.conv("features", 1, 8, 3))
    x = n.op("MaxPool", x, kernel_shape=[2, 1], strides=[2, 1])
    x = n.op("Relu", n.conv(x, 8, 8, 3))
    # [1, 8, F/2, T] -> [T, 1, 8 * F/2]
    x = n.op("Transpose", x, perm=[3, 0, 1, 2])
    x = n.op("Reshape", x, n.const(np.array([0, 0, -1], np.int64)))
    cin = 8 * FEATS // 2
    x = _rnn(n, kind, x, cin, RNN_HIDDEN)
    x = _rnn(n, kind, x, 2 * RNN_HIDDEN, RNN_HIDDEN)
    x = n.linear(x, 2 * RNN_HIDDEN, classes)
    n.op("Softmax", x, axis=-1)
    n.nodes[-1].output[0] = "probs"
    return n.model(
        [helper.make_tensor_value_info("features", F32, [1, 1, FEATS, FRAMES])],
        [helper.make_tensor_value_info("probs", F32, [FRAMES, 1, classes])],
        name,
    )


def deepspeech2(seed: int = 4) -> onnx.ModelProto:
    return _speech("GRU", seed, "deepspeech2", 29)


def crnn(seed: int = 5) -> onnx.ModelProto:
    return _speech("LSTM", seed, "crnn", 37)


# --------------------------------------------------------------------------------------------
# Vision transformer
# --------------------------------------------------------------------------------------------

VIT_PATCH, VIT_DIM, VIT_HEADS, VIT_MLP, VIT_BLOCKS = 8, 32, 4, 64, 2


def vit_tiny(seed: int = 6) -> onnx.ModelProto:
    """A ViT (32x32 input, 8x8 patches, dim 32, 4 heads, 2 pre-norm blocks): Conv patch
    embedding, a class token by Concat, position embedding Add, LayerNormalization,
    attention with a MatMul of two activations and Softmax, an Erf-Gelu MLP, the head on the
    class token."""
    n = Net(seed)
    rng = n.rng
    tokens = (IMAGE // VIT_PATCH) ** 2
    x = n.conv("image", 3, VIT_DIM, VIT_PATCH, stride=VIT_PATCH, pad=0)  # [1, D, 4, 4]
    x = n.op("Reshape", x, n.const(np.array([1, VIT_DIM, tokens], np.int64)))
    x = n.op("Transpose", x, perm=[0, 2, 1])  # [1, 16, D]
    cls = n.const((rng.standard_normal((1, 1, VIT_DIM)) * 0.5).astype(np.float32), "cls")
    x = n.op("Concat", cls, x, axis=1)  # [1, 17, D]
    pos = (rng.standard_normal((1, tokens + 1, VIT_DIM)) * 0.5).astype(np.float32)
    x = n.op("Add", x, n.const(pos, "pos"))
    head = VIT_DIM // VIT_HEADS
    split_shape = n.const(np.array([1, tokens + 1, VIT_HEADS, head], np.int64))
    merge_shape = n.const(np.array([1, tokens + 1, VIT_DIM], np.int64))
    for _ in range(VIT_BLOCKS):
        h = n.layer_norm(x, VIT_DIM)

        def heads(v: str) -> str:
            return n.op("Transpose", n.op("Reshape", v, split_shape), perm=[0, 2, 1, 3])

        q, k, v = (heads(n.linear(h, VIT_DIM, VIT_DIM)) for _ in range(3))
        scores = n.op("MatMul", q, n.op("Transpose", k, perm=[0, 1, 3, 2]))
        scores = n.op("Mul", scores, n.const(np.array(1 / np.sqrt(head), np.float32)))
        ctx = n.op("MatMul", n.op("Softmax", scores, axis=-1), v)
        ctx = n.op("Reshape", n.op("Transpose", ctx, perm=[0, 2, 1, 3]), merge_shape)
        x = n.op("Add", x, n.linear(ctx, VIT_DIM, VIT_DIM))
        h = n.gelu(n.linear(n.layer_norm(x, VIT_DIM), VIT_DIM, VIT_MLP, scale=2.0))
        x = n.op("Add", x, n.linear(h, VIT_MLP, VIT_DIM))
    x = n.layer_norm(x, VIT_DIM)
    x = n.op("Gather", x, n.const(np.array(0, np.int64)), axis=1)  # the class token [1, D]
    n.op("Softmax", n.linear(x, VIT_DIM, 10), axis=-1)
    n.nodes[-1].output[0] = "probs"
    model = n.model(
        [helper.make_tensor_value_info("image", F32, [1, 3, IMAGE, IMAGE])],
        [helper.make_tensor_value_info("probs", F32, [1, 10])],
        "vit_tiny",
    )
    _calibrate_logits(model, n.rng)
    return model


# --------------------------------------------------------------------------------------------
# OCR: a DBNet-like text detector and a CRNN-like recognizer, of dynamic width
# --------------------------------------------------------------------------------------------

OCR_HEIGHT, OCR_WIDTHS, OCR_CLASSES = 32, (64, 96), 37


def ocr_det(seed: int = 8) -> onnx.ModelProto:
    """DBNet-like (input 1x3x32xW, W dynamic, a multiple of 8): a conv backbone to strides 2,
    4 and 8, an FPN (1x1 laterals, nearest Resize x2 top-down with Add, the levels upsampled
    to stride 2 and Concat), a head conv + BatchNormalization + ReLU, Resize x2, a 1x1 conv
    and Sigmoid: the text probability map 1x1x32xW."""
    n = Net(seed)

    def block(x: str, cin: int, cout: int, stride: int) -> str:
        return n.op("Relu", n.batch_norm(n.conv(x, cin, cout, 3, stride=stride), cout))

    c1 = block("image", 3, 8, 1)
    c2 = block(c1, 8, 16, 2)  # stride 2
    c3 = block(c2, 16, 24, 2)  # stride 4
    c4 = block(c3, 24, 32, 2)  # stride 8
    fpn = 16
    p4 = n.conv(c4, 32, fpn, 1)
    p3 = n.op("Add", n.conv(c3, 24, fpn, 1), n.resize2(p4))
    p2 = n.op("Add", n.conv(c2, 16, fpn, 1), n.resize2(p3))
    fused = n.op("Concat", p2, n.resize2(p3), n.resize2(p4, 4), axis=1)  # [1, 48, 16, W/2]
    h = n.op("Relu", n.batch_norm(n.conv(fused, 3 * fpn, 16, 3), 16))
    h = n.conv(n.resize2(h), 16, 1, 1)
    n.op("Sigmoid", h)
    n.nodes[-1].output[0] = "prob_map"
    return n.model(
        [helper.make_tensor_value_info("image", F32, [1, 3, OCR_HEIGHT, "width"])],
        [helper.make_tensor_value_info("prob_map", F32, [1, 1, OCR_HEIGHT, "width"])],
        "ocr_det",
    )


def ocr_rec(seed: int = 9) -> onnx.ModelProto:
    """CRNN-like recognizer (input 1x3x32xW, W dynamic, a multiple of 4): convs and MaxPools
    reducing the height to 1 (2x2 twice, then 2x1), Squeeze and Transpose to a sequence of
    W/4 steps, a bidirectional LSTM, a MatMul to 37 classes, Softmax: [W/4, 1, 37]."""
    n = Net(seed)
    x = n.op("Relu", n.conv("image", 3, 16, 3))
    x = n.op("MaxPool", x, kernel_shape=[2, 2], strides=[2, 2])  # 16 x W/2
    x = n.op("Relu", n.conv(x, 16, 32, 3))
    x = n.op("MaxPool", x, kernel_shape=[2, 2], strides=[2, 2])  # 8 x W/4
    x = n.op("Relu", n.batch_norm(n.conv(x, 32, 48, 3), 48))
    x = n.op("MaxPool", x, kernel_shape=[2, 1], strides=[2, 1])  # 4 x W/4
    x = n.op("Relu", n.batch_norm(n.conv(x, 48, 64, 3), 64))
    x = n.op("MaxPool", x, kernel_shape=[4, 1], strides=[4, 1])  # 1 x W/4
    x = n.op("Squeeze", x, n.const(np.array([2], np.int64)))  # [1, 64, T]
    x = n.op("Transpose", x, perm=[2, 0, 1])  # [T, 1, 64]
    x = _rnn(n, "LSTM", x, 64, RNN_HIDDEN)
    n.op("Softmax", n.linear(x, 2 * RNN_HIDDEN, OCR_CLASSES), axis=-1)
    n.nodes[-1].output[0] = "probs"
    model = n.model(
        [helper.make_tensor_value_info("image", F32, [1, 3, OCR_HEIGHT, "width"])],
        [helper.make_tensor_value_info("probs", F32, ["steps", 1, OCR_CLASSES])],
        "ocr_rec",
    )
    _calibrate_logits(model, n.rng, [1, 3, OCR_HEIGHT, OCR_WIDTHS[0]])
    return model


def _ocr_feeds(width: int) -> Callable[[np.random.Generator], dict[str, np.ndarray]]:
    return _image_feeds((1, 3, OCR_HEIGHT, width), "image")


# --------------------------------------------------------------------------------------------
# ConvNeXt-like, EfficientNet-like
# --------------------------------------------------------------------------------------------


def convnext_tiny(seed: int = 10) -> onnx.ModelProto:
    """ConvNeXt-like (32x32 input, dims 16/32/48, depths 2/2/1): a 4x4/4 stem conv, blocks of
    depthwise 7x7, LayerNorm over channels (Transpose NCHW -> NHWC, LayerNormalization),
    pointwise MLP as MatMuls with Erf-Gelu, a per-channel layer scale Mul, Transpose back,
    residual Add; downsampling by a channels-first LayerNorm in the ReduceMean form that
    torch exports and a 2x2/2 conv. Layer-scale factors log-uniform in [1e-2, 1] (trained
    ConvNeXts have small ones; 1e-6, their initial value, would make the blocks identities)."""
    n = Net(seed)
    rng = n.rng

    def channels_first_ln(x: str, c: int) -> str:
        # torch's ConvNeXt LayerNorm(data_format="channels_first"): u = mean_c(x),
        # s = mean_c((x - u)^2), (x - u) / sqrt(s + eps) * w + b
        d = n.op("Sub", x, n.op("ReduceMean", x, axes=[1], keepdims=1))
        s = n.op("ReduceMean", n.op("Pow", d, n.const(np.array(2.0, np.float32))), axes=[1])
        y = n.op("Div", d, n.op("Sqrt", n.op("Add", s, n.const(np.array(1e-6, np.float32)))))
        w = rng.uniform(0.8, 1.2, (c, 1, 1)).astype(np.float32)
        b = (rng.standard_normal((c, 1, 1)) * 0.05).astype(np.float32)
        return n.op("Add", n.op("Mul", y, n.const(w, "ln_w")), n.const(b, "ln_b"))

    dims, depths = (16, 32, 48), (2, 2, 1)
    x = channels_first_ln(n.conv("image", 3, dims[0], 4, stride=4, pad=0), dims[0])  # 8x8
    for stage, (c, depth) in enumerate(zip(dims, depths, strict=True)):
        if stage > 0:
            x = n.conv(channels_first_ln(x, dims[stage - 1]), dims[stage - 1], c, 2, 2, pad=0)
        for _ in range(depth):
            y = n.conv(x, c, c, 7, group=c)
            y = n.layer_norm(n.op("Transpose", y, perm=[0, 2, 3, 1]), c)
            y = n.linear(n.gelu(n.linear(y, c, 4 * c, scale=2.0)), 4 * c, c)
            gamma = np.exp(rng.uniform(np.log(1e-2), 0.0, c)).astype(np.float32)
            y = n.op("Mul", y, n.const(gamma, "gamma"))
            x = n.op("Add", x, n.op("Transpose", y, perm=[0, 3, 1, 2]))
    x = n.op("Flatten", n.op("GlobalAveragePool", x), axis=1)
    n.op("Softmax", n.linear(n.layer_norm(x, dims[-1]), dims[-1], 10), axis=-1)
    n.nodes[-1].output[0] = "probs"
    model = n.model(
        [helper.make_tensor_value_info("image", F32, [1, 3, IMAGE, IMAGE])],
        [helper.make_tensor_value_info("probs", F32, [1, 10])],
        "convnext_tiny",
    )
    _calibrate_logits(model, n.rng)
    return model


def efficientnet_b0(seed: int = 11) -> onnx.ModelProto:
    """EfficientNet-B0-like (32x32 input, shortened): MBConv blocks (1x1 expansion,
    depthwise 3x3/5x5, squeeze-excitation with GlobalAveragePool, 1x1 convs, SiLU and
    Sigmoid, Mul, 1x1 projection), BatchNormalization after each conv, SiLU as x * Sigmoid(x),
    residual Adds."""
    n = Net(seed)

    def conv_bn(x: str, cin: int, cout: int, k: int, stride: int = 1, group: int = 1) -> str:
        return n.batch_norm(n.conv(x, cin, cout, k, stride=stride, group=group), cout)

    x = n.silu(conv_bn("image", 3, 16, 3, stride=2))  # 16x16
    cin = 16
    # (expansion, kernel, stride, channels, repeats), after the paper's table 1, shortened.
    for t, k, s, c, reps in [(1, 3, 1, 8, 1), (6, 3, 2, 16, 2), (6, 5, 2, 24, 1), (6, 3, 2, 40, 1)]:
        for r in range(reps):
            stride = s if r == 0 else 1
            hidden = cin * t
            y = n.silu(conv_bn(x, cin, hidden, 1)) if t != 1 else x
            y = n.silu(conv_bn(y, hidden, hidden, k, stride=stride, group=hidden))
            squeeze = max(4, cin // 4)
            g = n.op("GlobalAveragePool", y)
            g = n.op("Sigmoid", n.conv(n.silu(n.conv(g, hidden, squeeze, 1)), squeeze, hidden, 1))
            y = conv_bn(n.op("Mul", y, g), hidden, c, 1)
            x = n.op("Add", x, y) if stride == 1 and cin == c else y
            cin = c
    x = n.silu(conv_bn(x, cin, 64, 1))
    x = n.op("Flatten", n.op("GlobalAveragePool", x), axis=1)
    n.op("Softmax", n.linear(x, 64, 10), axis=-1)
    n.nodes[-1].output[0] = "probs"
    model = n.model(
        [helper.make_tensor_value_info("image", F32, [1, 3, IMAGE, IMAGE])],
        [helper.make_tensor_value_info("probs", F32, [1, 10])],
        "efficientnet_b0",
    )
    _calibrate_logits(model, n.rng)
    return model


# --------------------------------------------------------------------------------------------
# silero-vad, as its pip package ships it
# --------------------------------------------------------------------------------------------

SILERO_FILE = "silero_vad_16k_op15.onnx"
SILERO_CHUNK = 512


def silero_vad_path(file: str = SILERO_FILE) -> Path:
    """One of the package's model files: LOWPASS_SILERO_VAD_DIR, the installed package, or
    the wheel fetched once (pip download, no dependencies) into ~/.cache/lowpass/silero-vad."""
    import importlib.util

    env = os.environ.get("LOWPASS_SILERO_VAD_DIR")
    if env:
        return Path(env) / file
    spec = importlib.util.find_spec("silero_vad")  # without importing it (it needs torch)
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations))) / "data" / file
    cache = Path.home() / ".cache/lowpass/silero-vad"
    if not (cache / file).is_file():
        import subprocess

        script = Path(__file__).resolve().parents[2] / "examples/get_silero_vad.py"
        subprocess.run([sys.executable, str(script), str(cache)], check=True)
    return cache / file


def silero_vad() -> onnx.ModelProto:
    """The real model with static shapes (input [1, 512], state [2, 1, 128]) and `sr` =
    16000 an initializer, so that its `If`s on the sample rate select the 16 kHz branch."""
    model = onnx.load(str(silero_vad_path()))
    for inp in list(model.graph.input):
        dims = inp.type.tensor_type.shape.dim
        if inp.name == "input":
            dims[0].dim_value, dims[1].dim_value = 1, SILERO_CHUNK
        elif inp.name == "state":
            dims[1].dim_value = 1
        elif inp.name == "sr":
            model.graph.input.remove(inp)
            sr = numpy_helper.from_array(np.array(16000, np.int64), "sr")
            model.graph.initializer.append(sr)
    return model


def silero_feeds(rng: np.random.Generator) -> dict[str, np.ndarray]:
    """A chunk of a 440 Hz tone plus noise, and a state as after some speech."""
    t = np.arange(SILERO_CHUNK) / 16000 + rng.uniform()
    audio = 0.5 * np.sin(2 * np.pi * 440 * t) + 0.1 * rng.standard_normal(SILERO_CHUNK)
    return {
        "input": audio[None].astype(np.float32),
        "state": rng.uniform(-0.5, 0.5, (2, 1, 128)).astype(np.float32),
    }


# The six files as the package ships them, read unedited: shapes and the sample rate are given
# to `Core.read_model(path, shapes=..., constants=...)` (name -> file, shapes, constants).
SILERO_STATE = [2, 1, 128]
SILERO_FILES: dict[str, tuple[str, dict[str, list[int]] | None, dict[str, object] | None]] = {
    "pkg_silero_vad": (
        "silero_vad.onnx",
        {"input": [1, SILERO_CHUNK], "state": SILERO_STATE},
        {"sr": 16000},
    ),
    "pkg_silero_vad_16k_op15": (
        "silero_vad_16k_op15.onnx",
        {"input": [1, SILERO_CHUNK], "state": SILERO_STATE},
        {"sr": 16000},
    ),
    # 4 chunks of 576 samples (64 of context) as the LSTM's sequence, h/c state
    "pkg_silero_vad_16k_sequence": ("silero_vad_16k_sequence.onnx", {"input": [4, 576]}, None),
    "pkg_silero_vad_half": (
        "silero_vad_half.onnx",
        {"input": [1, SILERO_CHUNK], "state": SILERO_STATE},
        None,
    ),
    "pkg_silero_vad_op18_ifless": (
        "silero_vad_op18_ifless.onnx",
        {"input": [1, SILERO_CHUNK], "state": SILERO_STATE},
        {"sr": 16000},
    ),
    "pkg_silero_vad_openvino_16k": ("silero_vad_openvino_16k.onnx", None, None),  # static
}


def _silero_file_spec(name: str) -> Spec:
    file, shapes, constants = SILERO_FILES[name]

    def source() -> Path:
        return silero_vad_path(file)

    def build() -> onnx.ModelProto:
        return onnx.load(str(source()))

    def feeds(rng: np.random.Generator) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        if file == "silero_vad_16k_sequence.onnx":
            t = np.arange(4 * 576).reshape(4, 576) / 16000 + rng.uniform()
            audio = 0.5 * np.sin(2 * np.pi * 440 * t) + 0.1 * rng.standard_normal(t.shape)
            out["input"] = audio.astype(np.float32)
            for state in ("h", "c"):
                out[state] = rng.uniform(-0.5, 0.5, (1, 1, 128)).astype(np.float32)
            return out
        size = 576 if file == "silero_vad_openvino_16k.onnx" else SILERO_CHUNK
        t = np.arange(size) / 16000 + rng.uniform()
        audio = 0.5 * np.sin(2 * np.pi * 440 * t) + 0.1 * rng.standard_normal(size)
        out["input"] = audio[None].astype(np.float32)
        out["state"] = rng.uniform(-0.5, 0.5, (2, 1, 128)).astype(np.float32)
        if file in ("silero_vad.onnx", "silero_vad_16k_op15.onnx", "silero_vad_op18_ifless.onnx"):
            out["sr"] = np.array(16000, np.int64)
        return out

    return Spec(name, build, feeds, source=source, shapes=shapes, constants=constants)


# --------------------------------------------------------------------------------------------
# The suite
# --------------------------------------------------------------------------------------------


def specs() -> dict[str, Spec]:
    image = _image_feeds((1, 3, IMAGE, IMAGE), "image")
    speech = _image_feeds((1, 1, FEATS, FRAMES), "features")
    out = {s.name: s for s in (_light_spec(name) for name in LIGHT)}
    out["mobilenet_v2"] = Spec("mobilenet_v2", mobilenet_v2, image, cnn=True, small=True)
    out["mobilenet_v2_224"] = Spec(
        "mobilenet_v2_224", mobilenet_v2_224, _image_feeds((1, 3, 224, 224), "image"), cnn=True
    )
    out["mobilenet_v3_small"] = Spec(
        "mobilenet_v3_small", mobilenet_v3_small, image, cnn=True, small=True
    )
    out["bert_tiny"] = Spec("bert_tiny", bert_tiny, bert_feeds, small=True)
    out["deepspeech2"] = Spec("deepspeech2", deepspeech2, speech, small=True)
    out["crnn"] = Spec("crnn", crnn, speech, small=True)
    out["silero_vad"] = Spec("silero_vad", silero_vad, silero_feeds)
    out["vit_tiny"] = Spec("vit_tiny", vit_tiny, image, cnn=True)
    width, other = OCR_WIDTHS
    out["ocr_det"] = Spec(
        "ocr_det", ocr_det, _ocr_feeds(width), cnn=True, more_feeds=_ocr_feeds(other)
    )
    out["ocr_rec"] = Spec(
        "ocr_rec", ocr_rec, _ocr_feeds(width), cnn=True, small=True, more_feeds=_ocr_feeds(other)
    )
    out["convnext_tiny"] = Spec("convnext_tiny", convnext_tiny, image, cnn=True)
    out["efficientnet_b0"] = Spec("efficientnet_b0", efficientnet_b0, image, cnn=True)
    for name in SILERO_FILES:
        out[name] = _silero_file_spec(name)
    return out


# --------------------------------------------------------------------------------------------
# Quantization
# --------------------------------------------------------------------------------------------

CALIBRATION = 8


def quantize_qdq(spec: Spec, src: Path, dst: Path, seed: int = 7, operators: bool = False
                 ) -> Path:  # fmt: skip
    """QDQ by onnxruntime.quantization.quantize_static: per-channel int8 weights, u8
    activations, MinMax calibration on seeded random inputs; `operators`: its QOperator
    format instead (QLinearConv, com.microsoft QLinearAdd, ...)."""
    from onnxruntime.quantization import (
        CalibrationDataReader,
        QuantFormat,
        QuantType,
        quantize_static,
    )

    rng = np.random.default_rng(seed)
    batches = [spec.feeds(rng) for _ in range(CALIBRATION)]
    model = onnx.load(src)
    if model.opset_import[0].version < 13:
        # Per-channel DequantizeLinear needs opset 13: quantize_static's own upgrade of the
        # light models (opset 9 -> 11) writes an invalid model.
        from onnx import version_converter

        src = dst.with_suffix(".opset13.onnx")
        onnx.save(version_converter.convert_version(model, 13), src)

    class Reader(CalibrationDataReader):
        def __init__(self) -> None:
            self.it = iter(batches)

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self.it, None)

    quantize_static(
        str(src),
        str(dst),
        Reader(),
        quant_format=QuantFormat.QOperator if operators else QuantFormat.QDQ,
        per_channel=True,
        activation_type=QuantType.QUInt8,
        weight_type=QuantType.QInt8,
    )
    return dst


def quantize_nncf(spec: Spec, src: Path, dst: Path, seed: int = 7) -> Path:
    """FakeQuantize by nncf.quantize on the OpenVINO model read from `src` (OpenVINO IR)."""
    import nncf
    import openvino

    rng = np.random.default_rng(seed)
    batches = [spec.feeds(rng) for _ in range(CALIBRATION)]
    model = openvino.Core().read_model(src)
    quantized = nncf.quantize(
        model, nncf.Dataset(batches), subset_size=CALIBRATION, fast_bias_correction=True
    )
    openvino.save_model(quantized, dst, compress_to_fp16=False)
    return dst


def nncf_available() -> bool:
    try:
        import nncf  # noqa: F401
    except Exception:
        return False
    return True


def build(name: str, out_dir: Path) -> Path:
    """Write the suite model `name` to OUT_DIR/NAME.onnx (rebuilt only if missing); a
    shipped file (`Spec.source`) is its own path, not copied."""
    source = specs()[name].source
    if source is not None:
        return source()
    path = out_dir / f"{name}.onnx"
    if not path.exists():
        out_dir.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        onnx.save(specs()[name].build(), tmp)
        tmp.replace(path)
    return path


def main(argv: list[str]) -> None:
    if not argv:
        raise SystemExit(__doc__)
    out_dir = Path(argv[0])
    for name in argv[1:] or list(specs()):
        print(build(name, out_dir))


if __name__ == "__main__":
    main(sys.argv[1:])
