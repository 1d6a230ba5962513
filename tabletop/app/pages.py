"""The web page's layout: Panel widgets around :mod:`tabletop.app.callbacks`.

Each page is a function returning a Panel layout; :func:`build` puts them in tabs. A
form's button runs its callback; an error shows the command line's one line in a red
box under the field it names (under the form when it names none), and a card's
computation runs in a worker thread behind a progress bar, so the page stays responsive.
"""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import panel as pn

from tabletop.app import callbacks

#: The route under which the reports' folder is served (its figures).
REPORTS_ROUTE = "reports"


def _error_box():
    return pn.pane.Alert("", alert_type="danger", visible=False, sizing_mode="stretch_width")


class _Errors:
    """A red box under each field of a form and one under the form: an error shows in the
    box of the field its message names (:func:`callbacks.named_field`), else in the form's.
    """

    def __init__(self, fields: dict):
        self.form = _error_box()
        self.reset(fields)

    def reset(self, fields: dict) -> None:
        """New fields (the explorer's change with the game), each with a box of its own."""
        self.fields = dict(fields)
        self.boxes = {name: _error_box() for name in self.fields}

    def layout(self) -> list:
        """The fields, each followed by its (hidden) error box."""
        return [item for name, widget in self.fields.items()
                for item in (widget, self.boxes[name])]  # fmt: skip

    def show(self, exc: BaseException) -> None:
        self.clear()
        name = callbacks.named_field(exc, self.fields)
        box = self.boxes[name] if name is not None else self.form
        box.object = callbacks.error_text(exc)
        box.visible = True

    def clear(self) -> None:
        for box in (*self.boxes.values(), self.form):
            box.visible = False


def advisor_page():
    """The Master Panache dice advisor: a roll in, the best keep and every option out."""
    roll = pn.widgets.TextInput(label="Dice rolled", value="6 5 5 3 1",
                                placeholder="e.g. 6 5 5 3 1", description="faces 1..6")  # fmt: skip
    kept = pn.widgets.TextInput(label="Dice set aside earlier this turn", value="",
                                placeholder="none")  # fmt: skip
    goal = pn.widgets.Select(label="Play for", options=callbacks.GOALS, value="ev")
    k = pn.widgets.IntInput(label="k (a total of at least k)", value=1, visible=False)
    points = pn.widgets.IntInput(label="Your points", value=20, visible=False)
    against = pn.widgets.IntInput(label="Your opponent's points", value=20, visible=False)
    button = pn.widgets.Button(label="Advise", color="primary")
    errors = _Errors({"roll": roll, "kept": kept, "goal": goal, "k": k, "points": points,
                      "against": against})  # the names the errors use  # fmt: skip
    best = pn.pane.Markdown("", name="best")
    table = pn.pane.DataFrame(None, name="options", index=True, sizing_mode="stretch_width")
    command = pn.pane.Markdown("", name="command")

    def show_goal_fields(event=None):
        k.visible = goal.value == "at_least"
        points.visible = against.visible = goal.value == "duel"

    def advise(event=None):
        try:
            advice = callbacks.advise_roll(roll.value, kept.value, goal.value, k.value,
                                           points.value, against.value)  # fmt: skip
        except (ValueError, TypeError) as exc:
            errors.show(exc)
            best.object, table.object, command.object = "", None, ""  # no stale answer
            return
        errors.clear()
        best.object = f"### {advice.best}"
        table.object = advice.table
        command.object = f"The same at a command line:\n\n```\n{advice.command}\n```"

    def die_button(face: int):
        die = pn.widgets.Button(label=str(face), width=40, margin=(2, 2),
                                description=f"add a {face} to the dice rolled")  # fmt: skip
        die.on_click(lambda event: setattr(roll, "value", f"{roll.value} {face}".strip()))
        return die

    clear = pn.widgets.Button(label="clear", width=60, margin=(2, 2))
    clear.on_click(lambda event: setattr(roll, "value", ""))
    dice = pn.Row(*(die_button(face) for face in range(1, 7)), clear)
    goal.param.watch(show_goal_fields, "value")
    button.on_click(advise)
    advise()
    fields = errors.layout()
    form = pn.Column(*fields[:2], dice, *fields[2:], button, errors.form, width=340)
    return pn.Row(form, pn.Column(best, table, command, sizing_mode="stretch_width"),
                  name="Dice advisor")  # fmt: skip


def _knob_widget(knob: callbacks.Knob):
    if knob.kind == "bool":
        return pn.widgets.Checkbox(label=f"{knob.name}: {knob.help}", value=knob.default)
    if knob.kind == "int":
        return pn.widgets.IntInput(label=knob.name, value=knob.default, description=knob.help)
    return pn.widgets.TextInput(label=knob.name, value=knob.text, description=knob.help)


def explorer_page():
    """The variant explorer: every knob of a game, its balance card beside the seed's."""
    from tabletop.budget import duration
    from tabletop.games import get, names
    from tabletop.report import changed_knobs, variant_slug

    game = pn.widgets.Select(label="Game", options={get(n).title: n for n in names()})
    fields: dict = {}
    form = pn.Column(width=340)
    button = pn.widgets.Button(label="Compare with the seed's rules", color="primary")
    progress = pn.indicators.Progress(label="computing", active=False, visible=False,
                                      sizing_mode="stretch_width")  # fmt: skip
    errors = _Errors({})
    warning = pn.pane.Alert("", alert_type="warning", visible=False, sizing_mode="stretch_width")
    verdict = pn.pane.Markdown("", name="verdict", sizing_mode="stretch_width")
    table = pn.pane.DataFrame(None, name="card", index=True, sizing_mode="stretch_width")
    figure = pn.pane.Matplotlib(None, name="figure", dpi=96, tight=True, visible=False)
    command = pn.pane.Markdown("", name="command")
    latest: dict = {}
    markdown_file = pn.widgets.FileDownload(
        callback=lambda: io.StringIO(latest["result"].markdown), filename="card.md",
        label="Download as Markdown", visible=False)  # fmt: skip
    csv_file = pn.widgets.FileDownload(
        callback=lambda: io.StringIO(latest["result"].csv), filename="card.csv",
        label="Download as CSV", visible=False)  # fmt: skip

    def build_form(event=None):
        fields.clear()
        fields.update({k.name: _knob_widget(k) for k in callbacks.knobs(game.value)})
        errors.reset(fields)
        form.objects = [game, *errors.layout(), button, progress, warning, errors.form]

    async def compare(event=None):
        values = {name: w.value for name, w in fields.items()}
        errors.clear()
        try:
            changed = callbacks.read_knobs(game.value, values)
            seconds = callbacks.card_estimate(game.value, changed)
        except (ValueError, TypeError) as exc:
            errors.show(exc)
            return
        asked = (game.value, tuple(sorted(map(repr, changed.items()))))
        if seconds > callbacks.CARD_BUDGET and latest.get("asked") != asked:
            latest["asked"] = asked  # the same knobs again: go ahead
            warning.object = (f"This card needs about {duration(seconds)} (the solvers' "
                              "estimate from the rules). Press the button again to compute it.")
            warning.visible = True
            return
        warning.visible = False
        progress.visible = progress.active = button.disabled = True
        try:
            result = await asyncio.to_thread(callbacks.explore, game.value, values)
        except (ValueError, TypeError, MemoryError, OSError) as exc:
            errors.show(exc)
            verdict.object, table.object, command.object = "", None, ""  # no stale card
            figure.visible = markdown_file.visible = csv_file.visible = False
            return
        finally:
            progress.visible = progress.active = button.disabled = False
        latest["result"] = result
        slug = variant_slug(game.value, changed_knobs(result.comparison.variant_rules))
        markdown_file.filename, csv_file.filename = f"{slug}.md", f"{slug}.csv"
        verdict.object = result.comparison.verdict
        table.object = result.table
        figure.object = result.figure()
        command.object = f"The same at a command line:\n\n```\n{result.command}\n```"
        figure.visible = markdown_file.visible = csv_file.visible = True

    game.param.watch(build_form, "value")
    button.on_click(compare)
    build_form()
    results = pn.Column(verdict, table, figure, pn.Row(markdown_file, csv_file), command,
                        sizing_mode="stretch_width")  # fmt: skip
    return pn.Row(form, results, name="Variant explorer")


def report_view(path: Path):
    """One report, rendered, on a page of its own (its route: ``/report/<file stem>``)."""
    text = Path(path).read_text(encoding="utf-8")
    return pn.pane.Markdown(callbacks.report_markdown(text, f"/{REPORTS_ROUTE}/figures"),
                            sizing_mode="stretch_width", name="report")  # fmt: skip


def reports_page(folder: Path | None = None):
    """The reports of ``folder`` (default: the project's ``reports/``), the index first;
    a link from one report to another opens that report's own page."""
    files = callbacks.report_files(folder)
    choice = pn.widgets.Select(label="Report", options=list(files))
    view = pn.Column(report_view(files[choice.value]), sizing_mode="stretch_width")

    def show(event=None):
        view.objects = [report_view(files[choice.value])]

    choice.param.watch(show, "value")
    return pn.Column(choice, view, name="Reports", sizing_mode="stretch_width")


def routes(reports: Path | None = None) -> dict:
    """The server's pages: ``/`` (the tabs) and ``/report/<stem>`` for each report, each
    a function that builds a fresh page per visitor."""

    def page_of(path: Path):
        return lambda: report_view(path)  # Panel serves functions (not partial objects)

    files = callbacks.report_files(reports)
    out = {"/": lambda: build(reports)}
    for path in files.values():
        out[f"/report/{path.stem}"] = page_of(path)
    return out


def build(reports: Path | None = None):
    """The whole page: the three pages in tabs."""
    pn.extension(notifications=False)
    return pn.Tabs(advisor_page(), explorer_page(), reports_page(reports), dynamic=True,
                   sizing_mode="stretch_width")  # fmt: skip
