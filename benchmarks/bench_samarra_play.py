"""Played games of Ce soir, à Samarra with hidden information: games per second.

Each agent pairing plays the same seeded games on the 3 × 5 board (``max_actions``
200, as in the report's tournament) twice: through the reference path, where every
position the engine builds goes through ``Position``'s checks and every table lookup
through ``samarra.solve.state_of`` and the kernel's ``encode``
(``samarra.position.checked_positions``), and through the fast path (positions built
from a checked one without checking them again, lookups in plain Python). The two
runs must give the same games (the script stops otherwise); it prints games per
second of each, side by side, and their ratio. The time is the process's CPU time,
which other work on a shared machine disturbs less than the wall clock (the games run
in one thread).

With ``--baseline DIR`` (a checkout of an earlier version, e.g. ``git worktree add
/tmp/before <commit>``) the same games are also played by that version's code, in a
subprocess, and shown in a third column.

Run: ``.venv/bin/python benchmarks/bench_samarra_play.py`` (about 3 minutes), or
``--games 10`` for a quick look.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import time


def make_agents() -> dict:
    """The agents of the pairings, on the solved 3 × 5 table (cached on disk)."""
    from samarra import DeterminizingAgent, GreedyAgent, ISMCTSAgent, RandomAgent, Rules, solve

    table = solve(Rules())
    return {"random": RandomAgent(), "greedy": GreedyAgent(),
            "determinizing": DeterminizingAgent(table),
            "no merchant": DeterminizingAgent(table, use_merchant=False),
            "ismcts": ISMCTSAgent(table, iterations=60, depth=3)}  # fmt: skip


PAIRINGS = [("random", "random"), ("greedy", "greedy"), ("determinizing", "random"),
            ("determinizing", "greedy"), ("determinizing", "determinizing"),
            ("determinizing", "no merchant"), ("ismcts", "determinizing")]  # fmt: skip

# played by the baseline's code: its folder first on the path, this file's folder last
_BASELINE = """
import json, sys, time
sys.path.append(sys.argv[2])
from bench_samarra_play import make_agents
from samarra import Rules
from samarra.simulate import play_games
agents = make_agents()
rules = Rules(max_actions=200)
play_games(rules, agents["determinizing"], agents["random"], 2, seed=0)
out = {}
for black, white, n in json.loads(sys.argv[1]):
    start = time.process_time()
    games = play_games(rules, agents[black], agents[white], n, seed=2026)
    out[black + "/" + white] = [n / (time.process_time() - start), games.to_json()]
print(json.dumps(out))
"""


def games_of(black: str, white: str, n_games: int) -> int:
    return max(2, n_games // 4) if "ismcts" in (black, white) else n_games


def baseline(folder: str, n_games: int) -> dict:
    """Games per CPU second (and the games) of the code in ``folder``, per pairing."""
    plan = [(b, w, games_of(b, w, n_games)) for b, w in PAIRINGS]
    folder = os.path.abspath(folder)
    here = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, PYTHONPATH=folder)
    out = subprocess.run([sys.executable, "-c", _BASELINE, json.dumps(plan), here], env=env,
                         cwd=folder, capture_output=True, text=True, check=True)  # fmt: skip
    return json.loads(out.stdout.splitlines()[-1])


def main() -> None:
    import pandas as pd

    from samarra import Rules
    from samarra.position import checked_positions
    from samarra.simulate import play_games

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40,
                        help="games per pairing and path (default 40; IS-MCTS plays a quarter)")
    parser.add_argument("--baseline", default=None,
                        help="a checkout of an earlier version, played in a third column")
    args = parser.parse_args()
    rules = Rules(max_actions=200)
    agents = make_agents()
    before = baseline(args.baseline, args.games) if args.baseline else None
    play_games(rules, agents["determinizing"], agents["random"], 2, seed=0)  # warm-up
    print(f"3 x 5, max_actions 200, {args.games} games per pairing (IS-MCTS: a quarter); "
          "games per CPU second")
    print(f"{'black':>14} {'white':>14} {'games':>6} {'actions':>8} "
          + (f"{'baseline':>10} " if before else "")
          + f"{'checked':>10} {'fast':>10} {'ratio':>7}" + (f" {'vs base':>8}" if before else ""))
    for black, white in PAIRINGS:
        n = games_of(black, white, args.games)
        runs = {}
        for path in ("checked", "fast"):
            start = time.process_time()
            if path == "checked":
                with checked_positions():
                    games = play_games(rules, agents[black], agents[white], n, seed=2026)
            else:
                games = play_games(rules, agents[black], agents[white], n, seed=2026)
            runs[path] = (games, time.process_time() - start)
        if not runs["checked"][0].equals(runs["fast"][0]):
            raise SystemExit(f"{black} against {white}: the two paths played different games")
        rate = {path: n / seconds for path, (_, seconds) in runs.items()}
        actions = int(runs["fast"][0]["actions"].sum())
        base = ""
        if before:
            base_rate, base_games = before[f"{black}/{white}"]
            base_games = pd.read_json(io.StringIO(base_games)).rename_axis("game")
            if not base_games.equals(runs["fast"][0]):
                raise SystemExit(f"{black} against {white}: the baseline played other games")
            base = f"{base_rate:>10.1f} "
        line = (f"{black:>14} {white:>14} {n:>6} {actions:>8} {base}{rate['checked']:>10.1f} "
                f"{rate['fast']:>10.1f} {rate['fast'] / rate['checked']:>6.1f}x")
        if before:
            line += f" {rate['fast'] / base_rate:>7.1f}x"
        print(line, flush=True)


if __name__ == "__main__":
    main()
