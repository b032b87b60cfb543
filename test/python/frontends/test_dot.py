"""
Pictures of graphs (`lowpass.frontends.dot`): the DOT text is parsed back by a small parser of
the DOT grammar (below) and checked for what it must show: a node per op with its colour by
precision (fp32 before LPT, int8 on the convolutions and the MatMul after it, the
dequantization in its own colour), Parameters and Results, the TensorIterator cluster with its
port map and dashed back edges, the variables of a LowLatency2 model with their assign/read
edges, folded constants, escaped names. Where Graphviz's `dot` is installed it must accept
every picture (and draws the SVG); without it that check skips and `write_graph` refuses
`.svg` with a one-line diagnostic.
"""

from __future__ import annotations

import html
import itertools
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, StringAttr

import lowpass
from lowpass.dialects.ov.base import NAME_ATTR, set_name
from lowpass.frontends import FrontendError
from lowpass.frontends.dot import (
    FP32,
    INT8,
    OTHER,
    PRECISION_COLOURS,
    QUANTIZATION,
    graph_to_dot,
    write_graph,
)
from lowpass.passes.lpt import run_lpt
from lowpass.passes.lpt.params import LptParams
from lowpass.tools import opt_tool

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
DOT = shutil.which("dot")

# --------------------------------------------------------------------------------------------
# A parser of DOT (graph, subgraph, node, edge and attribute statements; IDs, numerals,
# quoted strings with `+` concatenation, HTML strings), enough to read back any DOT text.
# --------------------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"""\s*(?:
        (?P<comment>//[^\n]*|/\*.*?\*/|\#[^\n]*)
      | (?P<string>"(?:[^"\\]|\\.|\\\n)*")
      | (?P<html><(?:[^<>]|<[^<>]*>)*>)
      | (?P<edgeop>->|--)
      | (?P<punct>[{}\[\];,=:])
      | (?P<id>[A-Za-z_\x80-\uffff][A-Za-z_0-9\x80-\uffff]*|-?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?))
    )""",
    re.VERBOSE | re.DOTALL,
)


def _tokens(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise SyntaxError(f"bad DOT at offset {pos}: {text[pos:pos + 40]!r}")
        pos = m.end()
        kind = m.lastgroup
        assert kind is not None
        if kind != "comment":
            out.append((kind, m.group(kind)))
    return out


def _unquote(raw: str) -> str:
    """The text of a quoted label: DOT escapes, then Graphviz's `\\n`/`\\l` and entities."""
    body = raw[1:-1].replace("\\\n", "")
    out = []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append("\n" if nxt in "nlr" else nxt)
            i += 2
        else:
            out.append(c)
            i += 1
    return html.unescape("".join(out))


@dataclass
class Graph:
    nodes: dict[str, dict[str, str]] = field(default_factory=dict)
    edges: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)
    clusters: dict[str, dict[str, str]] = field(default_factory=dict)
    members: dict[str, set[str]] = field(default_factory=dict)
    """Subgraph name -> the nodes mentioned in it (Graphviz's membership rule)."""
    attrs: dict[str, str] = field(default_factory=dict)

    def label(self, node: str) -> list[str]:
        return self.nodes[node].get("label", node).split("\n")

    def by_type(self, ov_type: str) -> list[str]:
        """Op nodes whose second label line (the OpenVINO type) is `ov_type`."""
        return [n for n in self.nodes if len(self.label(n)) > 1 and self.label(n)[1] == ov_type]

    def by_name(self, name: str) -> str:
        (node,) = [n for n in self.nodes if self.label(n)[0] == name and "legend" not in n]
        return node

    def colour(self, node: str) -> str:
        return self.nodes[node].get("fillcolor", "")


class _Parser:
    def __init__(self, text: str) -> None:
        self.toks = _tokens(text)
        self.i = 0
        self.graph = Graph()

    def peek(self, k: int = 0) -> tuple[str, str] | None:
        return self.toks[self.i + k] if self.i + k < len(self.toks) else None

    def take(self, value: str | None = None, kind: str | None = None) -> tuple[str, str]:
        tok = self.peek()
        if tok is None:
            raise SyntaxError(f"unexpected end of DOT, expected {value or kind}")
        if (value is not None and tok[1] != value) or (kind is not None and tok[0] != kind):
            raise SyntaxError(f"expected {value or kind}, got {tok[1]!r}")
        self.i += 1
        return tok

    def ident(self) -> str:
        tok = self.peek()
        if tok is None or tok[0] not in ("id", "string", "html"):
            raise SyntaxError(f"expected an ID, got {tok}")
        self.i += 1
        if tok[0] != "string":
            return tok[1]
        text = _unquote(tok[1])
        while self.peek() == ("id", "+") or ((cur := self.peek()) and cur[1] == "+"):
            self.i += 1
            text += _unquote(self.take(kind="string")[1])
        return text

    def parse(self) -> Graph:
        if (cur := self.peek()) and cur[1].lower() == "strict":
            self.i += 1
        if self.take(kind="id")[1].lower() != "digraph":
            raise SyntaxError("expected a digraph")
        if (cur := self.peek()) and cur[1] != "{":
            self.ident()
        self.block([], self.graph.attrs)
        if self.peek() is not None:
            raise SyntaxError(f"text after the graph: {self.peek()}")
        return self.graph

    def block(self, scopes: list[str], attrs: dict[str, str]) -> list[str]:
        self.take("{")
        mentioned: list[str] = []
        while (cur := self.peek()) and cur[1] != "}":
            mentioned += self.statement(scopes, attrs)
            if (cur := self.peek()) and cur[1] == ";":
                self.i += 1
        self.take("}")
        return mentioned

    def attr_list(self) -> dict[str, str]:
        attrs: dict[str, str] = {}
        while (cur := self.peek()) and cur[1] == "[":
            self.i += 1
            while (cur := self.peek()) and cur[1] != "]":
                key = self.ident()
                self.take("=")
                attrs[key] = self.ident()
                if (cur := self.peek()) and cur[1] in ",;":
                    self.i += 1
            self.take("]")
        return attrs

    def endpoint(self, scopes: list[str]) -> list[str]:
        tok = self.peek()
        if tok is not None and (tok[1] == "{" or tok[1].lower() == "subgraph"):
            return self.subgraph(scopes)
        node = self.ident()
        if (cur := self.peek()) and cur[1] == ":":  # port
            self.i += 1
            self.ident()
            if (cur := self.peek()) and cur[1] == ":":
                self.i += 1
                self.ident()
        self.mention(node, scopes)
        return [node]

    def mention(self, node: str, scopes: list[str]) -> None:
        self.graph.nodes.setdefault(node, {})
        for s in scopes:
            self.graph.members[s].add(node)

    def subgraph(self, scopes: list[str]) -> list[str]:
        name = f"anonymous{self.i}"
        cur = self.peek()
        assert cur is not None  # (endpoint saw `{` or `subgraph`)
        if cur[1].lower() == "subgraph":
            self.i += 1
            if (cur := self.peek()) and cur[1] != "{":
                name = self.ident()
        self.graph.members.setdefault(name, set())
        attrs = self.graph.clusters.setdefault(name, {})
        return self.block([*scopes, name], attrs)

    def statement(self, scopes: list[str], attrs: dict[str, str]) -> list[str]:
        tok = self.peek()
        assert tok is not None  # (block's loop saw a token)
        if tok[0] == "id" and tok[1].lower() in ("graph", "node", "edge"):
            self.i += 1
            self.attr_list()
            return []
        nxt = self.peek(1)
        if tok[0] in ("id", "string") and nxt is not None and nxt[1] == "=":
            key = self.ident()
            self.take("=")
            attrs[key] = self.ident()
            return []
        ends = [self.endpoint(scopes)]
        while (cur := self.peek()) and cur[0] == "edgeop":
            if self.take(kind="edgeop")[1] != "->":
                raise SyntaxError("'--' in a digraph")
            ends.append(self.endpoint(scopes))
        edge_attrs = self.attr_list()
        if len(ends) == 1:
            for node in ends[0]:
                self.graph.nodes[node].update(edge_attrs)
        for tails, heads in itertools.pairwise(ends):
            for t in tails:
                for h in heads:
                    self.graph.edges.append((t, h, edge_attrs))
        return [n for group in ends for n in group]


def parse_dot(text: str) -> Graph:
    assert text.isascii(), "the DOT text is ASCII (other characters are &#N; entities)"
    graph = _Parser(text).parse()
    declared = {n for n, a in graph.nodes.items() if "label" in a}
    for tail, head, _ in graph.edges:
        assert tail in declared and head in declared, f"edge {tail} -> {head}: undeclared node"
    if DOT is not None:
        run = subprocess.run([DOT, "-Tcanon"], input=text.encode(), capture_output=True)
        assert run.returncode == 0 and not run.stderr, run.stderr.decode()
    return graph


# --------------------------------------------------------------------------------------------
# Models
# --------------------------------------------------------------------------------------------


def example(name: str) -> ModuleOp:
    return lowpass.read_module(EXAMPLES / name)


def opt(tmp_path: Path, source: Path, *args: str) -> ModuleOp:
    out = tmp_path / "out.mlir"
    assert opt_tool.main([str(source), *args, "-o", str(out)]) == 0
    return lowpass.read_module(out)


def edges_into(g: Graph, node: str) -> list[tuple[str, str, dict[str, str]]]:
    return [e for e in g.edges if e[1] == node]


def edges_from(g: Graph, node: str) -> list[tuple[str, str, dict[str, str]]]:
    return [e for e in g.edges if e[0] == node]


TYPE_LABEL = re.compile(
    r"^(?:\w+: )?(?:(?:[0-9?]+x)*[0-9?]+|scalar) (?:f32|f16|i64|i32|i8|u8|boolean)$"
)


def shaped(g: Graph, shape: str) -> list[str]:
    """The nodes of a shape, outside the legend."""
    return [n for n, a in g.nodes.items() if a.get("shape") == shape and "legend" not in n]


# --------------------------------------------------------------------------------------------
# Tests
# --------------------------------------------------------------------------------------------


def test_convnet_nodes_edges_and_legend():
    module = example("convnet.mlir")
    g = parse_dot(graph_to_dot(module))
    function = next(iter(module.ops))
    ops = [op for op in function.walk() if op.name.startswith("ov.") and op.name != "ov.constant"]
    op_nodes = [n for n in g.nodes if n.startswith("op")]
    assert len(op_nodes) == len(ops)
    # fp32 net: every op node is fp32, Parameter and Result in their shapes
    assert {g.colour(n) for n in op_nodes} == {PRECISION_COLOURS[FP32]}
    (param,) = [n for n in g.nodes if n.startswith("param")]
    assert g.label(param) == ["data", "Parameter", "1x3x32x32 f32"]
    assert g.nodes[param]["shape"] == "invhouse"
    (result,) = [n for n in g.nodes if n.startswith("result")]
    assert g.label(result)[:2] == ["prob", "Result"] and g.nodes[result]["shape"] == "house"
    for tail, _, attrs in g.edges:
        if "legend" not in tail:
            assert TYPE_LABEL.match(attrs["label"].split("\n")[0]), attrs["label"]
    # constants are folded: the convolution's weights are a line of its label
    conv1 = g.by_name("conv1")
    assert g.label(conv1)[:3] == ["conv1", "Convolution", "1x8x32x32 f32"]
    assert "filter 8x3x3x3 f32" in g.label(conv1)
    assert len(edges_into(g, conv1)) == 1
    # the legend cluster shows the four colours
    legend = g.members["cluster_legend"]
    assert {g.colour(n) for n in legend} >= set(PRECISION_COLOURS.values())


def test_qconvnet_fp32_before_lpt_int8_after(tmp_path):
    before = parse_dot(graph_to_dot(example("qconvnet.mlir")))
    for ov_type in ("Convolution", "MatMul", "MaxPool", "AvgPool"):
        nodes = before.by_type(ov_type)
        assert nodes and {before.colour(n) for n in nodes} == {PRECISION_COLOURS[FP32]}
    fqs = before.by_type("FakeQuantize")
    assert len(fqs) == 7 and {before.colour(n) for n in fqs} == {PRECISION_COLOURS[QUANTIZATION]}

    module = example("qconvnet.mlir")
    run_lpt(module, LptParams())
    after = parse_dot(graph_to_dot(module))
    # the same picture from opt-tool's output text
    assert after.nodes.keys() == parse_dot(
        graph_to_dot(opt(tmp_path, EXAMPLES / "qconvnet.mlir", "--lpt"))
    ).nodes.keys()
    convs = after.by_type("Convolution")
    assert len(convs) == 2
    for ov_type in ("Convolution", "MatMul", "MaxPool", "AvgPool"):
        nodes = after.by_type(ov_type)
        assert nodes and {after.colour(n) for n in nodes} == {PRECISION_COLOURS[INT8]}, ov_type
    conv1 = after.by_name("conv1")
    assert "filter 8x3x3x3 i8" in after.label(conv1)
    (data_edge,) = edges_into(after, conv1)
    assert data_edge[2]["label"] == "1x3x32x32 u8" and data_edge[2]["penwidth"] == "2"
    # the dequantization Multiply after each int8 op: the quantization colour
    for node in (*convs, *after.by_type("MatMul"), *after.by_type("AvgPool")):
        (out,) = edges_from(after, node)
        assert after.label(out[1])[1] == "Multiply"
        assert after.colour(out[1]) == PRECISION_COLOURS[QUANTIZATION]
    # a bias Add after the dequantization stays fp32
    assert after.colour(after.by_name("conv1/add_bias")) == PRECISION_COLOURS[FP32]


def test_lstm_tensor_iterator_cluster():
    g = parse_dot(graph_to_dot(example("lstm.mlir")))
    clusters = {k: v for k, v in g.clusters.items() if k != "cluster_legend"}
    (name,) = clusters
    assert name.startswith("cluster_")
    label = clusters[name]["label"].split("\n")
    assert label[0] == "TensorIterator lstm"
    assert "8 iterations" in label
    assert "in0 X -> X_t: sliced along axis 1" in label
    assert "in1 H0 -> H_t: merged, back edge from result 0" in label
    assert "result 2 -> out0: concatenated along axis 1" in label
    assert "result 0 -> out1: last iteration" in label
    # the body ops are inside the cluster, the graph's Parameters are not
    members = g.members[name]
    cell = g.by_name("lstm_cell")
    assert cell in members and g.by_name("X_t/squeeze") in members
    assert g.by_name("X") not in members and g.by_name("Y") not in members
    assert "W 128x16 f32" in g.label(cell) and "R 128x32 f32" in g.label(cell)
    # dashed back edges from body Result 0/1 to body Parameters H_t/C_t
    back = [e for e in g.edges if e[2].get("style") == "dashed"]
    assert {(g.label(t)[0], g.label(h)[0]) for t, h, _ in back} == {
        ("body Result 0", "H_t"),
        ("body Result 1", "C_t"),
    }
    # outer input X reaches the sliced body Parameter; Y comes from body Result 2
    (x_edge,) = edges_from(g, g.by_name("X"))
    assert g.label(x_edge[1])[0] == "X_t" and x_edge[2]["label"].startswith("1x8x16 f32")
    (y_edge,) = edges_into(g, g.by_name("Y"))
    assert g.label(y_edge[0])[0] == "body Result 2" and y_edge[2]["label"] == "out0: 1x8x32 f32"


def test_low_latency2_variables(tmp_path):
    module = opt(
        tmp_path, EXAMPLES / "lstm.mlir", "--ov-reshape=inputs=\"X:1x1x16\"", "--low-latency2"
    )
    g = parse_dot(graph_to_dot(module))
    variables = shaped(g, "cylinder")
    names = {g.label(v)[0] for v in variables}
    assert names == {"lstm/H_t/variable_1", "lstm/C_t/variable_2"}
    for var in variables:
        vid = g.label(var)[0]
        (assign,) = edges_into(g, var)
        (read,) = edges_from(g, var)
        assert g.label(assign[0])[:2] == [f"{vid}/assign", "Assign"]
        assert g.label(read[1])[:2] == [f"{vid}/read_value", "ReadValue"]
        assert assign[2]["style"] == read[2]["style"] == "dashed"
    # the loop closes: the assigned value comes from the cell that reads the variable
    cell = g.by_name("lstm_cell")
    h_var = g.by_name("lstm/H_t/variable_1")
    assert any(e[0] == cell and g.label(e[1])[0].endswith("H_t/variable_1/assign")
               for e in g.edges)  # fmt: skip
    assert any(e[0] == g.by_name("lstm/H_t/variable_1/read_value") and e[1] == cell
               for e in g.edges)  # fmt: skip
    assert edges_from(g, h_var)


def test_show_constants():
    module = example("lstm.mlir")
    hidden = parse_dot(graph_to_dot(module))
    shown = parse_dot(graph_to_dot(module, show_constants=True))
    consts = shaped(shown, "note")
    constant_ops = [op for op in module.walk() if op.name == "ov.constant"]
    assert len(consts) == len(constant_ops) == 5
    assert not shaped(hidden, "note")
    cell = shown.by_name("lstm_cell")
    weights = {shown.label(t)[0]: a["label"] for t, _, a in edges_into(shown, cell)}
    assert weights["lstm_cell/W"] == "128x16 f32"
    assert "W 128x16 f32" not in shown.label(cell)
    assert shown.label(shown.by_name("X_t/axis"))[1:] == ["Constant", "1 i64 = [1]"]


LOOP = """
builtin.module {
  func.func @main(%x: tensor<5x3xf32>, %acc0: tensor<1x3xf16>) -> tensor<1x3xf16> {
    %trip = ov.constant dense<5> : tensor<i64>
    %true = ov.constant dense<true> : tensor<i1>
    %acc = ov.loop(%trip, %true, %x, %acc0) attributes {
        input_descriptions = [#ov.slice<input = 2, param = 1, axis = 0>,
                              #ov.merged<input = 3, param = 2, result = 0>],
        output_descriptions = [#ov.body_output<result = 0, output = 0>],
        special_body_ports = array<i64: 0, 1>, ov.name = "loop"}
        : (tensor<i64>, tensor<i1>, tensor<5x3xf32>, tensor<1x3xf16>) -> tensor<1x3xf16> {
    ^bb0(%i: tensor<i64>, %xt: tensor<1x3xf32>, %a: tensor<1x3xf16>):
      %k = ov.constant dense<true> : tensor<i1>
      %h = ov.convert %xt destination_type = f16 : (tensor<1x3xf32>) -> tensor<1x3xf16>
      %s = ov.add %a, %h : (tensor<1x3xf16>, tensor<1x3xf16>) -> tensor<1x3xf16>
      ov.yield %s, %k : tensor<1x3xf16>, tensor<i1>
    }
    func.return %acc : tensor<1x3xf16>
  }
}
"""


def test_loop_cluster_and_f16():
    module = lowpass.read_module(LOOP)
    g = parse_dot(graph_to_dot(module))
    (name,) = [k for k in g.clusters if k != "cluster_legend"]
    label = g.clusters[name]["label"].split("\n")
    assert label[0] == "Loop loop" and "5 iterations" in label
    assert "i: current_iteration" in label and "result 1: condition" in label
    (control,) = [n for n in g.nodes if g.label(n)[1:2] == ["Loop control"]]
    assert "trip_count scalar i64 = 5" in g.label(control)
    assert "execution_condition scalar boolean = true" in g.label(control)
    # the condition result is a body Result (with its folded constant), fed back to the control
    (cond,) = [n for n in g.nodes if g.label(n)[0] == "body Result 1"]
    assert "condition" in g.label(cond) and cond in g.members[name]
    assert (cond, control) in {(t, h) for t, h, _ in g.edges}
    # f16 compute: the third colour; Convert f32 -> f16 is not a dequantization
    add = g.by_type("Add")[0]
    assert g.colour(add) == PRECISION_COLOURS[OTHER]
    assert g.colour(g.by_type("Convert")[0]) == PRECISION_COLOURS[OTHER]


ODD_NAME = 'a"b\\c/d:e{f}g&amp;h \u00e9\u4e2d<i>\nj'


def test_names_are_escaped():
    module = lowpass.read_module(
        """
builtin.module {
  func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
    %y = ov.relu %x : (tensor<2xf32>) -> tensor<2xf32>
    func.return %y : tensor<2xf32>
  }
}
"""
    )
    (function,) = module.ops
    assert isinstance(function, func.FuncOp)
    function.arg_attrs = ArrayAttr([DictionaryAttr({NAME_ATTR: StringAttr(ODD_NAME)})])
    relu = next(op for op in module.walk() if op.name == "ov.relu")
    set_name(relu, ODD_NAME + "/relu")
    dot = graph_to_dot(module)
    g = parse_dot(dot)
    param = next(n for n in g.nodes if n.startswith("param"))
    # the label's lines: the name's two lines, then "Parameter"
    assert "\n".join(g.label(param)[:2]) == ODD_NAME
    relu = next(n for n in g.nodes if n.startswith("op"))
    assert "\n".join(g.label(relu)[:2]) == ODD_NAME + "/relu"
    assert g.nodes[relu]["fillcolor"] == PRECISION_COLOURS[FP32]


def test_write_graph_dot_and_errors(tmp_path, monkeypatch):
    module = example("convnet.mlir")
    out = tmp_path / "convnet.dot"
    write_graph(module, out)
    assert out.read_text() == graph_to_dot(module)
    with pytest.raises(FrontendError, match=r"out\.pdf: error: unknown picture format '\.pdf'"):
        write_graph(module, tmp_path / "out.pdf")
    monkeypatch.setattr(shutil, "which", lambda name: None)
    svg = tmp_path / "out.svg"
    with pytest.raises(FrontendError) as e:
        write_graph(module, svg)
    assert str(e.value) == (
        f"{svg}: error: drawing SVG needs Graphviz's 'dot' program on PATH; write a .dot file "
        "instead or install graphviz"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["convnet.dot"]
    with pytest.raises(FrontendError, match="error: the module must hold a @main function"):
        write_graph(ModuleOp([]), tmp_path / "empty.dot")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["convnet.dot"]


@pytest.mark.skipif(DOT is None, reason="Graphviz's dot is not installed")
def test_write_graph_svg_and_png(tmp_path):
    module = example("qconvnet.mlir")
    run_lpt(module, LptParams())
    svg = tmp_path / "q.svg"
    write_graph(module, svg)
    text = svg.read_text()
    assert "<svg" in text and "conv1" in text and PRECISION_COLOURS[INT8] in text
    png = tmp_path / "q.png"
    write_graph(module, png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["q.png", "q.svg"]


TWO_FUNCTIONS = """
builtin.module {
  func.func @a(%x: tensor<2xf32>) -> tensor<2xf32> {
    %y = ov.relu %x : (tensor<2xf32>) -> tensor<2xf32>
    func.return %y : tensor<2xf32>
  }
  func.func @b(%x: tensor<2xf32>) -> tensor<2xf32> {
    %y = ov.sigmoid %x : (tensor<2xf32>) -> tensor<2xf32>
    func.return %y : tensor<2xf32>
  }
}
"""


def test_function_option():
    module = lowpass.read_module(TWO_FUNCTIONS)
    with pytest.raises(FrontendError, match="exactly one public function, found @a, @b"):
        graph_to_dot(module)
    g = parse_dot(graph_to_dot(module, function="b"))
    assert g.attrs["label"] == "@b"
    assert g.by_type("Sigmoid") and not g.by_type("Relu")
    assert g.label(g.by_type("Sigmoid")[0])[0] == "Sigmoid_0"
    with pytest.raises(FrontendError) as e:
        graph_to_dot(module, function="c")
    assert str(e.value) == "error: no function @c in the module, expected one of @a, @b"


def test_write_graph_failures_leave_nothing(tmp_path, monkeypatch):
    module = example("convnet.mlir")
    with pytest.raises(FrontendError, match=r"x\.dot: error: cannot write: no such folder"):
        write_graph(module, tmp_path / "missing" / "x.dot")
    # a dot program that fails: its first line of stderr in the diagnostic, no file written
    fake = tmp_path / "bin" / "dot"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\ncat > /dev/null\necho 'Error: out of memory' >&2\nexit 3\n")
    fake.chmod(0o755)
    monkeypatch.setattr(shutil, "which", lambda name: str(fake) if name == "dot" else None)
    out = tmp_path / "out" / "x.png"
    out.parent.mkdir()
    with pytest.raises(FrontendError) as e:
        write_graph(module, out)
    assert str(e.value) == f"{out}: error: Graphviz's dot failed (exit 3): Error: out of memory"
    assert list(out.parent.iterdir()) == []
