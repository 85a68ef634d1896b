"""The golden-review queries: a project never reviewed, a run of another kind, a damaged
stored verdict, and the JSON form the CLI writes."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from goldenlens.core.golden.criteria import Criterion, VerdictError
from goldenlens.core.inputs import GoldenItem
from goldenlens.jobs import open_project
from goldenlens.jobs.judging.golden_review_job import GoldenReviewOptions, review_golden_set
from goldenlens.queries.project import ProjectQueries
from goldenlens.store.project import ProjectStore

ITEMS = [
    GoldenItem("a1", "Who?", "Ann did.", "Ann"),
    GoldenItem("a2", "When?", " ".join(["word"] * 12), "word"),
]
COUNTED = GoldenReviewOptions(criteria=(Criterion.VERBOSITY,), max_answer_words=10)


@pytest.fixture
def store(tmp_path: Path) -> ProjectStore:
    opened = ProjectStore.open(tmp_path / "q.goldenlens", create=True)
    for item in ITEMS:
        opened.golden.add(item)
    return opened


def test_a_project_never_reviewed_lists_every_row_unrated(store: ProjectStore) -> None:
    with store:
        queries = ProjectQueries(store)
        review = queries.golden_review()
        assert review.run is None
        assert review.criteria == tuple(Criterion)
        assert [row.item.id for row in review.rows] == ["a1", "a2"]
        assert all(v.verdict is None and v.reason == "" for row in review.rows for v in row.verdicts)
        assert review.counts()[Criterion.FACT_MINIMAL] == {"pass": 0, "fail": 0, "unsure": 0, "not_rated": 2}
        assert review.agreement.overall.n == 0
        assert review.agreement.overall.kappa is None


def test_the_json_form_holds_run_rows_counts_and_agreement(store: ProjectStore) -> None:
    with store:
        queries = ProjectQueries(store)
        run_id = review_golden_set(store, COUNTED)
        data = json.loads(json.dumps(queries.golden_review().as_dict()))
    assert data["run"]["id"] == run_id
    assert data["run"]["params"]["max_answer_words"] == 10
    assert data["criteria"] == ["verbosity_within_guardrail"]
    assert data["counts"] == {
        "verbosity_within_guardrail": {"pass": 1, "fail": 1, "unsure": 0, "not_rated": 0}
    }
    assert data["rows"][1]["verdicts"] == [
        {
            "criterion": "verbosity_within_guardrail",
            "verdict": "fail",
            "reason": "12 words; the guardrail is 10",
            "source": "rule",
            "stale": False,
            "decision": None,
        }
    ]
    assert data["agreement"]["overall"] == {"n": 0, "agreed": 0, "rate": None, "kappa": None}
    assert data["agreement"]["overall_covers"] == [
        "unambiguous_question", "answer_consistent_with_fact", "fact_minimal", "llm_agnostic_wording"
    ]  # fmt: skip


def test_a_run_of_another_kind_is_refused(store: ProjectStore) -> None:
    with store:
        queries = ProjectQueries(store)
        lexical = store.runs.start("lexical", {}, total=0)
        with pytest.raises(ValueError, match=f"run {lexical} is a lexical run, not a golden review"):
            queries.golden_review(lexical)


def test_a_stored_value_that_is_no_verdict_is_reported_not_shown(store: ProjectStore) -> None:
    with store:
        review_golden_set(store, COUNTED)
        path = store.path
    conn = sqlite3.connect(path)
    conn.execute("UPDATE scores SET value = 0.25")  # a damaged file
    conn.commit()
    conn.close()
    with (
        open_project(path) as reopened,
        pytest.raises(VerdictError, match=r"0\.25 is not a stored verdict"),
    ):
        ProjectQueries(reopened).golden_review()


def test_a_row_edited_after_the_review_is_stale_and_its_verdicts_stay(store: ProjectStore) -> None:
    with store:
        queries = ProjectQueries(store)
        assert not any(row.stale for row in queries.golden_review().rows)  # never reviewed: nothing stale
        review_golden_set(store, COUNTED)
        assert not any(row.stale for row in queries.golden_review().rows)
        store.golden.update(GoldenItem("a1", "Who?", "Ann did it.", "Ann"))
        store.golden.update(GoldenItem("a2", "When?", " ".join(["word"] * 12), "word", notes="ok"))
        review = queries.golden_review()
        data = review.as_dict()
    assert [row.stale for row in review.rows] == [True, False]  # a notes-only edit changes no triplet
    assert [row["stale"] for row in data["rows"]] == [True, False]
    verdict = review.rows[0].verdict(Criterion.VERBOSITY)
    assert verdict is not None
    assert verdict.reason == "2 words, within the guardrail of 10"  # what the judge saw: "Ann did."
    assert verdict.stale  # the verbosity rule reads the answer, which changed
    assert [v["stale"] for v in data["rows"][0]["verdicts"]] == [True]
