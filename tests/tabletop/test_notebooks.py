"""Every notebook runs at small size and writes its report; notebooks are stored stripped."""

from pathlib import Path

import nbformat
import pytest

from tabletop.notebooks import NOTEBOOK_DIR, main, parameter_source, prepare, run_notebook

NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))


def test_there_are_notebooks():
    assert NOTEBOOKS, f"no notebooks in {NOTEBOOK_DIR}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_is_stored_without_outputs(path):
    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, path.name


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_and_writes_its_report(path, tmp_path):
    run_notebook(path, size="small", report_directory=tmp_path)
    report = tmp_path / f"{path.stem}.md"
    assert report.is_file()
    text = report.read_text()
    # the report keeps every section heading of its notebook, in order
    notebook = nbformat.read(path, as_version=4)
    headings = _headings([c for c in notebook.cells if c.cell_type == "markdown"])
    found = [line[3:].strip() for line in text.splitlines() if line.startswith("## ")]
    assert [h for h in found if h in headings] == headings, path.name
    for link in [line for line in text.splitlines() if line.startswith("![")]:
        target = link.split("](", 1)[1].rstrip(")")
        assert (tmp_path / target).is_file(), target
    # the committed report exists beside the notebook's name
    assert (Path(NOTEBOOK_DIR).parent / "reports" / f"{path.stem}.md").is_file()


def test_cli_reports_a_missing_notebook(capsys):
    assert main(["no/such.ipynb", "--size", "small"]) == 2
    assert "no notebook at" in capsys.readouterr().err


def _headings(markdown_cells):
    return [line.lstrip("#").strip() for cell in markdown_cells
            for line in cell.source.splitlines() if line.startswith("## ")]  # fmt: skip


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_takes_size_and_rules_as_parameters(path):
    notebook = nbformat.read(path, as_version=4)
    tagged = [c for c in notebook.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1, f"{path.name}: one cell tagged 'parameters'"
    defaults = {}
    exec(tagged[0].source, {}, defaults)  # the notebook's own source, not user data
    assert defaults == {"SIZE": "full", "RULES": {}}
    # the report is built from the rules parameter, so a variant run is a variant report
    assert any("Report(" in c.source and "rules=BASE" in c.source for c in notebook.cells)
    assert any("Rules(**RULES)" in c.source for c in notebook.cells)


def test_prepare_injects_parameters_and_copies_the_prose():
    notebook = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell('SIZE = "full"\nRULES = {}')
    params.metadata["tags"] = ["parameters"]
    notebook.cells = [
        nbformat.v4.new_markdown_cell("# Title\n\nIntro text."),
        params,
        nbformat.v4.new_code_cell('report = Report("demo", "Demo")'),
        nbformat.v4.new_markdown_cell("## Part one\n\nWhat it shows."),
        nbformat.v4.new_code_cell("x = 1"),
    ]
    prepared = prepare(notebook, "small", {"n_dice": 6, "face_values": (-1, 0, 1)})
    sources = [c.source for c in prepared.cells]
    assert sources[2] == "SIZE = 'small'\nRULES = {'n_dice': 6, 'face_values': (-1, 0, 1)}"
    assert prepared.cells[2].metadata["tags"] == ["injected-parameters"]
    # the intro follows the cell that creates the report; the title line is left out
    assert sources[3] == 'report = Report("demo", "Demo")'
    assert sources[4] == "report.text('Intro text.')"
    assert sources[6] == "report.text('## Part one\\n\\nWhat it shows.')"
    assert sources[7] == "x = 1"
    assert len(notebook.cells) == 5  # the original is left as it was
    with pytest.raises(ValueError, match="tagged 'parameters'"):
        prepare(nbformat.v4.new_notebook(), "small", {})


@pytest.mark.parametrize("bad", [{"n_dice": object()}, {"x": float("nan")}, {1: 2}])
def test_parameters_are_plain_literals(bad):
    with pytest.raises(TypeError, match="rules"):
        parameter_source("small", bad)


def test_a_variant_report_quotes_the_seed_headlines(tmp_path, monkeypatch):
    import panache
    from tabletop.report import Report

    seed_dir = tmp_path / "seed"
    seed_dir.mkdir()
    (seed_dir / "demo_turn.md").write_text(
        "# Demo\n\n<!-- headline -->\nSeed finding: 1.\n\nText.\n")
    monkeypatch.setattr("tabletop.report.SEED_REPORT_DIR", seed_dir)
    monkeypatch.delenv("TABLETOP_REPORT_DIR", raising=False)
    report = Report("demo_turn", "Demo", rules=panache.Rules(n_dice=6))
    report.headline("Variant finding: 2.")
    path = report.write()
    assert path == seed_dir / "variants" / "demo-n-dice-6" / "demo_turn.md"
    text = path.read_text()
    assert "`n_dice = 6` (seed: `5`)" in text
    assert text.index("Variant finding: 2.") < text.index("> *Seed rules:* Seed finding: 1.")
    assert not (seed_dir / "demo_turn.md").read_text().count("Variant")
    # the seed's rules make a seed report, in the usual folder
    assert Report("demo_turn", "Demo", rules=panache.Rules()).variant == {}


def test_report_command_runs_a_variant_into_its_own_folder(capsys, monkeypatch, tmp_path):
    from commander.cli import main as commander_main
    from tests.cli_helpers import run_json

    calls = []

    def fake_run(path, size, report_directory, **options):
        calls.append((path.name, size, options))
        (report_directory / f"{path.stem}.md").write_text(f"# Fake: {path.stem}\n\nDone.\n")

    monkeypatch.setattr("tabletop.notebooks.run_notebook", fake_run)
    monkeypatch.setattr("tabletop.report.SEED_REPORT_DIR", tmp_path)
    monkeypatch.setenv("TABLETOP_CACHE_DIR", str(tmp_path / "cache"))
    rows = run_json(commander_main, capsys, "report", "--size", "small", "--win-gold", "8",
                    "--start-doublons", "5")  # the seed's value: not part of the variant
    folder = tmp_path / "variants" / "commander-win-gold-8"
    assert calls == [("commander.ipynb", "small", {"rules": {"win_gold": 8}})]
    assert [r["notebook"] for r in rows] == ["commander.ipynb", "balance card"]
    card = (folder / "card.md").read_text()
    assert "win_gold=8" in card and "fastest_win_income_4" in card
    assert (folder / "index.md").is_file() and (folder / "commander.md").is_file()
    assert not (tmp_path / "commander.md").exists()  # the seed-rule report is untouched


def _tiny_notebook(path, body):
    notebook = nbformat.v4.new_notebook()
    params = nbformat.v4.new_code_cell('SIZE = "full"\nRULES = {}')
    params.metadata["tags"] = ["parameters"]
    notebook.cells = [
        params,
        nbformat.v4.new_code_cell(
            f'from tabletop.report import Report\nreport = Report("{path.stem}", "Tiny")'),
        nbformat.v4.new_markdown_cell("## Part\n\nSome words."),
        nbformat.v4.new_code_cell(body + "\nreport.text(f'size {SIZE}')\nreport.write()"),
    ]
    nbformat.write(notebook, path)
    return path


def test_notebooks_run_side_by_side_and_a_failure_is_one_line(tmp_path, capsys):
    good = [_tiny_notebook(tmp_path / f"tiny_{k}.ipynb", "x = 1") for k in range(2)]
    out = tmp_path / "out"
    assert main([*map(str, good), "--size", "small", "--report-dir", str(out),
                 "--jobs", "2"]) == 0  # fmt: skip
    for path in good:
        text = (out / f"{path.stem}.md").read_text()
        assert "## Part\n\nSome words." in text and "size small" in text
    bad = _tiny_notebook(tmp_path / "tiny_bad.ipynb", "1 / 0")
    assert main([str(bad), str(good[0]), "--size", "small", "--report-dir", str(out),
                 "--jobs", "2"]) == 1  # fmt: skip
    err = capsys.readouterr().err
    assert err.strip() == "error: tiny_bad.ipynb failed: ZeroDivisionError: division by zero"


def test_notebooks_start_longest_first_by_their_last_times(tmp_path):
    from tabletop.notebooks import Timings

    paths = [Path(f"{name}.ipynb") for name in ("a", "b", "c")]
    timings = Timings(tmp_path)
    assert timings.longest_first(paths) == paths  # nothing known: the given order
    timings.record(paths[0], 5.0)
    timings.record(paths[2], 50.0)
    again = Timings(tmp_path)
    assert again.seconds == {"a.ipynb": 5.0, "c.ipynb": 50.0}
    # the unknown one first (it may be long), then the longest
    assert [p.stem for p in again.longest_first(paths)] == ["b", "c", "a"]
    (tmp_path / Timings.NAME).write_text('{"a.ipynb": "slow"}')
    assert Timings(tmp_path).seconds == {}  # not a table of numbers: ignored
