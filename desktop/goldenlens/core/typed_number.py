"""A number a person typed on a command line or in a filter box: a finite float, or a
``ValueError`` that quotes what was typed."""

from __future__ import annotations

import math


def finite_number(text: str, *, context: str = "") -> float:
    """``float(text)`` when it is a finite number; else a ``ValueError`` quoting ``text``
    (after ``context``, e.g. the whole argument it came from: ``"'recall=x': 'x' is not a
    number"``)."""
    lead = f"{context!r}: " if context else ""
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{lead}{text.strip()!r} is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"{lead}{text.strip()!r} is not a finite number")
    return value
