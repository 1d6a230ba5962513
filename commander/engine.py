"""Plain-Python reference of the economy model's game (docs/rules.md, Turn phases).

Readable and slow; tests hold the numba kernel (``_kernels.play_game``) against it
game by game. A game is deterministic once the piles are shuffled; seat 0 plays first.
Each turn of a seat follows the phases of docs/rules.md:

0. A player starting the turn with ``win_gold`` gold wins.
1. Return to port: untap the crew.
2. Collect: doublons from the lair, the territories explored and the agreements won.
3. Events: not modelled (event cards carry no economic value in the card data).
4. Main phase. Preparation: held attachments (items and supports with a conquest
   bonus) are played in the order drawn while the player can pay their cost keeping
   ``attach_reserve`` doublons, up to one attachment per point of the crew's total
   command; their bonus counts for the player in every raid, attacking or
   defending (attachments lost with a captured character are not modelled). A held
   agreement is then launched if an untapped character with
   diplomacy >= 1 exists (the one with the least conquest taps): for = all the
   player's votes + the launcher bonus; against = the most votes of any single rival
   (the strongest opponent votes it down); passes on strictly more. Then a raid or an
   exploration: the raid targets the rival with the most gold (then doublons) who has
   something to pillage; every untapped character engages on both sides, the
   defender adds its lair's value; the player raids when ``attack - defence >=
   raid_margin``. A win pillages ``pillage_gold`` gold, else up to
   ``pillage_doublons`` doublons; a loss lets the defender capture the engaged
   attacker of highest command <= the difference (it leaves the attacker's crew for
   good: ransoms are not modelled). Attackers tap. Without a raid, a crew whose
   untapped conquest exceeds ``explore_threshold`` taps characters in order until it
   does and takes the top territory of its pile (its income joins the collect). With
   ``seven_seas``, a player whose explored territories name seven different seas
   wins at once.
5. Trade: buy the most gold affordable (up to the cap, keeping ``buy_reserve``)
   from turn ``buy_from_turn`` on when the rate is at most ``buy_max_rate``;
   otherwise sell one gold when the rate is at least ``sell_min_rate``.
6. Recruitment: while the crew is below ``hire_target`` (and the player is below the
   win threshold), recruit the first tavern character affordable in gold
   (``recruit_gold``, + ``foreign_extra_gold`` for another faction; independents are
   not another faction); the gold goes back to the Company's stock when
   ``recruit_gold_to_company`` (the default), else it leaves the game. Refill the tavern.
7. End of turn: one new adventure card; an agreement or an attachment is kept
   (at most ``hand_size`` of them in hand).
   The starting hand is the first ``hand_size`` adventure cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from commander import _kernels as K


@dataclass
class Seat:
    """The state of one seat during a reference game."""

    player: int
    gold: int
    doublons: int
    income: int = 0
    held: list[int] = field(default_factory=list)  # agreement incomes in hand
    attachments: list[tuple[int, int]] = field(default_factory=list)  # (bonus, cost) in hand
    bonus: int = 0  # conquest bonus of the attachments in play
    attached: int = 0
    seas: set[int] = field(default_factory=set)  # seas of the territories explored
    tavern: list[int] = field(default_factory=list)
    crew_pile: list[int] = field(default_factory=list)
    territories: list[int] = field(default_factory=list)
    adventure: list[int] = field(default_factory=list)
    crew: list[int] = field(default_factory=list)  # pile indices of characters in play
    tapped: list[bool] = field(default_factory=list)


def play_reference(data: K.CardTables, player_of_seat, crew_order, terr_order, adv_order):
    """Play one game; return ``(winning seat, winning round, trajectory)``.

    ``data`` is the :class:`commander._kernels.CardTables` that
    :func:`commander.economy.kernel_inputs` builds. The trajectory lists ``(golds,
    doublons, stock)`` at the start of each round played.

    Examples
    --------
    >>> from commander import Rules, Strategy, load_cards, load_decks
    >>> from commander.economy import kernel_inputs, play_from_orders
    >>> cards = load_cards(); d = load_decks(cards=cards)
    >>> data = kernel_inputs(Rules(), [d["spanish_sample"], d["ghost_sample"]], cards,
    ...                      [Strategy(), Strategy()], max_rounds=40)
    >>> seats = np.array([0, 1]); orders = random_orders(data, seats, np.random.default_rng(0))
    >>> play_reference(data, seats, *orders)[:2] == play_from_orders(data, seats, *orders)[:2]
    True
    """
    o = data.opts
    crew, lair, strat = data.crew, data.lair, data.strat
    win, cap, hand = int(o[K.O_WIN]), int(o[K.O_CAP]), int(o[K.O_HAND])
    top_stock = len(data.rates) - 1

    def draw(seat):
        kind, value, cost = seat.adventure.pop(0)
        if len(seat.held) + len(seat.attachments) < hand:
            if kind == K.KIND_AGREEMENT:
                seat.held.append(value)
            elif kind == K.KIND_ATTACHMENT:
                seat.attachments.append((value, cost))

    seats = []
    for s, pl in enumerate(player_of_seat):
        seat = Seat(int(pl), int(o[K.O_START_GOLD]), int(o[K.O_START_DOUBLONS]))
        seat.crew_pile = [int(i) for i in crew_order[s][: data.crew_len[pl]]]
        seat.territories = [(int(data.terr[pl, i, 0]), int(data.terr[pl, i, 1]))
                            for i in terr_order[s][: data.terr_len[pl]]]
        seat.adventure = [tuple(int(x) for x in data.adv[pl, i])
                          for i in adv_order[s][: data.adv_len[pl]]]
        while len(seat.tavern) < o[K.O_TAVERN] and seat.crew_pile:
            seat.tavern.append(seat.crew_pile.pop(0))
        for _ in range(min(hand, len(seat.adventure))):
            draw(seat)
        seats.append(seat)
    stock = int(o[K.O_START_STOCK])

    def card(seat, c, f):
        return int(crew[seat.player, c, f])

    def untapped_conquest(seat):
        return sum(card(seat, c, K.C_CONQUEST) for c, t in zip(seat.crew, seat.tapped,
                                                                strict=True) if not t)

    def votes(seat):
        return sum(card(seat, c, K.C_VOTES) for c in seat.crew)

    trajectory = []
    for r in range(1, int(o[K.O_MAX_ROUNDS]) + 1):
        trajectory.append(([x.gold for x in seats], [x.doublons for x in seats], stock))
        for s, me in enumerate(seats):
            st = strat[me.player]
            if me.gold >= win:
                return s, r, trajectory
            me.tapped = [False] * len(me.crew)
            me.doublons += int(lair[me.player, 0]) + me.income
            command = sum(card(me, c, K.C_COMMAND) for c in me.crew)
            while me.attachments and me.attached < command:
                value, cost = me.attachments[0]
                if cost > me.doublons - st[K.S_ATTACH_RESERVE]:
                    break
                me.attachments.pop(0)
                me.doublons -= cost
                me.bonus += value
                me.attached += 1
            if me.held:
                diplomats = [i for i, c in enumerate(me.crew)
                             if not me.tapped[i] and card(me, c, K.C_DIPLOMACY) >= 1]
                if diplomats:
                    launcher = min(diplomats, key=lambda i: (card(me, me.crew[i], K.C_CONQUEST), i))
                    me.tapped[launcher] = True
                    pro = votes(me) + int(o[K.O_LAUNCHER])
                    con = max(votes(x) for t, x in enumerate(seats) if t != s)
                    value = me.held.pop(0)
                    if pro > con:
                        me.income += value
            attack = untapped_conquest(me)
            rivals = [t for t, x in enumerate(seats) if t != s and (x.gold > 0 or x.doublons > 0)]
            raided = False
            if rivals and attack > 0:
                target = min(rivals, key=lambda t: (-seats[t].gold, -seats[t].doublons, t))
                foe = seats[target]
                defence = untapped_conquest(foe) + int(lair[foe.player, 1]) + foe.bonus
                if attack + me.bonus - defence >= st[K.S_RAID_MARGIN]:
                    attack += me.bonus
                    raided = True
                    engaged = [i for i in range(len(me.crew)) if not me.tapped[i]]
                    if attack > defence:
                        if foe.gold >= o[K.O_PILLAGE_GOLD] > 0:
                            foe.gold -= int(o[K.O_PILLAGE_GOLD])
                            me.gold += int(o[K.O_PILLAGE_GOLD])
                        else:
                            take = min(int(o[K.O_PILLAGE_DOUBLONS]), foe.doublons)
                            foe.doublons -= take
                            me.doublons += take
                        me.tapped = [True] * len(me.crew)
                    else:
                        diff = defence - attack
                        fit = [i for i in engaged if card(me, me.crew[i], K.C_COMMAND) <= diff]
                        me.tapped = [True] * len(me.crew)
                        if fit:
                            victim = min(fit, key=lambda i: (-card(me, me.crew[i], K.C_COMMAND), i))
                            me.crew.pop(victim)
                            me.tapped.pop(victim)
            if not raided and attack > o[K.O_EXPLORE] and me.territories:
                total = 0
                for i, c in enumerate(me.crew):
                    if total > o[K.O_EXPLORE]:
                        break
                    if not me.tapped[i]:
                        me.tapped[i] = True
                        total += card(me, c, K.C_CONQUEST)
                income, sea = me.territories.pop(0)
                me.income += income
                if sea >= 0:
                    me.seas.add(sea)
                if o[K.O_SEAS] and len(me.seas) >= o[K.O_SEAS]:
                    return s, r, trajectory  # the seven seas: an immediate win
            rate = int(data.rates[stock])
            bought = False
            if me.gold < win and r >= st[K.S_BUY_FROM] and rate <= st[K.S_BUY_MAX_RATE]:
                affordable = [k for k in range(1, min(cap, stock) + 1)
                              if data.buy[stock, k] <= me.doublons - st[K.S_RESERVE]]
                if affordable:
                    k = max(affordable)
                    me.doublons -= int(data.buy[stock, k])
                    me.gold += k
                    stock -= k
                    bought = True
            if not bought and me.gold > 0 and rate >= st[K.S_SELL_MIN_RATE] and stock < top_stock:
                me.doublons += int(data.sell[stock, 1])
                me.gold -= 1
                stock += 1
            while len(me.crew) < st[K.S_HIRE] and me.gold < win:
                options = [j for j, c in enumerate(me.tavern) if card(me, c, K.C_COST) <= me.gold]
                if not options:
                    break
                c = me.tavern.pop(options[0])
                me.gold -= card(me, c, K.C_COST)
                if o[K.O_TO_COMPANY]:
                    stock = min(stock + card(me, c, K.C_COST), top_stock)
                me.crew.append(c)
                me.tapped.append(False)
            while len(me.tavern) < o[K.O_TAVERN] and me.crew_pile:
                me.tavern.append(me.crew_pile.pop(0))
            if me.adventure:
                draw(me)
    return -1, 0, trajectory


def random_orders(data: K.CardTables, player_of_seat, rng: np.random.Generator):
    """Shuffled pile orders for every seat (the layout ``play_reference`` reads)."""
    n = len(player_of_seat)
    out = []
    for key, length in (("crew", "crew_len"), ("terr", "terr_len"), ("adv", "adv_len")):
        width = getattr(data, key).shape[1]
        lengths = getattr(data, length)
        orders = np.zeros((n, width), dtype=np.int64)
        for s, pl in enumerate(player_of_seat):
            orders[s, : lengths[pl]] = rng.permutation(int(lengths[pl]))
        out.append(orders)
    return tuple(out)
