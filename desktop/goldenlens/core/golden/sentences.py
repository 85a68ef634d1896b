"""The one sentence splitter of the project (judge metrics, MiniCheck chunks, source chunks).

A sentence ends after ``.``, ``!`` or ``?`` (and any closing quote or bracket right after
it) when white space and then a capital letter, a digit, an opening quote or bracket, or a
currency sign follow; a line break always ends one. So ``$134.4 billion``, ``e.g. this`` and
``3.5 km`` stay whole, and the closing quote of ``He said "Hi."`` stays with its sentence.
The words are never changed: only the white space between sentences is dropped.
"""

from __future__ import annotations

import re

__all__ = ["split_sentences"]

_SENTENCE_END = re.compile(
    r"(?:(?<=[.!?])|(?<=[.!?][\"')\]\u2019\u201d]))\s+(?=[\"'(\[\u2018\u201c]?[A-Z0-9$€£])|\s*\n\s*"
)


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text`` in order, stripped, blank ones dropped."""
    return [part.strip() for part in _SENTENCE_END.split(text) if part.strip()]
