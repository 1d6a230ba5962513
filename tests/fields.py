"""The check every result class's bad-field test makes."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest


def assert_field_refused(result, field: str, bad, error: type[Exception]) -> None:
    """``result`` as the library built it passes its class's checks, and the same
    result with ``field`` set to ``bad`` fails with ``error`` naming ``Class.field``
    (or one of its items, ``Class.field[i]``)."""
    dataclasses.replace(result)
    with pytest.raises(error, match=rf"{type(result).__name__}\.{field}\b.*must"):
        dataclasses.replace(result, **{field: bad})


def bad_field_test(made: Callable[[str], object], cases: list[tuple],
                   bad_value: Callable[[object, str, str, object], object] | None = None):
    """A package's bad-field test: one case per ``(made, field, bad, error)`` of
    ``cases``, named ``made-field-i``.

    ``made(name)`` builds the result the case spoils; ``bad_value(result, made, field,
    bad)``, when given, turns a case's ``bad`` into the value to set (for values built
    from the result itself).
    """

    ids = [f"{m}-{f}-{i}" for i, (m, f, *_) in enumerate(cases)]

    @pytest.mark.parametrize(("made_name", "field", "bad", "error"), cases, ids=ids)
    def test_a_bad_field_is_named(made_name, field, bad, error):
        result = made(made_name)
        if bad_value is not None:
            bad = bad_value(result, made_name, field, bad)
        assert_field_refused(result, field, bad, error)

    return test_a_bad_field_is_named
