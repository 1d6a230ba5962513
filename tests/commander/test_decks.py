import pytest

from commander import Rules
from commander.cards import ADVENTURE_TYPES, Deck, load_cards, load_decks
from commander.decks import deck_summary, validate_deck

CARDS = load_cards()
DECKS = load_decks(cards=CARDS)


def recount(deck):
    """Count the deck's parts by walking its entries one copy at a time."""
    out = {"lair": [], "crew": [], "terr": 0, "adv": 0}
    for card_id, copies in deck.entries:
        row = CARDS.cards.loc[card_id]
        for _ in range(copies):
            if row["type"] == "lair":
                out["lair"].append(row["faction"])
            elif row["type"] == "character":
                out["crew"].append(row["faction"])
            elif row["type"] == "territory":
                out["terr"] += 1
            elif row["type"] in ADVENTURE_TYPES:
                out["adv"] += 1
    return out


@pytest.mark.parametrize("name", sorted(DECKS))
def test_summary_matches_a_recount(name):
    deck = DECKS[name]
    r = recount(deck)
    s = deck_summary(deck, CARDS)
    assert s["lairs"] == len(r["lair"])
    assert s["crew"] == len(r["crew"])
    assert s["crew_of_faction"] == r["crew"].count(r["lair"][0])
    assert s["territories"] == r["terr"] and s["adventure"] == r["adv"]


def test_sample_decks_are_legal_but_the_broken_one():
    for name, deck in DECKS.items():
        broken = validate_deck(deck, CARDS)
        assert (broken == []) == (name != "broken_example")


def test_every_breach_is_reported():
    rules = [v.rule for v in validate_deck(DECKS["broken_example"], CARDS)]
    assert rules == ["min_crew", "crew_majority", "min_territories", "min_adventure"]


def entries(crew_own, crew_other, crew_indep, lairs=1, terr=10, adv=45):
    out = [("lair_smugglers", lairs)] if lairs else []
    out += [("smugglers_sailor", crew_own)] if crew_own else []
    out += [("english_navy_sailor", crew_other)] if crew_other else []
    out += [("indep_pilot", crew_indep)] if crew_indep else []
    out += [("terr_tortuga", terr), ("action_scout", adv)]
    return Deck("t", tuple(out))


def test_majority_is_strict():
    # 5 of 10: not a majority ("La majorité de vos personnages doit être de la même faction")
    assert [v.rule for v in validate_deck(entries(5, 5, 0), CARDS)] == ["crew_majority"]
    assert validate_deck(entries(6, 4, 0), CARDS) == []


def test_independents_knob():
    deck = entries(5, 1, 4)  # 5 own of 10 with independents, 5 of 6 without
    assert [v.rule for v in validate_deck(deck, CARDS)] == ["crew_majority"]
    assert validate_deck(deck, CARDS, Rules(majority_counts_independents=False)) == []


def test_lair_count_and_minima_at_the_edge():
    assert [v.rule for v in validate_deck(entries(10, 0, 0, lairs=2), CARDS)] == ["one_lair"]
    assert [v.rule for v in validate_deck(entries(10, 0, 0, lairs=0), CARDS)] == ["one_lair"]
    assert [v.rule for v in validate_deck(entries(9, 0, 0, terr=9, adv=44), CARDS)] == [
        "min_crew", "min_territories", "min_adventure"]
    assert validate_deck(entries(10, 0, 0, terr=10, adv=45), CARDS) == []
    relaxed = Rules(min_crew=5, min_territories=1, min_adventure=1)
    assert validate_deck(entries(5, 0, 0, terr=1, adv=1), CARDS, relaxed) == []


def test_a_deck_naming_an_unknown_card_is_a_clear_error():
    cards = load_cards()
    deck = Deck("x", (("no_such_card", 1),))
    for call in (lambda: validate_deck(deck, cards), lambda: deck_summary(deck, cards),
                 lambda: deck.counts(cards)):  # fmt: skip
        with pytest.raises(ValueError, match="deck 'x' names cards not in the card set: "
                                             "'no_such_card'"):  # fmt: skip
            call()
