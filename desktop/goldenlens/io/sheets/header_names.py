"""Header names as the analyst sees them: invisible characters ignored, and reported visibly.

A header copied from a web page or a PDF often carries a zero-width space, a byte-order mark
or a no-break space (``\\u200bquestion``, ``answer\\u00a0``). Excel shows ``question`` and
``answer``, so the columns must match as those names do: zero-width characters are removed,
odd spaces become plain spaces, and surrounding spaces are stripped (they are invisible in
Excel too, so never meant). Each name that changed beyond the plain strip is noted, with its
invisible characters written as ``<U+XXXX>`` (see :mod:`goldenlens.io.sheets.visible_text`).
"""

from __future__ import annotations

from collections.abc import Sequence

from goldenlens.core.problems import Problem, Severity
from goldenlens.io.importing.columns import column_letter
from goldenlens.io.sheets.visible_text import ODD_SPACES, ZERO_WIDTH, hidden_characters, visible

_CLEAN = str.maketrans({**dict.fromkeys(ZERO_WIDTH), **dict.fromkeys(ODD_SPACES, " ")})


def clean_header_name(cell: str) -> str:
    """``'\\u200bquestion '`` → ``'question'``: the header name columns are matched by."""
    return cell.translate(_CLEAN).strip()


def header_name_problems(
    file: str, sheet: str | None, cells: Sequence[str], header_row: int
) -> list[Problem]:
    """An INFO note for each header cell whose name had invisible characters removed."""
    problems: list[Problem] = []
    for index, cell in enumerate(cells):
        name = clean_header_name(cell)
        if name == cell.strip():
            continue
        hidden = ", ".join(hidden_characters(cell))
        problems.append(
            Problem(
                file,
                f"the header '{visible(cell)}' (column {column_letter(index)}) holds invisible "
                f"characters ({hidden}); they are ignored and the column is read as '{name}'.",
                Severity.INFO,
                sheet=sheet,
                row=header_row,
                column=name or None,
            )
        )
    return problems
