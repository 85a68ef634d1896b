"""Flip preview on a real project: a workbook written by the test, imported and scored by the
import-then-score job, then previewed — and the prediction checked against what adding the
variant (``curation.add_fact_variant``, which re-scores) really stores."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from tests.variant_project import EXPECTED_FLIPS, build_project, write_workbook

from goldenlens.core.input_selection import InputSelection
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE, FACTUAL_KNOWLEDGE_QUASI_EXACT
from goldenlens.core.variants.flip_preview import RowKind, VariantPreview
from goldenlens.jobs import open_project
from goldenlens.jobs.curation import edits as curation
from goldenlens.jobs.curation.variant_preview import (
    UnknownQuestionError,
    preview_fact_variants,
    read_variant_inputs,
)
from goldenlens.jobs.importing.import_job import import_inputs
from goldenlens.store.project import ProjectStore


@pytest.fixture
def store(tmp_path: Path) -> Iterator[ProjectStore]:
    with ProjectStore.open(build_project(tmp_path)) as opened:
        yield opened


def _by_text(store: ProjectStore, question_id: str) -> dict[str, VariantPreview]:
    return {p.variant.text: p for p in preview_fact_variants(store, question_id).previews}


def _stored(store: ProjectStore, question_id: str) -> dict[str, tuple[float | None, float | None]]:
    run = store.runs.latest(finished_only=True)
    assert run is not None
    exact = store.results.score_matrix(run.id, FACTUAL_KNOWLEDGE)
    quasi = store.results.score_matrix(run.id, FACTUAL_KNOWLEDGE_QUASI_EXACT)
    return {p: (exact[(q, p)], quasi[(q, p)]) for (q, p) in exact if q == question_id}


@pytest.mark.parametrize("question_id", sorted(EXPECTED_FLIPS))
def test_the_responses_some_variant_rescues_are_the_ones_written_to_be_rescued(
    store: ProjectStore, question_id: str
) -> None:
    previews = _by_text(store, question_id).values()
    flipped = {row.pipeline for p in previews for row in p.flips}
    assert flipped == EXPECTED_FLIPS[question_id]
    assert all(p.flips_down == 0 for p in previews)
    for p in previews:
        for row in p.flips:
            assert row.question_id == question_id
            assert row.before[0] == 0.0
            assert row.after is not None
            assert row.stored is None  # the run is up to date


def test_a_scale_variant_flips_the_response_that_spells_the_value_in_millions(store: ProjectStore) -> None:
    preview = _by_text(store, "q1")["134,400 million"]
    (flip,) = preview.flips
    assert (flip.pipeline, flip.before, flip.after) == ("Pipeline1", (0.0, 0.0), (1.0, 1.0))
    assert flip.change() == "exact 0 → 1, quasi 0 → 1"
    assert "[[134,400 million]]" in flip.snippet
    assert preview.fact_after == "134.4 billion<OR>134,400 million"
    # The same figure in an answer to another question: it would match there too.
    assert preview.elsewhere_count == 1
    (elsewhere,) = [r for r in preview.rows if r.kind is RowKind.ELSEWHERE]
    assert (elsewhere.question_id, elsewhere.pipeline, elsewhere.after) == ("q5", "Pipeline3", None)
    assert elsewhere.change() == "—"
    assert "q5" in elsewhere.risk


def test_a_rounded_value_is_never_offered(store: ProjectStore) -> None:
    texts = _by_text(store, "q1")
    assert not [t for t in texts if "134 billion" in t or t.startswith("134,000")]


def test_an_abbreviation_that_only_quasi_exact_sees(store: ProjectStore) -> None:
    # Quasi-exact normalisation deletes the periods, so "410 Terry Ave. N." and "410 Terry Ave N"
    # are the same there; exactly, each is only in the response that writes it so.
    previews = _by_text(store, "q2")
    changes = {p.variant.text: {r.pipeline: r.change() for r in p.flips} for p in previews.values()}
    assert changes["410 Terry Ave. N."] == {
        "Pipeline1": "exact 0 → 1, quasi 0 → 1",
        "Pipeline3": "quasi 0 → 1",
    }
    assert changes["410 Terry Ave N"] == {
        "Pipeline1": "quasi 0 → 1",
        "Pipeline3": "exact 0 → 1, quasi 0 → 1",
    }


def test_an_and_variant_keeps_the_other_part(store: ProjectStore) -> None:
    preview = _by_text(store, "q4")["Amazon<AND>12,500 million"]
    assert [r.pipeline for r in preview.flips] == ["Pipeline1"]  # Pipeline2 never names Amazon
    assert "<AND>" in preview.note


def test_a_date_variant_warns_where_the_date_also_appears(store: ProjectStore) -> None:
    preview = _by_text(store, "q3")["February 22, 2023"]
    assert [r.pipeline for r in preview.flips] == ["Pipeline1"]
    assert [(r.question_id, r.pipeline) for r in preview.rows if r.kind is RowKind.ELSEWHERE] == [
        ("q5", "Pipeline1")
    ]


@pytest.mark.parametrize(
    ("question_id", "variant"),
    [("q1", "134,400 million"), ("q2", "410 Terry Ave N"), ("q4", "Amazon<AND>12,500 million")],
)
def test_the_preview_predicts_what_adding_the_variant_stores(
    store: ProjectStore, question_id: str, variant: str
) -> None:
    preview = _by_text(store, question_id)[variant]
    predicted = _stored(store, question_id)
    for row in preview.flips:
        assert row.after is not None
        predicted[row.pipeline] = row.after
    item = curation.add_fact_variant(
        store, question_id, preview.variant.text, reviewer="test", and_group=preview.variant.and_group
    )
    assert item is not None
    assert item.fact == preview.fact_after
    assert _stored(store, question_id) == predicted
    # Added once, it is no longer suggested.
    assert variant not in _by_text(store, question_id)


def test_without_a_scored_run_the_preview_scores_the_fact_itself(tmp_path: Path) -> None:
    workbook = write_workbook(tmp_path / "variants.xlsx")
    with ProjectStore.open(tmp_path / "unscored.goldenlens", create=True) as store:
        import_inputs(
            store,
            workbook,
            workbook,
            selection=InputSelection(golden_sheet="Golden", responses_sheet="Responses"),
        )
        inputs = read_variant_inputs(store, "q1")
        assert inputs.run_id is None
        assert all(r.exact is None for r in inputs.responses)
        flips = {r.pipeline for p in _by_text(store, "q1").values() for r in p.flips}
    assert flips == EXPECTED_FLIPS["q1"]


def test_an_unknown_question_names_the_questions_there_are(store: ProjectStore) -> None:
    with pytest.raises(UnknownQuestionError, match=r"'q9'.*q1, q2, q3, q4, q5"):
        preview_fact_variants(store, "q9")


def test_the_rows_are_plain_data_for_a_table(store: ProjectStore) -> None:
    row = _by_text(store, "q1")["134,400 million"].as_dict()["rows"][0]
    assert row["question_id"] == "q1"
    assert row["pipeline"] == "Pipeline1"
    assert row[FACTUAL_KNOWLEDGE] == {"before": 0.0, "after": 1.0}
    assert row["change"] == "exact 0 → 1, quasi 0 → 1"


def test_a_flip_says_when_the_stored_score_is_out_of_date(store: ProjectStore) -> None:
    # The fact changed behind the run's back (written to the store without re-scoring): the
    # stored 1 of Pipeline2 came from "134.4 billion"; the fact now only says it in digits.
    item = store.golden.item("q1")
    assert item is not None
    store.golden.update(replace(item, fact="134,400,000,000"), reviewer="test")
    preview = _by_text(store, "q1")["134.4 billion"]
    stale = {r.pipeline: r.stored for r in preview.flips}
    assert stale == {"Pipeline2": (1.0, 1.0)}


def test_the_open_project_entry_point_and_the_undoable_edit_path(store: ProjectStore) -> None:
    # What the desktop app calls: the jobs functions with the project it opened (a handle).
    with open_project(store.path) as project:
        preview = preview_fact_variants(project, "q4")
        variant = next(p.variant for p in preview.previews if p.variant.text == "Amazon<AND>12,500 million")
        item = curation.add_fact_variant(
            project, "q4", variant.text, reviewer="test", and_group=variant.and_group
        )
    assert item is not None
    assert item.fact == "Amazon<AND>12.5 billion<OR>Amazon<AND>12,500 million"
    assert _stored(store, "q4")["Pipeline1"] == (1.0, 1.0)
    assert _stored(store, "q4")["Pipeline2"] == (0.0, 0.0)
