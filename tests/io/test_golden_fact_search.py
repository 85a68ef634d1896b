"""The golden reader's one search for facts that may have an empty or hollow part, or text not
likely meant, never misses a fact the full check (:func:`_fact_problems`) reports: a fact it
does not find is not checked one by one."""

from __future__ import annotations

import re
import string
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from goldenlens.core.problems import Severity
from goldenlens.io.importing.columns import detect_golden_columns
from goldenlens.io.importing.golden_table import (
    _MAYBE_HOLLOW_PART,
    _UNLIKE_MEANT,
    _fact_problems,
    _maybe_unlike_meant,
    _suspect_facts,
    golden_from_table,
)
from goldenlens.io.sheets.raw_table import RawTable

_ARTICLE_LETTERS = "antheANTHE"
_KEPT = re.compile(f"[^\\s{re.escape(string.punctuation)}{_ARTICLE_LETTERS}]")


def test_every_other_character_keeps_a_letter_of_no_article_through_normalisation() -> None:
    """A character the search does not accept in a hollow part lower-cases to something that is
    neither punctuation nor a space nor a letter of an article, so it survives normalisation
    in a piece that is no article (whatever surrounds it)."""
    survivors = set(string.punctuation) | {" "} | set("anthe")
    wrong = [
        hex(code)
        for code in range(sys.maxunicode + 1)
        if _KEPT.fullmatch(chr(code)) and all(char in survivors for char in chr(code).lower())
    ]
    assert wrong == []


def test_the_search_counts_as_whitespace_everything_strip_removes() -> None:
    spaces = [chr(code) for code in range(sys.maxunicode + 1) if chr(code).isspace()]
    assert len(spaces) > 20
    assert all(re.fullmatch(r"\s", char) for char in spaces)


_PIECES = st.sampled_from(
    [
        "a", "an", "the", "A", "An", "THE", "tHe", "t.h.e", "a-n", "(the)", "an,", "at", "that",
        "net", "hen", "thea", "cat", "x", "1", "$", ".", "!!", "'", " ", "  ", "\n", "\t", "\xa0",
        "\u3000", "\u2028", "<OR>", "<AND>", "<", ">", "<OR", "AND>", "\x00", "İ", "ß", "é", "\uff21",
        "\u212a", "\u00c5", "ﬁ", "\u0301", "<or>", "< OR >", "<And>", " <OR> ", "\u202f", "\x1c", "\x0b",
    ]
)  # fmt: skip
_facts = st.lists(st.one_of(_PIECES, st.text(max_size=3)), max_size=10).map("".join)


@settings(max_examples=600, deadline=None)
@given(_facts)
def test_a_fact_with_a_problem_is_always_found(fact: str) -> None:
    if _fact_problems(fact):
        assert _MAYBE_HOLLOW_PART.search(fact) is not None or _UNLIKE_MEANT.search(fact) is not None


@settings(max_examples=600, deadline=None)
@given(_facts)
def test_the_quick_look_for_text_not_meant_is_the_pattern(fact: str) -> None:
    assert _maybe_unlike_meant(fact) == (_UNLIKE_MEANT.search(fact) is not None)


@settings(max_examples=150, deadline=None)
@given(st.lists(_facts, max_size=12))
def test_the_facts_found_together_hold_every_fact_with_a_problem(facts: list[str]) -> None:
    with_problem = {i for i, fact in enumerate(facts) if _fact_problems(fact)}
    assert with_problem <= _suspect_facts(facts)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(_facts, st.sampled_from(["ok", "", " "])), min_size=1, max_size=12))
def test_the_golden_set_reports_each_fact_problem_in_row_order(rows: list[tuple[str, str]]) -> None:
    """Every row's fact problem, computed here row by row, is reported at its row, in order."""
    header = ("id", "question", "answer", "fact")
    cells = tuple((f"q{n}", f"Question {n}?", answer, fact) for n, (fact, answer) in enumerate(rows))
    table = RawTable("g.csv", None, header, cells, tuple(range(2, len(cells) + 2)))
    golden, problems = golden_from_table(table, detect_golden_columns(header))
    assert [item.fact for item in golden.items] == [fact for fact, _answer in rows]
    expected = []
    for n, (fact, answer) in enumerate(rows):
        if not answer.strip():
            expected.append((n + 2, "answer", Severity.WARNING))
        expected += [(n + 2, "fact", severity) for _message, severity in _fact_problems(fact)]
    assert [(p.row, p.column, p.severity) for p in problems if p.row is not None] == expected


def test_the_usual_facts_are_not_looked_at_one_by_one() -> None:
    usual = [
        "August 3, 2024",
        "22.1 billion<OR>$22.1B",
        "May 26, 2017<AND>that",
        "net<AND>85%",
        "CEO of Amazon",
    ]
    assert _suspect_facts(usual) == set()
    hollow = ["ok", "the", "x<AND> <AND>y", "", "T.h.E<OR>cat", "a an the", "\n", "<OR>", "x<AND>!!"]
    assert _suspect_facts(hollow) == set(range(1, len(hollow)))


def test_text_fmeval_takes_literally_and_few_mean_is_a_warning_naming_the_cell() -> None:
    """A no-break space in "134.4 billion", ``<or>`` and ``Redmond <OR> Seattle`` scored
    Factual Knowledge 0 against "$134.4 billion", "Jassy" and "Seattle, WA" without a word (the
    golden row flagged ambiguous instead). The fact is kept as FMEval scores it; each is said."""
    facts = ["134.4\xa0billion", "Bezos<or>Jassy", "Redmond <OR> Seattle", "x< AND >y", "5\u202f%<OR>five"]
    header = ("id", "question", "answer", "fact")
    cells = tuple((f"q{n}", f"Question {n}?", "answer", fact) for n, fact in enumerate(facts))
    table = RawTable("g.csv", None, header, cells, tuple(range(2, len(cells) + 2)))
    golden, problems = golden_from_table(table, detect_golden_columns(header))
    assert [item.fact for item in golden.items] == facts
    said = [(p.row, p.column, p.severity, p.message) for p in problems]
    assert said == [
        (
            2,
            "fact",
            Severity.WARNING,
            "the fact '134.4<U+00A0>billion' holds a space-like character that is not a space "
            "(<U+00A0>): a response with a plain space there does not contain the fact. Replace it "
            "with a space unless it is meant.",
        ),
        (
            3,
            "fact",
            Severity.WARNING,
            "'<or>' in the fact 'Bezos<or>Jassy' is not a delimiter: FMEval splits a fact at '<OR>' "
            "and '<AND>' exactly (upper case, no spaces inside), so this fact is one text a response "
            "must hold whole. Write it so if alternatives or parts are meant.",
        ),
        (
            4,
            "fact",
            Severity.WARNING,
            "the fact 'Redmond <OR> Seattle' has a space beside '<OR>' or '<AND>': FMEval keeps it in "
            "the part it touches, so that part is found only with the space (' Seattle' is not in "
            "'Seattle, WA'). Remove the spaces unless they are meant.",
        ),
        (5, "fact", Severity.WARNING, said[3][3]),
        (6, "fact", Severity.WARNING, said[4][3]),
    ]
    assert said[3][3].startswith("'< AND >' in the fact 'x< AND >y' is not a delimiter")
    assert "(<U+202F>)" in said[4][3]
    assert _suspect_facts(["Bezos<OR>Jassy", "5%<AND>net", "134.4 billion"]) == set()


def test_a_fact_padded_by_its_number_format_is_kept_as_shown_and_said(tmp_path: Path) -> None:
    """Accounting formats pad a number with spaces (``_(``, ``_)``): LibreOffice shows the cell
    `` $1,234.50 `` (tests/io/number_formats/expected.csv), and so does the reader. FMEval keeps
    the spaces, so "It was $1,234.50." scored Factual Knowledge 0 and the question was flagged
    ambiguous, without a word: each such fact is now a warning naming its cell."""
    from openpyxl import Workbook

    from goldenlens.io.importing.input_files import read_golden

    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["id", "question", "answer", "fact"])
    formats = ["#,##0.00_)", '_("$"* #,##0.00_);_("$"* (#,##0.00);_("$"* "-"??_);_(@_)', "0.0%_)", "#,##0.00"]
    for n, (value, number_format) in enumerate(zip([1234.5, 1234.5, 0.11, 1234.5], formats, strict=True)):
        sheet.append([f"q{n}", "How much?", "It was that much.", value])
        sheet.cell(n + 2, 4).number_format = number_format
    path = tmp_path / "padded.xlsx"
    book.save(path)
    golden, problems = read_golden(path)
    assert [item.fact for item in golden.items] == ["1,234.50 ", " $1,234.50 ", "11.0% ", "1,234.50"]
    padded = [(p.row, p.column) for p in problems if "begins or ends with a space" in p.message]
    assert padded == [(2, "fact"), (3, "fact"), (4, "fact")]
