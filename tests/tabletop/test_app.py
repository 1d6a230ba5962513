"""The web page's callbacks, called as functions, and its pages driven without a browser.

The page must show what the library computes: the advisor's table is
:func:`panache.advise`'s, the explorer's card is :func:`tabletop.balance.compare_rules`'s
and the command line it prints computes the same card.
"""

from __future__ import annotations

import asyncio
import re

import pandas as pd
import pytest

from tabletop import games
from tabletop.app import callbacks
from tabletop.cli import value_text

pn = pytest.importorskip("panel")

from tabletop.app import pages  # noqa: E402 (needs panel)


@pytest.fixture(scope="module", autouse=True)
def cache_dir(tmp_path_factory):
    """Cards of this module in a folder of its own."""
    folder = tmp_path_factory.mktemp("app-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("TABLETOP_CACHE_DIR", str(folder))
        yield folder


# ---- the dice advisor ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "kept", "goal", "extra", "options"),
    [
        ("6 5 5 3 1", "", "ev", {}, {}),
        ("65531", "", "zero", {}, {"utility": "zero"}),
        ("6,5,2", "6 6", "positive", {}, {"utility": "positive"}),
        ("4 4 2", "1 6", "at_least", {"k": -2}, {"utility": "at_least:-2"}),
        ("6 5 5 3 1", "", "duel", {"points": 20, "against": 12}, {"points": 20, "against": 12}),
    ],
)  # fmt: skip
def test_the_advisor_shows_what_advise_computes(roll, kept, goal, extra, options):
    from panache import advise

    advice = callbacks.advise_roll(roll, kept, goal, **extra)
    dice = [int(c) for c in re.sub(r"[ ,]", "", roll)]
    aside = [int(c) for c in kept.split()]
    expected = advise(dice, kept=aside, **options)
    pd.testing.assert_frame_equal(advice.table, expected[["keep", "reroll", "value", "loss"]])
    assert advice.best.startswith(f"Keep {expected.loc[1, 'keep']} and ")
    argv = advice.command.split()[3:]
    from panache.cli import main

    assert main([*argv, "--format", "csv"]) == 0


def test_the_advisor_command_prints_the_same_table(capsys):
    from panache.cli import main

    advice = callbacks.advise_roll("6 5 5 3 1", "", "zero", knobs={"n_dice": 5})
    capsys.readouterr()
    assert main([*advice.command.split()[3:], "--format", "csv"]) == 0
    printed = pd.read_csv(__import__("io").StringIO(capsys.readouterr().out))
    assert printed["value"].tolist() == pytest.approx(advice.table["value"].tolist(), abs=1e-12)


def test_the_advisor_uses_the_variant_rules():
    advice = callbacks.advise_roll("6 5 5 3 1 1", goal="ev", knobs={"n_dice": 6})
    assert "--n-dice=6" in advice.command
    assert len(advice.table) == 2 * 3 * 2 * 3 - 1  # faces 6, 5 5, 3, 1 1: each count kept


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: callbacks.advise_roll("6 7"), ValueError, "roll: expected dice faces 1..6"),
        (lambda: callbacks.advise_roll("6 5", kept="x"), ValueError, "kept: expected dice"),
        (lambda: callbacks.advise_roll("6 5 5"), ValueError, "n_dice=5"),
        (lambda: callbacks.advise_roll(""), ValueError, "at least one rolled"),
        (lambda: callbacks.advise_roll(65531), TypeError, "roll: expected text"),
        (lambda: callbacks.advise_roll("6 5 5 3 1", goal="win"), ValueError, "goal must be"),
        (lambda: callbacks.advise_roll("6 5 5 3 1", goal="duel", points=20), ValueError,
         "against"),
        (lambda: callbacks.advise_roll("6 5 5 3 1", goal="at_least"), ValueError, "k:"),
        (lambda: callbacks.advise_roll("6 5 5 3 1", goal="duel", points=20, against=900),
         ValueError, "against"),
    ],
)  # fmt: skip
def test_bad_advisor_input_names_the_field(call, error, message):
    with pytest.raises(error, match=re.escape(message)):
        call()


# ---- the variant explorer ------------------------------------------------------------------


def _field_value(knob, value):
    """What the page's widget of ``knob`` holds for ``value``."""
    return value_text(value) if knob.kind == "text" else value


@pytest.mark.parametrize("game", games.names())
def test_the_fields_hold_the_defaults(game):
    fields = {k.name: _field_value(k, k.default) for k in callbacks.knobs(game)}
    assert callbacks.read_knobs(game, fields) == {}
    assert callbacks.command_line(game, "compare", {}) == f"python -m {game} compare"


@pytest.mark.parametrize("game", games.names())
def test_every_knob_round_trips_through_the_page_and_its_command_line(game, capsys,
                                                                     monkeypatch):  # fmt: skip
    entry = games.get(game)
    cls = entry.rules_class()
    by_name = {k.name: k for k in callbacks.knobs(game)}
    assert sorted(by_name) == sorted(entry.other_rules)
    fields = {name: _field_value(by_name[name], v) for name, v in entry.other_rules.items()}
    changed = callbacks.read_knobs(game, fields)
    assert cls(**changed) == cls(**entry.other_rules)
    seen = []
    monkeypatch.setattr("tabletop.balance.cached_balance",
                        lambda g, rules, **kw: seen.append(rules) or pd.DataFrame())  # fmt: skip
    argv = callbacks.command_line(game, "balance", changed).split()
    assert argv[:4] == ["python", "-m", game, "balance"]
    assert entry.command_line()(argv[3:]) == 0, capsys.readouterr().err
    assert seen == [cls(**entry.other_rules)]


@pytest.mark.parametrize(
    ("game", "fields", "error", "message"),
    [
        ("panache", {"n_dice": "6"}, TypeError, "n_dice: expected an int"),
        ("panache", {"n_dice": 99}, ValueError, "n_dice"),
        ("panache", {"face_values": "-4,x"}, ValueError, "face_values"),
        ("panache", {"counter_attacks": "yes"}, TypeError, "counter_attacks"),
        ("panache", {"dice": 5}, ValueError, "dice: not a knob of panache"),
        ("commander", {"exchange_rates": "13,1"}, ValueError, "exchange_rates"),
        ("samarra", {"horizon": "soon"}, ValueError, "horizon"),
        ("citadel", {"payment": 3}, TypeError, "payment: expected text"),
    ],
)  # fmt: skip
def test_bad_fields_name_the_knob(game, fields, error, message):
    with pytest.raises(error, match=re.escape(message)):
        callbacks.read_knobs(game, fields)


def test_the_explorer_shows_the_card_that_its_command_line_prints(capsys):
    from tabletop.balance import compare_rules, compare_text

    res = callbacks.explore("commander", {"win_gold": 8, "seven_seas": False})
    direct = compare_rules("commander", {"win_gold": 8}, seed=0)
    pd.testing.assert_frame_equal(res.comparison.table, direct.table)
    pd.testing.assert_frame_equal(res.table, compare_text(direct.table))
    assert res.markdown == direct.markdown(games.get("commander").title)
    assert pd.read_csv(__import__("io").StringIO(res.csv)).shape == direct.table.shape
    argv = res.command.split()
    assert argv == ["python", "-m", "commander", "compare", "--win-gold=8"]
    capsys.readouterr()
    assert games.get("commander").command_line()([*argv[3:], "--format", "csv"]) == 0
    printed = pd.read_csv(__import__("io").StringIO(capsys.readouterr().out))
    assert printed["variant"].tolist() == pytest.approx(direct.table["variant"].tolist(),
                                                        nan_ok=True)  # fmt: skip
    fig = res.figure()
    assert fig.axes[0].get_title().startswith("Master & Commander: ")


# ---- the reports ---------------------------------------------------------------------------


def test_the_reports_open_with_the_index_and_every_figure_is_served():
    from tabletop.report import SEED_REPORT_DIR

    files = callbacks.report_files()
    assert next(iter(files)) == "Index"
    assert len(files) == len(list(SEED_REPORT_DIR.glob("*.md")))
    for path in files.values():
        text = callbacks.report_markdown(path.read_text(encoding="utf-8"), "/reports/figures")
        for link in re.findall(r"\]\((/reports/figures/[^)\s]+)\)", text):
            assert (SEED_REPORT_DIR / link.removeprefix("/reports/")).is_file(), (path, link)
        assert "](figures/" not in text
        for stem in re.findall(r"\]\(/report/([\w-]+)", text):
            assert (SEED_REPORT_DIR / f"{stem}.md").is_file(), (path, stem)
        assert not re.search(r"\]\([\w-]+\.md", text)
    assert sorted(pages.routes()) == sorted(["/", *(f"/report/{p.stem}" for p in files.values())])


# ---- the pages, driven without a browser -----------------------------------------------------


def _one(layout, kind, name=None):
    found = [w for w in layout.select(kind) if name is None or w.name == name]
    assert len(found) == 1, (kind, name, found)
    return found[0]


def _shown_errors(layout):
    """The visible error boxes of ``layout``, each with the widget just above it."""
    form = next(c for c in layout.select(pn.Column) if any(
        isinstance(o, pn.pane.Alert) for o in c.objects))  # the form column  # fmt: skip
    return [(form.objects[i - 1], o.object) for i, o in enumerate(form.objects)
            if isinstance(o, pn.pane.Alert) and o.visible and o.alert_type == "danger"]


def _click_async(button) -> None:
    """Click ``button`` whose callback is a coroutine, inside an event loop of the test's
    own that runs it to the end and is closed (Panel would open one and leave it open)."""

    async def click():
        button.clicks += 1
        await asyncio.gather(*(asyncio.all_tasks() - {asyncio.current_task()}))

    asyncio.run(click())


def test_the_advisor_page_advises_and_shows_errors_beside_the_field():
    page = pages.advisor_page()
    table = _one(page, pn.pane.DataFrame)
    assert table.object.equals(callbacks.advise_roll("6 5 5 3 1").table)  # on opening
    roll = _one(page, pn.widgets.TextInput, "Dice rolled")
    kept = _one(page, pn.widgets.TextInput, "Dice set aside earlier this turn")
    roll.value, kept.value = "6 5 2", "6 6"
    _one(page, pn.widgets.Select, "Play for").value = "zero"
    _one(page, pn.widgets.Button, "Advise").clicks += 1
    assert table.object.equals(callbacks.advise_roll("6 5 2", "6 6", "zero").table)
    assert "Keep 6 5 2 and stop" in _one(page, pn.pane.Markdown, "best").object
    assert _shown_errors(page) == []
    roll.value = "6 7"
    _one(page, pn.widgets.Button, "Advise").clicks += 1
    [(field, message)] = _shown_errors(page)
    assert field is roll and message.startswith("error: roll: expected dice faces")
    assert table.object is None and _one(page, pn.pane.Markdown, "best").object == ""
    roll.value, kept.value = "6 5 2", "6 6 6"  # six dice: the message names the roll first
    _one(page, pn.widgets.Button, "Advise").clicks += 1
    [(field, message)] = _shown_errors(page)
    assert field is roll and message.startswith("error: roll and kept must hold")
    roll.value, kept.value = "6 5 5 3 1", ""
    _one(page, pn.widgets.Select, "Play for").value = "duel"
    against = _one(page, pn.widgets.IntInput, "Your opponent's points")
    against.value = 99
    _one(page, pn.widgets.Button, "Advise").clicks += 1
    [(field, message)] = _shown_errors(page)  # the roll's box is cleared
    assert field is against and message.startswith("error: against must be")
    against.value = 20
    _one(page, pn.widgets.Button, "Advise").clicks += 1
    assert _shown_errors(page) == [] and table.object is not None


@pytest.mark.parametrize(("game", "knob", "value", "message"), [
    ("citadel", "capital", 0, "error: capital must be"),
    ("panache", "face_values", "1,2", "error: face_values must hold six ints"),
    ("commander", "win_gold", -1, "error: win_gold"),
])  # fmt: skip
def test_the_explorer_shows_a_bad_knob_beside_its_field(game, knob, value, message):
    page = pages.explorer_page()
    _one(page, pn.widgets.Select, "Game").value = game
    widget = next(w for w in page.select(pn.widgets.Widget)
                  if w.name == knob or w.name.startswith(f"{knob}: "))  # fmt: skip
    widget.value = value
    _click_async(_one(page, pn.widgets.Button, "Compare with the seed's rules"))
    [(field, shown)] = _shown_errors(page)
    assert field is widget and shown.startswith(message)


@pytest.mark.parametrize(("message", "names", "field"), [
    ("roll: expected dice faces 1..6, got '7'", ["kept", "roll"], "roll"),
    ("roll and kept must hold n_dice=5 dice together", ["kept", "roll"], "roll"),
    ("k: a total of at least k needs k, got None", ["roll", "k"], "k"),
    ("min_bid must be at most capital=100, got 200", ["capital", "min_bid"], "min_bid"),
    ("n_dice must be 1..8, got 0", ["dice", "n_dice"], "n_dice"),  # whole words only
    ("this card needs 40 GB", ["roll"], None),
])  # fmt: skip
def test_an_error_goes_beside_the_field_it_names_first(message, names, field):
    assert callbacks.named_field(ValueError(message), names) == field


def test_the_dice_buttons_type_the_roll():
    page = pages.advisor_page()
    roll = _one(page, pn.widgets.TextInput, "Dice rolled")
    _one(page, pn.widgets.Button, "clear").clicks += 1
    assert roll.value == ""
    for face in (6, 5, 5):
        _one(page, pn.widgets.Button, str(face)).clicks += 1
    assert roll.value == "6 5 5"


def test_the_duel_fields_show_only_for_the_duel():
    page = pages.advisor_page()
    points = _one(page, pn.widgets.IntInput, "Your points")
    assert not points.visible
    _one(page, pn.widgets.Select, "Play for").value = "duel"
    assert points.visible


@pytest.mark.parametrize("game", games.names())
def test_the_explorer_form_has_every_knob_with_its_default(game):
    page = pages.explorer_page()
    _one(page, pn.widgets.Select, "Game").value = game
    for knob in callbacks.knobs(game):
        kinds = {"bool": pn.widgets.Checkbox, "int": pn.widgets.IntInput,
                 "text": pn.widgets.TextInput}  # fmt: skip
        widget = [w for w in page.select(kinds[knob.kind])
                  if w.name == knob.name or w.name.startswith(f"{knob.name}: ")]  # fmt: skip
        assert len(widget) == 1, knob.name
        assert widget[0].value == _field_value(knob, knob.default)


def test_the_whole_page_has_three_tabs():
    tabs = pages.build()
    assert [p.name for p in tabs] == ["Dice advisor", "Variant explorer", "Reports"]


# ---- the command line ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["--port", "70000"], "error: --port must be 0..65535, got 70000"),
        (["--reports", "/no/such/folder"], "error: --reports: no such folder '/no/such/folder'"),
        (["--port", "x"], "error: python -m tabletop.app: argument --port: invalid int value: 'x'"),
    ],
)  # fmt: skip
def test_bad_options_cost_one_line_and_exit_2(capsys, argv, line):
    from tabletop.app.__main__ import main

    assert main(argv) == 2
    assert capsys.readouterr().err == line + "\n"


def test_a_free_port_can_be_bound():
    import socket

    from tabletop.app.__main__ import free_port

    port = free_port("127.0.0.1")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", port))


def test_the_card_estimate_grows_with_the_rules_and_flags_long_cards():
    assert callbacks.card_estimate("commander", {}) == 0.0
    small, big = (callbacks.card_estimate("citadel", {"capital": c}) for c in (50, 300))
    assert 0 < small < callbacks.CARD_BUDGET < big
    assert callbacks.card_estimate("samarra", {"width": 4, "length": 6}) > callbacks.CARD_BUDGET
    with pytest.raises(ValueError, match="capital"):
        callbacks.card_estimate("citadel", {"capital": -5})
