"""Ctrl-C during long work: each long call, run in a subprocess, ends within 2 s of a
SIGINT with ``KeyboardInterrupt`` (the command line: one line and exit code 130),
leaving no child process and no file behind.

Each script warms its kernels on a small case (compiled code is cached on disk) and
prints ``ready`` before the long call; the test waits for it, lets the long call run
for :data:`RUNNING` seconds, then interrupts it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Seconds the long call runs before the interrupt.
RUNNING = 2.0

#: Seconds allowed from the interrupt to the end of the call (its ``KeyboardInterrupt``
#: at the top of the script, or the command line's one line).
LATENCY = 2.0

pytestmark = pytest.mark.faults

CASES = {
    "panache duel from 3000 points": """
        from panache import Rules, solve_duel
        solve_duel(Rules(n_players=2, start_points=6, n_dice=3))
        READY()
        solve_duel(Rules(n_players=2, start_points=3000))
    """,
    "samarra solve of 3 x 4": """
        from samarra import Rules, solve
        solve(Rules(length=3), directory=FOLDER)
        READY()
        solve(Rules(length=4), directory=FOLDER)
    """,
    "samarra horizon to a huge maximum": """
        from samarra import Rules, solve, solve_horizon
        table = solve(Rules(length=3), directory=FOLDER)
        solve_horizon(table=table, max_horizon=1)
        READY()
        solve_horizon(table=table, max_horizon=10**5)
    """,
    "citadel games of long chains of rounds": """
        from citadel import Rules, simulate_games
        rules = Rules(radius=50, max_rounds=10**6)
        simulate_games(rules, "random", 10, seed=1)
        READY()
        simulate_games(rules, "random", 10**6, seed=1)
    """,
    "commander price table of a huge stock": """
        from commander import Rules
        from commander.market import price_table
        price_table(Rules(), 10)
        READY()
        price_table(Rules(), 5 * 10**7)
    """,
    "commander economy of ten million games": """
        from commander import Rules, simulate_economy
        from commander.cards import load_cards, load_decks
        cards = load_cards()
        decks = load_decks(cards=cards)
        two = [decks["spanish_sample"], decks["ghost_sample"]]
        simulate_economy(Rules(), two, cards, n=10, seed=1)
        READY()
        simulate_economy(Rules(), two, cards, n=10**7, seed=1)
    """,
    "panache games of two million": """
        from panache import Agent, Rules, simulate_games
        agents = [Agent.heuristic(), Agent.random()]
        simulate_games(Rules(), agents, 10, seed=1)
        READY()
        simulate_games(Rules(), agents, 2 * 10**6, seed=1)
    """,
    "panache three players from 12 points": """
        from panache import Rules, solve_three
        solve_three(Rules(start_points=4, n_dice=2))
        READY()
        solve_three(Rules(start_points=12))
    """,
    "commander race table over 1000 turns": """
        from commander import Rules
        from commander.race import race_table, solve_race
        solve_race(Rules(), gold=0, doublons=5, stock=10, income=4)
        race_table(Rules(), doublons=5, income=4, horizon=2, total=3)
        READY()
        race_table(Rules(), doublons=5, income=4, horizon=1000, total=200)
    """,
}

# ---- long calls audited since: whole games of 10**6 rounds, Samarra's games and
# tournaments, the Citadel two-sided, coalition and stalling solves, Panache's
# committed duel, rule search and player sheet
CASES.update({
    "citadel games of a million rounds each": """
        from citadel import Rules, simulate_games
        rules = Rules(radius=50, max_rounds=10**6)
        simulate_games(rules, "saver", 2, seed=1)
        READY()
        simulate_games(rules, ["random", "saver", "saver", "saver"], 100, seed=1)
    """,
    "citadel two sides on the default board": """
        from citadel import Rules, solve_sides
        solve_sides(Rules(radius=1, capital=10, bid_step=5), "NE")
        READY()
        solve_sides(Rules(), "NE")
    """,
    "citadel coalition values on the default board": """
        from citadel import Rules, coalition_values
        coalition_values(Rules(radius=1, capital=5, bid_step=5))
        READY()
        coalition_values(Rules())
    """,
    "panache committed duel from 400 points": """
        from panache import Rules
        from panache.committed import committed_duel
        committed_duel(Rules(n_players=2, start_points=6, n_dice=3))
        READY()
        committed_duel(Rules(n_players=2, start_points=400))
    """,
    "citadel regret matching of 10**12 iterations": """
        import numpy as np
        from citadel import regret_matching
        rps = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], dtype=float)
        regret_matching([rps, -rps], 10)
        READY()
        regret_matching([rps, -rps], 10**12)
    """,
    "samarra tournament of a million games a pairing": """
        from samarra import GreedyAgent, RandomAgent, Rules, tournament
        agents = {"random": RandomAgent(), "greedy": GreedyAgent()}
        tournament(Rules(length=3), agents, 2, seed=1)
        READY()
        tournament(Rules(length=4), agents, 10**6, seed=1)
    """,
})

PRELUDE = """
import sys
FOLDER = sys.argv[1]
def READY():
    print("ready", flush=True)
"""


def _children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (read from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


class _StderrLines:
    """Lines of a process's stderr, each with the ``time.monotonic()`` it arrived at,
    read in a background thread (so the reader never blocks the test's clock)."""

    def __init__(self, stream):
        self.lines: list[tuple[float, str]] = []
        self._arrived = threading.Condition()
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream) -> None:
        for line in stream:
            with self._arrived:
                self.lines.append((time.monotonic(), line))
                self._arrived.notify_all()
        with self._arrived:
            self.lines.append((time.monotonic(), ""))  # end of the stream
            self._arrived.notify_all()

    def wait_for(self, text: str) -> str:
        """Everything read up to the first line holding ``text`` (fails at the end)."""
        with self._arrived:
            while True:
                seen = "".join(line for _, line in self.lines)
                assert not self.lines or self.lines[-1][1] or text in seen, (
                    "the command ended before announcing", seen)  # fmt: skip
                if text in seen:
                    return seen
                self._arrived.wait()

    def ended_after(self, moment: float) -> float | None:
        """Arrival time of the first traceback or ``error:`` line read after ``moment``
        (None if none): the moment the call's exception reached the top."""
        with self._arrived:
            return next((t for t, line in self.lines if t >= moment and line.startswith(
                ("Traceback (most recent call last)", "error: "))), None)  # fmt: skip

    def text(self) -> str:
        self._thread.join(timeout=10)
        return "".join(line for _, line in self.lines)


def _interrupt(argv: list[str], tmp_path: Path, ready_timeout: float = 240.0,
               announced: str | None = None, workers: bool = False,
               running: float = RUNNING):  # fmt: skip
    """Start ``argv``, wait for ``ready`` (or RUNNING s when not None), interrupt it.
    With ``announced``, the interrupt waits first for a line of stderr holding that
    text (a command line's estimate, printed once its modules are loaded); with
    ``workers``, for a child process (a pool's worker, started once ``main`` runs).
    The interrupt comes ``running`` seconds after that.

    Returns the exit code, stderr, the seconds from SIGINT to the end of the call and
    the children seen just before the interrupt. The call has ended when its
    ``KeyboardInterrupt`` reaches the top (the first line of stderr after the SIGINT:
    the traceback, or a command line's one line); the interpreter's own exit after it
    (collecting what numba made, a second or more on a loaded machine) is not the
    call's, and only has to finish within ``10 * LATENCY``.
    """
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TABLETOP_PROGRESS": "0"}
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=tmp_path, env=env, start_new_session=True)  # fmt: skip
    stderr = _StderrLines(proc.stderr)
    try:
        if argv[1] == "-c":
            start = time.monotonic()
            line = proc.stdout.readline()
            assert line.strip() == "ready", (line, stderr.text()[-2000:])
            assert time.monotonic() - start < ready_timeout
        if announced is not None:
            stderr.wait_for(announced)
        waited = time.monotonic()
        while workers and not _children(proc.pid):
            assert proc.poll() is None, ("the command ended before its workers started",
                                         stderr.text()[-2000:])
            assert time.monotonic() - waited < ready_timeout, "no worker started"
            time.sleep(0.1)
        time.sleep(running)
        assert proc.poll() is None, "the long call ended before the interrupt"
        children = _children(proc.pid)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=10 * LATENCY)
        err = stderr.text()
        ended = stderr.ended_after(sent)
        assert ended is not None, ("nothing on stderr after the interrupt", err[-2000:])
        return proc.returncode, err, ended - sent, children
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()


@pytest.mark.parametrize("name", sorted(CASES))
def test_sigint_ends_a_long_call_within_2_s(name, tmp_path):
    folder = tmp_path / "cache"
    folder.mkdir()
    script = PRELUDE + textwrap.dedent(CASES[name])
    before = sorted(p.name for p in folder.iterdir())
    code, err, latency, children = _interrupt([sys.executable, "-c", script, str(folder)],
                                              tmp_path)  # fmt: skip
    assert "KeyboardInterrupt" in err.strip().splitlines()[-1], err[-2000:]
    assert code != 0
    assert latency < LATENCY, f"{name}: {latency:.2f} s from SIGINT to the end of the call"
    assert not [pid for pid in children if _alive(pid)]
    # a table's lock file (tabletop.files.computing_once) stays by design; it holds nothing
    after = sorted(p.name for p in folder.iterdir() if not p.name.endswith(".lock"))
    warm = [n for n in after if n not in before]
    assert all(n.endswith(".npz") for n in warm), warm  # no partial or temporary file
    assert len(warm) <= 1, warm  # only the warm-up's table


def test_sigint_while_a_kernel_compiles_ends_the_call_at_once(tmp_path, monkeypatch):
    """A long call's first kernel call compiles the kernel, for tens of seconds on a
    cold cache (a fresh clone); a SIGINT then ends the call within LATENCY, raised by
    the handler that holds Ctrl-C back between chunks (it finds numba's compiler at
    work, not a kernel), not after the compile."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))  # a cold cache
    script = PRELUDE + textwrap.dedent("""
        from numba.core import event

        from citadel import Rules, simulate_games

        class Announce(event.Listener):
            def on_start(self, ev):
                if ev.data["dispatcher"].py_func.__name__ == "advance_games_kernel":
                    READY()  # the simulator's kernel starts compiling

            def on_end(self, ev):
                pass

        event.register("numba:compile", Announce())
        simulate_games(Rules(), "random", 10**6, seed=1)
    """)
    code, err, latency, _ = _interrupt([sys.executable, "-c", script, str(tmp_path)],
                                       tmp_path, running=0.2)  # fmt: skip
    lines = err.strip().splitlines()
    assert lines[-1] == "KeyboardInterrupt", err[-2000:]
    assert "_compile_for_args" in err and lines[-2].strip() == "raise KeyboardInterrupt"
    assert "in _interrupt_when_safe" in lines[-3], err[-2000:]  # not at the next chunk
    assert code != 0
    assert latency < LATENCY, f"{latency:.2f} s from SIGINT to the end of the call"


def test_sigint_ends_citadel_solve_with_its_defaults(tmp_path):
    """``python -m citadel solve --directions all`` (the duel as written, every
    integer capital and the eight directions: about 20 minutes) says so first and
    stops on Ctrl-C with one line and exit code 130."""
    argv = [sys.executable, "-m", "citadel", "solve", "--directions", "all"]
    code, err, latency, children = _interrupt(argv, tmp_path, announced="about")
    lines = err.strip().splitlines()
    assert code == 130
    assert lines[-1] == "error: interrupted"
    assert any("about" in line and "min" in line for line in lines[:-1]), err
    assert latency < LATENCY, f"citadel solve: {latency:.2f} s from SIGINT to the end of the call"
    assert not [pid for pid in children if _alive(pid)]



#: Shared libraries whose loading marks a command line's import under way: numpy's
#: core (imported by ``tabletop`` after its Ctrl-C hook) and numba's helpers.
LOADING = ("_multiarray_umath", "numba/_helperlib")


def _wait_for_library(pid: int, name: str, timeout: float = 60.0) -> bool:
    """Wait until process ``pid`` has mapped a file whose path holds ``name``."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if name in Path(f"/proc/{pid}/maps").read_text():
                return True
        except OSError:
            return False
        time.sleep(0.002)
    return False


@pytest.mark.parametrize("library", LOADING)
@pytest.mark.parametrize("game", ["panache", "citadel", "samarra", "commander"])
def test_sigint_while_a_command_line_loads_ends_in_one_line(game, library, tmp_path):
    """Ctrl-C before ``main`` runs (while numpy, numba and the game's modules load)
    prints one line and ends the process as interrupted, with no traceback."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TABLETOP_PROGRESS": "0"}
    proc = subprocess.Popen([sys.executable, "-m", game, "--help"], text=True, cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        assert _wait_for_library(proc.pid, library)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10 * LATENCY)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert err == "error: interrupted\n", err[-2000:]
    assert out == ""  # main never ran
    assert proc.returncode == -signal.SIGINT  # Python's exit on a Ctrl-C: 130 in a shell


def test_sigint_ends_a_sweep_with_busy_workers(tmp_path):
    """``python -m panache sweep`` on two worker processes, each inside a long duel solve
    (a compiled kernel that sees no Ctrl-C until it returns): the pool's workers are
    terminated, so the command ends in one line within 2 s (it took 45 s when the
    pool's exit waited for the running tasks), with no child left."""
    argv = [sys.executable, "-m", "panache", "sweep", "--analysis", "duel", "--grid",
            "start_points=200,201,202,203", "--jobs", "2", "--seed", "1"]  # fmt: skip
    start = time.monotonic()
    code, err, latency, children = _interrupt(argv, tmp_path, workers=True)
    assert time.monotonic() - start > RUNNING
    assert code == 130
    assert err.strip().splitlines() == ["error: interrupted"], err[-2000:]
    assert latency < LATENCY, f"sweep: {latency:.2f} s from SIGINT to the end of the call"
    assert children, "the sweep had no worker processes"
    # multiprocessing's resource tracker ends on its own when its parent's pipe closes
    deadline = time.monotonic() + LATENCY
    while [pid for pid in children if _alive(pid)] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in children if _alive(pid)]
