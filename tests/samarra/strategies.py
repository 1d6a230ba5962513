"""Hypothesis strategies: rules with small boards and positions reached by random play."""

import random

from hypothesis import strategies as st

from samarra import Rules, setups, start_position
from samarra.engine import apply_action, legal_actions


@st.composite
def rules_strategy(draw, optional=True):
    width = draw(st.integers(3, 4))
    length = draw(st.integers(3, 5))
    knobs = {"adjacency": draw(st.sampled_from(["orthogonal", "king"])),
             "first": draw(st.sampled_from(["black", "white"]))}
    if optional:
        knobs |= {name: draw(st.booleans()) for name in
                  ("auto_death", "allow_pass", "no_repetition", "win_on_arrival_only")}
    return Rules(width=width, length=length, **knobs)


def random_play(rules, n_actions, seed):
    """The position after up to ``n_actions`` random legal actions from a random setup."""
    rng = random.Random(seed)
    options = setups(rules)
    p = start_position(rules, rng.choice(options), rng.choice(options))
    for _ in range(n_actions):
        actions = legal_actions(p)
        if not actions:
            break
        p = apply_action(p, rng.choice(actions))
    return p


@st.composite
def positions(draw, rules=None, optional=True):
    rules = draw(rules_strategy(optional)) if rules is None else rules
    return random_play(rules, draw(st.integers(0, 60)), draw(st.integers(0, 2**32)))
