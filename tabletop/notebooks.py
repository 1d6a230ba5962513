"""Run the analysis notebooks: ``python -m tabletop.notebooks --size full``.

Each notebook in ``notebooks/`` is executed top to bottom in a fresh kernel with
``TABLETOP_NOTEBOOK_SIZE`` and ``TABLETOP_REPORT_DIR`` set, so it writes its report
to the chosen folder. The notebooks on disk are not modified (their outputs stay
stripped in git).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from pathlib import Path

from tabletop.report import SIZES, report_dir

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


def run_notebook(path, size: str = "small", report_directory=None, timeout: int = 3600):
    """Execute one notebook and return the executed copy (the file is left unchanged).

    Parameters
    ----------
    path : path-like
        The ``.ipynb`` file.
    size : {"small", "full"}
        Problem sizes inside the notebook.
    report_directory : path-like, optional
        Where the notebook's report goes (default: :func:`tabletop.report.report_dir`).
    timeout : int
        Seconds allowed per cell.
    """
    import nbformat
    from nbclient import NotebookClient

    if size not in SIZES:
        raise ValueError(f"size must be one of {SIZES}, got {size!r}")
    path = Path(path)
    folder = Path(report_directory) if report_directory is not None else report_dir()
    notebook = nbformat.read(path, as_version=4)
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tabletop.notebooks", description=__doc__)
    parser.add_argument("notebooks", nargs="*", help="notebooks to run (default: all)")
    parser.add_argument("--size", choices=SIZES, default="full")
    parser.add_argument("--report-dir", default=None, help="where reports go")
    args = parser.parse_args(argv)
    paths = [Path(p) for p in args.notebooks] or sorted(NOTEBOOK_DIR.glob("*.ipynb"))
    for path in paths:
        if not path.is_file():
            print(f"error: no notebook at {path}", file=sys.stderr)
            return 2
    for path in paths:
        start = time.perf_counter()
        try:
            run_notebook(path, size=args.size, report_directory=args.report_dir)
        except Exception as exc:  # one line per failure, not a traceback
            first = str(exc).strip().splitlines()
            print(
                f"error: {path.name} failed: {first[-1] if first else type(exc).__name__}",
                file=sys.stderr,
            )
            return 1
        print(f"{path.name}: done in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
