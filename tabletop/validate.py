"""Checks for rule knobs and arguments, written once for every game.

Each returns the value converted (``int``, ``bool``, ``str``) or raises an error that
names the field, the value and what is allowed.
"""

from __future__ import annotations

import numbers

import numpy as np


def check_int(name: str, value, low: int, high: int | None = None) -> int:
    """An int in ``low..high`` (``high`` None: no upper bound).

    Examples
    --------
    >>> check_int("radius", 3, 1, 50)
    3
    >>> check_int("radius", 0, 1, 50)
    Traceback (most recent call last):
    ...
    ValueError: radius must be 1..50, got 0
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {value!r} ({type(value).__name__})")
    value = int(value)
    if value < low or (high is not None and value > high):
        allowed = f"{low}..{high}" if high is not None else f">= {low}"
        raise ValueError(f"{name} must be {allowed}, got {value}")
    return value


def check_bool(name: str, value) -> bool:
    """True or False (numpy booleans accepted)."""
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_choice(name: str, value, choices: tuple[str, ...]) -> str:
    """One of ``choices``."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}, got {value!r}")
    return str(value)
