"""Curation edits on a real, scored sample project: re-scoring, fact variants, overrides, review."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from goldenlens.core.inputs import GoldenItem
from goldenlens.core.lexical.flags import FlagThresholds
from goldenlens.core.lexical.scorer import F1_SCORE, FACTUAL_KNOWLEDGE, RECALL, LexicalScorer
from goldenlens.core.scores import ScoreRecord
from goldenlens.core.view.metric_names import metric_in_sentence
from goldenlens.io.importing.sample import sample_dir
from goldenlens.jobs.curation import edits as curation
from goldenlens.jobs.importing.import_job import import_inputs
from goldenlens.jobs.scoring.score_job import score_project
from goldenlens.jobs.scoring.score_rows import ScoreOptions
from goldenlens.store.project import ProjectStore

PIPELINES = ("Pipeline1", "Pipeline2", "Pipeline3")
Q03_FACT = "410 Terry Avenue North<OR>410 Terry Ave. N."


@pytest.fixture
def store(tmp_path: Path) -> Iterator[ProjectStore]:
    """The sample project, imported and scored with the default options."""
    with ProjectStore.open(tmp_path / "sample.goldenlens", create=True) as opened:
        import_inputs(opened, sample_dir() / "golden.csv", sample_dir() / "responses.csv")
        score_project(opened)
        yield opened


def _run_id(store: ProjectStore) -> int:
    run = store.runs.latest(finished_only=True)
    assert run is not None
    return run.id


def _full(records: list[ScoreRecord]) -> list[tuple[ScoreRecord, dict[str, object]]]:
    """Records with their detail (``ScoreRecord`` equality leaves the detail out)."""
    return [(r, r.detail) for r in records]


def _item(store: ProjectStore, question_id: str) -> GoldenItem:
    item = store.golden.item(question_id)
    assert item is not None
    return item


# -- editing the golden row re-scores it ---------------------------------------------------


def test_adding_the_abbreviated_address_makes_pipeline3_find_the_q03_fact(store: ProjectStore) -> None:
    run_id = _run_id(store)
    before = store.results.score_matrix(run_id, FACTUAL_KNOWLEDGE)
    others = [r for r in store.results.scores(run_id) if r.question_id != "q03"]

    result = curation.edit_golden_item(store, replace(_item(store, "q03"), fact=Q03_FACT), reviewer="Ana")

    after = store.results.score_matrix(run_id, FACTUAL_KNOWLEDGE)
    assert before[("q03", "Pipeline3")] == 0.0
    assert after[("q03", "Pipeline3")] == 1.0
    assert {k: v for k, v in after.items() if k != ("q03", "Pipeline3")} == {
        k: v for k, v in before.items() if k != ("q03", "Pipeline3")
    }
    assert _full([r for r in store.results.scores(run_id) if r.question_id != "q03"]) == _full(others)
    assert result.run_id == run_id
    assert result.changed_keys == (("q03", "Pipeline3"),)
    assert result.message() == "q03: Pipeline3 factual knowledge 0 → 1"
    golden_flags = [f for q, p, f in store.results.flags(run_id) if (q, p) == ("q03", "")]
    assert "ambiguous_question" not in golden_flags
    history = store.golden.history("q03")
    assert (history[-1].action, history[-1].reviewer, history[-1].item.fact) == ("edit", "Ana", Q03_FACT)


def test_an_edited_run_equals_a_fresh_run_of_the_edited_golden_set(store: ProjectStore) -> None:
    run_id = _run_id(store)
    q03 = _item(store, "q03")
    curation.edit_golden_item(
        store, replace(q03, answer="410 Terry Ave. N., Seattle", fact=Q03_FACT), reviewer="Ana"
    )
    fresh = score_project(store, resume=False)
    assert _full(store.results.scores(run_id)) == _full(store.results.scores(fresh))
    assert store.results.flags(run_id) == store.results.flags(fresh)


def test_editing_the_answer_recomputes_recall_as_a_fresh_scorer_does(store: ProjectStore) -> None:
    run_id = _run_id(store)
    q03 = _item(store, "q03")
    answer = "Seattle, Washington (410 Terry Avenue North)."
    result = curation.edit_golden_item(store, replace(q03, answer=answer), reviewer="Ana")

    recall = store.results.score_matrix(run_id, RECALL)
    scorer = LexicalScorer()
    for response in store.responses.of_question("q03"):
        expected = scorer.score(response.response, answer, q03.fact).scores[RECALL]
        assert recall[("q03", response.pipeline)] == expected
    assert {c.metric for c in result.changes} >= {RECALL, F1_SCORE}
    assert "F1" in result.message()


def test_a_run_is_rescored_with_its_own_parameters(store: ProjectStore) -> None:
    options = ScoreOptions(multiset=True, thresholds=FlagThresholds(hallucination_recall=0.5))
    run_id = score_project(store, options, resume=False)
    curation.edit_golden_item(
        store, replace(_item(store, "q10"), answer="10,317,750,796 shares."), reviewer=""
    )
    fresh = score_project(store, options, resume=False)
    assert _full(store.results.scores(run_id)) == _full(store.results.scores(fresh))
    assert store.results.flags(run_id) == store.results.flags(fresh)
    assert curation.run_options(options.params()) == options


def test_question_and_notes_edits_are_saved_without_rescoring(store: ProjectStore) -> None:
    run_id = _run_id(store)
    scores = _full(store.results.scores(run_id))
    q03 = _item(store, "q03")
    result = curation.edit_golden_item(
        store, replace(q03, question="Where is the head office?", notes="checked"), reviewer="Ana"
    )
    assert result.run_id is None
    assert result.changes == ()
    assert result.message() == "q03 saved"
    assert _item(store, "q03").notes == "checked"
    assert _full(store.results.scores(run_id)) == scores


def test_an_unchanged_item_records_nothing(store: ProjectStore) -> None:
    count = len(store.golden.history())
    result = curation.edit_golden_item(store, _item(store, "q03"), reviewer="Ana")
    assert result.changes == ()
    assert result.run_id is None
    assert len(store.golden.history()) == count


def test_a_project_without_a_finished_run_is_edited_without_scores(tmp_path: Path) -> None:
    with ProjectStore.open(tmp_path / "p.goldenlens", create=True) as store:
        import_inputs(store, sample_dir() / "golden.csv", sample_dir() / "responses.csv")
        result = curation.edit_golden_item(store, replace(_item(store, "q03"), fact=Q03_FACT), reviewer="")
        assert result.run_id is None
        assert _item(store, "q03").fact == Q03_FACT


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"id": "q99"}, "there is no golden question 'q99'"),
        ({"question": "  \n"}, "the question of q03 cannot be empty"),
    ],
)
def test_bad_edits_are_refused_and_write_nothing(
    store: ProjectStore, change: dict[str, Any], message: str
) -> None:
    run_id = _run_id(store)
    history, scores = store.golden.history(), _full(store.results.scores(run_id))
    with pytest.raises(ValueError, match=message):
        curation.edit_golden_item(store, replace(_item(store, "q03"), **change), reviewer="Ana")
    assert store.golden.history() == history
    assert _full(store.results.scores(run_id)) == scores


def test_an_edit_and_its_rescore_commit_together_or_not_at_all(store: ProjectStore) -> None:
    q03 = _item(store, "q03")

    def edit_then_fail() -> None:
        with store.atomic("test"):
            store.golden.update(replace(q03, fact=Q03_FACT), reviewer="Ana")
            store.results.delete_question(_run_id(store), "q03")
            raise RuntimeError

    with pytest.raises(RuntimeError):
        edit_then_fail()
    assert _item(store, "q03") == q03
    assert len(store.results.scores_of_question(_run_id(store), "q03")) == 3 * 7


# -- fact variants ---------------------------------------------------------------------------


def test_a_fact_variant_selected_in_a_response_is_appended(store: ProjectStore) -> None:
    response = next(r.response for r in store.responses.of_question("q03") if r.pipeline == "Pipeline3")
    start = response.index("410 Terry Ave. N.")
    selection = response[start - 1 : start + len("410 Terry Ave. N.")] + " "  # sloppy selection

    item = curation.add_fact_variant(store, "q03", selection, reviewer="Ana")

    assert item is not None
    assert item.fact == Q03_FACT
    assert store.results.score_matrix(_run_id(store), FACTUAL_KNOWLEDGE)[("q03", "Pipeline3")] == 1.0


@pytest.mark.parametrize(
    "duplicate", ["410 Terry Avenue North", "  410 terry AVENUE north ", "410 Terry Ave. N."]
)
def test_a_duplicate_alternative_is_a_no_op(store: ProjectStore, duplicate: str) -> None:
    curation.add_fact_variant(store, "q03", "410 Terry Ave. N.", reviewer="Ana")
    history = store.golden.history()
    assert curation.add_fact_variant(store, "q03", duplicate, reviewer="Ana") is None
    assert store.golden.history() == history
    assert _item(store, "q03").fact == Q03_FACT


@pytest.mark.parametrize(
    ("variant", "message"),
    [
        ("", "cannot be empty"),
        (" \t\n", "cannot be empty"),
        ("Ave<OR>Avenue", "cannot contain <OR> or <AND>"),
        ("Terry<and>Seattle", "cannot contain <OR> or <AND>"),
    ],
)
def test_bad_fact_variants_are_refused(store: ProjectStore, variant: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        curation.add_fact_variant(store, "q03", variant, reviewer="Ana")
    assert _item(store, "q03").fact == "410 Terry Avenue North"
    with pytest.raises(ValueError, match="no golden question"):
        curation.add_fact_variant(store, "nope", "x", reviewer="Ana")


@pytest.mark.parametrize(
    ("fact", "variant", "expected"),
    [
        ("A", "B", "A<OR>B"),
        ("A<AND>B", "C", "A<AND>B<OR>C"),
        ("A<AND>B", "a b", "A<AND>B<OR>a b"),
        ("A<AND>B", " a<and>b", ValueError),
        ("", "B", "B"),
        ("  ", " B ", "B"),
        ("A<OR> B ", "b", None),
        ("A", "a", None),
    ],
)
def test_fact_with_variant_table(fact: str, variant: str, expected: str | type[ValueError] | None) -> None:
    if expected is ValueError:
        with pytest.raises(ValueError, match="one alternative at a time"):
            curation.fact_with_variant(fact, variant)
    else:
        assert curation.fact_with_variant(fact, variant) == expected


# -- overrides ------------------------------------------------------------------------------


def test_overrides_latest_wins_and_clearing_withdraws_without_touching_scores(store: ProjectStore) -> None:
    run_id = _run_id(store)
    scores = _full(store.results.scores(run_id))
    key = ("q03", "Pipeline3", FACTUAL_KNOWLEDGE)
    first = curation.set_override(store, *key, value=1.0, passed=True, note="abbreviated", reviewer="Ana")
    second = curation.set_override(store, *key, value=0.0, passed=False, note="wrong zip", reviewer="Bo")
    assert (first.passed, second.passed) == (True, False)
    assert [(o.passed, o.note, o.reviewer) for o in store.reviews.overrides()] == [(False, "wrong zip", "Bo")]

    curation.clear_override(store, *key, reviewer="Ana")
    assert store.reviews.overrides() == []
    assert len(store.reviews.overrides(all=True)) == 3
    assert _full(store.results.scores(run_id)) == scores
    with pytest.raises(ValueError, match="no factual knowledge override to remove"):
        curation.clear_override(store, *key, reviewer="Ana")


def test_a_continuous_metric_takes_a_value(store: ProjectStore) -> None:
    override = curation.set_override(
        store, "q10", "Pipeline1", F1_SCORE, value=0.75, passed=None, note="verbose but right", reviewer="Ana"
    )
    assert (override.value, override.passed) == (0.75, None)


@pytest.mark.parametrize(
    ("key", "values", "message"),
    [
        (("q99", "Pipeline1", FACTUAL_KNOWLEDGE), {}, "no golden question"),
        (("q03", "Pipeline9", FACTUAL_KNOWLEDGE), {}, "no pipeline 'Pipeline9'"),
        (("q03", "Pipeline1", " "), {}, "needs a metric name"),
        (("q03", "Pipeline1", FACTUAL_KNOWLEDGE), {"value": None, "passed": None}, "value or a pass/fail"),
        (("q03", "Pipeline1", F1_SCORE), {"value": 1.5, "passed": None}, "from 0 to 1"),
        (("q03", "Pipeline1", F1_SCORE), {"value": float("nan"), "passed": None}, "from 0 to 1"),
        (("q03", "Pipeline1", FACTUAL_KNOWLEDGE), {"value": 0.5, "passed": None}, "must be 0 or 1"),
        (("q03", "Pipeline1", FACTUAL_KNOWLEDGE), {"value": 0.0, "passed": True}, "contradicts"),
        (("q03", "Pipeline1", FACTUAL_KNOWLEDGE), {"note": "  "}, "needs a note"),
        (("q03", "Pipeline1", FACTUAL_KNOWLEDGE), {"reviewer": ""}, "reviewer's name"),
    ],
)
def test_bad_overrides_are_refused_and_write_nothing(
    store: ProjectStore, key: tuple[str, str, str], values: dict[str, Any], message: str
) -> None:
    arguments: dict[str, Any] = {"value": 1.0, "passed": True, "note": "ok", "reviewer": "Ana", **values}
    with pytest.raises(ValueError, match=message):
        curation.set_override(store, *key, **arguments)
    assert store.reviews.overrides(all=True) == []


def test_restoring_an_override_puts_back_what_was_in_effect(store: ProjectStore) -> None:
    key = ("q03", "Pipeline3", FACTUAL_KNOWLEDGE)
    before = curation.set_override(store, *key, value=1.0, passed=True, note="abbreviated", reviewer="Ana")
    curation.set_override(store, *key, value=0.0, passed=False, note="no", reviewer="Bo")
    curation.restore_override(store, *key, before, reviewer="Bo")
    now = store.reviews.override_in_effect(*key)
    assert now is not None
    assert (now.passed, now.note, now.reviewer) == (True, "abbreviated", "Ana")
    curation.restore_override(store, *key, None, reviewer="Bo")
    assert store.reviews.override_in_effect(*key) is None


# -- review ------------------------------------------------------------------------------------


def test_review_is_set_and_restored(store: ProjectStore) -> None:
    review = curation.set_review(store, "q03", "needs_curation", " add the abbreviation ", reviewer="Ana")
    assert (review.status, review.note, review.reviewer) == ("needs_curation", "add the abbreviation", "Ana")
    assert store.reviews.all()["q03"].status == "needs_curation"
    curation.set_review(store, "q03", "accepted", reviewer="Bo")
    curation.restore_review(store, "q03", review, reviewer="Bo")
    assert store.reviews.all()["q03"].note == "add the abbreviation"
    curation.restore_review(store, "q03", None, reviewer="Bo")
    assert "q03" not in store.reviews.all()


@pytest.mark.parametrize(
    ("question_id", "status", "message"),
    [("q03", "done", "unknown review status 'done'"), ("q99", "accepted", "no golden question")],
)
def test_bad_reviews_are_refused(store: ProjectStore, question_id: str, status: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        curation.set_review(store, question_id, status, reviewer="Ana")
    assert store.reviews.all() == {}


def test_metric_labels_read_as_words() -> None:
    assert metric_in_sentence(FACTUAL_KNOWLEDGE) == "factual knowledge"
    assert metric_in_sentence(F1_SCORE) == "F1"
    assert metric_in_sentence("exact_match_score") == "exact match"
    assert metric_in_sentence("faithfulness") == "faithfulness"


def test_every_question_slice_matches_the_whole_run(store: ProjectStore) -> None:
    run_id = _run_id(store)
    for item in store.golden.items():
        assert _full(store.results.scores_of_question(run_id, item.id)) == _full(
            [r for r in store.results.scores(run_id) if r.question_id == item.id]
        )
        assert store.results.flags_of_question(run_id, item.id) == [
            f for f in store.results.flags(run_id) if f[0] == item.id
        ]
        assert store.responses.of_question(item.id) == [
            r for r in store.responses.all() if r.question_id == item.id
        ]
    assert tuple(store.responses.pipelines()) == PIPELINES
