"""How counts, numbers and texts are worded to people, the same in every view and report."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime


def plural(count: int, noun: str, nouns: str = "") -> str:
    """``1 question``, ``3 questions``; ``nouns``: the plural where it is not a plain ``s``
    (``plural(2, "diagnosis", "diagnoses")``)."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def time_text(at: datetime | None = None) -> str:
    """``2026-12-02 23:53:42+00:00``: when a report was generated (``None``: now, local time)."""
    return (at or datetime.now().astimezone()).isoformat(sep=" ", timespec="seconds")


def listing(values: Sequence[str], limit: int = 20) -> str:
    """The distinct values joined by commas, the first ``limit`` of them and how many more."""
    unique = list(dict.fromkeys(values))
    shown = ", ".join(unique[:limit])
    return shown if len(unique) <= limit else f"{shown} and {len(unique) - limit:,} more"


def one_line(text: str, limit: int) -> str:
    """``text`` on one line (each run of white space one space), cut to ``limit`` characters
    with "…" where it is cut."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def short_number(value: float | int | str) -> str:
    """``0.917``, ``0.7``, ``40``: a whole number as such, else up to three decimals (a text
    as it is)."""
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".") if value != int(value) else f"{value:g}"
    return str(value)


def number_text(value: float) -> str:
    """``0.12``: a score, a share or a difference to two decimals (never ``-0.00``)."""
    return f"{value:.2f}".replace("-0.00", "0.00")


def signed_text(value: float) -> str:
    """``+0.12``, ``-0.04``: a difference with its sign."""
    text = number_text(value)
    return text if text.startswith("-") else "+" + text


def p_text(p: float) -> str:
    """``p < 0.001``, ``p = 0.032``, ``p = 0.41``: three decimals below 0.1, where a verdict is
    decided (at 0.05), two above."""
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}" if p < 0.1 else f"p = {p:.2f}"


def interval_text(low: float | None, high: float | None, *, percent: bool = False) -> str:
    """``[0.55, 1.00]`` (``[55%, 100%]``); empty when either end is missing."""
    if low is None or high is None or not (math.isfinite(low) and math.isfinite(high)):
        return ""
    if percent:
        return f"[{low:.0%}, {high:.0%}]"
    return f"[{number_text(low)}, {number_text(high)}]"
