"""The C normalisation of ASCII text (``goldenlens.core._quac_ascii``) gives exactly what the
Python reference gives, and the reference is FMEval's own steps.

The extension is optional (built where a C compiler is at hand); these tests skip without it,
and the rest of the suite then runs the Python steps. With it, every ASCII text a scorer meets
goes through C, so it is held here to the reference on any ASCII text: every control character,
whitespace ``str.split()`` knows and ``split(" ")`` does not, punctuation around and inside
articles, runs of spaces, empty text.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fmeval_reference as ref
from goldenlens.core import normalise

quac_ascii = pytest.importorskip("goldenlens.core._quac_ascii", reason="the C extension was not built")

_ASCII = "".join(map(chr, range(128)))
_PIECES = st.sampled_from(
    ["the", "The", "THE", "a", "A", "an", "An", "cat", "Cat.", "134.4", "10,317,750,796", " ", "  ",
     "\n", "\t", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f", "\x00", "\x7f", "\nthe ",
     " the\t", "(an)", "a.", ".a", "t.h.e", "a-n", ", ", "''", "\x01", ""]
)  # fmt: skip
_TEXTS = st.one_of(st.text(_ASCII, max_size=40), st.lists(_PIECES, max_size=20).map("".join))


@settings(max_examples=3000, deadline=None)
@given(_TEXTS)
def test_c_normalisation_is_the_python_reference(text: str) -> None:
    expected = normalise.python_normalised_words(text)
    got = quac_ascii.normalised_words(text)
    assert got == expected
    assert type(got[1]) is frozenset
    assert type(got[0]) is str


@settings(max_examples=500, deadline=None)
@given(_TEXTS)
def test_c_normalisation_is_fmeval_normalisation(text: str) -> None:
    """Independent of GoldenLens's Python steps: FMEval's function, transcribed."""
    normalised, words = quac_ascii.normalised_words(text)
    assert normalised == ref.normalize_text_quac_protocol(text)
    assert words == frozenset(normalised.split())


def test_scoring_uses_c_for_ascii_text_and_python_for_the_rest(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    def counted(text: str) -> tuple[str, frozenset[str]]:
        calls.append(text)
        return quac_ascii.normalised_words(text)

    monkeypatch.setattr(normalise, "_ascii_normalised_words", counted)
    assert normalise.normalised_words("The cat sat.") == ("cat sat", frozenset({"cat", "sat"}))
    accented = normalise.normalised_words("Caf\u00e9 au lait")
    assert accented == ("caf\u00e9 au lait", frozenset({"caf\u00e9", "au", "lait"}))
    assert calls == ["The cat sat."]


def test_other_text_is_refused() -> None:
    with pytest.raises(ValueError, match="ASCII"):
        quac_ascii.normalised_words("caf\u00e9")
    with pytest.raises(TypeError):
        quac_ascii.normalised_words(b"cat")  # type: ignore[arg-type]


def test_every_ascii_character_alone_and_between_words() -> None:
    for code in range(128):
        for text in (chr(code), f"the{chr(code)}cat", f"a {chr(code)} an", f"{chr(code)}THE{chr(code)}"):
            assert quac_ascii.normalised_words(text) == normalise.python_normalised_words(text), repr(text)
