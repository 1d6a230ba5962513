import pytest

from commander import Rules
from commander.cards import (
    CARD_COLUMNS,
    CARD_TYPES,
    FACTIONS,
    CardDataError,
    load_cards,
    load_decks,
)

HEADER = ",".join(CARD_COLUMNS)
GOOD = "x1,Someone,character,smugglers,1,0,2,1,1,1,captain,0,0,0,0,3,1,"


def write(tmp_path, *lines, name="cards.csv"):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_sample_is_labelled_and_covers_every_type_and_faction():
    cards = load_cards()
    from importlib import resources

    text = (resources.files("commander") / "data" / "cards.csv").read_text()
    assert "ILLUSTRATIVE SAMPLE CARD SET, INVENTED FOR TESTING" in text.splitlines()[0]
    assert set(cards.cards["type"]) == set(CARD_TYPES)
    assert set(cards.cards["faction"]) - {""} == set(FACTIONS)
    # the seed names nine factions ("la puissante marine espagnole ... le vaisseau fantôme")
    assert len(FACTIONS) == 10 and "independent" in FACTIONS
    lairs = cards.of_type("lair")
    assert set(lairs["faction"]) == set(FACTIONS) - {"independent"}


def test_votes_follow_rank_plus_printed_votes():
    cards = load_cards()
    assert cards.votes("spanish_navy_captain") == 4
    assert cards.votes("indep_envoy") == 2  # unranked, two printed votes
    assert cards.votes("indep_governor") == 4
    assert cards.votes("spanish_navy_sailor") == 0


def test_user_file_loads(tmp_path):
    cards = load_cards(write(tmp_path, "# my cards", HEADER, GOOD))
    assert list(cards.cards.index) == ["x1"]
    assert cards.cards.loc["x1", "conquest"] == 2


@pytest.mark.parametrize(
    ("row", "field", "message"),
    [
        (GOOD.replace("character", "dragon"), "type", "unknown type 'dragon'"),
        (GOOD.replace("smugglers", "vikings"), "faction", "unknown faction 'vikings'"),
        (GOOD.replace(",2,1,1,1,captain", ",-2,1,1,1,captain"), "conquest", "-2 is negative"),
        (GOOD.replace(",2,1,1,1,captain", ",,1,1,1,captain"), "conquest", "value missing"),
        (GOOD.replace(",2,1,1,1,captain", ",two,1,1,1,captain"), "conquest", "'two' is not an int"),
        (GOOD.replace("captain", "admiral"), "rank", "unknown rank 'admiral'"),
        (GOOD.replace("smugglers", ""), "faction", "value missing"),
        (GOOD.replace(",3,1,", ",3,2,"), "named", "'2' must be 0 or 1"),
        ("lx,Lair,lair,independent,0,2,0,0,0,1,,0,1,0,0,0,0,", "faction",
         "cannot be 'independent'"),
    ],
)
def test_bad_rows_name_file_row_and_field(tmp_path, row, field, message):
    path = write(tmp_path, "# comment", HEADER, GOOD.replace("x1", "x0"), row)
    with pytest.raises(CardDataError, match=message) as info:
        load_cards(path)
    assert info.value.problems[0][:3] == (str(path), 4, field)
    assert f"{path}, row 4, field {field!r}" in str(info.value)


def test_every_problem_is_reported_and_nothing_is_loaded(tmp_path):
    bad1 = GOOD.replace("character", "dragon")
    bad2 = GOOD.replace("x1", "x2").replace(",1,0,2,", ",-1,0,2,")
    path = write(tmp_path, HEADER, bad1, GOOD, bad2, GOOD)
    with pytest.raises(CardDataError) as info:
        load_cards(path)
    found = [(row, field) for _, row, field, _ in info.value.problems]
    # rows 3 and 5 repeat the id x1 of row 2
    assert found == [(2, "type"), (3, "id"), (4, "cost"), (5, "id")]


def test_header_problems(tmp_path):
    with pytest.raises(CardDataError, match="field 'sea': column missing"):
        load_cards(write(tmp_path, HEADER.replace(",sea", ""), GOOD[:-1]))
    with pytest.raises(CardDataError, match="field 'colour': unknown column"):
        load_cards(write(tmp_path, HEADER + ",colour", GOOD + ",red"))
    with pytest.raises(CardDataError, match="no header row"):
        load_cards(write(tmp_path, "# only a comment"))
    with pytest.raises(CardDataError, match="row 2, field 'row': has 3 fields"):
        load_cards(write(tmp_path, HEADER, "a,b,c"))


def test_custom_ranks_come_from_rules(tmp_path):
    path = write(tmp_path, HEADER, GOOD.replace("captain", "admiral"))
    rules = Rules(votes_by_rank=(("admiral", 5),))
    assert load_cards(path, rules=rules).votes("x1", rules) == 5


def test_decks_unknown_card_and_bad_copies(tmp_path):
    cards = load_cards()
    path = write(tmp_path, "deck,card_id,copies", "d,lair_smugglers,1", "d,nope,1",
                 "d,smugglers_captain,0", "d,smugglers_second,-1", name="decks.csv")
    with pytest.raises(CardDataError) as info:
        load_decks(path, cards)
    found = [(row, field) for _, row, field, _ in info.value.problems]
    assert found == [(3, "card_id"), (4, "copies"), (5, "copies")]
    assert "unknown card 'nope'" in str(info.value)


def test_sample_decks_load():
    decks = load_decks()
    assert set(decks) == {"spanish_sample", "brethren_sample", "ghost_sample",
                          "english_sample", "broken_example"}
