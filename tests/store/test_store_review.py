"""Overrides, reviews and the judge cache."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from goldenlens.core.scores import ScoreRecord
from goldenlens.store import ProjectStore, StoreError

ScoreFactory = Callable[..., ScoreRecord]


def test_latest_override_wins_and_the_original_score_stays(
    imported: ProjectStore, score: ScoreFactory
) -> None:
    run = imported.runs.start("lexical", {}, total=6)
    original = score("q1", "baseline", "factual_knowledge", 0.0)
    imported.results.save(run, [original])

    imported.reviews.set_override(
        "q1", "baseline", "factual_knowledge", value=1.0, passed=True, note="typo", reviewer="ana"
    )
    imported.reviews.set_override(
        "q1", "baseline", "factual_knowledge", value=0.5, passed=None, note="half", reviewer="ben"
    )
    imported.reviews.set_override(
        "q2", "rag-v2", "f1_score", value=None, passed=False, note="wrong city", reviewer="ana"
    )

    current = imported.reviews.overrides()
    assert [
        (o.question_id, o.pipeline, o.metric, o.value, o.passed, o.note, o.reviewer) for o in current
    ] == [
        ("q1", "baseline", "factual_knowledge", 0.5, None, "half", "ben"),
        ("q2", "rag-v2", "f1_score", None, False, "wrong city", "ana"),
    ]
    assert [o.note for o in imported.reviews.overrides(all=True)] == ["typo", "half", "wrong city"]
    assert imported.results.scores(run) == [original]
    assert imported.results.score_matrix(run, "factual_knowledge") == {("q1", "baseline"): 0.0}


def test_an_empty_override_withdraws_the_earlier_ones(imported: ProjectStore) -> None:
    imported.reviews.set_override(
        "q1", "baseline", "f1_score", value=1.0, passed=True, note="", reviewer="ana"
    )
    imported.reviews.set_override(
        "q1", "baseline", "f1_score", value=None, passed=None, note="undo", reviewer="ana"
    )
    assert imported.reviews.overrides() == []
    history = imported.reviews.overrides(all=True)
    assert [o.is_withdrawal for o in history] == [False, True]


def test_overrides_are_validated(imported: ProjectStore) -> None:
    with pytest.raises(ValueError, match="finite"):
        imported.reviews.set_override(
            "q1", "baseline", "f1_score", value=float("nan"), passed=None, note="", reviewer=""
        )
    with pytest.raises(StoreError, match="FOREIGN KEY"):
        imported.reviews.set_override(
            "q404", "baseline", "f1_score", value=1.0, passed=None, note="", reviewer=""
        )
    assert imported.reviews.overrides(all=True) == []


def test_reviews_round_trip_and_update(project_path: Path, imported: ProjectStore, awkward: str) -> None:
    assert imported.reviews.all() == {}
    imported.reviews.set("q2", "needs_curation", awkward, "ana")
    imported.reviews.set("q1", "accepted")
    imported.reviews.set("q2", "accepted", "fixed", "ben")
    imported.close()
    with ProjectStore.open(project_path) as store:
        reviews = store.reviews.all()
        assert list(reviews) == ["q1", "q2"]
        assert (reviews["q2"].status, reviews["q2"].note, reviews["q2"].reviewer) == (
            "accepted",
            "fixed",
            "ben",
        )
        assert reviews["q1"].status == "accepted"
        assert reviews["q1"].updated_at.endswith("+00:00")
        store.reviews.set("q3", "needs_curation", awkward)
        assert store.reviews.all()["q3"].note == awkward


def test_review_status_and_question_are_checked(imported: ProjectStore) -> None:
    with pytest.raises(ValueError, match="'done'"):
        imported.reviews.set("q1", "done")
    with pytest.raises(StoreError, match="FOREIGN KEY"):
        imported.reviews.set("q404", "accepted")
    assert imported.reviews.all() == {}


def test_judge_cache_put_get_and_replace(project_path: Path, store: ProjectStore, awkward: str) -> None:
    key = "9f" * 32
    assert store.cache.get(key) is None
    output = {"statements": ["Seattle is in Washington.", awkward], "verdicts": [1, 0], "score": 0.5}
    store.cache.put(key, metric="faithfulness", model_sha256="ab" * 32, prompt_version="1", output=output)
    assert store.cache.get(key) == output
    store.cache.put(
        key, metric="faithfulness", model_sha256="ab" * 32, prompt_version="1", output={"score": 1}
    )
    store.close()
    with ProjectStore.open(project_path) as reopened:
        assert reopened.cache.get(key) == {"score": 1}
        assert reopened.cache.get("other") is None
