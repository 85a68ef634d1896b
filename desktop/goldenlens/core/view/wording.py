"""How counts are worded to people, the same in every view and report."""

from __future__ import annotations


def plural(count: int, noun: str) -> str:
    """``1 question``, ``3 questions`` (nouns that take a plain ``s``)."""
    return f"{count} {noun}{'' if count == 1 else 's'}"
