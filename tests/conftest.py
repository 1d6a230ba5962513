"""Shared test settings.

Monte Carlo assertions use a fixed seed and a tolerance of ``Z_TOL`` standard
errors (two-sided false-alarm rate 5.7e-7 per check); distribution checks use
Pearson's chi-square with a p-value floor of ``P_FLOOR``.
"""

import numba
import pytest

Z_TOL = 5.0
P_FLOOR = 1e-6


@pytest.fixture
def one_thread():
    """Run the test body on one numba thread, then restore the count."""
    saved = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        yield
    finally:
        numba.set_num_threads(saved)


def pytest_collection_modifyitems(config, items):
    """Run the longest tests first: the notebooks, then the other tests marked slow, then
    the rest, each group in its collected order. The workers of ``-n auto`` then share
    the long tests from the start and end together, instead of one running a notebook
    alone at the end while the other waits."""

    def rank(item) -> int:
        if item.nodeid.startswith("tests/tabletop/test_notebooks.py::test_notebook_runs"):
            return 0
        return 1 if item.get_closest_marker("slow") else 2

    items.sort(key=rank)  # a stable sort: the collected order within each group
