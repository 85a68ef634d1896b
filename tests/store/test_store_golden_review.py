"""``store.golden_review``: the reviewer's decisions on the judge's golden-review verdicts, in
the table project format 4 adds, and the upgrade of the format 1, 2 and 3 fixtures to it.

The fixtures in ``fixtures/`` were written by the code of each format (``make_old_projects.py``);
an upgraded file must hold the new, empty table beside all its old data (the old data itself
is checked by ``test_store_old_projects.py``), and a failed upgrade leaves the file untouched.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest
from sqlite_utils import Database

from goldenlens.core.inputs import GoldenItem
from goldenlens.store import LATEST_VERSION, ProjectStore, StoreError, schema

FIXTURES = Path(__file__).parent / "fixtures"


def _decide(store: ProjectStore, question_id: str, criterion: str, decision: str, **kw: str) -> int:
    fields = {"judge_verdict": "fail", "reviewer_verdict": "fail"} | kw
    return store.golden_review.decide(question_id, criterion, decision, **fields)  # type: ignore[arg-type]


@pytest.fixture
def store(tmp_path: Path) -> ProjectStore:
    project = ProjectStore.open(tmp_path / "p.goldenlens", create=True)
    project.golden.add(GoldenItem("q1", "Who?", "Ann.", "Ann"))
    project.golden.add(GoldenItem("q2", "When?", "In 1932.", "1932"))
    return project


def test_the_latest_decision_per_question_and_criterion_is_in_force(store: ProjectStore) -> None:
    with store:
        first = _decide(
            store, "q1", "fact_minimal", "accepted", judge_verdict="pass", reviewer_verdict="pass"
        )
        _decide(store, "q1", "fact_minimal", "dismissed", judge_verdict="pass", reviewer_verdict="fail")
        _decide(store, "q2", "unambiguous_question", "accepted", note="vague", reviewer="ana")
        _decide(store, "q1", "llm_agnostic_wording", "accepted")
        store.golden_review.decide("q1", "llm_agnostic_wording", "withdrawn", reviewer="ana")
        in_force = store.golden_review.decisions()
        assert [
            (d.question_id, d.criterion, d.decision, d.judge_verdict, d.reviewer_verdict) for d in in_force
        ] == [
            ("q1", "fact_minimal", "dismissed", "pass", "fail"),
            ("q2", "unambiguous_question", "accepted", "fail", "fail"),
        ]
        assert (in_force[1].note, in_force[1].reviewer) == ("vague", "ana")
        trail = store.golden_review.decisions(all=True)
        assert [d.decision for d in trail] == ["accepted", "dismissed", "accepted", "accepted", "withdrawn"]
        assert trail[-1].is_withdrawal
        assert (trail[-1].judge_verdict, trail[-1].reviewer_verdict) == ("", "")
        one = store.golden_review.decision(first)
        assert one is not None
        assert (one.decision, one.reviewer_verdict) == ("accepted", "pass")
        assert store.golden_review.decision(999) is None


def test_deleting_a_golden_item_removes_its_decisions(store: ProjectStore) -> None:
    with store:
        _decide(store, "q1", "fact_minimal", "accepted")
        _decide(store, "q2", "fact_minimal", "accepted")
        store.golden.delete("q1")
        assert [d.question_id for d in store.golden_review.decisions(all=True)] == ["q2"]


@pytest.mark.parametrize(
    ("question_id", "criterion", "decision", "fields", "error"),
    [
        ("q1", "clarity", "accepted", {}, "unknown criterion"),
        ("q1", "fact_minimal", "maybe", {}, "'maybe' is not a valid Decision"),
        ("q1", "fact_minimal", "accepted", {"judge_verdict": "ok"}, "'ok' is not a valid Verdict"),
        ("q1", "fact_minimal", "accepted", {"reviewer_verdict": "unsure"}, "not unsure"),
        ("q1", "fact_minimal", "accepted", {"reviewer_verdict": ""}, "'' is not a valid Verdict"),
    ],
)
def test_bad_values_are_refused_and_nothing_is_written(
    store: ProjectStore, question_id: str, criterion: str, decision: str, fields: dict[str, str], error: str
) -> None:
    with store:
        with pytest.raises(ValueError, match=error):
            _decide(store, question_id, criterion, decision, **fields)
        assert store.golden_review.decisions(all=True) == []


def test_an_unknown_question_is_a_store_error_naming_the_file(store: ProjectStore) -> None:
    with store:
        with pytest.raises(StoreError, match=r"p\.goldenlens.*FOREIGN KEY"):
            _decide(store, "q9", "fact_minimal", "accepted")
        assert store.golden_review.decisions(all=True) == []


def _tables(path: Path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        return {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    finally:
        conn.close()


@pytest.mark.parametrize("version", [1, 2, 3])
def test_an_old_project_is_upgraded_to_format_4_with_the_decisions_table(
    version: int, tmp_path: Path
) -> None:
    path = tmp_path / f"format{version}.goldenlens"
    shutil.copyfile(FIXTURES / f"format{version}.goldenlens", path)
    assert "golden_review_decisions" not in _tables(path)
    with ProjectStore.open(path) as store:
        assert store.diagnostics()["user_version"] == LATEST_VERSION == 7
        assert store.golden_review.decisions(all=True) == []
        _decide(store, "q3", "fact_minimal", "dismissed", judge_verdict="fail", reviewer_verdict="pass")
    with ProjectStore.open(path) as store:  # reopening a format-4 file migrates nothing
        (decision,) = store.golden_review.decisions()
        assert (decision.question_id, decision.reviewer_verdict) == ("q3", "pass")
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()


def test_a_failed_upgrade_to_format_4_leaves_the_format_3_file_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "format3.goldenlens"
    shutil.copyfile(FIXTURES / "format3.goldenlens", path)
    before = path.read_bytes()

    real_v4 = schema.MIGRATIONS[3]

    def broken_v4(db: Database) -> None:
        real_v4(db)  # the real table is made, then the upgrade fails
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(schema, "MIGRATIONS", (*schema.MIGRATIONS[:3], broken_v4))
    with pytest.raises(StoreError, match=r"format3\.goldenlens: could not upgrade.*disk I/O error"):
        ProjectStore.open(path)
    assert "golden_review_decisions" not in _tables(path)
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 3
    finally:
        conn.close()
    assert len(path.read_bytes()) == len(before)
