"""Honest heuristic players of Master Citadel (plain-Python reference).

Every heuristic sees only public information: the pawn, the capitals and the orders
revealed last round. A seat's *need* is the number of steps the pawn must still take
toward its line to leave the board: ``radius + 1 - (pawn · home)``. A *target*
amount is turned into a legal one by :func:`legal_amount` (round down to the
``bid_step`` grid, at most the capital; at least the smallest positive amount when
the target is positive or ``min_bid`` forces a bid; 0 when no positive amount fits).

``straight``
    Go straight for my line, spreading my capital evenly over the steps I need:
    ``capital // need`` toward home.
``ally_cw`` / ``ally_ccw``
    Support a neighbour: push diagonally toward the corner shared with my clockwise
    (counter-clockwise) neighbour, with ``min(both capitals) // min(both needs)``. Two
    neighbours playing ``ally_cw`` and ``ally_ccw`` write the same order, so their
    orders merge (a corner exit is a shared win). Without that neighbour: ``straight``.
``counter``
    Counter the strongest combined order of last round (two or more authors, not
    mine): the same per-author amount in the opposite direction, if affordable;
    otherwise ``straight``.
``saver``
    Save capital for the end: the smallest legal amount toward home while every
    seat needs two steps or more; all my capital toward home once some seat needs
    only one.
``random``
    A uniformly random direction and a uniformly random legal amount.
"""

from __future__ import annotations

import numpy as np

from citadel.rules import STEPS, Rules

AGENTS = ("straight", "ally_cw", "ally_ccw", "counter", "saver", "random")


def legal_amount(target: int, capital: int, rules: Rules) -> int:
    """The legal amount an agent writes when it aims at ``target`` (see module docstring).

    Examples
    --------
    >>> legal_amount(27, 100, Rules(bid_step=5)), legal_amount(3, 100, Rules(bid_step=5))
    (25, 5)
    """
    step = rules.bid_step
    low = rules.smallest_bid
    if capital < low:
        return 0
    a = (min(target, capital) // step) * step
    if target > 0 or rules.min_bid > 0:
        a = max(a, low)
    return int(a)


def need(pawn, seat: int, rules: Rules) -> int:
    """Steps the pawn still has to take toward ``seat``'s line to leave the board."""
    hx, hy = STEPS[rules.homes[seat]]
    return int(rules.radius + 1 - (pawn[0] * hx + pawn[1] * hy))


def _seat_of(direction: int, rules: Rules) -> int:
    homes = rules.homes.tolist()
    return homes.index(direction) if direction in homes else -1


def _straight(state, seat, rules):
    cap = state.capitals[seat]
    return legal_amount(cap // need(state.pawn, seat, rules), cap, rules), int(rules.homes[seat])


def _ally(state, seat, rules, turn):
    home = int(rules.homes[seat])
    partner = _seat_of((home + 2 * turn) % 8, rules)
    if partner < 0:
        return _straight(state, seat, rules)
    steps = min(need(state.pawn, seat, rules), need(state.pawn, partner, rules))
    pot = min(state.capitals[seat], state.capitals[partner])
    return legal_amount(pot // steps, state.capitals[seat], rules), (home + turn) % 8


def _counter(state, seat, rules, last):
    if last is not None:
        amounts, directions = last
        best_strength, best = 0, None
        for i in range(rules.n_players):
            a, d = amounts[i], directions[i]
            if a <= 0:
                continue
            authors = [j for j in range(rules.n_players)
                       if amounts[j] == a and directions[j] == d]  # fmt: skip
            if len(authors) < 2 or seat in authors:
                continue
            if a * len(authors) > best_strength:
                best_strength, best = a * len(authors), (a, d)
        if best is not None and best[0] <= state.capitals[seat]:
            return best[0], (best[1] + 4) % 8
    return _straight(state, seat, rules)


def _saver(state, seat, rules):
    cap = state.capitals[seat]
    closest = min(need(state.pawn, s, rules) for s in range(rules.n_players))
    target = cap if closest <= 1 else 0
    return legal_amount(target, cap, rules), int(rules.homes[seat])


def _random(state, seat, rules, rng):
    legal = rules.legal_amounts(state.capitals[seat])
    return int(legal[rng.integers(legal.size)]), int(rng.integers(8))


def agent(name: str):
    """The heuristic ``name`` (one of :data:`AGENTS`) as a callable for ``play_game``.

    Parameters
    ----------
    name : str
        One of :data:`AGENTS` (see the module docstring).

    Returns
    -------
    callable
        ``act(state, seat, rules, last, rng) -> (amount, direction)``, named ``name``;
        only ``"random"`` draws from ``rng``.

    Examples
    --------
    >>> from citadel.game import initial_state
    >>> agent("straight")(initial_state(Rules()), 0, Rules(), None, None)
    (25, 0)
    """
    if not isinstance(name, str) or name not in AGENTS:
        raise ValueError(f"name must be one of {AGENTS}: unknown agent {name!r}")

    def act(state, seat, rules: Rules, last, rng: np.random.Generator):
        if name == "straight":
            return _straight(state, seat, rules)
        if name in ("ally_cw", "ally_ccw"):
            return _ally(state, seat, rules, 1 if name == "ally_cw" else -1)
        if name == "counter":
            return _counter(state, seat, rules, last)
        if name == "saver":
            return _saver(state, seat, rules)
        return _random(state, seat, rules, rng)

    act.__name__ = name
    return act
