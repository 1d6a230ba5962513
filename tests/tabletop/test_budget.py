"""The shared size check and progress helpers (tabletop.budget)."""

from __future__ import annotations

import io
import itertools
import time

import pytest

from tabletop import budget
from tabletop.budget import Chunks, Estimate, available_memory, check_memory, show_progress


def test_available_memory_is_a_positive_number_of_bytes():
    free = available_memory()
    assert free > 0
    with open("/proc/meminfo") as handle:
        total = next(int(line.split()[1]) * 1024 for line in handle
                     if line.startswith("MemTotal:"))  # fmt: skip
    assert free <= total


def test_a_call_that_fits_passes_and_one_that_does_not_is_refused_in_one_line():
    small = Estimate("demo", 10, {"n": 1})
    assert check_memory(small, available=100) is small
    big = Estimate("demo", 10**12, {"n": 10**11, "record": True}, 3600.0, "n x 10 bytes")
    with pytest.raises(MemoryError) as info:
        check_memory(big, available=8e9)
    text = str(info.value)
    assert "\n" not in text
    assert text.startswith("demo needs about 1.0 TB (n x 10 bytes) and about 60 min but 8.0 GB")
    assert "n=100000000000, record=True" in text
    assert "allow_large=True" in text and "TABLETOP_ALLOW_LARGE=1" in text


def test_allow_large_and_the_environment_variable_go_ahead(monkeypatch):
    big = Estimate("demo", 10**12, {"n": 10**11})
    assert check_memory(big, allow_large=True, available=1) is big
    monkeypatch.setenv(budget.ALLOW_ENV, "1")
    assert check_memory(big, available=1) is big
    monkeypatch.setenv(budget.ALLOW_ENV, "0")
    with pytest.raises(MemoryError):
        check_memory(big, available=1)


def test_allow_large_is_a_bool():
    with pytest.raises(TypeError, match="allow_large must be True or False"):
        check_memory(Estimate("demo", 1), allow_large="yes")


def test_progress_is_off_when_stderr_is_no_terminal_or_when_asked(monkeypatch):
    monkeypatch.setattr("sys.stderr", io.StringIO())
    assert show_progress(None) is False
    assert show_progress(True) is True
    assert show_progress(False) is False
    with pytest.raises(TypeError, match="progress must be True or False"):
        show_progress("no")

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr("sys.stderr", Terminal())
    assert show_progress(None) is True
    monkeypatch.setenv(budget.PROGRESS_ENV, "0")
    assert show_progress(None) is False


def test_a_hidden_bar_writes_nothing(monkeypatch):
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    with budget.progress_bar(10, "demo") as bar:
        bar.update(10)
    assert err.getvalue() == ""


def test_chunks_cover_the_range_in_order_and_follow_the_speed():
    ranges = list(Chunks(1000, first=3, seconds=1e9))
    assert ranges[0] == (0, 3)
    assert all(a[1] == b[0] for a, b in itertools.pairwise(ranges))
    assert ranges[-1][1] == 1000
    sizes = []
    for lo, hi in Chunks(200, first=64, seconds=0.01):
        sizes.append(hi - lo)
        time.sleep(0.001 * (hi - lo))  # 1 ms an item: chunks of about 10 items
    assert sizes[0] == 64 and max(sizes[2:]) <= 16
    assert list(Chunks(0)) == []


def peak_bytes(work) -> int:
    """Peak bytes traced (numpy arrays included) while ``work()`` runs."""
    import tracemalloc

    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


#: An estimate must be within this factor of the measured peak, either way.
ESTIMATE_FACTOR = 1.5


def assert_estimate(estimate, peak: int) -> None:
    ratio = estimate.nbytes / peak
    assert 1 / ESTIMATE_FACTOR <= ratio <= ESTIMATE_FACTOR, (estimate, peak, ratio)


def refused_at_once(call, *words) -> str:
    """The one-line ``MemoryError`` of ``call()``, raised within a second, naming ``words``.

    The first call compiles whatever kernel the size estimate uses (seconds on a cold
    cache, under a loaded machine); the second, timed, is the refusal itself.
    """
    with pytest.raises(MemoryError):
        call()
    began = time.perf_counter()
    with pytest.raises(MemoryError) as info:
        call()
    assert time.perf_counter() - began < 1.0
    text = str(info.value)
    assert "\n" not in text and "allow_large=True" in text
    for word in words:
        assert word in text, (word, text)
    return text


def test_a_long_call_shows_its_bar_when_asked(capsys):
    from commander import Rules
    from commander.market import price_table

    price_table(Rules(), 50, progress=True)
    assert "commander price table" in capsys.readouterr().err
    price_table(Rules(), 50)  # stderr is no terminal here: no bar
    assert capsys.readouterr().err == ""


def _ended(pid: int) -> bool:
    """Whether process ``pid`` has ended: gone, or a zombie not yet reaped (Linux)."""
    from pathlib import Path

    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def test_stop_pool_ends_a_busy_worker_at_once():
    """A worker busy with a long task is terminated, not waited for (a pool's own
    shutdown waits for the task: 45 s in a sweep of duel solves)."""
    import concurrent.futures as cf
    import multiprocessing
    import time

    from tabletop.budget import quiet_resource_tracker, stop_pool

    quiet_resource_tracker()
    pool = cf.ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    busy = pool.submit(time.sleep, 60)
    waiting = pool.submit(time.sleep, 60)
    while not busy.running():
        time.sleep(0.01)
    workers = list(pool._processes.values())
    start = time.monotonic()
    stop_pool(pool)
    assert time.monotonic() - start < 5
    # asked of the system: ``is_alive`` can say True for a worker that the pool's own
    # thread has just reaped (its ``waitpid`` then fails here and reads as "running")
    assert workers and all(_ended(w.pid) for w in workers)
    del waiting  # queued behind the busy task: cancelled or failed by the broken pool
