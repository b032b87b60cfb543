"""Shared helpers of the pytest suite."""

from __future__ import annotations

import numpy as np
import pytest

import lowpass


@pytest.fixture
def core() -> lowpass.Core:
    return lowpass.Core()


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(1234)
