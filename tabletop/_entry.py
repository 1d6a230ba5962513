"""A Ctrl-C while a command line is still loading ends in one line, not a traceback.

``python -m panache ...`` imports the game's package (numpy, numba, the kernels'
modules) before its ``main`` runs, and ``main``'s :func:`tabletop.cli.one_line_errors`
can only catch what happens inside it. This module, imported first by
``tabletop/__init__.py`` (which every game imports before anything else), uses the
standard library only: when the process was started as ``python -m <one of this
project's packages>``, an uncaught ``KeyboardInterrupt`` prints ``error: interrupted``
on stderr in place of the traceback. Python then ends the process as interrupted
(``SIGINT``: exit status 130 in the shell), as it does for any uncaught Ctrl-C.
A Ctrl-C that lands inside an extension module's import can surface as another
error (numpy reports a failed ``datetime`` import as an ``ImportError``); once a
SIGINT has arrived, any uncaught error is reported and ended the same way.
Every other process (a library user's, the tests') keeps Python's own hook.
"""

from __future__ import annotations

import os
import signal
import sys

#: Whether a SIGINT has arrived (command lines only).
_interrupted = False

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


def _note_interrupt(signum, frame) -> None:
    """Python's own Ctrl-C handler, remembering that it ran."""
    global _interrupted
    _interrupted = True
    signal.default_int_handler(signum, frame)


def _one_line_interrupt(kind, value, traceback) -> None:
    if issubclass(kind, KeyboardInterrupt) or _interrupted:
        try:
            sys.stderr.write("error: interrupted\n")
            sys.stderr.flush()
        except (OSError, ValueError, AttributeError):  # stderr closed or gone
            pass
        if not issubclass(kind, KeyboardInterrupt):  # end as Python ends on a Ctrl-C
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)
        return
    _previous(kind, value, traceback)


_previous = sys.excepthook
if started_as_command():
    sys.excepthook = _one_line_interrupt
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _note_interrupt)
