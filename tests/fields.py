"""The check every result class's bad-field test makes."""

import dataclasses

import pytest


def assert_field_refused(result, field: str, bad, error: type[Exception]) -> None:
    """``result`` as the library built it passes its class's checks, and the same
    result with ``field`` set to ``bad`` fails with ``error`` naming ``Class.field``
    (or one of its items, ``Class.field[i]``)."""
    dataclasses.replace(result)
    with pytest.raises(error, match=rf"{type(result).__name__}\.{field}\b.*must"):
        dataclasses.replace(result, **{field: bad})
