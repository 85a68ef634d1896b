"""Characters a spreadsheet does not show, and how messages show them.

Excel draws a zero-width space, a byte-order mark inside a cell or a no-break space like
nothing or like a plain space, so a header ``\\u200bquestion`` looks exactly like
``question``. A message that quoted such text as it is would show the analyst two identical
names and call them different; :func:`visible` writes each such character as ``<U+200B>``.
"""

from __future__ import annotations

import re

# Format characters (Unicode category Cf) a CSV or workbook cell may carry from the web, a PDF
# or a word processor: they draw nothing. Soft hyphen and the combining grapheme joiner too.
ZERO_WIDTH = (
    "\u00ad\u034f\u061c\u180e\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
    "\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff"
)
# Spaces other than U+0020 (category Zs): drawn as a space but compared as a different character.
ODD_SPACES = (
    "\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"
)
# Control characters other than tab and line breaks, and the Unicode line/paragraph separators.
_CONTROLS = "\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029"

_HIDDEN = re.compile(f"[{ZERO_WIDTH}{ODD_SPACES}{_CONTROLS}]")
ZERO_WIDTH_PATTERN = re.compile(f"[{ZERO_WIDTH}]")


def visible(text: str) -> str:
    """``text`` with every character Excel does not draw as itself written as ``<U+XXXX>``.

    ``visible("\\u200bquestion")`` → ``"<U+200B>question"``; ordinary text (tabs and line
    breaks included) is returned unchanged.
    """
    if _HIDDEN.search(text) is None:
        return text
    return _HIDDEN.sub(lambda found: f"<U+{ord(found.group()):04X}>", text)


def hidden_characters(text: str) -> list[str]:
    """The distinct hidden characters of ``text`` as ``<U+XXXX>``, in order of appearance."""
    return list(dict.fromkeys(f"<U+{ord(char):04X}>" for char in _HIDDEN.findall(text)))
