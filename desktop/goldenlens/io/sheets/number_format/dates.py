"""A serial under a date or time section as Excel shows it: Excel's 1900 date system (with
its fictitious 29 February 1900), day and month names, AM/PM, elapsed ``[h] [m] [s]`` and
fractions of a second."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal

from goldenlens.io.sheets.number_format.codes import Section, Token, UnsupportedFormatError, literal_text
from goldenlens.io.sheets.number_format.numbers import round_half_up

#: Days between day 0 of the 1900 and of the 1904 date system (Mac Excel's, ``date1904``).
DAYS_1900_TO_1904 = 1462
_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
# Serial 0 is 1900-01-00 and serial 60 the 29 February 1900 that Lotus 1-2-3 invented; from
# serial 61 on, day n is 1899-12-30 + n.
_EPOCH = datetime(1899, 12, 30)


def serial_to_datetime(serial: float) -> datetime:
    """The date and time of an Excel 1900-system serial (serial 60, 1900-02-29, is refused)."""
    if serial < 0:
        raise UnsupportedFormatError(f"the date serial {serial} is before 1900")
    day = math.floor(serial)
    if day == 60:
        raise UnsupportedFormatError("29 February 1900 does not exist (Excel's serial 60)")
    offset = 1 if day < 60 else 0
    try:
        return _EPOCH + timedelta(days=serial + offset)
    except OverflowError:
        # Beyond 9999-12-31: Excel shows #####.
        raise UnsupportedFormatError(f"the date serial {serial:g} is after the year 9999") from None


def datetime_to_serial(moment: datetime) -> float:
    """The Excel 1900-system serial of ``moment`` (the inverse of :func:`serial_to_datetime`)."""
    delta = moment - _EPOCH
    serial = delta.days + delta.seconds / 86400 + delta.microseconds / 86_400_000_000
    return serial - 1 if serial < 61 else serial


@dataclass(frozen=True, slots=True)
class _Clock:
    """A serial split into the fields a date format shows."""

    day: int
    hour: int
    minute: int
    second: int
    seconds_total: int
    fraction: str  # the shown fraction of a second, as digits


def _clock(serial: float, sub_second: int, elapsed_unit: int = 0) -> _Clock:
    # Units that are not shown are cut off, not rounded (12:29:59.9 under h:mm is 12:29), after
    # the product is taken to 15 digits so that binary noise (12:30 stored as 12:29:59.99999)
    # does not cut a whole unit. Shown fractions of a second round, unless rounding would
    # carry into the next second. An elapsed-time format ([h]:mm, [ss]) rounds to its smallest
    # unit instead (``elapsed_unit`` seconds). That is how LibreOffice shows times.
    exact = Decimal(f"{serial * 86400:.15g}")
    if elapsed_unit and not sub_second:
        exact = (exact / elapsed_unit).quantize(Decimal(1), rounding=ROUND_HALF_UP) * elapsed_unit
    seconds_total = int(exact.to_integral_value(rounding="ROUND_FLOOR"))
    fraction_text = ""
    if sub_second:
        fraction = exact - seconds_total
        rounded = round_half_up(fraction, sub_second)
        if rounded >= 1:
            rounded = fraction.quantize(Decimal(1).scaleb(-sub_second), rounding="ROUND_DOWN")
        fraction_text = f"{rounded:f}".partition(".")[2].ljust(sub_second, "0")[:sub_second]
    day, day_seconds = divmod(seconds_total, 86400)
    hour, rest = divmod(day_seconds, 3600)
    minute, second = divmod(rest, 60)
    return _Clock(day, hour, minute, second, seconds_total, fraction_text)


def _sub_second_digits(tokens: tuple[Token, ...]) -> int:
    """How many digits of a second the format shows (``ss.00`` → 2)."""
    for index, tok in enumerate(tokens):
        if tok.kind == "point" and index > 0 and tokens[index - 1].kind in {"date", "elapsed"}:
            return sum(1 for t in tokens[index + 1 :] if t.kind == "digit" and t.text == "0")
    return 0


def _elapsed_unit(tokens: tuple[Token, ...]) -> int:
    """For a format with an elapsed field, the seconds in its smallest shown unit; else 0."""
    if not any(t.kind == "elapsed" for t in tokens):
        return 0
    letters = {t.text[0] for t in tokens if t.kind in {"date", "elapsed"}}
    if "s" in letters:
        return 1
    return 60 if letters & {"m", "n"} else 3600


def render_date(section: Section, serial: float) -> str:
    """``serial`` (not negative) under a date or time ``section``."""
    tokens = section.tokens
    ampm = any(t.kind == "ampm" for t in tokens)
    sub_second = _sub_second_digits(tokens)
    clock = _clock(serial, sub_second, _elapsed_unit(tokens))
    out: list[str] = []
    skip_fraction = False
    for index, tok in enumerate(tokens):
        if skip_fraction and tok.kind == "digit":
            continue
        skip_fraction = False
        kind, text = tok.kind, tok.text
        if kind == "date":
            out.append(_date_field(text, clock, ampm))
        elif kind == "elapsed":
            seconds = clock.seconds_total
            total = {"h": seconds // 3600, "m": seconds // 60, "s": seconds}[text[0]]
            out.append(str(total).rjust(len(text), "0"))
        elif kind == "ampm":
            out.append(_ampm(text, clock.hour))
        elif kind == "point" and sub_second and tokens[index - 1].kind in {"date", "elapsed"}:
            out.append("." + clock.fraction)
            skip_fraction = True
        elif kind == "digit":
            raise UnsupportedFormatError("digit placeholders in a date format")
        else:
            out.append(literal_text(tok))
    return "".join(out)


def _date_field(text: str, clock: _Clock, ampm: bool) -> str:
    letter = text[0]
    width = min(len(text), 2)
    if letter == "h":
        shown = clock.hour % 12 or 12 if ampm else clock.hour
        return str(shown).rjust(width, "0")
    if letter == "n":
        return str(clock.minute).rjust(width, "0")
    if letter == "s":
        return str(clock.second).rjust(width, "0")
    if clock.day == 0:
        # Serial 0 is Excel's "1900-01-00", a Saturday; no real date has it.
        return _day_zero_field(text)
    return _calendar_field(text, serial_to_datetime(clock.day))


def _calendar_field(text: str, moment: datetime) -> str:
    letter, size = text[0], len(text)
    if letter in "ye":
        return f"{moment.year % 100:02d}" if size <= 2 and letter == "y" else f"{moment.year:04d}"
    if letter == "m":
        name = _MONTHS[moment.month - 1]
        return {1: str(moment.month), 2: f"{moment.month:02d}", 3: name[:3], 5: name[:1]}.get(size, name)
    if letter == "d":
        weekday = _DAYS[moment.weekday()]
        return {1: str(moment.day), 2: f"{moment.day:02d}", 3: weekday[:3]}.get(size, weekday)
    raise UnsupportedFormatError(f"unknown date field {text!r}")


def _day_zero_field(text: str) -> str:
    letter = text[0]
    if letter in "ye":
        return "00" if len(text) <= 2 and letter == "y" else "1900"
    if letter == "m":
        return {1: "1", 2: "01", 3: "Jan", 5: "J"}.get(len(text), "January")
    if letter == "d":
        return {1: "0", 2: "00", 3: "Sat"}.get(len(text), "Saturday")
    raise UnsupportedFormatError(f"unknown date field {text!r}")


def _ampm(text: str, hour: int) -> str:
    morning = hour < 12
    if len(text) == 5:
        return ("AM" if morning else "PM") if text[0].isupper() else ("am" if morning else "pm")
    return text[0] if morning else text[2]
