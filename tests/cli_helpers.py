"""Running a game's command line in-process, for the four ``test_cli.py`` files."""

import json
import runpy
import sys

import pytest


def run(main, capsys, *argv):
    """``main(argv)``: the exit code, standard output and standard error."""
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def run_json(main, capsys, *argv):
    """The records printed by ``main(argv + --format json)``, which must succeed quietly."""
    code, out, err = run(main, capsys, *argv, "--format", "json")
    assert code == 0 and err == "", err
    return json.loads(out)


def run_module(package, capsys, monkeypatch, argv):
    """``python -m package argv`` in-process: the exit code, stdout and stderr."""
    monkeypatch.setattr(sys, "argv", [package, *argv])
    with pytest.raises(SystemExit) as stop:
        runpy.run_module(package, run_name="__main__")
    out = capsys.readouterr()
    return stop.value.code, out.out, out.err
