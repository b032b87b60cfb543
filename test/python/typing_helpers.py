"""
Types that the tests share, for pyright (`.ci/typecheck`). A test imports them under
`if TYPE_CHECKING:` and uses them in annotations only (which `from __future__ import
annotations` leaves unevaluated), so that pytest never imports this module.
"""

from __future__ import annotations

from typing import TypedDict


class Tolerance(TypedDict):
    """The keywords of `np.testing.assert_allclose(actual, desired, **tol)`."""

    rtol: float
    atol: float
