"""Shared pytest hooks of test/python/ and test/fuzz/."""

from __future__ import annotations

import pytest

# The suite's longest tests (`pytest -n 1 --durations=80`: ten seconds and more each, the
# rest take under five), started first: under `pytest -n 2` a test that starts last keeps
# its worker busy after the other one has finished, and the README page alone takes about
# twice the next longest. Order within each group is kept.
FIRST = (
    "test/python/test_doc_snippets.py::test_page_snippets_run",
    "test/fuzz/test_fuzz.py::test_short_fuzz_run",
    "test/fuzz/test_fuzz.py::test_cache_campaign",
    "test/python/test_scaling.py",
    "test/python/models/",
    "test/python/passes/test_keras_models.py",
    "test/python/passes/lpt/test_convnext.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        return next((i for i, p in enumerate(FIRST) if item.nodeid.startswith(p)), len(FIRST))

    items.sort(key=rank)  # stable
