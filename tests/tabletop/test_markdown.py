import pytest

from tabletop.markdown import anchor, anchors, headings


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        ("The whole two-player game", "the-whole-two-player-game"),
        ("The race to the win threshold, exactly", "the-race-to-the-win-threshold-exactly"),
        ("The rules in play and the seed's examples", "the-rules-in-play-and-the-seeds-examples"),
        ("The tie-break as a game: the `horizon` knob", "the-tie-break-as-a-game-the-horizon-knob"),
        ("Hidden information: agents and a tournament",
         "hidden-information-agents-and-a-tournament"),
        ("Ce soir, à Samarra", "ce-soir-à-samarra"),
        ("[Master Citadel: rules](citadel.md)", "master-citadel-rules"),
        ("95% interval", "95-interval"),
        ("min_bid **and** 3 × 5", "min_bid-and-3--5"),
    ],
)  # fmt: skip
def test_anchor_follows_github(heading, expected):
    assert anchor(heading) == expected


def test_headings_skip_code_and_repeats_are_numbered():
    text = "# T\n\n## A\n\n```\n## not one\n```\n\n## A\n\n### A ###\n\nA # not a heading\n"
    assert headings(text) == [(1, "T"), (2, "A"), (2, "A"), (3, "A")]
    assert anchors(text) == ["t", "a", "a-1", "a-2"]
    # a heading whose own text is a numbered anchor takes the next free one
    assert anchors("## a\n\n## a-1\n\n## a\n") == ["a", "a-1", "a-2"]
