"""Cells whose text is probably not what the analyst meant: mojibake and invisible characters.

*Mojibake*: UTF-8 text that was once decoded as Windows-1252, so ``naïve`` became
``naÃ¯ve`` — a UTF-8 file opened and saved again as ANSI, or a Windows-1252 file into which
UTF-8 text was pasted (the file then mixes both encodings). Such a response loses every
match on the damaged words, without a word said. It is detected in two steps, because a file
may have 100,000 rows: a regular expression searches each column (joined, once; ASCII
columns are skipped outright) for the pairs the damage always leaves (a character from ``Â``
to ``ô`` followed by one that a UTF-8 continuation byte becomes in Windows-1252); only the
cells it finds go to ``ftfy``'s badness test, which tells real mojibake from legitimate text
such as ``café»``. A warning names the row and column and says what ``ftfy.fix_encoding``
thinks the text should read; the text itself is never changed, because only the analyst can
say what it should be.

*Invisible characters*: zero-width spaces, joiners, soft hyphens or byte-order marks inside a
cell. Excel draws nothing for them, but they count in the scores (``CEO\\u200b`` is not the
word ``CEO``), so each such cell is a warning showing them as ``<U+200B>``.

At most :data:`MAX_LISTED` cells of each kind are listed; the rest are counted in one warning.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from itertools import compress
from operator import itemgetter, not_

from goldenlens.core.problems import Problem, Severity
from goldenlens.io.sheets.raw_table import RawTable
from goldenlens.io.sheets.visible_text import ZERO_WIDTH_PATTERN, hidden_characters, visible

MAX_LISTED = 20
# What the bytes 0x80-0xBF (UTF-8 continuation bytes) become when read as Windows-1252 (or as
# Latin-1, for the five bytes Windows-1252 leaves undefined).
_CONTINUATIONS = "".join(
    bytes([byte]).decode("cp1252", errors="ignore") or chr(byte) for byte in range(0x80, 0xC0)
)
# A UTF-8 lead byte (0xC2-0xF4) read as Windows-1252 is a character from Â to ô.
_MOJIBAKE_PAIR = re.compile(f"[\u00c2-\u00f4][{re.escape(_CONTINUATIONS)}]")
_CONTEXT = 30  # characters of context either side of the first suspect character


def suspect_text_problems(table: RawTable) -> list[Problem]:
    """Warnings for cells (and header names) holding mojibake or invisible characters."""
    mojibake: list[tuple[int, str, str]] = []
    invisible: list[tuple[int, str, str]] = []
    for row, column, text in _suspect_cells(table):
        if _MOJIBAKE_PAIR.search(text) is not None and _is_bad(text):
            mojibake.append((row, column, text))
        if ZERO_WIDTH_PATTERN.search(text) is not None:
            invisible.append((row, column, text))
    mojibake.sort(key=lambda found: found[0])  # row order across columns (the sort is stable)
    invisible.sort(key=lambda found: found[0])
    problems = [_mojibake(table, row, column, text) for row, column, text in mojibake[:MAX_LISTED]]
    problems += [_invisible(table, row, column, text) for row, column, text in invisible[:MAX_LISTED]]
    for found, what in ((mojibake, "mojibake"), (invisible, "invisible characters")):
        if len(found) > MAX_LISTED:
            problems.append(_more(table, found[MAX_LISTED:], what))
    return problems


def _suspect_cells(table: RawTable) -> Iterator[tuple[int, str, str]]:
    """(row, column, text) of the cells the quick patterns flag, in row order per column."""
    for name in table.header:
        if _is_suspect(name):
            yield table.header_row, name, name
    for position, name in enumerate(table.header):
        values = list(map(itemgetter(position), table.rows))
        # ASCII text (ids, numbers, most English) cannot hold either, and a string knows
        # whether it is ASCII without a scan: only the other cells are searched, first joined
        # (one pass settles almost every column; two plain patterns are ~2x faster than one
        # alternation). One curly quote in a 17 MB column made it all searched (0.2 s).
        others = list(compress(range(len(values)), map(not_, map(str.isascii, values))))
        if not others or not _is_suspect("\n".join(map(values.__getitem__, others))):
            continue
        for index in others:
            if _is_suspect(values[index]):
                yield table.row_numbers[index], name, values[index]


def _is_bad(text: str) -> bool:
    """``ftfy``'s badness test, imported the first time a cell needs it: most files have no
    cell the quick pattern flags, and importing ftfy costs about 0.1 s of every start."""
    from ftfy.badness import is_bad

    return bool(is_bad(text))


def _is_suspect(text: str) -> bool:
    if text.isascii():
        return False
    return _MOJIBAKE_PAIR.search(text) is not None or ZERO_WIDTH_PATTERN.search(text) is not None


def _mojibake(table: RawTable, row: int, column: str, text: str) -> Problem:
    before, excerpt, after = _excerpt(text, _MOJIBAKE_PAIR)
    from ftfy import fix_encoding  # see _is_bad

    fixed = fix_encoding(excerpt)
    shown = visible(before + excerpt + after)
    if table.encoding == "cp1252":
        what = (
            f"'{shown}' looks like UTF-8 text in a file read as Windows-1252 (the file mixes two encodings)"
        )
    else:
        what = f"'{shown}' looks like mojibake (UTF-8 text once read as Windows-1252)"
    should = f"; it probably should read '{visible(before + fixed + after)}'" if fixed != excerpt else ""
    return table.problem(
        f"{what}{should}. The text is kept as it is: correct the file and import it again.",
        Severity.WARNING,
        row=row,
        column=column,
    )


def _invisible(table: RawTable, row: int, column: str, text: str) -> Problem:
    before, excerpt, after = _excerpt(text, ZERO_WIDTH_PATTERN)
    return table.problem(
        f"the text holds characters Excel does not show ({', '.join(hidden_characters(text))}): "
        f"'{visible(before + excerpt + after)}'. They are kept and count in the scores; remove them "
        "if they are not meant.",
        Severity.WARNING,
        row=row,
        column=column,
    )


def _more(table: RawTable, rest: Sequence[tuple[int, str, str]], what: str) -> Problem:
    rows = sorted({row for row, _, _ in rest})
    return table.problem(
        f"{len(rest)} more cells hold {what} (rows {rows[0]} to {rows[-1]}); only the first "
        f"{MAX_LISTED} are listed.",
        Severity.WARNING,
    )


def _excerpt(text: str, pattern: re.Pattern[str]) -> tuple[str, str, str]:
    """About :data:`_CONTEXT` characters either side of ``pattern``'s first match, cut at
    spaces, with whitespace collapsed: (``"…"`` or ``""``, the excerpt, ``"…"`` or ``""``)."""
    flat = " ".join(text.split())
    found = pattern.search(flat)
    if found is None or len(flat) <= 2 * _CONTEXT + 10:
        return "", flat, ""
    start = flat.rfind(" ", 0, max(found.start() - _CONTEXT, 0)) + 1
    end = flat.find(" ", found.end() + _CONTEXT)
    end = len(flat) if end < 0 else end
    return ("…" if start > 0 else ""), flat[start:end], ("…" if end < len(flat) else "")
