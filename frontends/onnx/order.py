"""
The order in which the ONNX frontend converts a graph's nodes: a topological order, stable.

ONNX asks for the nodes of a graph in topological order, but onnxruntime and OpenVINO read a
graph that is not (onnxruntime's `float16.convert_float_to_float16(keep_io_types=True)`
appends its input Casts after the nodes that read them; a script that `graph.node.extend`s
does the same). `node_order` gives the order in which to convert them: Kahn's algorithm that
always takes the ready node of the smallest index, so a graph already in order keeps its
order (and its names, locations and IR), and an unordered one changes only as far as it must.

A node depends on the nodes of the same graph that produce its inputs and the outer values its
subgraphs (If's branches) read. A name no node of the graph produces is not a dependency: it
is a graph input, an initializer, a value of an enclosing graph or an error that the
converter reports when it reads it ("no node produces it"). Nodes that depend on each other
in a cycle are an error naming one node of the cycle, its input and the cycle.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import onnx


class CycleError(Exception):
    """Nodes that depend on each other: `index` is the node to report, `message` what."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(message)
        self.index = index
        self.message = message


def _describe(node: onnx.NodeProto, index: int) -> str:
    name = node.name or (node.output[0] if node.output else "")
    return f"node '{name}' (#{index}, {node.op_type})"


def _reads(node: onnx.NodeProto) -> list[str]:
    """The names the node reads: its inputs, then the outer values its subgraphs read."""
    names = [n for n in node.input if n]
    for a in node.attribute:
        for g in (*([a.g] if a.HasField("g") else []), *a.graphs):
            for inner in g.node:
                names.extend(_reads(inner))
    return names


def node_order(nodes: Sequence[onnx.NodeProto]) -> list[int]:
    """The indices of `nodes` in a topological order, the smallest ready index first (the
    identity for nodes already in order); raises `CycleError` for nodes in a cycle."""
    producer: dict[str, int] = {}
    for index, node in enumerate(nodes):
        for name in node.output:
            if name:
                producer.setdefault(name, index)
    reads = [_reads(node) for node in nodes]
    readers: list[list[int]] = [[] for _ in nodes]
    waiting = [0] * len(nodes)  # per node: the producers in this graph not yet ordered
    for index, names in enumerate(reads):
        for p in {producer[n] for n in names if n in producer}:
            readers[p].append(index)
            waiting[index] += 1
    ready = [i for i, w in enumerate(waiting) if w == 0]
    heapq.heapify(ready)
    order: list[int] = []
    while ready:
        index = heapq.heappop(ready)
        order.append(index)
        for r in readers[index]:
            waiting[r] -= 1
            if waiting[r] == 0:
                heapq.heappush(ready, r)
    if len(order) < len(nodes):
        raise _cycle(nodes, reads, producer, {i for i, w in enumerate(waiting) if w})
    return order


def _cycle(
    nodes: Sequence[onnx.NodeProto],
    reads: list[list[str]],
    producer: dict[str, int],
    blocked: set[int],
) -> CycleError:
    """The error for the nodes left out of the order: each reads a value of another one left
    out, so walking back from the first of them along such inputs comes round to a cycle."""

    def blocking_input(index: int) -> str:
        return next(n for n in reads[index] if producer.get(n) in blocked)

    path: list[int] = []
    seen: dict[int, int] = {}
    index = min(blocked)
    while index not in seen:
        seen[index] = len(path)
        path.append(index)
        index = producer[blocking_input(index)]
    cycle = path[seen[index]:]
    start = min(cycle)  # reported: the cycle's node that comes first in the file
    k = cycle.index(start)
    cycle = cycle[k:] + cycle[:k]
    # the walk went from readers to producers; the data flows the other way
    flow = [cycle[0], *reversed(cycle[1:]), cycle[0]]
    through = " -> ".join(
        f"'{nodes[i].name or (nodes[i].output[0] if nodes[i].output else '')}'" for i in flow
    )
    name = blocking_input(start)
    return CycleError(
        start,
        f"input '{name}' is produced by {_describe(nodes[producer[name]], producer[name])}, "
        f"which depends on this node: a cycle through {through} (an ONNX graph is acyclic)",
    )


__all__ = ["CycleError", "node_order"]
