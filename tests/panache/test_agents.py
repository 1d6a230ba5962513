import pytest

from panache import Agent


def test_names_and_rows():
    agent = Agent.heuristic(target="weakest", min_level=3, counter=False, mp="never")
    assert agent.name == "weakest/ev/L3/no-counter/mp-never"
    assert Agent.duel().name == "duel" and Agent.random(label="chaos").name == "chaos"
    assert agent.row({"ev": 0, "positive": 1, "zero": 2}) == [1, 1, 3, 0, 0, 0]


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"target": "nearest"}, ValueError, "target must be one of"),
        ({"min_level": 0}, ValueError, "min_level must be 1..7"),
        ({"min_level": 2.5}, TypeError, "min_level must be an int"),
        ({"counter": "yes"}, TypeError, "counter must be True or False"),
        ({"mp": "sometimes"}, ValueError, "mp must be one of"),
        ({"turn_policy": "median"}, ValueError, "turn_policy must be one of"),
    ],
)
def test_bad_agents(kwargs, error, message):
    with pytest.raises(error, match=message):
        Agent.heuristic(**kwargs)
    with pytest.raises(ValueError, match="kind must be"):
        Agent("smart")
