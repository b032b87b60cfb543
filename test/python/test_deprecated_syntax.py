"""The deprecation path of enum properties written as strings (issue 38): read as the enum's
value through the Python API, with one `DeprecatedSyntaxWarning` per property."""

from __future__ import annotations

import warnings

import pytest
from xdsl.utils.exceptions import ParseError

from lowpass.dialects import ov
from lowpass.ir import DeprecatedSyntaxWarning, print_module, read_module

OLD = """func.func @f(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  %0 = ov.max_pool %x {strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, kernel = array<i64: 2, 2>, rounding_type = "ceil", auto_pad = "valid"} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  func.return %0 : tensor<1x1x2x2xf32>
}
"""  # noqa: E501


def test_old_strings_are_read_with_a_warning() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = read_module(OLD)
    messages = [str(w.message) for w in caught if issubclass(w.category, DeprecatedSyntaxWarning)]
    assert len(messages) == 2
    assert messages[0].startswith("<string>:2:3: warning: 'ov.max_pool' op rounding_type = "
                                  '"ceil" (a string) is deprecated')  # fmt: skip
    pool = next(op for op in module.walk() if isinstance(op, ov.MaxPoolOp))
    assert pool.rounding_type.data == ov.RoundingType.CEIL
    assert pool.auto_pad.data == ov.AutoPad.VALID
    # printed in the current spelling, which reads back without a warning
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecatedSyntaxWarning)
        read_module(print_module(module))


def test_a_string_that_is_no_value_is_still_an_error() -> None:
    with pytest.raises(ParseError, match=r'"round" should be of base attribute ov\.rounding_type'):
        read_module(OLD.replace('"ceil"', '"round"'))
