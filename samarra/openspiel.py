"""Ce soir, à Samarra as an OpenSpiel game: ``pyspiel.load_game("samarra", {...})``.

Importing this module registers the game ``"samarra"`` with OpenSpiel (the
``open-spiel`` package, imported here and nowhere at ``import samarra``). The game is
the hidden-information game of docs/rules.md (Information), played by the library's
engine (``samarra.engine``):

* two players, Black (player 0) and White (player 1), no chance;
* the first two moves are the setups, Black's then White's, each private: an action
  ``5n + 1 + i`` chooses setup ``samarra.position.setups(rules)[i]`` (``n`` cells) and
  the other player's information state does not show it;
* then the actions of the game, coded as :mod:`samarra.information` says (own figure
  and target *cell*: a power never names an enemy identity), all public;
* the end is the engine's :class:`samarra.engine.Game`: a win, or the tie-break on the
  third occurrence of a position, with no legal action, at ``max_actions`` or at
  ``horizon``; returns are +1 / -1 (or 0 and 0 for a draw). (``samarra.solve_hidden``
  reads only ``horizon``: the two agree for horizons up to 7, where no position can
  occur a third time.)

Every knob of :class:`samarra.Rules` is a game parameter of the same name and
default; ``horizon = -1`` stands for None (no horizon), since OpenSpiel parameters
cannot be None. The information-state string of a player is its setup and the public
tokens of every action (perfect recall); the observation string is the board it sees
(own figures named, enemy tents by what is revealed) with the turn and the flags it
knows. An observation tensor is provided (planes per cell and the flags); no
information-state tensor.

Examples
--------
>>> import pyspiel
>>> import samarra.openspiel
>>> game = pyspiel.load_game("samarra", {"length": 3, "horizon": 4})
>>> state = game.new_initial_state()
>>> state.apply_action(game.num_distinct_actions() - 1)   # Black: setup DMS
>>> state.information_state_string(1)
'white: setup to choose'
"""

from __future__ import annotations

import numpy as np
import pyspiel

from samarra.engine import Game, legal_actions
from samarra.information import (
    action_code,
    code_action,
    n_play_codes,
    private_board,
    public_token,
)
from samarra.position import PASS_LIMIT, setups, start_position
from samarra.rules import BLACK, DEATH, MERCHANT, SIDES, Rules

_DEFAULTS = Rules()
#: The game's parameters: every knob of Rules, ``horizon = -1`` meaning None.
PARAMETERS = {
    "width": _DEFAULTS.width,
    "length": _DEFAULTS.length,
    "first": _DEFAULTS.first,
    "adjacency": _DEFAULTS.adjacency,
    "auto_death": _DEFAULTS.auto_death,
    "allow_pass": _DEFAULTS.allow_pass,
    "no_repetition": _DEFAULTS.no_repetition,
    "win_on_arrival_only": _DEFAULTS.win_on_arrival_only,
    "max_actions": _DEFAULTS.max_actions,
    "horizon": -1,
}
GAME_TYPE = pyspiel.GameType(
    short_name="samarra",
    long_name="Ce soir, a Samarra",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


def rules_of(params: dict) -> Rules:
    """The :class:`samarra.Rules` of a parameter dict (missing knobs take their default).

    Examples
    --------
    >>> rules_of({"length": 3, "horizon": 6}).horizon
    6
    >>> rules_of({"horizon": -1}).horizon is None
    True
    """
    if not isinstance(params, dict):
        raise TypeError(f"params must be a dict of samarra knobs, got {params!r:.80}")
    unknown = sorted(set(params) - set(PARAMETERS))
    if unknown:
        raise ValueError(f"params has unknown knob {unknown[0]!r}; allowed: {sorted(PARAMETERS)}")
    knobs = {**PARAMETERS, **params}
    if knobs["horizon"] == -1:
        knobs["horizon"] = None
    return Rules(**knobs)


def params_of(rules: Rules) -> dict:
    """The game parameters of ``rules`` (the inverse of :func:`rules_of`).

    Examples
    --------
    >>> params_of(Rules(length=3))["horizon"]
    -1
    """
    rules = Rules.check(rules, default=False)
    params = {name: getattr(rules, name) for name in PARAMETERS}
    params["horizon"] = -1 if rules.horizon is None else rules.horizon
    return params


class SamarraGame(pyspiel.Game):
    """The hidden-information game of one rules set (see the module docstring)."""

    def __init__(self, params=None):
        params = dict(params or {})
        rules = rules_of(params)
        self.rules = rules
        self.setups = setups(rules)
        length = rules.max_actions if rules.horizon is None else min(rules.horizon,
                                                                     rules.max_actions)
        info = pyspiel.GameInfo(
            num_distinct_actions=n_play_codes(rules) + len(self.setups),
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=2 + length,
        )
        super().__init__(GAME_TYPE, info, params_of(rules))

    def new_initial_state(self):
        """The state before Black's setup."""
        return SamarraState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """An observer of information states (perfect recall) or observations."""
        if params:
            raise ValueError(f"params: the samarra observer takes none, got {params!r}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return SamarraObserver(self.rules, recall)


class SamarraState(pyspiel.State):
    """A state of the game: the setups chosen so far, then the engine's :class:`Game`."""

    def __init__(self, game):
        super().__init__(game)
        self._rules = game.rules
        self._setups = game.setups
        self._chosen: list[int] = []
        self._game: Game | None = None
        self._tokens: list[str] = []

    # -- OpenSpiel API ------------------------------------------------------------------

    def current_player(self):
        """Black (0) and White (1) set up in turn, then the side to move, or TERMINAL."""
        if len(self._chosen) < 2:
            return len(self._chosen)
        if self._game.result is not None:
            return pyspiel.PlayerId.TERMINAL
        return self._game.position.to_move

    def _legal_actions(self, player):
        n = n_play_codes(self._rules)
        if len(self._chosen) < 2:
            return list(range(n, n + len(self._setups)))
        p = self._game.position
        return sorted(action_code(p, a) for a in legal_actions(p))

    def _apply_action(self, action):
        n = n_play_codes(self._rules)
        if len(self._chosen) < 2:
            self._chosen.append(action - n)
            if len(self._chosen) == 2:
                black, white = (self._setups[i] for i in self._chosen)
                self._game = Game(start_position(self._rules, black, white))
            return
        before = self._game.position
        engine_action = code_action(before, action)
        self._game.play(engine_action)
        self._tokens.append(public_token(before, engine_action, self._game.position))

    def _action_to_string(self, player, action):
        n = n_play_codes(self._rules)
        if action >= n:
            return f"{SIDES[player]} setup {self._setups[action - n]}"
        cells = self._rules.n_cells
        if action == 5 * cells:
            return f"{SIDES[player]} pass"
        kind, cell = divmod(action, cells)
        if kind < 3:
            return f"{SIDES[player]} {('servant', 'merchant', 'death')[kind]} to {cell}"
        return f"{SIDES[player]} {'merchant' if kind == 3 else 'death'} on {cell}"

    def is_terminal(self):
        """Whether the game has ended (a win or the tie-break)."""
        return self._game is not None and self._game.result is not None

    def returns(self):
        """+1 to the winner, -1 to the loser; 0 and 0 for a draw or a game not over."""
        if not self.is_terminal() or self._game.result.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self._game.result.winner == BLACK else [-1.0, 1.0]

    def __str__(self):
        if self._game is None:
            return f"setups chosen: {len(self._chosen)}"
        return str(self._game.position)

    # -- what a player knows ------------------------------------------------------------

    def information_string(self, player: int) -> str:
        """The player's setup and the public tokens of every action so far."""
        if len(self._chosen) <= player:
            return f"{SIDES[player]}: setup to choose"
        head = f"{SIDES[player]} setup {self._setups[self._chosen[player]]}"
        return " | ".join([head, *self._tokens])

    def observation(self, player: int) -> str:
        """The board the player sees, the turn and the flags it knows."""
        if len(self._chosen) <= player:
            return f"{SIDES[player]}: setup to choose"
        if self._game is None:
            return f"{SIDES[player]} setup {self._setups[self._chosen[player]]}"
        p = self._game.position
        enemy = 1 - player
        known = _known_enemy_flags(p, player)
        own = "M" * p.merchant_used[player] + "D" * p.death_used[player]
        theirs = "M" * known[0] + "D" * known[1]
        flags = f"own used {own or '-'}, {SIDES[enemy]} used {theirs or '-'}"
        extra = ""
        if p.pass_run or p.turn_passes:
            extra += f", passes {p.pass_run}/{p.turn_passes}"
        if p.last_move is not None:
            extra += f", last move from {p.last_move[1]}"
        head = (f"{private_board(p, player)} to move {SIDES[p.to_move]}, actions left "
                f"{p.actions_left}, played {p.actions_played}, {flags}{extra}")  # fmt: skip
        if self._game.result is not None:
            winner = self._game.result.winner
            head += f", over: {'draw' if winner is None else SIDES[winner] + ' wins'}"
        return head


def _known_enemy_flags(p, player: int) -> tuple[bool, bool]:
    """The enemy's powers ``player`` knows used: revealed alive and used (their own use)."""
    enemy = 3 * (1 - player)
    return tuple(
        p.cells[enemy + fig] >= 0 and p.revealed[enemy + fig] and used
        for fig, used in ((MERCHANT, p.merchant_used[1 - player]),
                          (DEATH, p.death_used[1 - player]))
    )  # fmt: skip


_PLANES = 9  # empty, own S M D, own revealed, enemy hidden, enemy S M D revealed


class SamarraObserver:
    """OpenSpiel's observer: strings (perfect recall or not) and the observation tensor.

    The tensor (observations only) holds ``9`` planes over the cells (empty; own
    servant, merchant, Death; own identity revealed; enemy tent hidden; enemy servant,
    merchant, Death revealed), then one-hots of the player, the side to move, the
    actions left, the passes in a row and in this turn, and four flags (own powers
    used, enemy powers known used). Before the setups are made it is all zeros.
    """

    def __init__(self, rules: Rules, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        n = rules.n_cells
        pieces = [("board", (_PLANES, n)), ("player", (2,)), ("to_move", (2,)),
                  ("actions_left", (2,)), ("pass_run", (PASS_LIMIT,)),
                  ("turn_passes", (2,)), ("flags", (4,))]  # fmt: skip
        if perfect_recall:
            pieces = []
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {}
        start = 0
        for name, shape in pieces:
            k = int(np.prod(shape))
            self.dict[name] = self.tensor[start : start + k].reshape(shape)
            start += k

    def set_from(self, state: SamarraState, player: int) -> None:
        """Fill the tensor from ``player``'s view of ``state``."""
        self.tensor.fill(0)
        if self.perfect_recall or state._game is None:
            return
        p = state._game.position
        board = self.dict["board"]
        board[0, :] = 1
        for fig, cell in enumerate(p.cells):
            if cell < 0:
                continue
            board[0, cell] = 0
            if fig // 3 == player:
                board[1 + fig % 3, cell] = 1
                board[4, cell] = p.revealed[fig]
            elif p.revealed[fig]:
                board[6 + fig % 3, cell] = 1
            else:
                board[5, cell] = 1
        self.dict["player"][player] = 1
        self.dict["to_move"][p.to_move] = 1
        self.dict["actions_left"][p.actions_left - 1] = 1
        self.dict["pass_run"][p.pass_run] = 1
        self.dict["turn_passes"][p.turn_passes] = 1
        known = _known_enemy_flags(p, player)
        self.dict["flags"][:] = (p.merchant_used[player], p.death_used[player], *known)

    def string_from(self, state: SamarraState, player: int) -> str:
        """The information-state string (perfect recall) or the observation string."""
        if self.perfect_recall:
            return state.information_string(player)
        return state.observation(player)


pyspiel.register_game(GAME_TYPE, SamarraGame)
