"""How the golden history is cut into versions: tables of histories and the versions they make."""

from __future__ import annotations

import pytest

from goldenlens.core.golden.versions import (
    SET_CREATED,
    GoldenVersion,
    HistoryEntry,
    HistoryMark,
    UnknownVersionError,
    VersionBreaks,
    build_versions,
    change_log,
    check_version_name,
    point_at,
    resolve_version,
    state_at,
    version_containing,
    version_spans,
)
from goldenlens.core.inputs import GoldenItem

DAY = "2026-12-01T"


def _item(item_id: str, fact: str = "f", question: str = "") -> GoldenItem:
    return GoldenItem(item_id, question or f"question {item_id}?", f"answer {item_id}", fact)


def _entries(*rows: tuple[str, str, str, str, str]) -> list[HistoryEntry]:
    """(time hh:mm:ss, action, item id, fact, reviewer-or-source) per entry; ids 1, 2, ..."""
    out = []
    for number, (clock, action, item_id, fact, who) in enumerate(rows, start=1):
        imported = action == "import" or who.endswith(".xlsx")
        out.append(
            HistoryEntry(
                number,
                _item(item_id, fact),
                action,
                f"{DAY}{clock}.000+00:00",
                reviewer="" if imported else who,
                source=who if imported else "",
            )
        )
    return out


IMPORT = [
    ("09:00:00", "import", "q1", "a", "golden.xlsx"),
    ("09:00:00", "import", "q2", "b", "golden.xlsx"),
    ("09:00:00", "import", "q3", "c", "golden.xlsx"),
]

# (name, history, breaks, expected [(first id, last id, kind, who, rows, changes)])
CASES = [
    ("one import", IMPORT, VersionBreaks(), [(1, 3, "import", "import golden.xlsx", 3, 3)]),
    (
        "edits by one reviewer within the gap are one session",
        [*IMPORT, ("09:10:00", "edit", "q1", "a2", "ana"), ("09:35:00", "edit", "q2", "b2", "ana")],
        VersionBreaks(),
        [(1, 3, "import", "import golden.xlsx", 3, 3), (4, 5, "edit", "ana", 3, 2)],
    ),
    (
        "more than 30 minutes between two edits starts a new session",
        [*IMPORT, ("09:10:00", "edit", "q1", "a2", "ana"), ("09:40:01", "edit", "q2", "b2", "ana")],
        VersionBreaks(),
        [
            (1, 3, "import", "import golden.xlsx", 3, 3),
            (4, 4, "edit", "ana", 3, 1),
            (5, 5, "edit", "ana", 3, 1),
        ],
    ),
    (
        "exactly 30 minutes is still the same session",
        [*IMPORT, ("09:10:00", "edit", "q1", "a2", "ana"), ("09:40:00", "edit", "q2", "b2", "ana")],
        VersionBreaks(),
        [(1, 3, "import", "import golden.xlsx", 3, 3), (4, 5, "edit", "ana", 3, 2)],
    ),
    (
        "another reviewer starts a new session",
        [*IMPORT, ("09:10:00", "edit", "q1", "a2", "ana"), ("09:11:00", "edit", "q2", "b2", "ben")],
        VersionBreaks(),
        [
            (1, 3, "import", "import golden.xlsx", 3, 3),
            (4, 4, "edit", "ana", 3, 1),
            (5, 5, "edit", "ben", 3, 1),
        ],
    ),
    (
        "a run started between two edits ends the session",
        [*IMPORT, ("09:10:00", "edit", "q1", "a2", "ana"), ("09:11:00", "edit", "q2", "b2", "ana")],
        VersionBreaks(after_ids=frozenset({4})),
        [
            (1, 3, "import", "import golden.xlsx", 3, 3),
            (4, 4, "edit", "ana", 3, 1),
            (5, 5, "edit", "ana", 3, 1),
        ],
    ),
    (
        "an import that changed nothing ends the session",
        [*IMPORT, ("09:10:00", "edit", "q1", "a2", "ana"), ("09:12:00", "edit", "q2", "b2", "ana")],
        VersionBreaks(times=(f"{DAY}09:11:00.000+00:00",)),
        [
            (1, 3, "import", "import golden.xlsx", 3, 3),
            (4, 4, "edit", "ana", 3, 1),
            (5, 5, "edit", "ana", 3, 1),
        ],
    ),
    (
        "a second import is its own version; additions, deletions and an undone edit",
        [
            *IMPORT,
            ("10:00:00", "import", "q2", "b3", "golden-v2.xlsx"),
            ("10:00:00", "delete", "q3", "c", "golden-v2.xlsx"),
            ("10:05:00", "add", "q9", "z", "ana"),
            ("10:06:00", "edit", "q1", "a2", "ana"),
            ("10:07:00", "edit", "q1", "a", "ana"),  # undone: no net change of q1
            ("10:08:00", "delete", "q2", "b3", "ana"),
        ],
        VersionBreaks(),
        [
            (1, 3, "import", "import golden.xlsx", 3, 3),
            (4, 5, "import", "import golden-v2.xlsx", 2, 2),
            (6, 9, "edit", "ana", 2, 2),
        ],
    ),
    (
        "two imports of different files at the same moment are two versions",
        [*IMPORT[:1], ("09:00:00", "import", "q2", "b", "other.xlsx")],
        VersionBreaks(),
        [(1, 1, "import", "import golden.xlsx", 1, 1), (2, 2, "import", "import other.xlsx", 2, 1)],
    ),
    ("no history, no versions", [], VersionBreaks(), []),
]


@pytest.mark.parametrize(("name", "rows", "breaks", "expected"), CASES, ids=[c[0] for c in CASES])
def test_versions_from_history(
    name: str,
    rows: list[tuple[str, str, str, str, str]],
    breaks: VersionBreaks,
    expected: list[tuple[int, int, str, str, int, int]],
) -> None:
    versions = build_versions(_entries(*rows), breaks)
    assert [(v.first_id, v.last_id, v.kind, v.who, v.rows, v.changes) for v in versions] == expected
    assert [v.number for v in versions] == list(range(1, len(expected) + 1))


def test_names_break_a_session_and_label_the_version() -> None:
    history = _entries(
        *IMPORT, ("09:10:00", "edit", "q1", "a2", "ana"), ("09:11:00", "edit", "q2", "b2", "ana")
    )
    versions = build_versions(history, VersionBreaks(after_ids=frozenset({4}), names={4: "first pass"}))
    assert [(v.number, v.last_id, v.name, v.label) for v in versions] == [
        (1, 3, "", "v1"),
        (2, 4, "first pass", 'v2 "first pass"'),
        (3, 5, "", "v3"),
    ]


def test_state_at_replays_the_history() -> None:
    history = _entries(
        *IMPORT,
        ("10:00:00", "edit", "q2", "b2", "ana"),
        ("10:01:00", "delete", "q1", "a", "ana"),
        ("10:02:00", "add", "q4", "d", "ana"),
    )
    assert state_at(history, 0) == []
    assert [(i.id, i.fact) for i in state_at(history, 3)] == [("q1", "a"), ("q2", "b"), ("q3", "c")]
    assert [(i.id, i.fact) for i in state_at(history, 4)] == [("q1", "a"), ("q2", "b2"), ("q3", "c")]
    assert [(i.id, i.fact) for i in state_at(history, 6)] == [("q2", "b2"), ("q3", "c"), ("q4", "d")]


def test_point_at_and_version_containing() -> None:
    history = _entries(*IMPORT, ("10:00:00", "edit", "q2", "b2", "ana"))
    assert point_at(history, f"{DAY}08:59:59.999+00:00") == 0
    assert point_at(history, f"{DAY}09:00:00.000+00:00") == 3
    assert point_at(history, f"{DAY}11:00:00.000+00:00") == 4
    versions = build_versions(history, VersionBreaks())
    assert version_containing(versions, 2) == versions[0]
    assert version_containing(versions, 4) == versions[1]
    assert version_containing(versions, 0) is None


def _versions(*names: str) -> list[GoldenVersion]:
    return [GoldenVersion(n, "edit", n, n, "", "", name=name) for n, name in enumerate(names, start=1)]


@pytest.mark.parametrize(
    ("ref", "number"),
    [("1", 1), ("v2", 2), ("V3", 3), ("0", 0), ("latest", 3), ("reviewed", 2), (" reviewed ", 2)],
)
def test_resolve_version(ref: str, number: int) -> None:
    assert resolve_version(_versions("", "reviewed", ""), ref) == number


@pytest.mark.parametrize("ref", ["4", "v9", "-1", "draft", ""])
def test_resolve_version_names_what_there_is(ref: str) -> None:
    with pytest.raises(UnknownVersionError, match=r'versions: 1 to 3; names: "reviewed"'):
        resolve_version(_versions("", "reviewed", ""), ref)


@pytest.mark.parametrize(
    ("name", "error"),
    [("  ", "needs a name"), ("12", "reads as"), ("v3", "reads as"), ("latest", "reads as")],
)
def test_version_names_that_cannot_be_told_from_numbers_are_refused(name: str, error: str) -> None:
    with pytest.raises(ValueError, match=error):
        check_version_name(name)
    assert check_version_name(" as reviewed ") == "as reviewed"


def test_change_log_lists_net_changes_per_version() -> None:
    history = _entries(
        *IMPORT,
        ("10:00:00", "import", "q2", "b3", "golden-v2.xlsx"),
        ("10:00:00", "delete", "q3", "c", "golden-v2.xlsx"),
        ("10:05:00", "add", "q9", "z", "ana"),
        ("10:06:00", "edit", "q1", "a2", "ana"),
        ("10:07:00", "edit", "q1", "a", "ana"),
        ("10:08:00", "edit", "q2", "b4", "ana"),
    )
    versions = build_versions(history, VersionBreaks(names={9: "curated"}, after_ids=frozenset({9})))
    rows = [
        (r.version, r.when, r.who, r.question_id, r.field, r.before, r.after)
        for r in change_log(history, versions)
    ]
    assert rows == [
        ("v1", "2026-12-01 09:00 UTC", "import golden.xlsx", "", SET_CREATED, "", "3 rows"),
        ("v2", "2026-12-01 10:00 UTC", "import golden-v2.xlsx", "q3", "row removed", "question q3?", ""),
        ("v2", "2026-12-01 10:00 UTC", "import golden-v2.xlsx", "q2", "fact", "b", "b3"),
        ('v3 "curated"', "2026-12-01 10:05 UTC", "ana", "q9", "row added", "", "question q9?"),
        ('v3 "curated"', "2026-12-01 10:08 UTC", "ana", "q2", "fact", "b3", "b4"),
    ]


@pytest.mark.parametrize(("name", "rows", "breaks", "expected"), CASES, ids=[c[0] for c in CASES])
def test_marks_alone_cut_the_same_versions(
    name: str,
    rows: list[tuple[str, str, str, str, str]],
    breaks: VersionBreaks,
    expected: list[tuple[int, int, str, str, int, int]],
) -> None:
    marks = [
        HistoryMark(e.version_id, e.item.id, e.action, e.changed_at, e.reviewer, e.source)
        for e in _entries(*rows)
    ]
    assert version_spans(marks, breaks) == [(first, last) for first, last, *_ in expected]
