"""
The GraphRewrite driver of LPT.

The driver (`GraphRewrite`) reproduces `ov::pass::GraphRewrite` as LPT uses it
(src/core/src/pass/graph_rewrite.cpp, LayerTransformation::addPattern):

* the ops of the function body are visited once, in topological (block) order, from a queue
  built when the walk starts: no fixpoint iteration;
* on each op the transformations are tried in registration order. LPT's matcher callbacks
  return false whatever the transformation did (`addPattern`), so every matching
  transformation is tried; one that replaced the op leaves nothing for the next ones (they
  skip ops that are no longer in the graph);
* ops passed to `register_new_node` are pushed to the front of the queue and visited next
  (e.g. the quantize FakeQuantize of a decomposition, so FakeQuantizeTransformation fuses the
  preceding dequantization into it).

xDSL's `PatternRewriteWalker` iterates to a fixpoint in its own order, which changes results:
the precision of a group of FakeQuantize ops is fixed by the first one visited, for instance.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable

from xdsl.ir import Block, Operation

from .graph import is_alive
from .transformation import LayerTransformation, TransformationContext


class GraphRewrite:
    """
    One topological walk over a function body trying `transformations` in order on each op
    (see the module docstring). `register_new_node` re-enqueues ops at the front.
    """

    def __init__(self, transformations: Iterable[LayerTransformation]) -> None:
        self.transformations = list(transformations)
        self._queue: deque[Operation] = deque()

    def register_new_node(self, op: Operation) -> None:
        self._queue.appendleft(op)

    def run(self, block: Block, context: TransformationContext) -> bool:
        by_type: dict[type, list[LayerTransformation]] = {}
        self._queue = deque(block.ops)
        changed = False
        previous = context.graph_rewrite
        context.graph_rewrite = self
        try:
            while self._queue:
                op = self._queue.popleft()
                if not is_alive(op):
                    continue
                candidates = by_type.get(type(op))
                if candidates is None:
                    candidates = [t for t in self.transformations if t.matches_type(op)]
                    by_type[type(op)] = candidates
                for t in candidates:
                    if not is_alive(op):
                        break
                    if context.skipped_by_callback(t, op):
                        continue
                    if t.transform(op, context):
                        changed = True
        finally:
            context.graph_rewrite = previous
        return changed
