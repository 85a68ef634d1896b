"""Spreadsheet cell values as the text an analyst sees in Excel.

Scoring compares text, so ``158`` must stay ``158`` (not ``158.0``), a share count must not
become ``1.0317750796e+10``, and an empty cell must be ``""`` (never ``"nan"``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from datetime import date, datetime, time, timedelta
from numbers import Integral, Real
from typing import Any, cast

from goldenlens.io.sheets.number_format.numbers import EXCEL_DIGITS, general_text


def cell_text(value: object) -> str:
    """One cell value (from calamine via pandas, or already text) as display text."""
    fast = _BY_TYPE.get(type(value))
    if fast is not None:
        return fast(value)
    if value is None:
        return ""
    for kind, render in _RENDERERS:
        if isinstance(value, kind):
            return render(value)
    return str(value)


def float_text(value: float) -> str:
    """A General number as the spreadsheet shows it: ``158.0`` → ``158``, ``1.0317750796e10``
    → ``10317750796``, ``0.1`` → ``0.1``, ``1e20`` → ``1E+20``; NaN → ``""``."""
    if math.isnan(value):
        return ""
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return general_text(value)


def int_text(value: int) -> str:
    """A whole number as General shows it: its digits up to 15 of them, else as
    :func:`general_text` shows the number the cell holds (a spreadsheet number is a double:
    python-calamine hands a whole one over as an ``int``, ``1234567890123456789`` for a cell
    holding 1234567890123456768 and showing ``1.23456789012346E+18``)."""
    if -_GENERAL_WHOLE < value < _GENERAL_WHOLE:
        return str(value)
    return general_text(float(value))


#: From here on General shows a whole number in scientific form (:data:`EXCEL_DIGITS` digits).
_GENERAL_WHOLE = 10**EXCEL_DIGITS


def datetime_text(value: datetime) -> str:
    """ISO date when the time is midnight (a plain date cell), else ``YYYY-MM-DD HH:MM:SS``."""
    if value.time() == time(0, 0) and value.tzinfo is None:
        return value.date().isoformat()
    return value.isoformat(sep=" ", timespec="seconds" if value.microsecond == 0 else "milliseconds")


def duration_text(value: timedelta) -> str:
    """A duration as Excel's ``[h]:mm:ss`` format shows it."""
    total = round(value.total_seconds())
    sign = "-" if total < 0 else ""
    hours, rest = divmod(abs(total), 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{sign}{hours}:{minutes:02d}:{seconds:02d}"


def time_text(value: time) -> str:
    """``13:05:00`` (milliseconds only when there are any)."""
    return value.isoformat(timespec="seconds" if value.microsecond == 0 else "milliseconds")


# Order matters: bool is an Integral, and datetime is a date.
_RENDERERS: tuple[tuple[type, Callable[[Any], str]], ...] = (
    (bool, lambda value: "TRUE" if value else "FALSE"),
    (Integral, lambda value: int_text(int(value))),
    (Real, lambda value: float_text(float(value))),
    (datetime, datetime_text),
    (date, date.isoformat),
    (time, time_text),
    (timedelta, duration_text),
)


# Exact-type lookups for the cell types calamine produces, before the general isinstance walk.
_BY_TYPE: dict[type, Callable[[Any], str]] = {
    str: str,
    int: int_text,
    float: float_text,
    bool: _RENDERERS[0][1],
    datetime: datetime_text,
}


def column_text(values: Sequence[object]) -> list[str]:
    """A whole column as text.

    Most golden-set columns are pure text, so one C-level type scan usually replaces a
    Python call per cell.
    """
    if set(map(type, values)) <= {str}:
        return cast("list[str]", list(values))
    return [cell_text(value) for value in values]
