"""Played games of Ce soir, à Samarra with hidden information, and tournaments.

A game starts from uniformly random setups (or given ones); each side's agent sees
only its :class:`samarra.agents.View` and chooses among its legal actions; the game
ends and is adjudicated as docs/rules.md says (:class:`samarra.engine.Game`). A
tournament plays every ordered pair of agents (the first named plays Black) and
reports the shares of Black wins, draws and White wins with Wilson 95 % intervals.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from samarra.agents import View, check_agent, options, to_action
from samarra.engine import Game, GameResult
from samarra.information import public_token
from samarra.position import setups, start_position
from samarra.rules import Rules
from tabletop.seeding import as_generator, check_count
from tabletop.stats import proportion_ci
from tabletop.validate import check_instance

if TYPE_CHECKING:
    import pandas as pd


def _check_agents(black, white) -> None:
    """Black and White are agents: objects with a ``choose(view, actions, rng)`` method."""
    for name, agent in (("black", black), ("white", white)):
        check_agent(name, agent)



def play_game(rules: Rules, black, white, rng: random.Random, black_setup: str | None = None,
              white_setup: str | None = None) -> tuple[GameResult, str, str]:  # fmt: skip
    """One game between two agents; returns the result and the two setups.

    Each agent chooses from its :class:`samarra.agents.View` of the position and the
    legal :func:`samarra.agents.options`. An agent with an ``observe`` method is also
    told the game's history as its side sees it, and nothing more:

    * ``observe(rules, side, setup, None)`` before the first action: a new game, in
      which the agent plays ``side`` (0 Black, 1 White) from its own ``setup``;
    * ``observe(rules, side, setup, token)`` after every action played, by either side,
      with ``token`` = :func:`samarra.information.public_token` of the action: who
      acted, the kind of action, the cell the acting figure left and its target cell
      (a power's target by its cell), the public board after it (hidden tents as ``B``
      / ``W``, revealed identities as letters) and the winner if it ended the game.

    The enemy's setup and the identity of an enemy figure that is moved or killed while
    hidden are in none of them. An agent that plays both sides is told both sides'
    calls.

    Parameters
    ----------
    rules : Rules
    black, white : agent
        Objects with a ``choose(view, options, rng)`` method (``samarra.agents``),
        Black's and White's.
    rng : random.Random
        The one generator of the game: the setups drawn and every agent's choices.
    black_setup, white_setup : str, optional
        A setup of :func:`samarra.position.setups` (default: drawn uniformly).

    Returns
    -------
    result : GameResult
        How the game ended (winner, reason, actions played, final position).
    black_setup, white_setup : str
        The setups played.

    Examples
    --------
    >>> from samarra.agents import RandomAgent
    >>> result, b, w = play_game(Rules(length=3), RandomAgent(), RandomAgent(), random.Random(1))
    >>> result.winner in (None, 0, 1)
    True
    """
    rules = Rules.check(rules, default=False)
    check_instance("rng", rng, random.Random)
    _check_agents(black, white)
    names = setups(rules)
    for name, setup in (("black_setup", black_setup), ("white_setup", white_setup)):
        if setup is not None and setup not in names:
            raise ValueError(f"{name} must be None (drawn) or one of the setups "
                             f"{', '.join(names)}, got {setup!r:.80}")  # fmt: skip
    b = rng.choice(names) if black_setup is None else black_setup
    w = rng.choice(names) if white_setup is None else white_setup
    game = Game(start_position(rules, b, w))
    agents = (black, white)
    watchers = [(side, (b, w)[side], agent.observe) for side, agent in enumerate(agents)
                if callable(getattr(agent, "observe", None))]  # fmt: skip
    for side, setup, observe in watchers:
        observe(rules, side, setup, None)
    while game.result is None:
        p = game.position
        choice = agents[p.to_move].choose(View.of(p, p.to_move), options(p), rng)
        action = to_action(p, choice)
        game.play(action)
        if watchers:
            token = public_token(p, action, game.position)
            for side, setup, observe in watchers:
                observe(rules, side, setup, token)
    return game.result, b, w


def play_games(rules: Rules, black, white, n_games: int, seed=None, *,
               allow_large: bool = False,
               progress: bool | None = None) -> pd.DataFrame:  # fmt: skip
    """``n_games`` games; one row each: setups, winner (-1 draw), reason, actions.

    The games are played one by one in Python, so Ctrl-C stops them between two
    moves; ``n_games`` whose rows (:func:`games_size`) exceed the memory available are
    refused before the first game unless ``allow_large=True``. ``progress`` shows a
    bar (default: when stderr is a terminal).

    Parameters
    ----------
    rules : Rules
    black, white : agent
        Objects with a ``choose(view, options, rng)`` method (``samarra.agents``).
    n_games : int
        Games to play, at least 1.
    seed : None, int, SeedSequence or Generator
        Seeds the one :class:`random.Random` of all the games (setups and choices).
    allow_large : bool
        Play even when the rows exceed the memory available (default False).
    progress : bool, optional
        Show a progress bar (default: when stderr is a terminal).

    Returns
    -------
    pandas.DataFrame
        One row per game (index ``game``): ``black setup``, ``white setup``,
        ``winner`` (0 Black, 1 White, -1 draw), ``reason`` (as
        :class:`samarra.engine.GameResult`), ``actions`` played.

    Examples
    --------
    >>> from samarra.agents import RandomAgent
    >>> play_games(Rules(length=3), RandomAgent(), RandomAgent(), 3, seed=1).columns.tolist()
    ['black setup', 'white setup', 'winner', 'reason', 'actions']
    """
    from tabletop.budget import check_memory, progress_bar, show_progress
    from tabletop.validate import check_bool

    rules = Rules.check(rules, default=False)
    n_games = check_count("n_games", n_games, 1)
    _check_agents(black, white)
    allow_large = check_bool("allow_large", allow_large)
    show_progress(progress)
    check_memory(games_size(n_games), allow_large)
    with progress_bar(n_games, "samarra games", progress, "game") as bar:
        return _play(rules, black, white, n_games, seed, bar)


def _play(rules, black, white, n_games, seed, bar) -> pd.DataFrame:
    """The games of :func:`play_games`, each counted on ``bar`` as it ends."""
    import pandas as pd

    rng = random.Random(int(as_generator(seed).integers(2**63)))
    rows = []
    for _ in range(n_games):
        result, b, w = play_game(rules, black, white, rng)
        rows.append({"black setup": b, "white setup": w,
                     "winner": -1 if result.winner is None else result.winner,
                     "reason": result.reason, "actions": result.n_actions})  # fmt: skip
        bar.update(1)
    return pd.DataFrame(rows).rename_axis("game")


#: Peak bytes per game of :func:`play_games` (its row, then the DataFrame built from
#: the rows), measured with tracemalloc: 390 to 520 on 3 x 3, 690 on 3 x 4.
GAME_BYTES = 500

#: Seconds per game of two random agents on the 2-core reference machine (24 ms on
#: 3 x 3, 35 ms on 3 x 4); searching agents take longer.
GAME_SECONDS = 0.03


def games_size(n_games: int):
    """Memory and time of :func:`play_games` (and of each pairing of :func:`tournament`).

    Examples
    --------
    >>> games_size(1000).nbytes
    500000
    """
    from tabletop.budget import Estimate

    return Estimate("samarra.play_games", n_games * GAME_BYTES, {"n_games": n_games},
                    n_games * GAME_SECONDS, f"{n_games:,} games x {GAME_BYTES} bytes")  # fmt: skip


def tournament(rules: Rules, agents: dict, n_games: int, seed=None,
               pairings: list | None = None, *, allow_large: bool = False,
               progress: bool | None = None) -> pd.DataFrame:  # fmt: skip
    """Every ordered pair of ``agents`` (name -> agent), ``n_games`` games each.

    ``pairings`` (a list of (black name, white name)) restricts the pairs played.
    ``allow_large`` and ``progress`` as for :func:`play_games` (one bar over every
    game of the tournament).

    Parameters
    ----------
    rules : Rules
    agents : dict
        Name -> agent (an object with a ``choose(view, options, rng)`` method).
    n_games : int
        Games per pairing, at least 1.
    seed : None, int, SeedSequence or Generator
        Seeds every pairing's games.
    pairings : list of (str, str), optional
        The (Black, White) name pairs to play (default: every ordered pair, each
        agent against itself included).
    allow_large : bool
        Play even when one pairing's rows exceed the memory available (default
        False).
    progress : bool, optional
        Show a progress bar (default: when stderr is a terminal).

    Returns
    -------
    pandas.DataFrame
        Indexed by (black, white): games, shares of Black wins, draws and White wins,
        Wilson 95 % bounds of Black's share, mean actions (columns ``games``,
        ``black wins``, ``draws``, ``white wins``, ``black wins low``, ``black wins
        high``, ``mean actions``).

    Examples
    --------
    >>> from samarra.agents import GreedyAgent, RandomAgent
    >>> agents = {"random": RandomAgent(), "greedy": GreedyAgent()}
    >>> tournament(Rules(length=3), agents, 4, seed=0).shape
    (4, 7)
    """
    import pandas as pd

    rules = Rules.check(rules, default=False)
    if not isinstance(agents, dict) or len(agents) < 1:
        raise ValueError(f"agents must be a non-empty dict name -> agent, got {agents!r}")
    for name, agent in agents.items():
        check_agent(f"agents[{name!r}]", agent)
    if pairings is None:
        pairings = [(b, w) for b in agents for w in agents]
    if isinstance(pairings, str | bytes) or not hasattr(pairings, "__iter__"):
        raise TypeError(f"pairings must be a list of (black name, white name) or None, got "
                        f"{pairings!r:.80}")  # fmt: skip
    pairings = list(pairings)
    if not pairings:
        raise ValueError("pairings must name at least one (black name, white name) pair, "
                         "got []; None plays every pair")  # fmt: skip
    for pair in pairings:
        if not isinstance(pair, tuple | list) or len(pair) != 2 or pair[0] not in agents \
                or pair[1] not in agents:  # fmt: skip
            raise ValueError(f"pairings must name agents of {list(agents)}, got {pair!r}")
    from tabletop.budget import check_memory, progress_bar, show_progress
    from tabletop.validate import check_bool

    n_games = check_count("n_games", n_games, 1)
    allow_large = check_bool("allow_large", allow_large)
    show_progress(progress)
    check_memory(games_size(n_games), allow_large)  # one pairing's games at a time
    rows = {}
    seeds = as_generator(seed)
    bar = progress_bar(n_games * len(pairings), "samarra tournament", progress, "game")
    with bar:
        for b_name, w_name in pairings:
            rows[(b_name, w_name)] = _pairing(rules, agents, b_name, w_name, n_games, seeds,
                                              bar)  # fmt: skip
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.index = pd.MultiIndex.from_tuples(out.index, names=["black", "white"])
    return out


def _pairing(rules, agents, b_name, w_name, n_games, seeds, bar) -> dict:
    """One row of :func:`tournament`."""
    black, white = agents[b_name], agents[w_name]
    _check_agents(black, white)
    games = _play(rules, black, white, n_games, seeds, bar)
    wins = int((games["winner"] == 0).sum())
    low, high = proportion_ci(wins, n_games)
    return {
        "games": n_games, "black wins": wins / n_games,
        "draws": float((games["winner"] == -1).mean()),
        "white wins": float((games["winner"] == 1).mean()),
        "black wins low": low, "black wins high": high,
        "mean actions": float(games["actions"].mean()),
    }  # fmt: skip


def sample_games(rules: Rules, n_games: int, seed=None) -> pd.DataFrame:
    """``n_games`` games of two random agents: a small seeded run (the checks over every
    game; the played games run in plain Python, on one thread).

    Examples
    --------
    >>> len(sample_games(Rules(length=3), 5, seed=1))
    5
    """
    from samarra.agents import RandomAgent

    return play_games(rules, RandomAgent(), RandomAgent(), n_games, seed=seed)
