"""CSV cells a spreadsheet shows as the text they hold (OWASP's "CSV injection").

Excel, LibreOffice and Google Sheets read a CSV cell that begins with ``=``, ``+``, ``-`` or
``@`` as a formula (``=cmd|' /C calc'!A0`` runs a program in older Excel), and a tab or
carriage return ahead of one is skipped before that test. As OWASP recommends, such a text cell
is written with a leading apostrophe, which the spreadsheet shows as text and hides. Only text
is neutralised: a number (a score of -0.5) is written as the number it is, and a file that
GoldenLens reads back keeps the columns it matches exactly (see the README, "CSV and
spreadsheets").
"""

from __future__ import annotations

from typing import Final

#: The first characters that make a spreadsheet take a CSV cell for a formula.
FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r")


def neutralised(text: str) -> str:
    """``text`` as a CSV cell a spreadsheet shows as text (a leading apostrophe before a
    formula's first character)."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text
