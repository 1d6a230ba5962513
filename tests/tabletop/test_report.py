import matplotlib

matplotlib.use("agg")
import matplotlib.pyplot as plt
import pandas as pd
import pytest

from tabletop.report import Report, notebook_size, report_dir


def test_report_writes_markdown_and_figures(tmp_path):
    report = Report("demo", "Demo report")
    report.heading("Numbers")
    report.text(f"Two and two make {2 + 2}.")
    report.table(pd.DataFrame({"x": [1.23456, 2.0]}, index=pd.Index(["a", "b"], name="k")),
                 caption="A table")  # fmt: skip
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    report.figure(fig, "line", "A line")
    plt.close(fig)
    path = report.write(tmp_path)
    text = path.read_text()
    assert text.startswith("# Demo report")
    assert "Two and two make 4." in text
    assert "| k   |" in text and "1.235" in text
    assert "![A line](figures/demo-line.png)" in text
    assert (tmp_path / "figures" / "demo-line.png").read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(ValueError, match="used twice"):
        report.figure(fig, "line", "again")


def test_checks_and_timings_go_to_one_appendix_at_the_end(tmp_path):
    from tabletop.report import APPENDIX_HEADING

    report = Report("demo", "Demo report")
    report.heading("Findings")
    report.text("The finding.")
    report.table(pd.DataFrame({"z": [0.5]}), caption="A z-table", appendix=True)
    report.heading("More findings")
    report.text("Another finding.")
    report.text("Seconds taken.", appendix=True)
    text = report.markdown()
    order = ["## Findings", "The finding.", "## More findings", "Another finding.",
             f"## {APPENDIX_HEADING}", "*A z-table*", "Seconds taken."]
    positions = [text.index(part) for part in order]
    assert positions == sorted(positions)
    assert text.count(APPENDIX_HEADING) == 1
    # no appendix material, no appendix heading
    plain = Report("demo", "Demo report")
    plain.text("Only findings.")
    assert APPENDIX_HEADING not in plain.markdown()


def test_names_and_environment(monkeypatch, tmp_path):
    with pytest.raises(ValueError, match="name"):
        Report("bad name!", "x")
    monkeypatch.setenv("TABLETOP_NOTEBOOK_SIZE", "huge")
    with pytest.raises(ValueError, match="TABLETOP_NOTEBOOK_SIZE"):
        notebook_size()
    monkeypatch.setenv("TABLETOP_NOTEBOOK_SIZE", "small")
    assert notebook_size() == "small"
    monkeypatch.setenv("TABLETOP_REPORT_DIR", str(tmp_path))
    assert report_dir() == tmp_path


def test_markdown_table_prints_yes_no_and_a_dash_for_missing_values():
    import numpy as np

    from tabletop.report import MISSING, markdown_table

    frame = pd.DataFrame({
        "x": [0.123456, np.nan, 2.0],
        "pays": [True, np.bool_(False), None],
        "count": pd.array([1, None, 3], dtype="Int64"),
        "name": ["a", None, "c"],
        "empty": [np.nan] * 3,
    })  # fmt: skip
    text = markdown_table(frame)
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in text.splitlines()]
    assert rows[0] == ["", "x", "pays", "count", "name"]  # the empty column is left out
    assert rows[2] == ["0", "0.1235", "yes", "1", "a"]
    assert rows[3] == ["1", MISSING, "no", MISSING, MISSING]
    assert rows[4] == ["2", "2", MISSING, "3", "c"]
    for word in ("nan", "NaN", "<NA>", "None", "True", "False"):
        assert word not in text
    assert frame["pays"].iloc[0] is True  # the caller's frame is left as it was
