"""The C extension (``goldenlens.core.lexical._quac_ascii``) gives exactly what the Python reference
gives, and the reference is FMEval's own steps: its normalisation of ASCII text, and its
``row_values``, the seven lexical values of a row scored in one call.

The extension is optional (built where a C compiler is at hand); these tests skip without it,
and the rest of the suite then runs the Python steps. With it, every ASCII text a scorer meets
goes through C, so it is held here to the reference on any ASCII text: every control character,
whitespace ``str.split()`` knows and ``split(" ")`` does not, punctuation around and inside
articles, runs of spaces, empty text.
"""

from __future__ import annotations

import pytest
from core_paths import scoring_path
from core_strategies import single_operator_facts
from hypothesis import given, settings
from hypothesis import strategies as st

import fmeval_reference as ref
from goldenlens.core.lexical import batch as lexical_batch
from goldenlens.core.lexical import normalise
from goldenlens.core.lexical.scorer import LEXICAL_SCORE_NAMES, LexicalScorer

quac_ascii = pytest.importorskip(
    "goldenlens.core.lexical._quac_ascii", reason="the C extension was not built"
)

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
    assert quac_ascii.normalised(text) == expected[0]


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
    with pytest.raises(ValueError, match="ASCII"):
        quac_ascii.normalised("caf\u00e9")
    with pytest.raises(TypeError):
        quac_ascii.normalised_words(b"cat")  # type: ignore[arg-type]


def test_every_ascii_character_alone_and_between_words() -> None:
    for code in range(128):
        for text in (chr(code), f"the{chr(code)}cat", f"a {chr(code)} an", f"{chr(code)}THE{chr(code)}"):
            assert quac_ascii.normalised_words(text) == normalise.python_normalised_words(text), repr(text)
            assert quac_ascii.normalised(text) == ref.normalize_text_quac_protocol(text), repr(text)


# --- row_values: a row's seven values in one call -------------------------------------------

_FACT_PIECES = st.sampled_from(
    ["cat", "Cat", "the cat", "134.4 billion", "10,317,750,796", "a", "(an)", " dog ", "\n", "\t", "s",
     "\u0130", "\u212a", "caf\u00e9", "K", "k", "-", ""]
)  # fmt: skip
#: Facts of ASCII parts and of parts that are not ASCII (a lower-cased Kelvin sign is "k": no part
#: may be tested on its own text), joined by <OR>, <AND> or both.
_FACTS = st.one_of(
    single_operator_facts,
    st.lists(st.lists(_FACT_PIECES, min_size=1, max_size=3).map("".join), min_size=1, max_size=3).flatmap(
        lambda parts: st.sampled_from(["<OR>", "<AND>"]).map(lambda joiner: joiner.join(parts))
    ),
    st.tuples(_TEXTS, _TEXTS, _TEXTS).map(lambda parts: f"{parts[0]}<OR>{parts[1]}<AND>{parts[2]}"),
)
_ANSWERS = st.one_of(_TEXTS, st.lists(_TEXTS, min_size=2, max_size=3).map("<OR>".join))


def _python_values(response: str, answer: str, fact: str) -> tuple[float | None, ...]:
    """:meth:`LexicalScorer.values` with no C at all (normalisation in Python too)."""
    with scoring_path("python"):
        return LexicalScorer().values(response, answer, fact)


@settings(max_examples=3000, deadline=None)
@given(response=_TEXTS, answer=_ANSWERS, fact=_FACTS)
def test_row_values_are_the_python_values(response: str, answer: str, fact: str) -> None:
    arguments = LexicalScorer().ascii_arguments(answer, fact)
    expected = _python_values(response, answer, fact)
    if arguments is None:  # a score not scored: the row goes to Python
        assert None in expected
        return
    got = quac_ascii.row_values(response, *arguments)
    assert got == expected
    assert all(type(value) is float for value in got)


@settings(max_examples=1000, deadline=None)
@given(response=_TEXTS, answer=_ANSWERS, fact=single_operator_facts)
def test_row_values_are_fmevals_scores(response: str, answer: str, fact: str) -> None:
    """Independent of GoldenLens's Python steps: FMEval's algorithm, transcribed."""
    arguments = LexicalScorer().ascii_arguments(answer, fact)
    if arguments is None:
        return
    expected = ref.all_scores(response, answer, fact)
    got = dict(zip(LEXICAL_SCORE_NAMES, quac_ascii.row_values(response, *arguments), strict=True))
    assert got == expected


def test_row_values_by_hand() -> None:
    """Worked out on paper: response words {cat, sat, on, mat}, target words {cat, sat}."""
    arguments = LexicalScorer().ascii_arguments("A cat sat.", "cat<OR>dog")
    assert arguments is not None
    assert quac_ascii.row_values("The cat sat on the mat.", *arguments) == (
        1.0, 1.0, 2 / 3, 0.5, 1.0, 0.0, 0.0
    )  # fmt: skip
    # Two targets: each QA score is the best over them, on its own. "cat sat" against {cat}:
    # precision 1/2, recall 1; against {cat, sat, mat, on}: precision 1, recall 1/2.
    arguments = LexicalScorer().ascii_arguments(" Cat. <OR>cat sat mat on", "SAT<AND>mat")
    assert arguments is not None
    assert quac_ascii.row_values("cat sat", *arguments) == (0.0, 0.0, 2 / 3, 1.0, 1.0, 0.0, 0.0)
    assert quac_ascii.row_values(" Cat.\n", *arguments) == (0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0)
    assert quac_ascii.row_values("cat sat, on the mat", *arguments) == (1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0)


def test_a_part_that_is_not_ascii_is_in_no_ascii_response() -> None:
    """The Kelvin sign lower-cases to "k": the part is searched as lower-cased, never as typed."""
    for fact, found in (("\u212a", 1.0), ("\u0130", 0.0), ("caf\u00e9<OR>k", 1.0), ("caf\u00e9", 0.0)):
        arguments = LexicalScorer().ascii_arguments("cat", fact)
        assert arguments is not None
        assert quac_ascii.row_values("OK", *arguments)[0] == found, fact
        assert quac_ascii.row_values("OK", *arguments)[0] == _python_values("OK", "cat", fact)[0]


def test_rows_the_c_call_cannot_score_are_sent_to_python() -> None:
    scorer = LexicalScorer()
    assert scorer.ascii_arguments("caf\u00e9 au lait", "cat") is None  # the answer is not ASCII
    assert scorer.ascii_arguments("cat", "cat<OR>") is None  # an empty part: not scored
    assert scorer.ascii_arguments("cat", "the") is None  # normalises to nothing: quasi not scored
    assert LexicalScorer(multiset=True).ascii_arguments("cat", "cat") is None
    with pytest.raises(ValueError, match="ASCII"):
        quac_ascii.row_values("caf\u00e9", (("cat", "cat", "cat"),), (("cat",),), (("cat",),))
    with pytest.raises(ValueError, match="ASCII"):
        quac_ascii.row_values("cat", (("cat", "cat", "caf\u00e9"),), (("cat",),), (("cat",),))
    with pytest.raises(TypeError):
        quac_ascii.row_values("cat", (), (("cat",),), (("cat",),))  # no target
    with pytest.raises(TypeError):
        quac_ascii.row_values("cat", (("cat", "cat"),), (("cat",),), (("cat",),))  # not a triple
    with pytest.raises(TypeError):
        quac_ascii.row_values("cat", (("cat", "cat", "cat"),), ("cat",), (("cat",),))  # not groups


def test_a_batch_scores_its_usual_rows_in_one_c_call_each(monkeypatch: pytest.MonkeyPatch) -> None:
    """The speed of a run rests on it: an ASCII row is not normalised in Python objects."""
    calls: list[str] = []
    normalised: list[str] = []
    row_values = quac_ascii.row_values

    def counted(response: str, *arguments: object) -> tuple[float, ...]:
        calls.append(response)
        return row_values(response, *arguments)  # type: ignore[arg-type]

    def words(text: str) -> tuple[str, frozenset[str]]:
        normalised.append(text)
        return normalise.python_normalised_words(text)

    monkeypatch.setattr(quac_ascii, "row_values", counted)
    monkeypatch.setattr(lexical_batch, "normalised_words", words)
    rows = [("The cat sat.", "the cat<OR>a dog", "cat"), ("caf\u00e9", "the cat", "cat"), ("cat", "dog", "")]
    got = lexical_batch.batch_values(LexicalScorer(), rows)
    assert got == [_python_values(*row) for row in rows]
    assert calls == ["The cat sat."]
    assert normalised == ["caf\u00e9", "cat"]  # not ASCII; a fact not scored


@settings(max_examples=2000, deadline=None)
@given(_TEXTS)
def test_distinct_words_are_the_words_of_the_text_each_once_in_the_order_first_met(text: str) -> None:
    assert quac_ascii.distinct_words(text) == " ".join(dict.fromkeys(text.split()))


def test_distinct_words_take_ascii_text_only() -> None:
    assert quac_ascii.distinct_words("cat dog cat\x1fdog  bird") == "cat dog bird"
    with pytest.raises(ValueError, match="ASCII"):
        quac_ascii.distinct_words("caf\u00e9")


def _lower_contains_each(
    texts: list[str], words: tuple[str, ...], others: tuple[str, ...]
) -> list[bool | None]:
    """What ``lower_contains_each`` gives, in Python."""
    return [
        None
        if not text.isascii()
        else any(word in text.lower() for word in words) and any(word in text.lower() for word in others)
        for text in texts
    ]


def test_lower_contains_each_tests_both_word_lists_in_each_lower_cased_text() -> None:
    words, others = ("know", "does not"), ("no", "n't")
    texts = [
        "I don't KNOW.",
        "It Does Not INCLUDE that",
        "It does not say",
        "It does say",
        "",
        "caf\u00e9 no",
    ]
    assert quac_ascii.lower_contains_each(texts, words, others) == [True, True, True, False, False, None]
    assert quac_ascii.lower_contains_each(["x", ""], ("",), ("",)) == [True, True]  # "" is in every text
    assert quac_ascii.lower_contains_each(["x"], ("x",), ()) == [False]  # no word of the others
    assert quac_ascii.lower_contains_each(["OK"], ("\u212a", "K"), ("",)) == [False]  # words are not lowered
    assert quac_ascii.lower_contains_each(["no"], ("nope",), ("no",)) == [False]  # a word past the end
    assert quac_ascii.lower_contains_each([], words, others) == []
    with pytest.raises(TypeError):
        quac_ascii.lower_contains_each(("a tuple",), words, others)
    with pytest.raises(TypeError):
        quac_ascii.lower_contains_each([b"bytes"], words, others)


_WORDS = st.tuples(*[st.text("abnot' ", max_size=4)] * 3) | st.tuples(st.text("aB\u00e9", max_size=2))


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.text("aAbBnNoOtT' \u00e9", max_size=12), max_size=6), _WORDS, _WORDS)
def test_lower_contains_each_is_the_python_substring_test(
    texts: list[str], words: tuple[str, ...], others: tuple[str, ...]
) -> None:
    assert quac_ascii.lower_contains_each(texts, words, others) == _lower_contains_each(texts, words, others)
