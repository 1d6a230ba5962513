"""The belief agent: its posterior against brute-force Bayes, what it is told, and its
measure on the solved hidden-information game."""

import random
from dataclasses import replace

import numpy as np
import pytest

from samarra import (
    BeliefAgent,
    DeterminizingAgent,
    RandomAgent,
    Rules,
    agent_exploitability,
    play_game,
    setups,
    solve_hidden,
    start_position,
)
from samarra.agents import View, determinizations, options, to_action
from samarra.engine import Action, apply_action, legal_actions
from samarra.hidden_play import agent_behaviour
from samarra.information import action_code, public_board, public_token
from samarra.rules import SIDES

RULES = Rules(length=3)


@pytest.fixture(scope="module")
def table(table33):
    return table33


@pytest.fixture(scope="module")
def solution4():
    return solve_hidden(RULES, 4)


class Recorder:
    """An agent that plays uniformly at random and records every ``observe`` call."""

    name = "recorder"

    def __init__(self):
        self.calls = []

    def observe(self, *args):
        self.calls.append(args)

    def choose(self, view, opts, rng):
        return opts[rng.randrange(len(opts))]


class ByCells:
    """A deterministic agent whose choice reads only cells: the move whose figure stands
    on the lowest cell, to the lowest target (the same whatever the hidden identities)."""

    def choose(self, view, opts, rng):
        moves = [o for o in opts if o.kind == "move"] or opts
        return min(moves, key=lambda o: (view.own[o.figure], o.cell))


def games(rules, black, white, n, seed):
    """(black setup, white setup, tokens) of ``n`` seeded games."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        rec = Recorder()
        _, b, w = play_game(rules, _Both(black, rec), _Both(white, None), rng)
        out.append((b, w, [c[3] for c in rec.calls[1:]]))
    return out


class _Both:
    """An agent that plays as ``agent`` and lets ``recorder`` observe."""

    def __init__(self, agent, recorder):
        self.agent, self.recorder = agent, recorder
        if recorder is not None:
            self.observe = recorder.observe

    def choose(self, view, opts, rng):
        return self.agent.choose(view, opts, rng)


# -- brute-force Bayes ------------------------------------------------------------------------


def brute_posterior(rules, side, setup, tokens, likelihood, prior, epsilon):
    """P(enemy setup | own setup, tokens) by enumeration (the module docstring's formula)."""
    names = setups(rules)
    weights = []
    for h in names:
        p = start_position(rules, *((setup, h) if side == 0 else (h, setup)))
        w = (1 - epsilon) * prior[h] + epsilon / len(names)
        seen = []
        for token in tokens:
            acts = [a for a in legal_actions(p) if public_token(p, a, apply_action(p, a)) == token]
            if not acts:
                w = 0.0
                break
            assert len(acts) == 1
            if p.to_move != side:
                model = likelihood(p, acts[0], h, seen)
                w *= (1 - epsilon) * model + epsilon / len(legal_actions(p))
            seen.append(token)
            p = apply_action(p, acts[0])
        weights.append(w)
    weights = np.array(weights)
    return None if weights.sum() == 0 else weights / weights.sum()


def uniform_likelihood(p, action, h, seen):
    return 1.0 / len(legal_actions(p))


def equilibrium_likelihood(solution):
    strategies = {s: solution.strategy(s) for s in (0, 1)}

    def likelihood(p, action, h, seen):
        enemy = p.to_move
        key = " | ".join([f"{SIDES[enemy]} setup {h}", *seen])
        if key not in strategies[enemy]:
            return 1.0 / len(legal_actions(p))  # past the solved horizon
        return strategies[enemy][key][action_code(p, action)]

    return likelihood


def told(agent, rules, side, setup, tokens):
    agent.observe(rules, side, setup, None)
    for t in tokens:
        agent.observe(rules, side, setup, t)
    return agent.posterior(side).to_numpy()


@pytest.mark.parametrize("epsilon", [0.0, 0.01, 0.3])
def test_posterior_is_bayes_with_the_uniform_model(table, epsilon):
    rules = replace(RULES, max_actions=30)
    prior = dict.fromkeys(setups(rules), 1.0 / 6)
    agent = BeliefAgent(table, "uniform", epsilon=epsilon)
    for b, w, tokens in games(rules, RandomAgent(), RandomAgent(), 8, seed=1):
        for side, setup in ((0, b), (1, w)):
            for t in range(0, len(tokens) + 1, 3):
                got = told(agent, rules, side, setup, tokens[:t])
                expected = brute_posterior(rules, side, setup, tokens[:t], uniform_likelihood,
                                           prior, epsilon)  # fmt: skip
                np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("epsilon", [0.0, 0.05])
def test_posterior_is_bayes_with_the_equilibrium_model(table, solution4, epsilon):
    rules = replace(RULES, max_actions=8)  # past the horizon (4) too: the uniform model
    likelihood = equilibrium_likelihood(solution4)
    agent = BeliefAgent(table, solution4, epsilon=epsilon)
    compared = skipped = 0
    for b, w, tokens in games(rules, RandomAgent(), DeterminizingAgent(table), 15, seed=2):
        for side, setup in ((0, b), (1, w)):
            prior = solution4.setup_mix(1 - side).to_dict()
            for t in range(len(tokens) + 1):
                expected = brute_posterior(rules, side, setup, tokens[:t], likelihood, prior,
                                           epsilon)  # fmt: skip
                if expected is None:
                    skipped += 1
                    continue  # every consistent setup has likelihood 0: the fallback's case
                compared += 1
                got = told(agent, rules, side, setup, tokens[:t])
                np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12)
    assert compared >= 100  # the games reach enough histories
    assert skipped == 0 or epsilon == 0.0  # with a tremble, no setup the tokens allow is lost


def test_posterior_is_bayes_with_the_determinizing_model(table):
    rules = replace(RULES, max_actions=12)
    opponent = DeterminizingAgent(table)

    def likelihood(p, action, h, seen):
        view, opts = View.of(p, p.to_move), options(p)
        probs = opponent.probabilities(view, opts)
        enemy = 3 * (1 - p.to_move)
        cell = action.target if action.kind == "move" else -1
        if action.kind in ("merchant", "death"):
            cell = p.cells[enemy + action.target]
        return sum(q for o, q in zip(opts, probs, strict=True)
                   if (o.kind, o.figure, o.cell) == (action.kind, action.figure, cell))  # fmt: skip

    prior = dict.fromkeys(setups(rules), 1.0 / 6)
    agent = BeliefAgent(table, "determinizing", epsilon=0.02)
    for b, w, tokens in games(rules, RandomAgent(), opponent, 6, seed=3):
        for side, setup in ((0, b), (1, w)):
            got = told(agent, rules, side, setup, tokens)
            expected = brute_posterior(rules, side, setup, tokens, likelihood, prior, 0.02)
            np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-15)


def test_zero_likelihood_everywhere_falls_back_to_the_consistent_setups(table, solution4):
    agent = BeliefAgent(table, solution4, epsilon=0.0)
    rules = replace(RULES, max_actions=8)
    for b, w, tokens in games(rules, RandomAgent(), RandomAgent(), 20, seed=4):
        for side, setup in ((0, b), (1, w)):
            post = told(agent, rules, side, setup, tokens)
            assert post.sum() == pytest.approx(1.0) and (post >= 0).all()
            truth = setups(rules).index(w if side == 0 else b)
            uniform = brute_posterior(rules, side, setup, tokens, uniform_likelihood,
                                      dict.fromkeys(setups(rules), 1.0), 0.0)  # fmt: skip
            assert uniform[truth] > 0  # the truth is consistent with what was seen
            assert set(np.flatnonzero(post)) <= set(np.flatnonzero(uniform))


# -- a proper distribution that keeps what was revealed ------------------------------------


def step(p, token):
    """The position after the legal action of ``p`` whose token is ``token`` (None if none)."""
    if p is None:
        return None
    return next((apply_action(p, a) for a in legal_actions(p)
                 if public_token(p, a, apply_action(p, a)) == token), None)  # fmt: skip


def test_posterior_is_a_distribution_consistent_with_every_reveal(table):
    rules = replace(RULES, max_actions=40)
    rng = random.Random(5)
    names = setups(rules)
    watcher = BeliefAgent(table, epsilon=0.01)
    reveals = 0
    for _ in range(30):
        rec = Recorder()
        _, b, w = play_game(rules, _Both(RandomAgent(), rec), BeliefAgent(table), rng)
        # White's belief about Black, replayed: at every step it is a distribution, the
        # truth keeps a positive weight, and every setup with positive weight gives the
        # public board the game shows with Black's revealed identities where they are
        p = start_position(rules, b, w)
        worlds = {h: start_position(rules, h, w) for h in names}
        watcher.observe(rules, 1, w, None)
        for c in rec.calls[1:]:
            token = c[3]
            watcher.observe(rules, 1, w, token)
            post = watcher.posterior(1)
            p = step(p, token)
            worlds = {h: step(q, token) for h, q in worlds.items()}
            assert post.sum() == pytest.approx(1.0, abs=1e-12) and (post >= 0).all()
            assert post[b] > 0
            reveals += any(p.revealed[:3])
            for h in post.index[post > 0]:
                q = worlds[h]
                assert q is not None and public_board(q) == public_board(p)
                for f in range(3):
                    if p.revealed[f]:
                        assert q.cells[f] == p.cells[f]  # the revealed identity is kept
            for h, q in worlds.items():
                if q is None:
                    assert post[h] == 0.0  # contradicted by what was seen
    assert reveals > 0  # the games did reveal identities


def test_a_revealed_identity_rules_out_the_other_setups(table):
    # Black's merchant steps up next to White's middle tent and reveals it: the servant
    p = start_position(RULES, "SMD", "DSM")
    tokens = []
    for a in (Action("move", 1, 4), Action("move", 2, 3), Action("move", 1, 5),
              Action("merchant", 1, 0)):  # fmt: skip
        q = apply_action(p, a)
        tokens.append(public_token(p, a, q))
        p = q
    assert p.revealed[3] and p.cells[3] == 7
    post = told(BeliefAgent(table, epsilon=0.01), RULES, 0, "SMD", tokens)
    support = {setups(RULES)[h] for h in np.flatnonzero(post)}
    assert support == {"MSD", "DSM"}  # the servant in the middle column


# -- never reads hidden information ---------------------------------------------------------


def test_observe_is_told_only_public_information():
    """What Black is told is the same whatever White's hidden setup, when the public
    game is the same; it is the public token of every action, after a new game call."""
    rules = replace(RULES, length=5, max_actions=4)
    seen = []
    for w in setups(rules):
        rec = Recorder()
        black = _Both(ByCells(), rec)
        result, _, _ = play_game(rules, black, ByCells(), random.Random(0), "SMD", w)
        assert result.reason == "max_actions"
        seen.append(rec.calls)
        assert rec.calls[0] == (rules, 0, "SMD", None)
        assert len(rec.calls) == 1 + result.n_actions
        for call in rec.calls:
            assert [type(x) for x in call[:3]] == [Rules, int, str]
            assert call[3] is None or isinstance(call[3], str)
    assert all(calls == seen[0] for calls in seen)
    # and the same calls are the tokens of the actions: replayed from any white setup
    for w in setups(rules):
        p = start_position(rules, "SMD", w)
        for *_, token in seen[0][1:]:
            p = next(apply_action(p, a) for a in legal_actions(p)
                     if public_token(p, a, apply_action(p, a)) == token)  # fmt: skip


def test_one_agent_on_both_sides_is_told_both():
    rec = Recorder()
    result, b, w = play_game(RULES, rec, rec, random.Random(3))
    starts = [c for c in rec.calls if c[3] is None]
    assert starts == [(RULES, 0, b, None), (RULES, 1, w, None)]
    tokens = [c for c in rec.calls if c[3] is not None]
    assert len(tokens) == 2 * result.n_actions
    assert [c[1] for c in tokens] == [0, 1] * result.n_actions


def test_the_choice_does_not_read_the_hidden_identities(table, solution4):
    """At every decision, the agent's probabilities are the same for every position
    its side cannot tell from the true one (every determinization of its view)."""
    rules = replace(RULES, max_actions=12)
    for model in ("uniform", solution4):
        probe = _Probe(BeliefAgent(table, model))
        rng = random.Random(6)
        for _ in range(6):
            play_game(rules, probe, probe, rng)
        assert probe.decisions > 20 and probe.worlds > 2 * probe.decisions


class _Probe:
    """Plays as ``agent``; at each decision, checks that every position the side to
    move cannot tell from the true one gives the same probabilities."""

    def __init__(self, agent):
        self.agent, self.decisions, self.worlds = agent, 0, 0

    def observe(self, *args):
        self.agent.observe(*args)

    def choose(self, view, opts, rng):
        probs = self.agent.probabilities(view, opts)
        for world in determinizations(view):
            assert self.agent.probabilities(View.of(world, view.side), opts) == probs
            self.worlds += 1
        self.decisions += 1
        return self.agent.choose(view, opts, rng)


# -- one object, many games -----------------------------------------------------------------


def test_a_reused_agent_plays_each_game_as_a_fresh_one(table):
    rules = replace(RULES, max_actions=40)
    used = BeliefAgent(table)
    for seed in range(6):
        fresh = BeliefAgent(table)
        a = play_game(rules, used, DeterminizingAgent(table), random.Random(seed))
        b = play_game(rules, fresh, DeterminizingAgent(table), random.Random(seed))
        assert a == b
        used.observe(rules, 0, a[1], None)
        fresh_prior = BeliefAgent(table)
        fresh_prior.observe(rules, 0, a[1], None)
        assert (used.posterior(0) == fresh_prior.posterior(0)).all()


def test_without_the_game_it_is_the_determinizing_agent(table):
    rules = replace(RULES, max_actions=20)
    agent, det = BeliefAgent(table), DeterminizingAgent(table)
    p = start_position(rules, "SMD", "DSM")
    rng = random.Random(7)
    for _ in range(12):
        if p.is_over or not legal_actions(p):
            break
        view, opts = View.of(p, p.to_move), options(p)
        assert agent.probabilities(view, opts) == det.probabilities(view, opts)
        acts = legal_actions(p)
        p = apply_action(p, acts[rng.randrange(len(acts))])


# -- measured on the solved game ------------------------------------------------------------


def test_tabulated_behaviour_is_the_behaviour_of_a_fresh_agent(table, solution4):
    """agent_behaviour tells the agent each information set in turn (reusing the path
    it kept); a fresh agent told one set alone gives the same probabilities."""
    form = solution4.form
    agent = BeliefAgent(table, solution4)
    behaviour = agent_behaviour(form, agent, 1)
    rng = random.Random(8)
    checked = 0
    free = replace(form.rules, horizon=None)
    for _ in range(30):
        b, w = rng.choice(setups(RULES)), rng.choice(setups(RULES))
        p = start_position(free, b, w)
        tokens = []
        for _ in range(form.rules.horizon):
            if p.is_over or not legal_actions(p):
                break
            acts = sorted(legal_actions(p), key=lambda a: action_code(p, a))
            if p.to_move == 1:
                fresh = BeliefAgent(table, solution4)
                told(fresh, free, 1, w, tokens)
                view, opts = View.of(p, 1), options(p)
                probs = dict(zip(opts, fresh.probabilities(view, opts), strict=True))
                info = form.information_string
                key = " | ".join([f"white setup {w}", *tokens])
                i = next(i for i in range(form.n_infosets[1]) if info(1, i) == key)
                first = int(form.first[1][i])
                by_action = {to_action(p, o): q for o, q in probs.items()}
                for k, a in enumerate(acts):
                    assert behaviour[first + k] == by_action[a]
                checked += 1
                acts = [a for a in acts if by_action[a] > 0]  # White plays as the agent
            a = acts[rng.randrange(len(acts))]
            q = apply_action(p, a)
            tokens.append(public_token(p, a, q))
            p = q
    assert checked > 20


def test_exploitability_is_measured(table, solution4):
    """The belief agent with the equilibrium as its model, measured exactly at H = 4
    beside the determinizing agent (whether it is less exploitable is a measured
    figure, not asserted: see the report)."""
    belief = agent_exploitability(solution4, BeliefAgent(table, solution4))
    det = agent_exploitability(solution4, DeterminizingAgent(table))
    for m in (belief, det):
        assert m.value == solution4.value
        assert m.black <= solution4.value + 1e-12 <= m.white + 1e-12
        assert m.exploitability == pytest.approx((m.white - m.black) / 2, abs=1e-15)
        assert 0.0 <= m.exploitability <= 1.0
    # the belief is used: the two agents' strategies differ
    assert (belief.black, belief.white, belief.self_play) != (det.black, det.white, det.self_play)


def test_bad_arguments_are_refused(table, solution4):
    with pytest.raises(TypeError, match="table"):
        BeliefAgent("no")
    with pytest.raises(ValueError, match="model"):
        BeliefAgent(table, "oracle")
    with pytest.raises(TypeError, match="model"):
        BeliefAgent(table, 3)
    with pytest.raises(ValueError, match="epsilon"):
        BeliefAgent(table, epsilon=1.5)
    agent = BeliefAgent(table, solution4)
    with pytest.raises(ValueError, match="before its new game"):
        agent.observe(RULES, 0, "SMD", "black 1>4 B.B.B.WWW")
    with pytest.raises(ValueError, match="setup"):
        agent.observe(RULES, 0, "SSS", None)
    with pytest.raises(ValueError, match="side"):
        agent.observe(RULES, 2, "SMD", None)
    with pytest.raises(ValueError, match="rules"):
        agent.observe(Rules(length=4), 0, "SMD", None)
    with pytest.raises(ValueError, match="observed"):
        agent.posterior(1)
    agent.observe(RULES, 0, "SMD", None)
    with pytest.raises(ValueError, match="no enemy setup"):
        agent.observe(RULES, 0, "SMD", "white 6>3 BBBW..W.W")
