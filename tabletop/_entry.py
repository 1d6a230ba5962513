"""A Ctrl-C while a command line is still loading ends in one line, not a traceback.

``python -m panache ...`` imports the game's package (numpy, numba, the kernels'
modules) before its ``main`` runs, and ``main``'s :func:`tabletop.cli.one_line_errors`
can only catch what happens inside it. This module, imported first by
``tabletop/__init__.py`` (which every game imports before anything else), uses the
standard library only: when the process was started as ``python -m <one of this
project's packages>``, an uncaught ``KeyboardInterrupt`` prints ``error: interrupted``
on stderr in place of the traceback. Python then ends the process as interrupted
(``SIGINT``: exit status 130 in the shell), as it does for any uncaught Ctrl-C.
Every other process (a library user's, the tests') keeps Python's own hook.
"""

from __future__ import annotations

import sys

#: Top-level packages whose ``python -m`` command lines this covers.
COMMANDS = ("panache", "citadel", "samarra", "commander", "tabletop")


def started_as_command(argv: list[str] | None = None) -> bool:
    """Whether ``argv`` (default ``sys.orig_argv``) runs ``python -m`` on one of
    :data:`COMMANDS` or its modules.

    Examples
    --------
    >>> started_as_command(["python", "-m", "panache", "duel"])
    True
    >>> started_as_command(["python", "-m", "tabletop.index", "--cards-only"])
    True
    >>> started_as_command(["python", "-m", "pytest"]), started_as_command(["python", "x.py"])
    (False, False)
    """
    argv = list(getattr(sys, "orig_argv", []) if argv is None else argv)
    for i, arg in enumerate(argv[1:-1], start=1):
        if arg == "-m":
            return argv[i + 1].split(".")[0] in COMMANDS
        if not arg.startswith("-") or arg == "-c":  # a script or -c: no module runs
            return False
    return False


def _one_line_interrupt(kind, value, traceback) -> None:
    if issubclass(kind, KeyboardInterrupt):
        try:
            sys.stderr.write("error: interrupted\n")
            sys.stderr.flush()
        except (OSError, ValueError, AttributeError):  # stderr closed or gone
            pass
        return
    _previous(kind, value, traceback)


_previous = sys.excepthook
if started_as_command():
    sys.excepthook = _one_line_interrupt
