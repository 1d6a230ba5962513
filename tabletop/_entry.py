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
A command line also skips the garbage collector's last passes over the objects it
leaves at exit (numba's compiled functions and their types, about 170,000 objects
after a few solves): :func:`gc.freeze` is the last ``atexit`` hook to run, after
every other library's clean-up (worker processes, temporary files), and halves the
time from the end of ``main`` (or a Ctrl-C) to the end of the process.
Every other process (a library user's, the tests') keeps Python's own hook and exit.
"""

from __future__ import annotations

import atexit
import gc
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


def interrupted() -> bool:
    """Whether a SIGINT has arrived in this command line (False in other processes).

    A Ctrl-C that lands inside compiled code or an extension (numba compiling a
    kernel, numpy importing) can surface as another error; a command line that sees
    one after a SIGINT ends as interrupted.

    Examples
    --------
    >>> interrupted()
    False
    """
    return _interrupted


def freeze_at_exit() -> None:
    """Register :func:`gc.freeze` to run at exit, once per process: Python's last
    collection then skips the objects numba made for the kernels (seconds on a loaded
    machine). Nothing changes while the process lives."""
    global _freezing
    if not _freezing:
        atexit.register(gc.freeze)
        _freezing = True


#: Whether :func:`freeze_at_exit` has registered its hook.
_freezing = False


def note_interrupt(signum, frame) -> None:
    """Python's own Ctrl-C handler, remembering that it ran (a command line's handler)."""
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
        signal.signal(signal.SIGINT, note_interrupt)
    freeze_at_exit()  # registered first, so it runs last
