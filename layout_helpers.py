"""
`lowpass.layout_helpers`, as `openvino.layout_helpers`: the layout of a model's input or output
port (`get_layout(model.input(0))`, `set_layout(port, Layout("NCHW"))`, its Parameter's or
Result's) and where a `Layout` has its named dimensions (`has_batch(layout)`,
`batch_idx(layout)`: N; C, D, H, W likewise). `import lowpass.layout_helpers` works too, which
openvino's, a module of its native library, does not take.
"""

from lowpass.runtime.core import get_layout, set_layout
from lowpass.runtime.preprocess import (
    batch_idx,
    channels_idx,
    depth_idx,
    has_batch,
    has_channels,
    has_depth,
    has_height,
    has_width,
    height_idx,
    width_idx,
)

__all__ = [
    "batch_idx",
    "channels_idx",
    "depth_idx",
    "get_layout",
    "has_batch",
    "has_channels",
    "has_depth",
    "has_height",
    "has_width",
    "height_idx",
    "set_layout",
    "width_idx",
]
