"""The sequence form of Ce soir, à Samarra's hidden-information adjudicated game.

The game (docs/rules.md, Information; the adjudicated game): Black chooses a setup,
then White, neither seeing the other's; then ``H`` actions are played, each public as
:func:`samarra.information.public_token` says, and the tie-break scores the position
after action ``H`` (or earlier, when the side to move has no legal action); a win
ends it at once (+1 to Black for Black's win, -1 for White's). There is no chance.

An information set of side ``p`` is (``p``'s setup, the public tokens so far); a
*sequence* of ``p`` is the empty sequence or (an information set of ``p``, an action
there) (Koller, Megiddo and von Stengel 1994). With perfect recall every state of an
information set has the same legal actions and the same own sequence. The
enumeration walks every history of every setup pair once (the game *tree*, not its
positions: a sequence form needs histories), and records:

* per side, each information set's parent sequence and the codes of its actions;
  its sequences are numbered contiguously from ``first[I]``;
* every leaf with a non-zero payoff as (Black's sequence, White's sequence, payoff):
  the entries of the sparse payoff matrix ``A`` (no two leaves share a pair of
  sequences, since the two sequences give the history).

Successors of a position are computed once (the engine, ``samarra.engine``) and kept
by position (``actions_played`` counts only as "is it 0", the one thing the rules read
from it once the walk counts the horizon itself), so the walk itself mostly follows
integers. Infosets are numbered in the
order first reached, so a parent sequence always belongs to an earlier information
set (the backward passes of ``samarra.hidden`` rely on it).

:func:`mirror` maps each side's sequences onto their left-right mirror images (the
rules read no column), checked on the form; ``samarra.hidden`` solves its programme on
the orbits of that map, about half the size.
"""

from __future__ import annotations

import sys
from array import array
from contextlib import contextmanager
from dataclasses import dataclass, replace

import numpy as np

from samarra.engine import legal_actions, next_position, tie_break
from samarra.information import action_code, n_play_codes, public_token
from samarra.position import Position, setups, start_position
from samarra.rules import BLACK, Rules
from tabletop.frozen import same_fields


@dataclass(frozen=True, eq=False)
class SequenceForm:
    """The sequence form of one (rules, horizon): see the module docstring.

    Attributes
    ----------
    rules : Rules
        With ``horizon`` set to the solved H.
    setups : list of str
    parent, first, n_actions : tuple of two int64 arrays
        Per side and information set: the parent sequence (0: the empty sequence),
        the first of its sequences, and its number of actions.
    codes : tuple of two int64 arrays
        Per side and sequence: the action code (-1 for the empty sequence); setups are
        codes ``n_play_codes + i`` as in ``samarra.openspiel``.
    public : tuple of two int64 arrays
        Per side and information set: its public history (an index into ``tokens``'
        tree), -1 for the setup choice.
    setup_of : tuple of two int64 arrays
        Per side and information set: the own setup index (-1 for the setup choice).
    history_parent, history_token : int64 arrays
        The tree of public histories: history ``k > 0`` is history
        ``history_parent[k]`` followed by token ``history_token[k]``; 0 is empty.
    tokens : list of str
    rows, cols, payoff : arrays
        The non-zero leaves: Black's sequence, White's sequence, Black's payoff.
    n_states : int
        Histories of the game, terminal ones and the two setup moves included.
    n_leaves : int
        Terminal histories.
    """

    rules: Rules
    setups: list
    parent: tuple
    first: tuple
    n_actions: tuple
    codes: tuple
    public: tuple
    setup_of: tuple
    history_parent: np.ndarray
    history_token: np.ndarray
    tokens: list
    rows: np.ndarray
    cols: np.ndarray
    payoff: np.ndarray
    n_states: int
    n_leaves: int

    def __post_init__(self):
        Rules.check(self.rules, default=False)

    __eq__ = same_fields

    @property
    def n_infosets(self) -> tuple[int, int]:
        """Information sets of Black and White."""
        return (self.parent[0].size, self.parent[1].size)

    @property
    def n_sequences(self) -> tuple[int, int]:
        """Sequences of Black and White, the empty sequence included."""
        return (self.codes[0].size, self.codes[1].size)

    def information_string(self, side: int, infoset: int) -> str:
        """The OpenSpiel information-state string of ``side``'s information set."""
        from samarra.rules import SIDES

        if self.setup_of[side][infoset] < 0:
            return f"{SIDES[side]}: setup to choose"
        tokens = []
        k = int(self.public[side][infoset])
        while k > 0:
            tokens.append(self.tokens[self.history_token[k]])
            k = int(self.history_parent[k])
        head = f"{SIDES[side]} setup {self.setups[self.setup_of[side][infoset]]}"
        return " | ".join([head, *reversed(tokens)])


class _Side:
    """Growing arrays of one side's information sets and sequences."""

    def __init__(self):
        self.index: dict = {}
        self.parent = array("q")
        self.first = array("q")
        self.n_actions = array("q")
        self.public = array("q")
        self.setup_of = array("q")
        self.codes = array("q", [-1])

    def infoset(self, key, parent_seq: int, codes, public: int, setup: int) -> int:
        """The first sequence of the information set ``key`` (made on first sight)."""
        number = self.index.get(key)
        if number is not None:
            first = self.first[number]
            if self.parent[number] != parent_seq or self.n_actions[number] != len(codes):
                raise AssertionError(f"imperfect recall at {key}")  # a walk bug, not input
            return first
        first = len(self.codes)
        self.index[key] = len(self.parent)
        self.parent.append(parent_seq)
        self.first.append(first)
        self.n_actions.append(len(codes))
        self.public.append(public)
        self.setup_of.append(setup)
        self.codes.extend(codes)
        return first

    def arrays(self):
        return tuple(np.frombuffer(a, np.int64).copy() for a in
                     (self.parent, self.first, self.n_actions, self.codes, self.public,
                      self.setup_of))  # fmt: skip


class _Trusted(Position):
    """A position the engine made from a checked one: not checked again.

    ``Position`` checks every field when built; the engine's ``next_position`` builds its
    result with ``Position._trusted``, which keeps the class, so every position of a
    walk started from a ``_Trusted`` copy of a checked start is a ``_Trusted`` one,
    never checked again, and nothing else changes: the rules applied are the engine's
    own.
    """

    def __post_init__(self):
        pass

    @classmethod
    def of(cls, position: Position) -> _Trusted:
        out = object.__new__(cls)
        out.__dict__.update(position.__dict__)
        return out


def _key(p) -> tuple:
    """What the rules see of a position: ``actions_played`` only as "is it 0"."""
    return (p.cells, p.revealed, p.merchant_used, p.death_used, p.to_move, p.actions_left,
            p.actions_played > 0, p.pass_run, p.turn_passes, p.last_move)


#: The largest horizon :func:`build` walks. The walk takes one Python frame per action,
#: and no board has a usable tree this deep: on the smallest (3 x 3) the tree passes
#: 10**13 histories by H = 20 (:func:`tree_size`).
MAX_HORIZON = 200

#: Random root-to-leaf probes of :func:`tree_size`.
SIZE_PROBES = 256

#: :func:`tree_size` stops a probe once its estimate passes this many histories, and
#: stops probing after 32 probes whose mean passes a thousandth of it: no machine
#: holds such a tree (500 bytes a history), and the answer is then "more than that".
SIZE_CAP = 1e15


def check_horizon(horizon) -> int:
    """``horizon`` as an int in ``0..MAX_HORIZON``, else a ValueError naming it.

    Examples
    --------
    >>> check_horizon(10**6)
    Traceback (most recent call last):
    ...
    ValueError: horizon must be 0..200 (the largest horizon the tree walk takes), got 1000000
    """
    from tabletop.validate import check_int

    try:
        return check_int("horizon", horizon, 0, MAX_HORIZON)
    except ValueError:
        raise ValueError(f"horizon must be 0..{MAX_HORIZON} (the largest horizon the tree "
                         f"walk takes), got {horizon!r}") from None  # fmt: skip


def tree_size(rules: Rules, horizon: int, probes: int = SIZE_PROBES) -> float:
    """The number of histories (:attr:`SequenceForm.n_states`) of the game adjudicated
    after ``horizon`` actions, estimated before any enumeration.

    Knuth's estimator (1975): a probe follows one random path from a random setup pair,
    summing at each decision node its number of children times the product of the
    branching factors above it; the mean over ``probes`` probes is an unbiased
    estimate of the tree's size. The probes are seeded (the same estimate at every
    call) and a probe stops once its sum passes :data:`SIZE_CAP`. The trees met here
    are fairly regular: the estimate lies within 20 % of the exact count for the
    3 x 3 board at H = 1..8 (tests/samarra/test_hidden_size.py).

    Parameters
    ----------
    rules : Rules
    horizon : int
        0..:data:`MAX_HORIZON`.
    probes : int
        Random paths (>= 1; fewer when the tree is far too large to hold).

    Returns
    -------
    float

    Examples
    --------
    >>> tree_size(Rules(length=3), 1)   # exact for H <= 1: every probe sees every setup's moves
    151.0
    """
    import random

    horizon = check_horizon(horizon)
    names = setups(rules)
    free = replace(rules, horizon=None)
    pairs = len(names) ** 2
    fixed = 1 + len(names) + pairs  # the setup choices and the starts
    if horizon == 0:
        return float(fixed)
    rng = random.Random(0)  # a function of the rules alone
    starts: dict = {}
    successors: dict = {}
    total = 0.0
    done = 0
    while done < probes and not (done >= 32 and total / done > SIZE_CAP / 1000):
        done += 1
        b, w = rng.randrange(len(names)), rng.randrange(len(names))
        p = starts.get((b, w))
        if p is None:
            p = starts[(b, w)] = _Trusted.of(start_position(free, names[b], names[w]))
        key, weight, found, left = _key(p), float(pairs), 0.0, horizon
        while True:
            moves = successors.get(key)
            if moves is None:
                moves = successors[key] = [
                    (q, _key(q), q.winner is not None)
                    for q in (next_position(p, a) for a in legal_actions(p))
                ]
            if not moves:
                break
            found += weight * len(moves)
            if found > SIZE_CAP:
                break
            p, key, over = moves[rng.randrange(len(moves))]
            if over or left == 1:
                break
            weight *= len(moves)
            left -= 1
        total += found
    return fixed + total / done


def _abandon(*tables) -> None:
    """Leave an interrupted walk's tables to the garbage collector, not to the unwinding.

    Freeing the millions of small objects of a large walk takes seconds, which a Ctrl-C
    that ends the process would wait for at exit: held in a reference cycle, they are
    freed by the next collection if the process goes on, and skipped at exit
    (:func:`tabletop._entry.freeze_at_exit`) if it ends.
    """
    from tabletop._entry import freeze_at_exit

    grave: list = list(tables)
    grave.append(grave)
    freeze_at_exit()


@contextmanager
def _recursion_room(depth: int):
    """At least ``depth`` Python frames free for the walk while it runs."""
    old = sys.getrecursionlimit()
    frame, used = sys._getframe(), 0
    while frame is not None:
        frame, used = frame.f_back, used + 1
    sys.setrecursionlimit(max(old, used + depth + 100))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def build(rules: Rules, *, bar=None) -> SequenceForm:
    """Enumerate the hidden-information game of ``rules`` (``horizon`` set) in sequence form.

    ``bar`` (a tqdm bar, optional) is advanced by the histories as they are found. The
    walk is plain Python: Ctrl-C stops it at once.

    Examples
    --------
    >>> form = build(Rules(length=3, horizon=1))
    >>> form.n_infosets, form.n_sequences
    ((7, 1), (25, 7))
    """
    horizon = check_horizon(rules.horizon)
    with _recursion_room(horizon):
        return _build(rules, horizon, bar)


#: Histories between two updates of the bar of :func:`build`.
BAR_STEP = 4096


def _build(rules: Rules, horizon: int, bar) -> SequenceForm:
    names = setups(rules)
    free = replace(rules, horizon=None)  # the walk counts the actions itself
    n_codes = n_play_codes(rules)
    sides = (_Side(), _Side())
    token_index: dict[str, int] = {}
    # integer keys (smaller than tuples): a child history is ``(history << 32) | token``,
    # an information set ``history * n_setups + own setup``, the setup choice -1
    history_index: dict[int, int] = {}
    n_setups = len(names)
    history_parent, history_token = array("q", [-1]), array("q", [-1])
    successors: dict = {}
    rows, cols, pay = array("q"), array("q"), array("b")
    counts = [0, 0]  # states, leaves
    if bar is None:
        from types import SimpleNamespace

        bar = SimpleNamespace(update=lambda n: None)
    shown = [0, BAR_STEP]  # states shown on the bar, next update

    def score(p) -> int:
        """Black's payoff if the game stopped at ``p``: the win, else the tie-break."""
        if p.winner is not None:
            return 1 if p.winner == BLACK else -1
        tb = tie_break(p)
        return 0 if tb is None else (1 if tb == BLACK else -1)

    def expand(p):
        """(code, child, child's key, token, child over?, child's score) per action."""
        out = []
        for a in legal_actions(p):
            q = next_position(p, a)
            token = public_token(p, a, q)
            t = token_index.setdefault(token, len(token_index))
            out.append((action_code(p, a), q, _key(q), t, q.winner is not None, score(q)))
        # by code, not in the engine's order, which names a power's target by its
        # identity: the order must be the same in every state of an information set
        out.sort(key=lambda m: m[0])
        return out, [m[0] for m in out], score(p)

    def leaf(sb, sw, u):
        counts[1] += 1
        if u:
            rows.append(sb)
            cols.append(sw)
            pay.append(u)

    def walk(p, key, history, sb, sw, left, pair):
        """Every history below the decision node ``p`` (not over, ``left >= 1``); the
        node itself is counted by its parent. Children that end the game, or reach the
        horizon, are scored here without a call."""
        entry = successors.get(key)
        if entry is None:
            entry = successors[key] = expand(p)
        moves, codes, tie = entry
        if not moves:
            leaf(sb, sw, tie)
            return
        me = p.to_move
        if me == BLACK:
            first = sides[0].infoset(history * n_setups + pair[0], sb, codes, history, pair[0])
        else:
            first = sides[1].infoset(history * n_setups + pair[1], sw, codes, history, pair[1])
        counts[0] += len(moves)
        if counts[0] >= shown[1]:
            bar.update(counts[0] - shown[0])
            shown[0], shown[1] = counts[0], counts[0] + BAR_STEP
        for k, (_, q, qkey, t, over, u) in enumerate(moves):
            nb, nw = (first + k, sw) if me == BLACK else (sb, first + k)
            if over or left == 1:
                leaf(nb, nw, u)
                continue
            child = history_index.get((history << 32) | t)
            if child is None:
                child = history_index[(history << 32) | t] = len(history_parent)
                history_parent.append(history)
                history_token.append(t)
            walk(q, qkey, child, nb, nw, left - 1, pair)

    codes = list(range(n_codes, n_codes + len(names)))
    black_first = sides[0].infoset(-1, 0, codes, -1, -1)
    counts[0] += 1
    try:
        for i, b in enumerate(names):
            white_first = sides[1].infoset(-1, 0, codes, -1, -1)
            counts[0] += 1
            for j, w in enumerate(names):
                start = _Trusted.of(start_position(free, b, w))
                counts[0] += 1
                if horizon == 0:
                    leaf(black_first + i, white_first + j, score(start))
                else:
                    walk(start, _key(start), 0, black_first + i, white_first + j, horizon,
                         (i, j))  # fmt: skip
    except KeyboardInterrupt:
        _abandon(successors, history_index, token_index, sides, rows, cols)
        raise
    bar.update(counts[0] - shown[0])
    black, white = sides[0].arrays(), sides[1].arrays()
    parent, first, n_actions, seq_codes, public, setup_of = zip(black, white, strict=True)
    return SequenceForm(
        rules, names, parent, first, n_actions, seq_codes, public, setup_of,
        np.frombuffer(history_parent, np.int64).copy(),
        np.frombuffer(history_token, np.int64).copy(),
        sorted(token_index, key=token_index.get),
        np.frombuffer(rows, np.int64).copy(), np.frombuffer(cols, np.int64).copy(),
        np.frombuffer(pay, np.int8).astype(np.float64), counts[0], counts[1],
    )  # fmt: skip


def _lookup(keys: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Positions of ``wanted`` in the ascending ``keys``, -1 where absent."""
    if keys.size == 0:
        return np.full(wanted.shape, -1, np.int64)
    at = np.minimum(np.searchsorted(keys, wanted), keys.size - 1)
    return np.where(keys[at] == wanted, at, -1)


def mirror(form: SequenceForm) -> tuple[np.ndarray, np.ndarray] | None:
    """The left-right mirror of the game on each side's sequences, or None.

    The rules read no column (moves and powers go to adjacent cells, the tie-break
    counts rows), so reflecting the board (column ``c`` to ``width - 1 - c``, a setup's
    row reversed) maps the game onto itself: information set (setup, public history)
    onto (mirrored setup, mirrored history), each action onto the mirrored action, with
    the same payoffs. This function builds that map from the form and checks it: every
    mirrored information set, sequence and leaf must exist, with the same parent and
    the same payoff, else it returns None.

    Returns
    -------
    tuple of two int64 arrays, or None
        Per side and sequence, the mirrored sequence (an involution; the empty sequence
        is its own mirror).

    Examples
    --------
    >>> form = build(Rules(length=3, horizon=2))
    >>> black, white = mirror(form)
    >>> bool((black[black] == np.arange(black.size)).all()), int(black[0])
    (True, 0)
    """
    from samarra.information import mirror_code, mirror_token

    rules = form.rules
    index = {t: k for k, t in enumerate(form.tokens)}
    tmap = np.array([index.get(mirror_token(rules, t), -1) for t in form.tokens], np.int64)
    if (tmap < 0).any():
        return None
    # public histories: a child's mirror is the mirrored parent's child by the mirrored token
    n_hist, n_tok = form.history_parent.size, max(len(form.tokens), 1)
    hkeys = form.history_parent[1:] * n_tok + form.history_token[1:]
    order = np.argsort(hkeys, kind="stable")
    sorted_keys = hkeys[order]
    hmap = np.full(n_hist, -1, np.int64)
    hmap[0] = 0
    todo = np.arange(1, n_hist)
    while todo.size:
        ready = hmap[form.history_parent[todo]] >= 0
        k = todo[ready]
        wanted = hmap[form.history_parent[k]] * n_tok + tmap[form.history_token[k]]
        at = _lookup(sorted_keys, wanted)
        if (at < 0).any() or not ready.any():
            return None
        hmap[k] = order[at] + 1
        todo = todo[~ready]
    names = form.setups
    smap = np.array([names.index(name[::-1]) for name in names], np.int64)
    out = []
    for side in (0, 1):
        setup_of, public, first = form.setup_of[side], form.public[side], form.first[side]
        n_actions, codes, parent = form.n_actions[side], form.codes[side], form.parent[side]
        # information sets: (setup, public history) keys, ascending after a sort
        ikeys = np.where(setup_of >= 0, setup_of * n_hist + public, -1)
        iorder = np.argsort(ikeys, kind="stable")
        wanted = np.where(setup_of >= 0, smap[np.maximum(setup_of, 0)] * n_hist
                          + hmap[np.maximum(public, 0)], -1)  # fmt: skip
        at = _lookup(ikeys[iorder], wanted)
        if (at < 0).any():
            return None
        imap = iorder[at]
        # sequences: (information set, code), ascending in sequence order
        owner = np.repeat(np.arange(first.size), n_actions)
        n_code = int(codes.max()) + 1 if codes.size else 1
        skeys = owner * n_code + codes[1:]
        mcodes = np.array([mirror_code(rules, int(c)) for c in range(n_code)], np.int64)
        at = _lookup(skeys, imap[owner] * n_code + mcodes[codes[1:]])
        if (at < 0).any():
            return None
        smap_seq = np.concatenate([[0], at + 1])
        if (parent[imap] != smap_seq[parent]).any():
            return None
        out.append(smap_seq)
    # the payoffs: every leaf's mirror is a leaf with the same payoff
    nw = form.n_sequences[1]
    lkeys = form.rows * nw + form.cols
    lorder = np.argsort(lkeys)
    at = _lookup(lkeys[lorder], out[0][form.rows] * nw + out[1][form.cols])
    if (at < 0).any() or (form.payoff[lorder[at]] != form.payoff).any():
        return None
    return out[0], out[1]
