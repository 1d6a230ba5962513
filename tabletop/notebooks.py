"""Run the analysis notebooks: ``python -m tabletop.notebooks --size full``.

Each notebook in ``notebooks/`` is executed top to bottom in a fresh kernel, with
``TABLETOP_REPORT_DIR`` set so it writes its report to the chosen folder. The
notebooks on disk are not modified (their outputs stay stripped in git).

Parameters follow papermill's convention: a notebook's code cell tagged
``parameters`` holds the defaults (``SIZE = "full"``, ``RULES = {}``: the knobs
changed from the seed's rules), and the runner adds a cell tagged
``injected-parameters`` right after it with the values of the run. A notebook opened
by hand runs with its defaults; ``papermill -p SIZE small`` works as well.

The notebook's prose becomes the report's: after each Markdown cell the runner adds
a cell tagged ``report-text`` that appends that cell's text to ``report`` (cells
before the one that creates ``report`` are appended right after it; a level-1
heading is left out, the report has its own title). So a report keeps every heading
and explanation of its notebook, and neither is written twice.
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import re
import sys
import time
from pathlib import Path

from tabletop.cli import ArgumentParser, one_line_errors
from tabletop.files import atomic_write_text
from tabletop.report import SIZES, report_dir, variant_dir

NOTEBOOK_DIR = Path(__file__).resolve().parents[1] / "notebooks"


@contextlib.contextmanager
def _environment(**values: str):
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, old in saved.items():
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old


PARAMETERS_TAG = "parameters"
INJECTED_TAG = "injected-parameters"
TEXT_TAG = "report-text"
_CREATES_REPORT = re.compile(r"^report\s*=\s*Report\(", re.MULTILINE)


def _literal(name: str, value):
    """``value`` as Python source that reads back equal (knob values only)."""
    text = repr(value)
    try:
        same = ast.literal_eval(text) == value
    except (ValueError, SyntaxError):
        same = False
    if not same:
        raise TypeError(f"rules[{name!r}] must be a plain literal (int, float, bool, str, "
                        f"tuple), got {value!r}")  # fmt: skip
    return text


def parameter_source(size: str, rules: dict) -> str:
    """The source of the injected-parameters cell.

    Examples
    --------
    >>> print(parameter_source("small", {"n_dice": 6}))
    SIZE = 'small'
    RULES = {'n_dice': 6}
    """
    if not isinstance(rules, dict) or not all(isinstance(k, str) for k in rules):
        raise TypeError(f"rules must be a dict of knob names to values, got {rules!r}")
    items = ", ".join(f"{k!r}: {_literal(k, v)}" for k, v in rules.items())
    return f"SIZE = {size!r}\nRULES = {{{items}}}"


def _text_cell(nbformat, markdown: str):
    """The cell appending ``markdown`` to the report, title lines left out; None if empty."""
    body = "\n".join(line for line in markdown.splitlines() if not re.match(r"#\s", line))
    if not body.strip():
        return None
    cell = nbformat.v4.new_code_cell(f"report.text({body.strip()!r})")
    cell.metadata["tags"] = [TEXT_TAG]
    return cell


def prepare(notebook, size: str, rules: dict):
    """The notebook to execute: parameters injected, Markdown cells copied to the report.

    Raises ``ValueError`` when the notebook has no cell tagged ``parameters``.
    """
    import nbformat

    cells, pending, has_report, found = [], [], False, False
    for cell in notebook.cells:
        cells.append(cell)
        tags = cell.metadata.get("tags", [])
        if cell.cell_type == "code" and PARAMETERS_TAG in tags and not found:
            found = True
            injected = nbformat.v4.new_code_cell(parameter_source(size, rules))
            injected.metadata["tags"] = [INJECTED_TAG]
            cells.append(injected)
        elif cell.cell_type == "markdown":
            text = _text_cell(nbformat, cell.source)
            if text is not None:
                (cells if has_report else pending).append(text)
        elif cell.cell_type == "code" and not has_report and _CREATES_REPORT.search(cell.source):
            has_report = True
            cells.extend(pending)
            pending = []
    if not found:
        raise ValueError(f"the notebook has no code cell tagged {PARAMETERS_TAG!r}")
    prepared = nbformat.from_dict(dict(notebook))
    prepared.cells = cells
    return prepared


def run_notebook(path, size: str = "small", report_directory=None, timeout: int = 3600,
                 rules: dict | None = None):  # fmt: skip
    """Execute one notebook and return the executed copy (the file is left unchanged).

    Parameters
    ----------
    path : path-like
        The ``.ipynb`` file.
    size : {"small", "full", "extended"}
        Problem sizes inside the notebook (:data:`tabletop.report.SIZES`).
    report_directory : path-like, optional
        Where the notebook's report goes (default: :func:`tabletop.report.report_dir`
        for the seed's rules, :func:`tabletop.report.variant_dir` for a variant).
    timeout : int
        Seconds allowed per cell.
    rules : dict, optional
        Knobs changed from the seed's rules (the notebook's ``RULES`` parameter).
    """
    import nbformat
    from nbclient import NotebookClient

    if size not in SIZES:
        raise ValueError(f"size must be one of {SIZES}, got {size!r}")
    rules = dict(rules or {})
    path = Path(path)
    if report_directory is not None:
        folder = Path(report_directory)
    elif rules:
        folder = variant_dir(path.stem.split("_", 1)[0], rules)
    else:
        folder = report_dir()
    notebook = prepare(nbformat.read(path, as_version=4), size, rules)
    client = NotebookClient(
        notebook,
        timeout=timeout,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    )
    env = {
        "TABLETOP_NOTEBOOK_SIZE": size,
        "TABLETOP_REPORT_DIR": str(folder.resolve()),
        "MPLBACKEND": "agg",
    }
    with _environment(**env):
        client.execute()
    return notebook


class Timings:
    """How long each notebook took last time on this machine, kept beside its reports in
    a hidden file (``.notebook-seconds.json``, not part of the reports and not committed),
    so that a run starts the longest ones first and the notebooks running side by side
    finish close together. A file that cannot be read as a table of numbers is ignored
    (then the unknown notebooks go first)."""

    NAME = ".notebook-seconds.json"

    def __init__(self, folder: Path):
        self.path = Path(folder) / self.NAME
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            data = {}
        ok = isinstance(data, dict) and all(
            isinstance(k, str) and isinstance(v, int | float) and v >= 0 for k, v in data.items()
        )
        self.seconds = dict(data) if ok else {}

    def longest_first(self, paths: list[Path]) -> list[Path]:
        return sorted(paths, key=lambda p: -self.seconds.get(p.name, float("inf")))

    def record(self, path: Path, seconds: float) -> None:
        self.seconds[path.name] = round(seconds, 1)
        # a read-only report folder is no error: the order is only a convenience
        with contextlib.suppress(OSError):
            atomic_write_text(self.path, json.dumps(self.seconds, indent=1, sort_keys=True) + "\n")


def _run_one(path: Path, size: str, report_directory) -> float:
    start = time.perf_counter()
    run_notebook(path, size=size, report_directory=report_directory)
    return time.perf_counter() - start


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def failure_line(exc: BaseException) -> str:
    """The last line of a failed cell's error, without the kernel's colour codes."""
    lines = _ANSI.sub("", str(exc)).strip().splitlines()
    return lines[-1] if lines else type(exc).__name__


def _failure(path: Path, exc: BaseException) -> str:
    return f"error: {path.name} failed: {failure_line(exc)}"


@one_line_errors
def main(argv: list[str] | None = None) -> int:
    """Run ``python -m tabletop.notebooks`` with ``argv``; errors are one line on stderr."""
    parser = ArgumentParser(prog="python -m tabletop.notebooks", description=__doc__)
    parser.add_argument("notebooks", nargs="*", help="notebooks to run (default: all)")
    parser.add_argument("--size", choices=SIZES, default="full")
    parser.add_argument("--report-dir", default=None, help="where reports go")
    parser.add_argument(
        "--jobs", type=int, default=min(2, os.cpu_count() or 1),
        help="notebooks run at once, each in its own process (default: 2, or 1 on one core)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, got {args.jobs}")
    paths = [Path(p) for p in args.notebooks] or sorted(NOTEBOOK_DIR.glob("*.ipynb"))
    for path in paths:
        if not path.is_file():
            print(f"error: no notebook at {path}", file=sys.stderr)
            return 2
    timings = Timings(Path(args.report_dir) if args.report_dir else report_dir())
    paths = timings.longest_first(paths)
    if args.jobs == 1:
        for path in paths:
            try:
                seconds = _run_one(path, args.size, args.report_dir)
            except Exception as exc:  # one line per failure, not a traceback
                print(_failure(path, exc), file=sys.stderr)
                return 1
            print(f"{path.name}: done in {seconds:.1f} s", flush=True)
            timings.record(path, seconds)
        return 0
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    from tabletop.sweep import exit_with_parent

    # each notebook already runs in a kernel of its own; the pool only keeps `jobs` busy.
    # A runner killed outright takes its workers with it, and they their kernels.
    with ProcessPoolExecutor(max_workers=args.jobs, initializer=exit_with_parent,
                             initargs=(os.getpid(),)) as pool:  # fmt: skip
        futures = {pool.submit(_run_one, path, args.size, args.report_dir): path
                   for path in paths}  # fmt: skip
        pending = set(futures)
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                path = futures[future]
                if future.exception() is not None:
                    for other in pending:
                        other.cancel()
                    print(_failure(path, future.exception()), file=sys.stderr)
                    return 1
                print(f"{path.name}: done in {future.result():.1f} s", flush=True)
                timings.record(path, future.result())
    return 0


if __name__ == "__main__":
    sys.exit(main())
