"""Every notebook runs at small size and writes its report; notebooks are stored stripped."""

from pathlib import Path

import nbformat
import pytest

from tabletop.notebooks import NOTEBOOK_DIR, main, run_notebook

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
    for link in [line for line in text.splitlines() if line.startswith("![")]:
        target = link.split("](", 1)[1].rstrip(")")
        assert (tmp_path / target).is_file(), target
    # the committed report exists beside the notebook's name
    assert (Path(NOTEBOOK_DIR).parent / "reports" / f"{path.stem}.md").is_file()


def test_cli_reports_a_missing_notebook(capsys):
    assert main(["no/such.ipynb", "--size", "small"]) == 2
    assert "no notebook at" in capsys.readouterr().err
