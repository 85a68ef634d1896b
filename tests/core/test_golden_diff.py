"""Golden-set diffs and word highlights: tables of expected values worked out by hand."""

from __future__ import annotations

from dataclasses import replace

import pytest

from goldenlens.core.golden.diff import (
    ROW_ADDED,
    ROW_REMOVED,
    FieldChange,
    Segment,
    change_lines,
    diff_golden,
    word_diff,
)
from goldenlens.core.inputs import GoldenItem

Q1 = GoldenItem("q1", "What were net sales?", "Net sales were $134.4 billion.", "134.4 billion", "", 2)
Q2 = GoldenItem("q2", "Who is the CFO?", "Brian Olsavsky is the CFO.", "Brian Olsavsky", "check", 3)
Q3 = GoldenItem("q3", "Which segment grew?", "AWS grew 12 percent.", "AWS", "", 4)

# (before, after, expected added ids, removed ids, {changed id: [(field, before, after)]})
CASES = [
    ("identical", [Q1, Q2], [Q1, Q2], [], [], {}),
    ("moved rows are no change", [Q1, Q2], [replace(Q2, source_row=9), Q1], [], [], {}),
    ("one row added at the end", [Q1], [Q1, Q2], ["q2"], [], {}),
    ("one row removed", [Q1, Q2, Q3], [Q1, Q3], [], ["q2"], {}),
    (
        "fact and notes edited",
        [Q1, Q2],
        [Q1, GoldenItem("q2", Q2.question, Q2.answer, "Brian T. Olsavsky", "title checked", 3)],
        [],
        [],
        {"q2": [("fact", "Brian Olsavsky", "Brian T. Olsavsky"), ("notes", "check", "title checked")]},
    ),
    (
        "a renamed id is one removed and one added",
        [Q1, Q2],
        [Q1, GoldenItem("q2b", Q2.question, Q2.answer, Q2.fact, Q2.notes, 3)],
        ["q2b"],
        ["q2"],
        {},
    ),
    (
        "whitespace counts",
        [Q3],
        [GoldenItem("q3", Q3.question, "AWS grew 12 percent. ", Q3.fact, "", 4)],
        [],
        [],
        {"q3": [("answer", "AWS grew 12 percent.", "AWS grew 12 percent. ")]},
    ),
    ("from the empty set", [], [Q1, Q2], ["q1", "q2"], [], {}),
    ("to the empty set", [Q1, Q2], [], [], ["q1", "q2"], {}),
]


@pytest.mark.parametrize(
    ("name", "before", "after", "added", "removed", "changed"), CASES, ids=[c[0] for c in CASES]
)
def test_diff_golden(
    name: str,
    before: list[GoldenItem],
    after: list[GoldenItem],
    added: list[str],
    removed: list[str],
    changed: dict[str, list[tuple[str, str, str]]],
) -> None:
    diff = diff_golden(before, after)
    assert [i.id for i in diff.added] == added
    assert [i.id for i in diff.removed] == removed
    assert {r.question_id: [(c.field, c.before, c.after) for c in r.changes] for r in diff.changed} == changed
    assert diff.is_empty == (not added and not removed and not changed)


def test_summary_and_json_and_change_lines() -> None:
    after = [GoldenItem("q1", Q1.question, "Net sales were $134.4B.", "134.4 billion<OR>$134.4B", "", 2), Q3]
    diff = diff_golden([Q1, Q2], after)
    assert diff.summary() == "1 added, 1 removed, 1 changed (2 fields)"
    assert diff_golden([Q1], [Q1]).summary() == "no changes"
    assert diff.as_dict()["changed"] == [
        {
            "id": "q1",
            "changes": [
                {"field": "answer", "before": Q1.answer, "after": "Net sales were $134.4B."},
                {"field": "fact", "before": "134.4 billion", "after": "134.4 billion<OR>$134.4B"},
            ],
        }
    ]
    assert diff.as_dict()["added"] == [
        {"id": "q3", "question": Q3.question, "answer": Q3.answer, "fact": "AWS", "notes": ""}
    ]
    assert change_lines(diff) == [
        ("q3", ROW_ADDED, "", "Which segment grew?"),
        ("q2", ROW_REMOVED, "Who is the CFO?", ""),
        ("q1", "answer", Q1.answer, "Net sales were $134.4B."),
        ("q1", "fact", "134.4 billion", "134.4 billion<OR>$134.4B"),
    ]
    assert diff.changed[0].changes[0] == FieldChange("answer", Q1.answer, "Net sales were $134.4B.")


def _marked(segments: tuple[Segment, ...]) -> str:
    """Changed text in [brackets], as a reader would mark it by hand."""
    return "".join(f"[{s.text}]" if s.changed else s.text for s in segments)


# (before, after, before marked, after marked). A word is a run of letters and digits ("4B" is
# one word, "$" and "." are marks of their own), so "134.4B" against "134.4 billion" differs
# from the "4" on.
WORDS = [
    ("the CFO", "the CFO", "the CFO", "the CFO"),
    (
        "Net sales were $134.4 billion.",
        "Net sales were $134.4B.",
        "Net sales were $134.[4 billion].",
        "Net sales were $134.[4B].",
    ),
    ("AWS grew fastest", "AWS segment grew fastest", "AWS grew fastest", "AWS[ segment] grew fastest"),
    ("Brian Olsavsky", "Andy Jassy", "[Brian Olsavsky]", "[Andy Jassy]"),
    ("a b c d", "a x y d", "a [b c] d", "a [x y] d"),
    ("", "new text", "", "[new text]"),
    ("old text", "", "[old text]", ""),
]


@pytest.mark.parametrize(("before", "after", "left", "right"), WORDS)
def test_word_diff_marks_the_changed_words(before: str, after: str, left: str, right: str) -> None:
    old, new = word_diff(before, after)
    assert (_marked(old), _marked(new)) == (left, right)
    assert "".join(s.text for s in old) == before
    assert "".join(s.text for s in new) == after
