"""The registry of games: one entry per game, found by name.

Each entry names its game's parts by module path (``"panache.rules:Rules"``) and
imports them only when asked, so ``tabletop`` imports no game at import time. The
balance card, ``compare``, the sweep's ``"<game>.balance"`` analysis and the tests
find games here; a fifth game is added by writing its package (with an
``analyses.py`` holding ``balance``, ``METRICS`` and ``VERDICT``) and one entry. An
entry's :class:`IndexRow` says what the report index's balance table shows of the game
(:mod:`tabletop.balance_table`): which card figures, in which words, which knob
settings are tried as the fix, and which report section each cell links to.

Examples
--------
>>> names()
('panache', 'citadel', 'samarra', 'commander')
>>> get("panache").rules_class().n_dice
5
>>> get("chess")
Traceback (most recent call last):
...
ValueError: game must be one of ('panache', 'citadel', 'samarra', 'commander'), got 'chess'
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field


def load(path: str):
    """The object at ``"package.module:name"``, imported now."""
    module, sep, name = path.partition(":")
    if not sep or not module or not name:
        raise ValueError(f"path must be 'package.module:name', got {path!r}")
    obj = importlib.import_module(module)
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True)
class Cell:
    """One cell of the index's balance table.

    Attributes
    ----------
    text : str
        Markdown with fields filled from computed figures
        (:func:`tabletop.balance_table.fill`): ``{base.<metric>:<kind>}`` (the seed
        rules' card), ``{fix.<metric>:<kind>}`` (the chosen fix's card),
        ``{diff.<metric>:<kind>}`` (fix minus seed, with its interval),
        ``{1-base.<metric>:<kind>}`` (one minus the figure), ``{knobs}`` (the fix's
        knob setting) and ``{§<heading>}`` (a link, at that point of the text, to that
        heading of ``report``). A metric is a card row or a :class:`Fact`.
    report : str
        The report the cell links to (file stem, ``citadel``); ``""``: no link.
    section : str
        A heading of that report; the link goes to it while the report has it, else to
        the report itself.
    """

    text: str
    report: str = ""
    section: str = ""


@dataclass(frozen=True)
class Fact:
    """An exact figure that is not on the card: ``getattr(solver(rules, **kwargs),
    attribute)`` for the registry's solver ``role``, NaN when that is None.

    ``rules_args`` maps keyword arguments to fields of the rules (``{"gold":
    "start_gold"}``); ``args`` are fixed keyword arguments. ``n`` of the figure is
    ``args["horizon"]`` when given, else 0.
    """

    name: str
    role: str
    attribute: str
    unit: str
    meaning: str
    rules_args: Mapping[str, str] = field(default_factory=dict)
    args: Mapping = field(default_factory=dict)


@dataclass(frozen=True)
class IndexRow:
    """What the report index's balance table shows of one game under the seed's rules.

    Attributes
    ----------
    edge, draws, length, exploit, fix : Cell
        The row's cells: first-mover or seat edge, draw or stall rate, typical length,
        the strongest exploit or degenerate strategy found, and the fix.
    fixes : tuple of mapping
        Knob settings tried as the fix, mildest first; each is a card of
        ``Rules(**knobs)``.
    objective : str
        The metric the fix should bring down: the fix shown is the first setting whose
        95 % interval of ``objective`` reaches the lowest value of all settings.
    facts : tuple of Fact
        Figures beside the card's, computed for the seed's rules and each fix.
    note : str
        A caveat printed under the table (fields as in :class:`Cell`; ``""``: none).
    options : mapping
        ``balance`` options of the cards (default: the card's own sizes).
    no_fix : Cell or None
        The fix cell shown instead of ``fix`` when no setting of ``fixes`` brings
        ``objective`` below the seed rules' value (its fields as in ``fix``, read
        from the setting chosen as above); None: ``fix`` always.
    others : str
        The heading of the fix cell's report where the report tries other settings
        than ``fixes`` (the fix cell says so and links there); ``""``: none.
    """

    edge: Cell
    draws: Cell
    length: Cell
    exploit: Cell
    fix: Cell
    fixes: tuple[Mapping, ...]
    objective: str
    facts: tuple[Fact, ...] = ()
    note: str = ""
    options: Mapping = field(default_factory=dict)
    no_fix: Cell | None = None
    others: str = ""

    def cells(self) -> tuple[Cell, ...]:
        """The five cells, in table order."""
        return (self.edge, self.draws, self.length, self.exploit, self.fix)


@dataclass(frozen=True)
class Game:
    """One game's entry.

    Attributes
    ----------
    name : str
        Package name and command (``python -m <name>``).
    title : str
        The game's name in prose.
    description : str
        The command line's one-line description.
    rules : str
        Path of the frozen rules class.
    analyses : str
        Module with ``balance(rules=None, *, seed=0, ...)``, ``METRICS`` and
        ``VERDICT`` (``{"headlines": {metric: phrase}, "length": metric}``).
    solvers, simulators : mapping of str to str
        Paths of the exact solvers and of the simulators, by role.
    small_rules : mapping
        Knobs of a small rules set, for tests.
    small_balance : mapping
        ``balance`` options at small sizes, for tests.
    other_rules : mapping
        A legal rules set that changes every knob from its default, for tests (the
        knobs round-trip through ``dataclasses.replace``, ``repr`` and the command line).
    out_of_range : mapping
        A value out of range for each knob where the type alone gives none (the tests
        try ``-10**9`` for an int, ``"nonsense"`` for a str, ``()`` for a tuple).
    sample : str
        Path of ``sample(rules, n_games, seed)``: the game's simulator on a fixed
        line-up at a small size, in small chunks, for tests (seeded results equal on
        any thread count).
    small_games : int
        Games of a ``sample`` run in tests.
    random_play : str or None
        Path of ``random_play(rules, seed) -> (reference, kernel)``: one random game
        played by the plain engine and by the numba kernels, as two records equal when
        they agree; None when the two cannot be fed the same draws.
    index_row : IndexRow or None
        The game's row of the report index's balance table (None: no row).
    """

    name: str
    title: str
    description: str
    rules: str
    analyses: str
    solvers: Mapping[str, str] = field(default_factory=dict)
    simulators: Mapping[str, str] = field(default_factory=dict)
    small_rules: Mapping = field(default_factory=dict)
    small_balance: Mapping = field(default_factory=dict)
    other_rules: Mapping = field(default_factory=dict)
    out_of_range: Mapping = field(default_factory=dict)
    sample: str = ""
    small_games: int = 256
    random_play: str | None = None
    index_row: IndexRow | None = None

    def rules_class(self):
        """The rules class, imported."""
        return load(self.rules)

    def analyses_module(self):
        """The ``analyses`` module, imported."""
        return importlib.import_module(self.analyses)

    @property
    def balance(self):
        """The game's ``balance`` function."""
        return self.analyses_module().balance

    @property
    def metrics(self):
        """The game's card metrics (a tuple of :class:`tabletop.balance.Metric`)."""
        return self.analyses_module().METRICS

    @property
    def verdict(self) -> dict:
        """What the verdict speaks of: ``{"headlines": {...}, "length": metric}``."""
        return self.analyses_module().VERDICT

    def command_line(self):
        """The command line's ``main(argv=None) -> int`` (``python -m <name>``)."""
        return load(f"{self.name}.cli:main")

    def solver(self, role: str):
        """The exact solver of ``role``, imported."""
        return load(_pick(self.solvers, role, f"{self.name} solver"))

    def simulator(self, role: str):
        """The simulator of ``role``, imported."""
        return load(_pick(self.simulators, role, f"{self.name} simulator"))


def _pick(table: Mapping[str, str], role: str, what: str) -> str:
    if role not in table:
        raise ValueError(f"{what} role must be one of {tuple(table)}, got {role!r}")
    return table[role]


GAMES: dict[str, Game] = {
    g.name: g
    for g in (
        Game(
            name="panache",
            title="Master Panache",
            description="Master Panache: exact odds, solved duels, simulations and variant sweeps.",
            rules="panache.rules:Rules",
            analyses="panache.analyses",
            solvers={"turn": "panache.turn:solve_turn", "duel": "panache.duel:solve_duel",
                     "three": "panache.three:solve_three",
                     "master_panache": "panache.master:mp_success"},
            simulators={"game": "panache.game:simulate_games",
                        "tournament": "panache.game:tournament",
                        "turn": "panache.simulate:simulate_turns"},
            small_rules={"n_dice": 3, "start_points": 6},
            small_balance={"n_games": 2000},
            other_rules={"n_dice": 4, "face_values": (-3, -2, -1, 0, 1, 2), "start_points": 20,
                         "n_players": 3, "first_round_gain": False, "counter_attacks": False,
                         "mp_stake_factor": 3, "mp_stake_cap": 10},
            sample="panache.game:sample_games",
            # the engine rolls Python's generator, the kernel numba's: the two are held to
            # the same law (tests/panache/test_engine.py), not to the same games
            random_play=None,
            index_row=IndexRow(
                edge=Cell("the first player wins {base.first_player_win:pct} of duels between "
                          "solved players{§The two-player game, solved exactly}; with 4 players "
                          "all following the 'leader' rule of "
                          "thumb (attack the leader, always counter, stake the most allowed "
                          "when ahead) the seat furthest from a fair 25% lies "
                          "{base.seat_spread_4p:pp} from it (simultaneous bounds on a distance, "
                          "which cannot be negative: a low end of 0 means no seat effect "
                          "detected)",
                          "panache_game", "Seat advantage and game length by number of "
                          "players"),
                draws=Cell("none: the last player left wins"),
                length=Cell("{base.duel_rounds:num} rounds (duel of solved players)",
                            "panache_game", "Seat advantage and game length by number of "
                            "players"),
                exploit=Cell("the Master Panache: it succeeds {base.mp_success:pct} of the "
                             "time, yet decides {base.mp_elimination_share:pct} of duels "
                             "between solved players, since a stake may be twice one's points",
                             "panache_game", "Rules of thumb against each other"),
                fix=Cell("{knobs}: the Master Panache decides {fix.mp_elimination_share:pct} "
                         "of duels, a change of {diff.mp_elimination_share:pp}; duels last "
                         "{fix.duel_rounds:num} rounds; the first player wins "
                         "{fix.first_player_win:pct}",
                         "panache_game", "Variants a designer would try"),
                fixes=({"mp_stake_cap": 10},),
                objective="mp_elimination_share",
                others="Variants a designer would try",
                note="The simulated figures come from the card's own games (n in each "
                     "cell), not from the report's: the report's sections hold other runs "
                     "of the same rules, so their figures differ within their intervals.",
            ),
        ),
        Game(
            name="citadel",
            title="Master Citadel",
            description="Master Citadel: resolution, simulated games, the solved duel, "
                        "coalitions and variant sweeps.",
            rules="citadel.rules:Rules",
            analyses="citadel.analyses",
            solvers={"duel": "citadel.whole_game:solve_duel_game",
                     "sides": "citadel.sides:solve_sides",
                     "alliances": "citadel.coalitions:alliance_analysis"},
            simulators={"game": "citadel.simulate:simulate_games"},
            small_rules={"radius": 1, "capital": 10, "bid_step": 5},
            small_balance={"n_games": 2000, "duel_grid": 5, "coalition_grid": 10, "jobs": 1,
                           "compass": False},
            other_rules={"radius": 2, "n_players": 3, "capital": 50, "payment": "winners",
                         "resolution": "basic", "bid_step": 5, "min_bid": 3, "max_rounds": 100},
            sample="citadel.simulate:sample_games",
            random_play="citadel.simulate:random_play",
            index_row=IndexRow(
                edge=Cell("1 vs 1 as the rules write it (each side free to write any of the "
                          "eight directions), solved exactly on a bid grid of "
                          "{base.duel_grid:setting} points, in P(win) - P(loss): the start is "
                          "worth {base.duel_value_start:signed} to either seat, as the seats "
                          "are mirror images; a one-row lead is worth "
                          "{base.duel_value_lead:signed}, against "
                          "{base.duel_value_lead_coarse:signed} on a grid of "
                          "{base.duel_coarse_grid:setting} and "
                          "{base.duel_value_lead_fine:signed} on a grid of "
                          "{base.duel_fine_grid:setting}: the values still move as the grid "
                          "refines; the rules' own grid of 1 point is solved in the report's "
                          "extended run only, not for this card",
                          "citadel", "The whole two-player game"),
                draws=Cell("1 vs 1 under optimal play (all eight directions): the game is "
                           "drawn from the start with probability {base.duel_draw_start:pct} "
                           "on a bid grid of {base.duel_grid:setting} points and "
                           "{base.duel_draw_start_fine:pct} on a grid of "
                           "{base.duel_fine_grid:setting} points; the rules' own grid of 1 "
                           "point is solved in the report's extended run only (its draw chance "
                           "there: the section The whole two-player game), not for this card. "
                           "With "
                           "{knobs} the game on the grid of {base.duel_grid:setting} points "
                           "is drawn with "
                           "probability {fix.duel_draw_start:pct} (on this grid a minimum "
                           "bid below {base.duel_grid:setting} points acts as "
                           "{base.duel_grid:setting}). These are the draw chances "
                           "of the computed equilibrium (another optimal strategy pair may draw "
                           "more or less){§Stalling under optimal play, and what `min_bid` "
                           "does}. Honest (`straight`) players stall to the round limit in "
                           "{base.stall_rate_heuristic:pct} of games (`straight` draws nothing "
                           "at random: every game is the same game){§Honest heuristics, "
                           "simulated}; random players draw {base.draw_rate_random:pct}",
                           "citadel", "Variants under random play"),
                length=Cell("rounds with random players: {base.rounds_random:num}; with "
                            "`straight` players: {base.rounds_heuristic:num} (every game "
                            "the same game)",
                            "citadel", "Variants under random play"),
                exploit=Cell("abstention: once honest bids round down to 0 nobody moves the "
                             "pawn and nothing ends the game before the round limit; `straight` "
                             "games that stall: {base.stall_rate_heuristic:pct}",
                             "citadel", "Honest heuristics, simulated"),
                fix=Cell("{knobs}: the solved 1 vs 1 game is drawn from the start with "
                         "probability {fix.duel_draw_start:pct}, against "
                         "{base.duel_draw_start:pct} with the seed rules' other knobs, both on "
                         "a bid grid of {base.duel_grid:setting} points (all eight "
                         "directions; on this grid a minimum bid below "
                         "{base.duel_grid:setting} points acts as "
                         "{base.duel_grid:setting}; draw chances of the computed equilibrium: "
                         "another optimal strategy pair may draw more or less){§Stalling under "
                         "optimal play, and what `min_bid` does}; `straight` games "
                         "that stall: {fix.stall_rate_heuristic:pct}{§Honest heuristics, "
                         "simulated}; random players draw "
                         "{fix.draw_rate_random:pct}, a change of {diff.draw_rate_random:pp}",
                         "citadel", "Variants under random play"),
                no_fix=Cell("no minimum bid tried reduces draws under optimal play: with "
                            "{knobs} the solved 1 vs 1 game is drawn from the start with "
                            "probability {fix.duel_draw_start:pct}, against "
                            "{base.duel_draw_start:pct} with the seed rules' other knobs, both "
                            "on a bid grid of {base.duel_grid:setting} points (all eight "
                            "directions; on this grid a minimum bid below "
                            "{base.duel_grid:setting} points "
                            "acts as {base.duel_grid:setting}; draw chances of the computed "
                            "equilibrium: another optimal strategy pair may draw more or "
                            "less){§Stalling under optimal play, and what `min_bid` does}. "
                            "Under it honest (`straight`) players' games "
                            "stall to the round limit in {fix.stall_rate_heuristic:pct} and "
                            "are drawn in {fix.draw_rate_heuristic:pct}{§Honest heuristics, "
                            "simulated}; random players draw "
                            "{fix.draw_rate_random:pct}, a change of {diff.draw_rate_random:pp}",
                            "citadel", "Variants under random play"),
                fixes=({"min_bid": 1},),
                objective="duel_draw_start",
                others="Stalling under optimal play, and what `min_bid` does",
                note="The simulated figures come from the card's own games (n in each "
                     "cell), not from the report's: the report's sections hold other runs "
                     "of the same rules, so their figures differ within their intervals. "
                     "The 1 vs 1 values are exact for the game on each bid grid named, "
                     "each side free to write any of the eight directions, up to the "
                     "solver's own error, measured exactly on every grid quoted: best "
                     "responses over every legal order gain "
                     "{base.duel_exploitability_compass_fine:num} on the grid of "
                     "{base.duel_fine_grid:setting}, "
                     "{base.duel_exploitability_compass:num} on the grid of "
                     "{base.duel_grid:setting} and "
                     "{base.duel_exploitability_compass_coarse:num} on the grid of "
                     "{base.duel_coarse_grid:setting} against each grid's solution (both "
                     "gains added). "
                     "The coalition values are those of an abstraction "
                     "(amounts on a bid grid, each side writing only its own directions) that "
                     "a side free to write any of the eight directions exploits by up to "
                     "{base.sides_exploitability_compass:num} on a small board (radius 1); "
                     "exploitability adds both responders' gains, out of a payoff range of 2. "
                     "Coalitions: any "
                     "three seats guarantee themselves {base.coalition_trio:num} against "
                     "the fourth, so no division of the win keeps every trio content "
                     "(least-core epsilon {base.least_core_epsilon:num}).",
            ),
        ),
        Game(
            name="samarra",
            title="Ce soir, à Samarra",
            description="Ce soir, à Samarra: retrograde solve, setup game, played games "
                        "and variant sweeps.",
            rules="samarra.rules:Rules",
            analyses="samarra.analyses",
            solvers={"retrograde": "samarra.solve:solve", "setup": "samarra.setup:setup_game",
                     "horizon": "samarra.horizon:solve_horizon"},
            simulators={"games": "samarra.simulate:play_games"},
            small_rules={"length": 3},
            small_balance={"n_games": 20, "adjudication_horizon": 4},
            other_rules={"width": 4, "length": 4, "first": "white", "adjacency": "king",
                         "auto_death": True, "allow_pass": True, "no_repetition": True,
                         "win_on_arrival_only": True, "max_actions": 100, "horizon": 6},
            sample="samarra.simulate:sample_games",
            small_games=16,
            random_play="samarra.solve:random_play",
            index_row=IndexRow(
                edge=Cell("the setup game is worth {base.setup_value_first_mover:signed} to "
                          "the first mover with perfect information, when play that nobody "
                          "can force to a win counts as a draw (its value under the rules' "
                          "tie-break is not computed){§The setup game}; in "
                          "self-play of "
                          "determinising agents P(first mover wins) - P(second wins) = "
                          "{base.selfplay_first_mover_edge:signed}, a property of these "
                          "agents, not of the game (see the note)",
                          "samarra", "Hidden information: agents and a tournament"),
                draws=Cell("{base.setup_pairs_drawn:pct} of setup pairs are draws with "
                           "perfect information{§The setup game}; {base.selfplay_draws:pct} of "
                           "self-play games are drawn",
                           "samarra", "Hidden information: agents and a tournament"),
                length=Cell("{base.selfplay_actions:num} actions (self-play)",
                            "samarra", "Hidden information: agents and a tournament"),
                exploit=Cell("perfect play never forces a win: the first mover wins "
                             "{base.setup_pairs_first_mover_wins:pct} of setup pairs, the "
                             "second {base.setup_pairs_second_mover_wins:pct}; the rest "
                             "is endless manoeuvring",
                             "samarra", "The setup game"),
                fix=Cell("{knobs} (the tie-break after that many actions) decides games "
                         "that perfect play leaves drawn: {fix.horizon_pairs_drawn:pct} of "
                         "setup pairs stay drawn (against {base.setup_pairs_drawn:pct}), the "
                         "setup game is worth {fix.horizon_value_first_mover:signed} to the "
                         "first mover; a trade-off: the determinising agents' self-play "
                         "(agents that value positions by the table of the game without a "
                         "horizon, so they do not plan for the stop: part of the change may "
                         "come from that) draws more, {fix.selfplay_draws:pct}, a change of "
                         "{diff.selfplay_draws:pp}; the first mover's edge there, "
                         "P(first mover wins) - P(second wins), is "
                         "{fix.selfplay_first_mover_edge:signed}, a change of "
                         "{diff.selfplay_first_mover_edge:signed} (from the unrounded figures)",
                         "samarra", "The tie-break as a game: the `horizon` knob"),
                fixes=({"horizon": 10},),
                objective="horizon_pairs_drawn",
                others="The tie-break as a game: the `horizon` knob",
                note="Self-play is hidden-information play of two determinising agents "
                     "on random setups: the report's own games (the same balance card, "
                     "simulation and random seed); the perfect-information figures are exact. "
                     "The self-play figures describe these agents, not the game: the "
                     "hidden-information game of 3 x 5 is not solved (the report's "
                     "section *Hidden information: agents and a tournament*).",
            ),
        ),
        Game(
            name="commander",
            title="Master & Commander",
            description="Master & Commander: races, conflicts, deck checks, economies, sweeps.",
            rules="commander.rules:Rules",
            analyses="commander.analyses",
            solvers={"race": "commander.race:solve_race",
                     "round_trips": "commander.market:round_trips"},
            simulators={"economy": "commander.economy:simulate_economy"},
            small_rules={"win_gold": 6},
            small_balance={"n_games": 2000},
            other_rules={"n_players": 3, "stock_base": 7, "stock_per_player": 2,
                         "exchange_rates": ((6, 2), (0, 4)), "max_gold_per_transaction": 2,
                         "sale_price": "after", "win_gold": 12, "start_doublons": 6,
                         "start_gold": 1, "seven_seas": True, "explore_threshold": 4,
                         "pillage_gold": 2, "pillage_doublons": 3, "bankruptcy_cap": 5,
                         "recruit_gold": 2, "foreign_extra_gold": 3,
                         "recruit_gold_to_company": False, "tavern_size": 4, "hand_size": 5,
                         "launcher_bonus": 2,
                         "votes_by_rank": (("boatswain", 2), ("masters_mate", 1),
                                           ("lieutenant", 2), ("second", 3), ("captain", 5),
                                           ("governor", 4)),
                         "min_crew": 12, "min_territories": 12, "min_adventure": 40,
                         "majority_counts_independents": False},
            out_of_range={"exchange_rates": ((5, 1), (7, 2), (0, 3)),
                          "votes_by_rank": (("captain", -1),)},
            sample="commander.economy:sample_games",
            random_play="commander.economy:random_play",
            index_row=IndexRow(
                edge=Cell("2 players with the default strategy and the sample decks (fixed "
                          "strategies; simplified model, see note): the "
                          "first seat's share of the finished economies is "
                          "{base.first_seat_edge:pp} above its fair share",
                          "commander", "The economy model"),
                draws=Cell("{1-base.finished:pct} of those 2-player economies are still "
                           "unfinished at the round limit",
                           "commander", "The economy model"),
                length=Cell("{base.win_round:num} rounds (mean among the 2-player "
                            "economies that finish, so it understates a game's length); "
                            "counting the unfinished ones, {base.won_within_20:pct} of all "
                            "those economies are won within 20 rounds{§The economy model}; turns "
                            "to the fastest "
                            "win with 4 doublons of income a turn, for a lone buyer whose "
                            "rival neither trades gold nor raids: "
                            "{base.fastest_win_income_4:turn}",
                            "commander", "The race to the win threshold, exactly"),
                exploit=Cell("the money loop: selling a gold at a band edge and buying it "
                             "back next turn gains doublons ({base.money_loop_gain:turn} a "
                             "round trip); with no income at all, a lone player whose rival "
                             "neither trades gold nor raids wins by the loop alone, from the "
                             "2-player opening's gold, doublons and stock, at turn "
                             "{base.loop_win_turn:turn}: an unbounded source of doublons",
                             "commander", "The race to the win threshold, exactly"),
                fix=Cell("{knobs}: a round trip gains {fix.money_loop_gain:turn} doublons; "
                         "turn of the win with no income: {fix.loop_win_turn:turn}; turns to "
                         "the fastest win with 4 doublons of income a turn (the same lone "
                         "buyer): "
                         "{fix.fastest_win_income_4:turn}",
                         "commander", "The race to the win threshold, exactly"),
                fixes=({"sale_price": "after"},),
                objective="money_loop_gain",
                others="Variants",
                facts=(Fact("loop_win_turn", "race", "win_turn", "turns",
                            "fewest turns to win_gold with no income, from the opening "
                            "gold, doublons and stock (solve_race; n: turns searched; "
                            "NaN: never within them)",
                            rules_args={"gold": "start_gold", "doublons": "start_doublons",
                                        "stock": "start_stock"},
                            args={"income": 0, "horizon": 400}),),
                note="The economy figures rest on the package's sample cards, invented "
                     "for testing (the rule text has no card list); the market and race "
                     "figures need no cards. The economies are a simplified model: every "
                     "player follows one fixed strategy, and events, actions, manoeuvres, "
                     "ransoms, rallies, alliances in battle, refutations of agreements and "
                     "conquests of territories are not played. The economy cells are the "
                     "2-player row of the report's table by player count: the same balance "
                     "card, simulation and random seed.",
            ),
        ),
    )
}


def names() -> tuple[str, ...]:
    """The registered games, in registry order."""
    return tuple(GAMES)


def get(name: str) -> Game:
    """The entry of game ``name``."""
    if name not in GAMES:
        raise ValueError(f"game must be one of {names()}, got {name!r}")
    return GAMES[name]
