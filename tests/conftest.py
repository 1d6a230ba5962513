"""Shared test settings.

Monte Carlo assertions use a fixed seed and a tolerance of ``Z_TOL`` standard
errors (two-sided false-alarm rate 5.7e-7 per check); distribution checks use
Pearson's chi-square with a p-value floor of ``P_FLOOR``.
"""

import signal

import numba
import pytest

Z_TOL = 5.0
P_FLOOR = 1e-6

# A test run started in the background by a non-interactive shell (``make test &``)
# inherits SIGINT ignored, and so would every process the tests start: the Ctrl-C tests
# would wait for an interrupt that never comes. The tests' processes take Python's own
# handler instead, which their children get back as the default action.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture
def one_thread():
    """Run the test body on one numba thread, then restore the count."""
    saved = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        yield
    finally:
        numba.set_num_threads(saved)

