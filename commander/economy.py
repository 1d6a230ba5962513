"""The economy model: 2-5 players' purses turn by turn, simulated with numba.

Each player brings a deck (lair income and value, a crew pile, an exploration pile,
an adventure deck whose agreements yield income and whose items and supports give a
conquest bonus; all from card data, see ``commander.cards``) and a :class:`Strategy`.
The turn is the one of ``commander.engine`` (docs/rules.md, Turn phases: collect,
main phase with attachments, an agreement, a raid or an exploration, one transaction,
recruitment paid in gold, one new card). The game is deterministic once the piles
are shuffled, so a game's randomness is the order of each player's three piles
(shuffled as they are drawn from: partial Fisher-Yates);
games are cut into chunks of ``chunk_size``, chunk ``c`` seeded by the ``c``-th
child of ``seed`` (``tabletop.seeding.chunk_seeds``): results do not depend on the
number of threads.

Outputs: the winning seat, player and round of every game (:class:`EconomyResult`)
and, on request, the purses and the stock at the start of every round, summarised by
:func:`economy_curves`, :func:`win_turns`, :func:`seat_advantage` and
:func:`strategy_wins`.
"""

from __future__ import annotations

from dataclasses import astuple, dataclass, fields
from typing import TYPE_CHECKING

import numba
import numpy as np

from commander import _kernels as K
from commander.cards import ADVENTURE_TYPES, CardSet, Deck
from commander.market import market_arrays
from commander.rules import Rules
from tabletop.budget import Chunks, Estimate, check_memory, progress_bar, show_progress
from tabletop.frozen import same_fields
from tabletop.seeding import check_count, chunk_seeds
from tabletop.stats import proportion_ci
from tabletop.validate import check_array_fields, check_fields, check_instance

if TYPE_CHECKING:
    import pandas as pd


DEFAULT_CHUNK = 1 << 12
#: Adventure cards played as attachments; their conquest bonus counts in raids.
ATTACHMENT_TYPES = ("item", "support")
DEFAULT_ROUNDS = 60


@dataclass(frozen=True)
class Strategy:
    """When to buy, sell, raid and how much crew to hire.

    Parameters
    ----------
    buy_from_turn : int
        First turn (round) the player buys gold (>= 1, the first turn; default 1).
    buy_max_rate : int
        Buys only when the rate is at most this (default 6: always).
    buy_reserve : int
        Doublons kept back when buying (default 0).
    sell_min_rate : int
        Sells one gold when not buying and the rate is at least this (default 99: never).
    raid_margin : float
        Raids when attack - defence >= this (default 1: only sure wins; ``inf``: never;
        ``-inf``: always). NaN is refused. The other fields are ints >= 0.
    hire_target : int
        Crew size the player recruits up to (default 3).
    attach_reserve : int
        Doublons kept back when playing attachments (default 0; a large value: never).

    Examples
    --------
    >>> Strategy(hire_target=0).hire_target
    0
    """

    buy_from_turn: int = 1
    buy_max_rate: int = 6
    buy_reserve: int = 0
    sell_min_rate: int = 99
    raid_margin: float = 1.0
    hire_target: int = 3
    attach_reserve: int = 0

    def __post_init__(self):
        from tabletop.validate import check_float, check_int

        for f in fields(self):
            value = getattr(self, f.name)
            if f.name != "raid_margin":  # 2.5 or 2.0 is no count of anything; turns start at 1
                value = check_int(f.name, value, 1 if f.name == "buy_from_turn" else 0)
            elif isinstance(value, float | np.floating) and np.isinf(value):
                value = float(value)  # +inf: never raid; -inf: always
            else:  # NaN would never compare true: a silent "never"
                value = check_float(f.name, value)
            object.__setattr__(self, f.name, value)


def _deck_parts(deck: Deck, cards: CardSet, rules: Rules, sea_codes: dict):
    frame = deck.counts(cards)
    lairs = frame[frame["type"] == "lair"]
    if len(lairs) != 1 or lairs["copies"].iloc[0] != 1:
        raise ValueError(f"deck {deck.name!r} must hold exactly one lair to play")
    faction = lairs["faction"].iloc[0]
    crew = []
    for _, row in frame[frame["type"] == "character"].iterrows():
        foreign = row["faction"] not in (faction, "independent")
        cost = rules.recruit_gold + (rules.foreign_extra_gold if foreign else 0)
        votes = rules.rank_votes(row["rank"]) + int(row["votes"])
        crew += [(row["conquest"], row["command"], votes, row["diplomacy"], cost)] * row["copies"]
    terr = []
    for _, row in frame[frame["type"] == "territory"].iterrows():
        terr += [(row["income"], sea_codes.get(row["sea"], -1))] * row["copies"]
    adv = []
    for _, row in frame[frame["type"].isin(ADVENTURE_TYPES)].iterrows():
        if row["type"] == "agreement":
            card = (K.KIND_AGREEMENT, row["income"], row["cost"])
        elif row["type"] in ATTACHMENT_TYPES and row["bonus_conquest"] > 0:
            card = (K.KIND_ATTACHMENT, row["bonus_conquest"], row["cost"])
        else:
            card = (K.KIND_OTHER, 0, 0)
        adv += [card] * row["copies"]
    lair = (int(lairs["income"].iloc[0]), int(lairs["value"].iloc[0]))
    return lair, crew, terr, adv


def kernel_inputs(rules: Rules, decks, cards: CardSet, strategies,
                  max_rounds: int) -> K.CardTables:
    """The arrays the economy kernels read, one row per player, built once from the
    rules, decks and strategies.

    Parameters
    ----------
    rules : Rules
    decks : list of Deck
        One per player.
    cards : CardSet
    strategies : list of Strategy
        One per player.
    max_rounds : int
        Rounds before a game counts as unfinished (1..1000).

    Returns
    -------
    commander._kernels.CardTables
        Read-only use: the kernels and ``engine.play_reference`` read it.
    """
    n = len(decks)
    if n != rules.n_players:
        raise ValueError(f"decks must hold one deck per player (n_players="
                         f"{rules.n_players}), got {n}")
    if len(strategies) != n:
        raise ValueError(f"strategies must hold one Strategy per player ({n}), "
                         f"got {len(strategies)}")
    for i, s in enumerate(strategies):
        if not isinstance(s, Strategy):
            raise TypeError(f"strategies[{i}] must be a Strategy, got {type(s).__name__}")
    max_rounds = check_count("max_rounds", max_rounds, 1)
    if max_rounds > 1000:
        raise ValueError(f"max_rounds must be <= 1000, got {max_rounds}")
    seas = sorted(set(cards.of_type("territory")["sea"]) - {""})
    if rules.seven_seas and len(seas) < 7:
        raise ValueError(f"seven_seas needs card data naming at least 7 seas, "
                         f"{cards.source} names {len(seas)}: {seas}")
    if len(seas) > 62:
        raise ValueError(f"the economy model tracks at most 62 seas, {cards.source} names "
                         f"{len(seas)}")
    sea_codes = {name: i for i, name in enumerate(seas)}
    parts = [_deck_parts(d, cards, rules, sea_codes) for d in decks]
    width = [max(1, max(len(p[i]) for p in parts)) for i in (1, 2, 3)]
    crew = np.zeros((n, width[0], 5), dtype=np.int64)
    terr = np.zeros((n, width[1], 2), dtype=np.int64)
    adv = np.zeros((n, width[2], 3), dtype=np.int64)
    for i, (_, c, t, a) in enumerate(parts):
        if c:
            crew[i, : len(c)] = c
        if t:
            terr[i, : len(t)] = t
        if a:
            adv[i, : len(a)] = a
    opts = np.zeros(K.N_OPTS, dtype=np.int64)
    opts[K.O_SEAS] = 7 if rules.seven_seas else 0
    opts[[K.O_WIN, K.O_CAP, K.O_EXPLORE, K.O_PILLAGE_GOLD, K.O_PILLAGE_DOUBLONS, K.O_LAUNCHER,
          K.O_TAVERN, K.O_HAND, K.O_START_DOUBLONS, K.O_START_GOLD, K.O_START_STOCK,
          K.O_TO_COMPANY, K.O_MAX_ROUNDS]] = [
        rules.win_gold, rules.max_gold_per_transaction, rules.explore_threshold,
        rules.pillage_gold, rules.pillage_doublons, rules.launcher_bonus, rules.tavern_size,
        rules.hand_size, rules.start_doublons, rules.start_gold, rules.start_stock,
        int(rules.recruit_gold_to_company), max_rounds]
    buy, sell = market_arrays(rules, rules.total_gold)
    return K.CardTables(
        opts=opts,
        rates=np.ascontiguousarray(rules.rates[: rules.total_gold + 1]),
        buy=buy, sell=sell,
        lair=np.array([p[0] for p in parts], dtype=np.int64),
        crew=crew, crew_len=np.array([len(p[1]) for p in parts], dtype=np.int64),
        terr=terr, terr_len=np.array([len(p[2]) for p in parts], dtype=np.int64),
        adv=adv, adv_len=np.array([len(p[3]) for p in parts], dtype=np.int64),
        strat=np.array([astuple(s) for s in strategies], dtype=np.float64),
    )


@dataclass(frozen=True, eq=False)
class EconomyResult:
    """Simulated games.

    Built anew by each call: its arrays and pandas objects are the caller's own and may be
    written. ``==`` compares values (arrays entry by entry, NaN equal to NaN).

    Attributes
    ----------
    win_seat, win_player, win_round : numpy.ndarray
        Per game, of an integer dtype (``-1`` / ``0`` when nobody won within
        ``max_rounds``).
    gold, doublons : numpy.ndarray or None
        ``(games, rounds, players)`` integer purses by *seat* at the start of rounds
        1..R.
    stock : numpy.ndarray or None
        ``(games, rounds)`` integer Company stock at the start of rounds 1..R (the
        three trajectories are all given or all None).
    rules : Rules

    Examples
    --------
    >>> from commander.cards import load_cards, load_decks
    >>> cards = load_cards(); d = load_decks(cards=cards)
    >>> res = simulate_economy(Rules(), [d["spanish_sample"], d["ghost_sample"]], cards,
    ...                        n=50, seed=1)
    >>> res.win_seat.shape, res.gold is None
    ((50,), True)
    """

    win_seat: np.ndarray
    win_player: np.ndarray
    win_round: np.ndarray
    gold: np.ndarray | None
    doublons: np.ndarray | None
    stock: np.ndarray | None
    rules: Rules

    def __post_init__(self):
        Rules.check(self.rules, "EconomyResult.rules", default=False)  # first: read below
        check_fields(self)
        last = self.rules.n_players - 1
        check_array_fields(self, ("win_seat", "win_player"), "int", low=-1, high=last)
        check_array_fields(self, ("win_round",), "int", low=0, like="win_seat")
        recorded = [self.gold is not None, self.doublons is not None, self.stock is not None]
        if any(recorded) and not all(recorded):
            given = ", ".join(f"{name} {'an array' if held else 'None'}" for name, held
                              in zip(("gold", "doublons", "stock"), recorded, strict=True))
            raise ValueError(f"EconomyResult.gold, EconomyResult.doublons and "
                             f"EconomyResult.stock must be all arrays or all None, got {given}")
        if all(recorded):
            check_array_fields(self, ("gold", "doublons"), "int", ndim=3, like="win_seat")
            check_array_fields(self, ("stock",), "int", ndim=2, like="win_seat")
            rounds, players = self.stock.shape[1], self.rules.n_players
            for name in ("gold", "doublons"):
                if getattr(self, name).shape[1:] != (rounds, players):
                    raise ValueError(f"EconomyResult.{name} must have shape (games, {rounds}, "
                                     f"{players}) like EconomyResult.stock and the rules' "
                                     f"players, got {getattr(self, name).shape}")  # fmt: skip

    __eq__ = same_fields


def economy_size(n_players: int, n: int, record: bool, max_rounds: int) -> Estimate:
    """Memory of :func:`simulate_economy`: three ``int64`` results per game and, when
    ``record``, the trajectories, ``max_rounds + 1`` rounds per game of ``int16`` gold
    and ``int32`` doublons per player and an ``int16`` stock.

    Examples
    --------
    >>> economy_size(2, 1000, True, 60).nbytes
    878000
    """
    per_game = 24 + ((max_rounds + 1) * (6 * n_players + 2) if record else 0)
    knobs = {"n": n, "record": record, "max_rounds": max_rounds}
    detail = f"{n:,} games x {per_game} bytes" + (" with every trajectory" if record else "")
    return Estimate("commander.simulate_economy", n * per_game, knobs, detail=detail)


def simulate_economy(
    rules: Rules, decks, cards: CardSet, strategies=None, n: int = 10_000, seed=None,
    rotate: bool = True, record: bool = False, max_rounds: int = DEFAULT_ROUNDS,
    chunk_size: int = DEFAULT_CHUNK, *, allow_large: bool = False, progress: bool | None = None,
) -> EconomyResult:
    """Simulate ``n`` games of the economy model.

    Parameters
    ----------
    rules : Rules
    decks : sequence of Deck
        One per player (``rules.n_players``).
    cards : CardSet
    strategies : sequence of Strategy, optional
        One per player (default: ``Strategy()`` for all).
    n : int
        Games.
    seed : None, int, SeedSequence or Generator
    rotate : bool
        Game ``g`` seats player ``(s + g) % n_players`` at seat ``s`` (so every player
        sits everywhere equally often); else player ``s`` always sits at seat ``s``.
    record : bool
        Keep every game's per-round purses and stock (needed by :func:`economy_curves`;
        default False: only the winners, a few bytes per game).
    max_rounds : int
        Games still running after this many rounds count as unfinished.
    chunk_size : int
        Games per parallel chunk (part of what the seed reproduces).
    allow_large : bool
        Simulate even when the results (:func:`economy_size`; the trajectories kept by
        ``record=True`` dominate) exceed the memory available (default False: refuse
        with a ``MemoryError`` before any work; ``record=False`` keeps only the
        winners).
    progress : bool, optional
        Show a progress bar (default: when stderr is a terminal). The chunks run in
        batches that return to Python several times a second, so Ctrl-C stops a long
        run; the batches do not change the games.

    Returns
    -------
    EconomyResult
        The winners per game, and the trajectories when ``record``.

    Examples
    --------
    >>> from commander.cards import load_cards, load_decks
    >>> cards = load_cards(); d = load_decks(cards=cards)
    >>> res = simulate_economy(Rules(), [d["spanish_sample"], d["ghost_sample"]], cards,
    ...                        n=200, seed=1, record=True)
    >>> res.win_round.shape, res.gold.shape[1:]
    ((200,), (60, 2))
    """
    check_instance("cards", cards, CardSet)
    from tabletop.validate import check_bool

    rules = Rules.check(rules, default=False)
    n = check_count("n", n, 1)
    chunk_size = check_count("chunk_size", chunk_size, 1)
    rotate, record = check_bool("rotate", rotate), check_bool("record", record)
    if isinstance(decks, str | Deck) or not hasattr(decks, "__iter__"):
        raise TypeError(f"decks must be a sequence of Deck, one per player, got {decks!r:.80}")
    decks = list(decks)
    for i, deck in enumerate(decks):
        check_instance(f"decks[{i}]", deck, Deck)
    if strategies is not None and (isinstance(strategies, str | Strategy)
                                   or not hasattr(strategies, "__iter__")):  # fmt: skip
        raise TypeError(f"strategies must be a sequence of Strategy, one per player, or None, "
                        f"got {strategies!r:.80}")  # fmt: skip
    strategies = [Strategy()] * len(decks) if strategies is None else list(strategies)
    allow_large = check_bool("allow_large", allow_large)
    data = kernel_inputs(rules, list(decks), cards, strategies, max_rounds)
    show_progress(progress)
    n_players, rounds = len(data.lair), int(data.opts[K.O_MAX_ROUNDS])
    check_memory(economy_size(n_players, n, record, rounds), allow_large,
                 hint="lower n or max_rounds, or pass record=False")  # fmt: skip
    n_chunks = -(-n // chunk_size)
    seeds = chunk_seeds(seed, n_chunks)
    m = n if record else 0
    win_seat = np.full(n, -1, dtype=np.int64)
    win_player = np.full(n, -1, dtype=np.int64)
    win_round = np.zeros(n, dtype=np.int64)
    gold = np.zeros((m, rounds + 1, n_players), dtype=np.int16)
    doublons = np.zeros((m, rounds + 1, n_players), dtype=np.int32)
    stock = np.zeros((m, rounds + 1), dtype=np.int16)
    with progress_bar(n, "commander economy", progress, "game") as bar:
        # batches of whole chunks that return to Python (bar, Ctrl-C): chunk c of a batch
        # starting at chunk c0 is chunk c0 + c of the run, with its seed and its games
        for c0, c1 in Chunks(n_chunks, first=numba.get_num_threads()):
            lo, hi = c0 * chunk_size, min(c1 * chunk_size, n)
            part = slice(lo, hi) if record else slice(0, 0)
            outcome = (win_seat[lo:hi], win_player[lo:hi], win_round[lo:hi])
            trajectories = K.Trajectory(gold[part], doublons[part], stock[part])
            K.simulate_games_kernel(seeds[c0:c1], chunk_size, lo, rotate, record, outcome,
                                    trajectories, data)  # fmt: skip
            bar.update(hi - lo)
    return EconomyResult(
        win_seat=win_seat, win_player=win_player, win_round=win_round,
        gold=gold[:, 1:, :] if record else None,
        doublons=doublons[:, 1:, :] if record else None,
        stock=stock[:, 1:] if record else None,
        rules=rules,
    )


def economy_curves(result: EconomyResult, quantiles=(0.1, 0.5, 0.9)) -> pd.DataFrame:
    """Mean and quantiles per round of gold, leader's gold, doublons, stock and rate.

    ``gold`` and ``doublons`` pool every seat; ``leader_gold`` is the most gold of
    any seat; a finished game keeps its final values. ``running`` is the share of
    games not yet won at the start of the round.

    Parameters
    ----------
    result : EconomyResult
        Simulated with ``record=True`` (else ValueError).
    quantiles : sequence of float
        Quantiles in [0, 1] reported beside the mean (default 0.1, 0.5, 0.9), as
        columns ``q10``, ``q50``, ``q90``.

    Returns
    -------
    pandas.DataFrame
        Index ``round``; columns ``(quantity, statistic)``.

    Examples
    --------
    >>> from commander.cards import load_cards, load_decks
    >>> cards = load_cards(); d = load_decks(cards=cards)
    >>> res = simulate_economy(Rules(), [d["spanish_sample"], d["ghost_sample"]], cards,
    ...                        n=100, seed=1, record=True)
    >>> float(economy_curves(res).loc[1, ("stock", "mean")])   # 8 + 1 per player
    10.0
    """
    check_instance("result", result, EconomyResult)
    import pandas as pd

    from tabletop.validate import check_float

    if isinstance(quantiles, str | bytes) or not hasattr(quantiles, "__iter__"):
        raise TypeError(f"quantiles must be a sequence of numbers in [0, 1], got {quantiles!r}")
    quantiles = [check_float(f"quantiles[{i}]", q, 0.0, 1.0) for i, q in enumerate(quantiles)]
    if not quantiles:
        raise ValueError("quantiles must hold at least one number in [0, 1], got none")
    if result.gold is None:
        raise ValueError("result has no trajectories: simulate with record=True")
    rates = result.rules.rates
    series = {
        "gold": result.gold.reshape(result.gold.shape[0], result.gold.shape[1], -1),
        "leader_gold": result.gold.max(axis=2)[..., None],
        "doublons": result.doublons,
        "stock": result.stock[..., None],
        "rate": rates[np.minimum(result.stock, rates.shape[0] - 1)][..., None],
    }
    columns = {}
    for name, values in series.items():
        flat = values.transpose(1, 0, 2).reshape(values.shape[1], -1).astype(np.float64)
        columns[(name, "mean")] = flat.mean(axis=1)
        for q in quantiles:
            columns[(name, f"q{round(q * 100):02d}")] = np.quantile(flat, q, axis=1)
    rounds = np.arange(1, result.gold.shape[1] + 1)
    won = result.win_round[None, :]
    columns[("running", "share")] = ((won == 0) | (won >= rounds[:, None])).mean(axis=1)
    frame = pd.DataFrame(columns, index=pd.Index(rounds, name="round"))
    frame.columns = pd.MultiIndex.from_tuples(frame.columns, names=["quantity", "statistic"])
    return frame


def win_turns(result: EconomyResult) -> pd.Series:
    """Share of games won at each round (index ``round``; round 0: nobody won).

    Parameters
    ----------
    result : EconomyResult

    Returns
    -------
    pandas.Series
        ``share`` of the games won at each round that occurs (summing to 1), index
        ``round`` ascending.

    Examples
    --------
    >>> from commander.cards import load_cards, load_decks
    >>> cards = load_cards(); d = load_decks(cards=cards)
    >>> res = simulate_economy(Rules(), [d["spanish_sample"], d["ghost_sample"]], cards,
    ...                        n=100, seed=1)
    >>> round(float(win_turns(res).sum()), 12)
    1.0
    """
    check_instance("result", result, EconomyResult)
    import pandas as pd

    counts = pd.Series(result.win_round).value_counts().sort_index()
    counts.index.name = "round"
    return (counts / len(result.win_round)).rename("share")


def _shares(labels: np.ndarray, n_groups: int, name: str) -> pd.DataFrame:
    import pandas as pd

    total = len(labels)
    rows = []
    for g in range(n_groups):
        wins = int((labels == g).sum())
        low, high = proportion_ci(wins, total) if total else (np.nan, np.nan)
        rows.append((wins, wins / total if total else np.nan, low, high))
    frame = pd.DataFrame(rows, columns=["wins", "share", "ci_low", "ci_high"])
    frame.index.name = name
    return frame


def seat_advantage(result: EconomyResult) -> pd.DataFrame:
    """Wins and win share by seat (0 plays first) with 95 % Wilson intervals.

    Parameters
    ----------
    result : EconomyResult

    Returns
    -------
    pandas.DataFrame
        One row per seat (index ``seat``): ``wins``, ``share`` of all games (games
        nobody won count in the total), ``ci_low`` and ``ci_high``.

    Examples
    --------
    >>> from commander.cards import load_cards, load_decks
    >>> cards = load_cards(); d = load_decks(cards=cards)
    >>> res = simulate_economy(Rules(), [d["spanish_sample"], d["ghost_sample"]], cards,
    ...                        n=100, seed=1)
    >>> list(seat_advantage(res).columns)
    ['wins', 'share', 'ci_low', 'ci_high']
    """
    check_instance("result", result, EconomyResult)
    return _shares(result.win_seat, result.rules.n_players, "seat")


def strategy_wins(result: EconomyResult) -> pd.DataFrame:
    """Wins and win share by player (deck + strategy) with 95 % Wilson intervals.

    Parameters
    ----------
    result : EconomyResult

    Returns
    -------
    pandas.DataFrame
        One row per player, in the order of the decks simulated (index ``player``):
        ``wins``, ``share`` of all games (games nobody won count in the total),
        ``ci_low`` and ``ci_high``.

    Examples
    --------
    >>> from commander.cards import load_cards, load_decks
    >>> cards = load_cards(); d = load_decks(cards=cards)
    >>> res = simulate_economy(Rules(), [d["spanish_sample"], d["ghost_sample"]], cards,
    ...                        n=100, seed=1)
    >>> int(strategy_wins(res)["wins"].sum()) == int((res.win_round > 0).sum())
    True
    """
    check_instance("result", result, EconomyResult)
    return _shares(result.win_player, result.rules.n_players, "player")


def play_from_orders(data: K.CardTables, player_of_seat, crew_order, terr_order, adv_order):
    """One game of the numba kernel from given pile orders (the layout of
    ``engine.random_orders``): ``(winning seat, winning round, gold, doublons, stock)``,
    the last three per round ``1..max_rounds`` as in :class:`EconomyResult`."""
    n = len(player_of_seat)
    rounds = int(data.opts[K.O_MAX_ROUNDS])
    seating = K.Seating(np.asarray(player_of_seat, dtype=np.int64),
                        np.ascontiguousarray(crew_order), np.ascontiguousarray(terr_order),
                        np.ascontiguousarray(adv_order))  # fmt: skip
    work = K.new_work(n, int(data.opts[K.O_HAND]), int(data.opts[K.O_TAVERN]),
                      data.crew.shape[1])
    trajectory = K.Trajectory(np.zeros((rounds + 1, n), dtype=np.int16),
                              np.zeros((rounds + 1, n), dtype=np.int32),
                              np.zeros(rounds + 1, dtype=np.int16))  # fmt: skip
    seat, rnd = K.play_game(data, seating, work, trajectory, True, False)
    tg, td, ts = trajectory
    return int(seat), int(rnd), tg[1:], td[1:], ts[1:]


def random_play(rules: Rules, seed=None, max_rounds: int = 30) -> tuple[tuple, tuple]:
    """One game played by the plain-Python reference (``engine.play_reference``) and by
    the numba kernel (:func:`play_from_orders`) from the same shuffled piles: the sample
    decks of ``load_decks`` (``*_sample``) dealt at random to the seats, default
    strategies.

    Returns
    -------
    reference, kernel : tuple
        ``(winning seat, winning round, gold, doublons, stock)``, the last three as
        nested lists per round; equal when the two agree.

    Examples
    --------
    >>> reference, kernel = random_play(Rules(win_gold=6), seed=1)
    >>> reference == kernel
    True
    """
    from commander.cards import load_cards, load_decks
    from commander.engine import play_reference, random_orders
    from tabletop.seeding import as_generator

    rng = as_generator(seed)
    cards = load_cards()
    decks = load_decks(cards=cards)
    names = [name for name in sorted(decks) if name.endswith("_sample")]
    chosen = [decks[names[int(i)]] for i in rng.integers(0, len(names), rules.n_players)]
    data = kernel_inputs(rules, chosen, cards, [Strategy()] * rules.n_players, max_rounds)
    seats = rng.permutation(rules.n_players)
    orders = random_orders(data, seats, rng)
    seat, rnd, trajectory = play_reference(data, seats, *orders)
    k_seat, k_rnd, gold, doublons, stock = play_from_orders(data, seats, *orders)
    rows = len(trajectory)
    reference = (seat, rnd, [list(g) for g, _, _ in trajectory],
                 [list(d) for _, d, _ in trajectory], [int(s) for _, _, s in trajectory])
    kernel = (k_seat, k_rnd, gold[:rows].tolist(), doublons[:rows].tolist(),
              stock[:rows].tolist())  # fmt: skip
    return reference, kernel


def sample_games(rules: Rules, n_games: int, seed=None) -> EconomyResult:
    """``n_games`` economies of the sample decks (by name, the first ``rules.n_players``,
    repeated past the last) with default strategies, in chunks of 64 games: a small run
    whose results must not depend on the thread count (the checks over every game).

    Examples
    --------
    >>> sample_games(Rules(win_gold=6), 100, seed=1).win_round.shape
    (100,)
    """
    from commander.cards import load_cards, load_decks

    cards = load_cards()
    decks = load_decks(cards=cards)
    names = [name for name in sorted(decks) if name.endswith("_sample")]
    chosen = [decks[names[i % len(names)]] for i in range(rules.n_players)]
    return simulate_economy(rules, chosen, cards, n=n_games, seed=seed, chunk_size=64)
