"""Private numba kernels of Master & Commander: no validation, deterministic given inputs.

The public wrappers (``race.py``, ``economy.py``) check arguments and build the
C-ordered arrays these kernels read.

Speed note: the game loop calls no helper that takes arrays and branches on them.
Numba keeps such helpers' array arguments alive with atomic reference counts that
its pruning pass cannot remove, and those cost more than the game logic itself (the
economy ran at 8.5e4 games/s with the adventure draw as such a helper, 1.12e5
without). Small straight-line helpers (``_next``, ``_tap``) compile without them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import prange

from tabletop.draws import randbelow
from tabletop.jit import jit, parallel_jit


class RacePlan(NamedTuple):
    """A race against the market (``commander.race``): the Company's prices, the
    player's income and the rivals' drain per turn, the goal and the trade cap."""

    buy: np.ndarray     # (n_g, n_g) int64, price of k gold at stock s: buy[s, k]
    sell: np.ndarray    # (n_g, n_g) int64, proceeds of selling k gold at stock s
    income: np.ndarray  # (horizon,) int64, doublons collected at turn t + 1
    drain: np.ndarray   # (horizon,) int64, gold the rivals take from the stock
    win: int            # gold that wins
    cap: int            # most gold in one transaction
    horizon: int        # turns looked at


@jit
def race_forward_kernel(plan, g0, d0, s0):
    """Most doublons a player can hold at the start of each turn, per (gold, stock).

    ``best[t, g, s]`` is the largest purse at the start of turn ``t + 1`` over the
    plans reaching gold ``g`` and stock ``s`` then without having won earlier
    (``-1``: unreachable), from gold ``g0``, doublons ``d0`` and stock ``s0``. Turn
    ``t + 1``: collect ``plan.income[t]``, trade one signed transaction, then the
    rivals take ``min(plan.drain[t], stock)`` gold from the stock. States with
    ``g >= plan.win`` are wins and are not expanded.
    """
    n_g = plan.buy.shape[0]
    best = np.full((plan.horizon + 1, n_g, n_g), -1, dtype=np.int64)
    best[0, g0, s0] = d0
    for t in range(plan.horizon):
        race_step(plan, best, t)
    return best


@jit
def race_step(plan, best, t):
    """Turn ``t + 1`` of :func:`race_forward_kernel`: ``best[t + 1]`` from ``best[t]``
    (``best`` of shape ``(horizon + 1, n_g, n_g)``, ``n_g = plan.buy.shape[0]``)."""
    buy, sell, win, cap = plan.buy, plan.sell, plan.win, plan.cap
    n_g = buy.shape[0]
    inc = plan.income[t]
    r = plan.drain[t]
    for g in range(min(win, n_g)):
        for s in range(n_g):
            d = best[t, g, s]
            if d < 0:
                continue
            d = d + inc
            # sales: k = 1..min(cap, g)
            for k in range(1, min(cap, g) + 1):
                s2 = s + k
                if s2 >= n_g:
                    break
                d2 = d + sell[s, k]
                s3 = s2 - r if s2 > r else 0
                if d2 > best[t + 1, g - k, s3]:
                    best[t + 1, g - k, s3] = d2
            # pass and purchases: k = 0..min(cap, s), affordable
            for k in range(0, min(cap, s) + 1):
                price = buy[s, k]
                if price > d:
                    break
                g2 = g + k
                if g2 >= n_g:
                    break
                s2 = s - k
                s3 = s2 - r if s2 > r else 0
                if d - price > best[t + 1, g2, s3]:
                    best[t + 1, g2, s3] = d - price


@jit
def race_table_kernel(plan, d0, total):
    """Winning turn (0: not within the horizon) and purse left, for every start (g, s)
    with ``d0`` doublons.

    Starts are ``0 <= g < plan.win`` and ``0 <= s <= total - g``; gold and stock move in
    a space of ``total + 1`` values (``plan.buy.shape[0] == total + 1``).
    """
    win = plan.win
    turns = np.zeros((win, total + 1), dtype=np.int64)
    left = np.full((win, total + 1), -1, dtype=np.int64)
    starts = np.array([(g0, s0) for g0 in range(win) for s0 in range(total + 1 - g0)],
                      dtype=np.int64).reshape(-1, 2)  # fmt: skip
    race_table_starts(plan, d0, starts, turns, left)
    return turns, left


@jit
def race_table_starts(plan, d0, starts, turns, left):
    """:func:`race_table_kernel` for the starts ``starts`` (rows ``(g0, s0)``), written
    into ``turns`` and ``left`` (shape ``(win, total + 1)``). Each start is its own race."""
    n_g = plan.buy.shape[0]
    for i in range(starts.shape[0]):
        g0 = starts[i, 0]
        s0 = starts[i, 1]
        best = race_forward_kernel(plan, g0, d0, s0)
        for t in range(1, plan.horizon + 1):
            top = -1
            for g in range(plan.win, n_g):
                for s in range(n_g):
                    if best[t, g, s] > top:
                        top = best[t, g, s]
            if top >= 0:
                turns[g0, s0] = t + 1
                left[g0, s0] = top
                break


# ---------------------------------------------------------------------------------------
# Economy model. ``opts`` packs the rules' integers (indices below); per-player card data
# is indexed by player, the state by seat (seat 0 plays first).
O_WIN, O_CAP, O_EXPLORE, O_PILLAGE_GOLD, O_PILLAGE_DOUBLONS, O_LAUNCHER = 0, 1, 2, 3, 4, 5
O_TAVERN, O_HAND, O_START_DOUBLONS, O_START_GOLD, O_START_STOCK, O_TO_COMPANY = 6, 7, 8, 9, 10, 11
O_MAX_ROUNDS, O_SEAS = 12, 13
N_OPTS = 14
# crew card fields
C_CONQUEST, C_COMMAND, C_VOTES, C_DIPLOMACY, C_COST = 0, 1, 2, 3, 4
# strategy fields
S_BUY_FROM, S_BUY_MAX_RATE, S_RESERVE, S_SELL_MIN_RATE, S_RAID_MARGIN, S_HIRE = 0, 1, 2, 3, 4, 5
S_ATTACH_RESERVE = 6
# adventure card fields and kinds
A_KIND, A_VALUE, A_COST = 0, 1, 2
KIND_OTHER, KIND_AGREEMENT, KIND_ATTACHMENT = 0, 1, 2


# per-seat running totals of the crew in play (``agg[seat, field]``): conquest, votes,
# command, the conquest of the tapped characters, and the turn stamp: a character is
# tapped when its ``play_tapped`` entry equals its seat's stamp, so returning to port
# (untapping the whole crew) is one increment.
G_CONQUEST, G_VOTES, G_COMMAND, G_TAPPED_CONQUEST, G_STAMP = 0, 1, 2, 3, 4
N_AGG = 5


class CardTables(NamedTuple):
    """What the economy kernels read, built once from the rules, decks and strategies by
    :func:`commander.economy.kernel_inputs` (``int64`` unless said; one row per player)."""

    opts: np.ndarray      # (N_OPTS,) the rules' integers, indexed by the O_* constants
    rates: np.ndarray     # (total_gold + 1,) exchange rate by stock
    buy: np.ndarray       # (total_gold + 1, total_gold + 1) price of k gold at a stock
    sell: np.ndarray      # likewise, the proceeds of selling k gold
    lair: np.ndarray      # (players,) the lair's gold income
    crew: np.ndarray      # (players, crew cards, 5) the C_* fields
    crew_len: np.ndarray  # (players,) crew cards in each deck
    terr: np.ndarray      # (players, territories, 2) income and sea code
    terr_len: np.ndarray  # (players,)
    adv: np.ndarray       # (players, adventure cards, 3) the A_* fields
    adv_len: np.ndarray   # (players,)
    strat: np.ndarray     # (players, 7) float64, the S_* fields


class Seating(NamedTuple):
    """Who sits where and the order of each seat's piles (rows by seat)."""

    player_of_seat: np.ndarray  # (n,)
    crew_order: np.ndarray      # (n, crew cards)
    terr_order: np.ndarray      # (n, territories)
    adv_order: np.ndarray       # (n, adventure cards)


class GameWork(NamedTuple):
    """A game's running state, one row per seat; :func:`play_game` overwrites it."""

    gold: np.ndarray
    doub: np.ndarray
    inc: np.ndarray
    held: np.ndarray         # (n, hand + 1) agreements held
    held_n: np.ndarray
    tavern: np.ndarray       # (n, tavern + 1) crew cards in the tavern
    tavern_n: np.ndarray
    crew_ptr: np.ndarray
    terr_ptr: np.ndarray
    adv_ptr: np.ndarray
    play_idx: np.ndarray     # (n, crew cards) the crew in play
    play_tapped: np.ndarray  # (n, crew cards) turn stamp when tapped
    play_n: np.ndarray
    agg: np.ndarray          # (n, N_AGG) running totals of the crew in play
    att_held: np.ndarray     # (n, hand + 1) attachments held
    att_n: np.ndarray
    bonus: np.ndarray
    n_attached: np.ndarray
    seas: np.ndarray         # (n, 2) bit sets of the seas held


class Trajectory(NamedTuple):
    """Purses and stock at the start of every round (row ``r`` for round ``r``)."""

    gold: np.ndarray   # (rounds + 1, n) int16
    doub: np.ndarray   # (rounds + 1, n) int32
    stock: np.ndarray  # (rounds + 1,) int16


@jit
def new_seating(n, crew_width, terr_width, adv_width):
    """Zeroed :class:`Seating` for ``n`` seats."""
    return Seating(np.zeros(n, dtype=np.int64), np.zeros((n, crew_width), dtype=np.int64),
                   np.zeros((n, terr_width), dtype=np.int64),
                   np.zeros((n, adv_width), dtype=np.int64))


@jit
def new_work(n, hand, tavern, crew_width):
    """Zeroed :class:`GameWork` for ``n`` seats, a hand of ``hand`` and a tavern of
    ``tavern`` cards, decks of at most ``crew_width`` crew cards."""

    def z(m):
        return np.zeros(m, dtype=np.int64)

    def z2(m):
        return np.zeros((n, m), dtype=np.int64)

    return GameWork(z(n), z(n), z(n), z2(hand + 1), z(n), z2(tavern + 1), z(n), z(n), z(n),
                    z(n), z2(crew_width), z2(crew_width), z(n), z2(N_AGG), z2(hand + 1), z(n),
                    z(n), z(n), z2(2))


@jit(inline="always")
def _tap(crew, pl, play_idx, play_tapped, agg, s, i):
    play_tapped[s, i] = agg[s, G_STAMP]
    agg[s, G_TAPPED_CONQUEST] += crew[pl, play_idx[s, i], C_CONQUEST]


@jit(inline="always")
def _count_crew(crew, pl, c, agg, s, sign):
    """Add (``sign`` 1) or remove (-1) character ``c`` in the seat's running totals."""
    agg[s, G_CONQUEST] += sign * crew[pl, c, C_CONQUEST]
    agg[s, G_VOTES] += sign * crew[pl, c, C_VOTES]
    agg[s, G_COMMAND] += sign * crew[pl, c, C_COMMAND]


@jit(inline="always")
def _next(order, s, ptr, length, lazy):
    """The next card of a pile; with ``lazy`` the pile is shuffled as it is drawn
    (partial Fisher-Yates: the card at ``ptr`` swaps with a uniform later one)."""
    i = ptr[s]
    if lazy:
        j = i + randbelow(length - i)
        tmp = order[s, i]
        order[s, i] = order[s, j]
        order[s, j] = tmp
    ptr[s] = i + 1
    return order[s, i]


@jit(inline="always")
def _kept_as(kind, in_hand, hand):
    """What a drawn adventure card becomes: an agreement or an attachment kept in hand
    (hand permitting), else ``KIND_OTHER`` (discarded)."""
    if in_hand < hand and kind in (KIND_AGREEMENT, KIND_ATTACHMENT):
        return kind
    return KIND_OTHER


@jit
def play_game(cards, seating, work, trajectory, record, lazy):
    """Play one game from shuffled piles; return ``(winning seat, winning round)``.

    Deterministic given the pile orders (``*_order[seat]`` are permutations of each
    player's piles) when ``lazy`` is False; with ``lazy`` each pile is shuffled as it
    is drawn from (the same law, fewer random draws). ``(-1, 0)``: nobody won within
    ``opts[O_MAX_ROUNDS]`` rounds.
    With ``record`` the purses and the stock at the start of every round are written
    to ``trajectory`` (:class:`Trajectory`, one row per round; rows after the end
    repeat the final state). ``cards`` is a :class:`CardTables`, ``seating`` a
    :class:`Seating`, ``work`` a :class:`GameWork` (overwritten).
    """
    opts, rates, buy, sell, lair, crew, crew_len, terr, terr_len, adv, adv_len, strat = cards
    player_of_seat, crew_order, terr_order, adv_order = seating
    (gold, doub, inc, held, held_n, tavern, tavern_n, crew_ptr, terr_ptr, adv_ptr, play_idx,
     play_tapped, play_n, agg, att_held, att_n, bonus, n_attached, seas) = work
    traj_gold, traj_doub, traj_stock = trajectory
    n = player_of_seat.shape[0]
    win = opts[O_WIN]
    cap = opts[O_CAP]
    hand = opts[O_HAND]
    stock = opts[O_START_STOCK]
    top_stock = rates.shape[0] - 1
    for s in range(n):
        pl = player_of_seat[s]
        gold[s] = opts[O_START_GOLD]
        doub[s] = opts[O_START_DOUBLONS]
        inc[s] = 0
        held_n[s] = 0
        att_n[s] = 0
        bonus[s] = 0
        n_attached[s] = 0
        seas[s, 0] = 0
        seas[s, 1] = 0
        play_n[s] = 0
        for f in range(N_AGG):
            agg[s, f] = 0
        terr_ptr[s] = 0
        tavern_n[s] = 0
        crew_ptr[s] = 0
        while tavern_n[s] < opts[O_TAVERN] and crew_ptr[s] < crew_len[pl]:
            tavern[s, tavern_n[s]] = _next(crew_order, s, crew_ptr, crew_len[pl], lazy)
            tavern_n[s] += 1
        adv_ptr[s] = 0
        while adv_ptr[s] < hand and adv_ptr[s] < adv_len[pl]:
            a = _next(adv_order, s, adv_ptr, adv_len[pl], lazy)
            kept = _kept_as(adv[pl, a, A_KIND], held_n[s] + att_n[s], hand)
            if kept == KIND_AGREEMENT:
                held[s, held_n[s]] = a
                held_n[s] += 1
            elif kept == KIND_ATTACHMENT:
                att_held[s, att_n[s]] = a
                att_n[s] += 1
    max_rounds = opts[O_MAX_ROUNDS]
    winner = -1
    win_round = 0
    for r in range(1, max_rounds + 1):
        if record:
            traj_stock[r] = stock
            for s in range(n):
                traj_gold[r, s] = gold[s]
                traj_doub[r, s] = doub[s]
        for s in range(n):
            pl = player_of_seat[s]
            if gold[s] >= win:
                winner = s
                win_round = r
                break
            # 1. return to port; 2. collect
            agg[s, G_STAMP] += 1
            agg[s, G_TAPPED_CONQUEST] = 0
            doub[s] += lair[pl, 0] + inc[s]
            # 4. main phase: preparation (attachments, within the crew's command) ...
            while att_n[s] > 0 and n_attached[s] < agg[s, G_COMMAND]:
                a = att_held[s, 0]
                if adv[pl, a, A_COST] > doub[s] - strat[pl, S_ATTACH_RESERVE]:
                    break
                doub[s] -= adv[pl, a, A_COST]
                bonus[s] += adv[pl, a, A_VALUE]
                n_attached[s] += 1
                for j in range(1, att_n[s]):
                    att_held[s, j - 1] = att_held[s, j]
                att_n[s] -= 1
            # ... a held agreement (needs an untapped diplomat) ...
            if held_n[s] > 0:
                launcher = -1
                for i in range(play_n[s]):
                    c = play_idx[s, i]
                    if play_tapped[s, i] == agg[s, G_STAMP] or crew[pl, c, C_DIPLOMACY] < 1:
                        continue
                    if launcher < 0 or (crew[pl, c, C_CONQUEST]
                                        < crew[pl, play_idx[s, launcher], C_CONQUEST]):
                        launcher = i
                if launcher >= 0:
                    _tap(crew, pl, play_idx, play_tapped, agg, s, launcher)
                    pro = agg[s, G_VOTES] + opts[O_LAUNCHER]
                    con = 0
                    for t in range(n):
                        if t != s and agg[t, G_VOTES] > con:
                            con = agg[t, G_VOTES]
                    value = adv[pl, held[s, 0], A_VALUE]
                    for j in range(1, held_n[s]):
                        held[s, j - 1] = held[s, j]
                    held_n[s] -= 1
                    if pro > con:
                        inc[s] += value
            # ... then a raid on the richest rival's lair, or else an exploration
            att = agg[s, G_CONQUEST] - agg[s, G_TAPPED_CONQUEST]
            target = -1
            for t in range(n if att > 0 else 0):
                if t == s or (gold[t] == 0 and doub[t] == 0):
                    continue
                if target < 0 or gold[t] > gold[target] or (
                        gold[t] == gold[target] and doub[t] > doub[target]):
                    target = t
            raided = False
            if target >= 0 and att > 0:
                pt = player_of_seat[target]
                dfn = agg[target, G_CONQUEST] - agg[target, G_TAPPED_CONQUEST]
                dfn += lair[pt, 1] + bonus[target]
                att_total = att + bonus[s]
                if att_total - dfn >= strat[pl, S_RAID_MARGIN]:
                    att = att_total
                    raided = True
                    if att > dfn:
                        if gold[target] >= opts[O_PILLAGE_GOLD] and opts[O_PILLAGE_GOLD] > 0:
                            gold[target] -= opts[O_PILLAGE_GOLD]
                            gold[s] += opts[O_PILLAGE_GOLD]
                        else:
                            take = min(opts[O_PILLAGE_DOUBLONS], doub[target])
                            doub[target] -= take
                            doub[s] += take
                        for i in range(play_n[s]):  # every character is tapped
                            play_tapped[s, i] = agg[s, G_STAMP]
                        agg[s, G_TAPPED_CONQUEST] = agg[s, G_CONQUEST]
                    else:
                        diff = dfn - att
                        victim = -1
                        for i in range(play_n[s]):
                            if play_tapped[s, i] != agg[s, G_STAMP]:
                                cmd = crew[pl, play_idx[s, i], C_COMMAND]
                                if cmd <= diff and (victim < 0 or cmd > crew[
                                        pl, play_idx[s, victim], C_COMMAND]):
                                    victim = i
                        if victim >= 0:
                            _count_crew(crew, pl, play_idx[s, victim], agg, s, -1)
                            for j in range(victim + 1, play_n[s]):
                                play_idx[s, j - 1] = play_idx[s, j]
                            play_n[s] -= 1
                        for i in range(play_n[s]):  # every character is tapped
                            play_tapped[s, i] = agg[s, G_STAMP]
                        agg[s, G_TAPPED_CONQUEST] = agg[s, G_CONQUEST]
            if not raided and att > opts[O_EXPLORE] and terr_ptr[s] < terr_len[pl]:
                total = 0
                for i in range(play_n[s]):
                    if total > opts[O_EXPLORE]:
                        break
                    if play_tapped[s, i] != agg[s, G_STAMP]:
                        _tap(crew, pl, play_idx, play_tapped, agg, s, i)
                        total += crew[pl, play_idx[s, i], C_CONQUEST]
                t = _next(terr_order, s, terr_ptr, terr_len[pl], lazy)
                inc[s] += terr[pl, t, 0]
                sea = terr[pl, t, 1]
                if sea >= 0 and (seas[s, 0] >> sea) & 1 == 0:
                    seas[s, 0] |= 1 << sea
                    seas[s, 1] += 1
                    if opts[O_SEAS] > 0 and seas[s, 1] >= opts[O_SEAS]:
                        winner = s  # the seven seas: an immediate win
                        win_round = r
                        break
            # 5. trade: one transaction
            rate = rates[stock]
            bought = False
            if gold[s] < win and r >= strat[pl, S_BUY_FROM] and rate <= strat[pl, S_BUY_MAX_RATE]:
                k = min(cap, stock)
                while k > 0 and buy[stock, k] > doub[s] - strat[pl, S_RESERVE]:
                    k -= 1
                if k > 0:
                    doub[s] -= buy[stock, k]
                    gold[s] += k
                    stock -= k
                    bought = True
            if not bought and gold[s] > 0 and rate >= strat[pl, S_SELL_MIN_RATE] \
                    and stock < top_stock:
                doub[s] += sell[stock, 1]
                gold[s] -= 1
                stock += 1
            # 6. recruitment, paid in gold, then refill the tavern
            while play_n[s] < strat[pl, S_HIRE] and gold[s] < win:
                pick = -1
                for j in range(tavern_n[s]):
                    if crew[pl, tavern[s, j], C_COST] <= gold[s]:
                        pick = j
                        break
                if pick < 0:
                    break
                c = tavern[s, pick]
                cost = crew[pl, c, C_COST]
                gold[s] -= cost
                if opts[O_TO_COMPANY]:
                    stock = min(stock + cost, top_stock)
                play_idx[s, play_n[s]] = c
                play_tapped[s, play_n[s]] = 0  # stamps start at 1: untapped
                play_n[s] += 1
                _count_crew(crew, pl, c, agg, s, 1)
                for j in range(pick + 1, tavern_n[s]):
                    tavern[s, j - 1] = tavern[s, j]
                tavern_n[s] -= 1
            while tavern_n[s] < opts[O_TAVERN] and crew_ptr[s] < crew_len[pl]:
                tavern[s, tavern_n[s]] = _next(crew_order, s, crew_ptr, crew_len[pl], lazy)
                tavern_n[s] += 1
            # 7. end of turn: one new adventure card (agreements are kept)
            if adv_ptr[s] < adv_len[pl]:
                a = _next(adv_order, s, adv_ptr, adv_len[pl], lazy)
                kept = _kept_as(adv[pl, a, A_KIND], held_n[s] + att_n[s], hand)
                if kept == KIND_AGREEMENT:
                    held[s, held_n[s]] = a
                    held_n[s] += 1
                elif kept == KIND_ATTACHMENT:
                    att_held[s, att_n[s]] = a
                    att_n[s] += 1
        if winner >= 0:
            break
    if record:
        last = win_round if winner >= 0 else max_rounds
        for r in range(last + 1, max_rounds + 1):
            traj_stock[r] = traj_stock[last]
            for s in range(n):
                traj_gold[r, s] = traj_gold[last, s]
                traj_doub[r, s] = traj_doub[last, s]
    return winner, win_round


@parallel_jit
def simulate_games_kernel(seeds, chunk_size, first, rotate, record, outcome, trajectories,
                          cards):
    """Play the games ``first .. first + len(outcome[0]) - 1`` of a run into the outputs;
    chunk ``c`` (games ``c * chunk_size ..``, counted from ``first``) seeds its
    generator with ``seeds[c]``.

    Game ``g`` of the run seats player ``(s + g) % n`` at seat ``s`` when ``rotate``
    (player ``s`` otherwise). Writes per game the winning seat and player (-1: nobody)
    and round (0: nobody) into ``outcome``, and when ``record`` the per-round
    trajectories. ``cards`` is a :class:`CardTables`.

    Outputs (one row per game of this call)::

        outcome      : (win_seat, win_player, win_round), each (games,) int64
        trajectories : a Trajectory of (games, rounds + 1, n) int16 gold,
                       (games, rounds + 1, n) int32 doublons, (games, rounds + 1) int16
                       stock; of 0 games unless record
    """
    win_seat, win_player, win_round = outcome
    traj_gold, traj_doub, traj_stock = trajectories
    opts, crew_len, terr_len, adv_len = cards.opts, cards.crew_len, cards.terr_len, cards.adv_len
    n = cards.lair.shape[0]
    rounds = opts[O_MAX_ROUNDS]
    n_games = win_seat.shape[0]
    scratch_g = np.zeros((rounds + 1, n), dtype=np.int16)
    scratch_s = np.zeros(rounds + 1, dtype=np.int16)
    for c in prange(seeds.shape[0]):
        np.random.seed(seeds[c])
        seating = new_seating(n, cards.crew.shape[1], cards.terr.shape[1], cards.adv.shape[1])
        player_of_seat, crew_order, terr_order, adv_order = seating
        work = new_work(n, opts[O_HAND], opts[O_TAVERN], cards.crew.shape[1])
        own = Trajectory(scratch_g.copy(), np.zeros((rounds + 1, n), dtype=np.int32),
                         scratch_s.copy())
        stop = min((c + 1) * chunk_size, n_games)
        for g in range(c * chunk_size, stop):
            for s in range(n):
                pl = (s + first + g) % n if rotate else s
                player_of_seat[s] = pl
                for i in range(crew_len[pl]):
                    crew_order[s, i] = i
                for i in range(terr_len[pl]):
                    terr_order[s, i] = i
                for i in range(adv_len[pl]):
                    adv_order[s, i] = i
            trajectory = Trajectory(traj_gold[g], traj_doub[g], traj_stock[g]) if record else own
            seat, rnd = play_game(cards, seating, work, trajectory, record, True)
            win_seat[g] = seat
            win_round[g] = rnd
            win_player[g] = player_of_seat[seat] if seat >= 0 else -1
