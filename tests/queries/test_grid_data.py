"""Score-grid data on the real sample project: arrays equal the store, overrides marked, row
reloads, and the first rows alone (``load_grid_head``) equal to the full grid's first rows."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from goldenlens.core.inputs import GoldenItem, PipelineResponse
from goldenlens.core.lexical.flags import Flag
from goldenlens.core.lexical.scorer import F1_SCORE, FACTUAL_KNOWLEDGE, LEXICAL_SCORE_NAMES, RECALL
from goldenlens.core.scores import ScoreRecord
from goldenlens.core.view.grid_rows import visible_rows
from goldenlens.core.view.grid_state import FLAG_BITS, GridState
from goldenlens.io.importing.sample import sample_dir
from goldenlens.jobs.importing.import_job import import_inputs
from goldenlens.jobs.scoring.score_job import score_project
from goldenlens.queries import grid_loading
from goldenlens.queries.grid_data import GridData, flag_mask, flags_in
from goldenlens.queries.grid_loading import add_metrics, load_grid, load_grid_head, update_rows
from goldenlens.store.project import ProjectStore

PIPELINES = ("Pipeline1", "Pipeline2", "Pipeline3")
# The "Factual Knowledge Report" of resources/sample/README.md.
FK_REPORT = {
    "q01": (1, 1, 1), "q02": (1, 0, 0), "q03": (0, 0, 0), "q04": (1, 1, 1), "q05": (1, 0, 1),
    "q06": (0, 0, 0), "q07": (1, 0, 0), "q08": (1, 0, 0), "q09": (1, 1, 1), "q10": (1, 1, 1),
}  # fmt: skip


@pytest.fixture
def store(tmp_path: Path) -> Iterator[ProjectStore]:
    """The sample project imported and scored (lexical) in a real project file."""
    with ProjectStore.open(tmp_path / "sample.goldenlens", create=True) as store:
        import_inputs(store, sample_dir() / "golden.csv", sample_dir() / "responses.csv")
        score_project(store)
        yield store


def run_id(store: ProjectStore) -> int:
    run = store.runs.latest()
    assert run is not None
    return run.id


def test_values_equal_the_score_matrix(store: ProjectStore) -> None:
    grid = load_grid(store, run_id(store))
    assert grid.pipelines == PIPELINES
    assert list(grid.question_ids) == [item.id for item in store.golden.items()]
    assert grid.available_metrics == tuple(sorted(LEXICAL_SCORE_NAMES))
    assert set(grid.values) == set(LEXICAL_SCORE_NAMES)
    for metric in LEXICAL_SCORE_NAMES:
        matrix = store.results.score_matrix(run_id(store), metric)
        values = grid.values[metric]
        assert values.shape == (10, 3)
        for (question_id, pipeline), value in matrix.items():
            cell = values[grid.index_of(question_id), PIPELINES.index(pipeline)]
            assert cell == value  # bit for bit
        assert not grid.overridden[metric].any()
        assert not values.flags.writeable


def test_factual_knowledge_report_of_the_sample(store: ProjectStore) -> None:
    grid = load_grid(store, run_id(store), [FACTUAL_KNOWLEDGE])
    fk = grid.values[FACTUAL_KNOWLEDGE]
    report = {str(q): tuple(int(v) for v in row) for q, row in zip(grid.question_ids, fk, strict=True)}
    assert report == FK_REPORT
    assert set(grid.values) == {FACTUAL_KNOWLEDGE}


def test_texts_reviews_and_responses(store: ProjectStore) -> None:
    store.reviews.set("q03", "needs_curation")
    grid = load_grid(store, run_id(store))
    items = store.golden.items()
    assert list(grid.questions) == [i.question for i in items]
    assert list(grid.answers) == [i.answer for i in items]
    assert list(grid.facts) == [i.fact for i in items]
    assert grid.review[grid.index_of("q03")] == "needs_curation"
    assert grid.review[grid.index_of("q01")] == "unreviewed"
    assert grid.responses is not None
    by_key = {(r.question_id, r.pipeline): r.response for r in store.responses.all()}
    assert grid.responses[grid.index_of("q02"), 1] == by_key[("q02", "Pipeline2")]
    assert "170.0 billion" in grid.search_texts()[grid.index_of("q02")]
    assert load_grid(store, run_id(store), responses=False).responses is None


def test_response_texts_are_left_out_of_big_grids_by_default(
    store: ProjectStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(grid_loading, "RESPONSES_AUTO_LIMIT", 29)  # the sample has 30 responses
    grid = load_grid(store, run_id(store))
    assert grid.responses is None
    assert "170.0 billion" not in grid.search_texts()[grid.index_of("q02")]
    assert load_grid(store, run_id(store), responses=True).responses is not None


def test_flag_masks(store: ProjectStore) -> None:
    grid = load_grid(store, run_id(store))
    q02, q03 = grid.index_of("q02"), grid.index_of("q03")
    assert grid.flags[q02, 1] & FLAG_BITS[Flag.LIKELY_HALLUCINATION.value]
    assert flags_in(int(grid.flags[q02, 2])) == [Flag.REFUSAL]
    assert flags_in(int(grid.golden_flags[q03])) == [Flag.AMBIGUOUS_QUESTION]
    assert grid.golden_flags[q02] == 0
    stored = {(q, p, f) for q, p, f in store.results.flags(run_id(store))}
    rebuilt = {
        (str(q), "", f.value)
        for row, q in enumerate(grid.question_ids)
        for f in flags_in(int(grid.golden_flags[row]))
    } | {
        (str(q), p, f.value)
        for row, q in enumerate(grid.question_ids)
        for col, p in enumerate(PIPELINES)
        for f in flags_in(int(grid.flags[row, col]))
    }
    assert rebuilt == stored
    assert flag_mask(["verbose", "refusal", "not_a_flag"]) == FLAG_BITS["verbose"] | FLAG_BITS["refusal"]


def test_overrides_replace_the_value_and_are_marked(store: ProjectStore) -> None:
    store.reviews.set_override(
        "q05", "Pipeline2", FACTUAL_KNOWLEDGE, value=None, passed=True, note="date variant", reviewer="Ann"
    )
    store.reviews.set_override(
        "q02", "Pipeline2", F1_SCORE, value=0.1, passed=None, note="first", reviewer="Bo"
    )
    # The latest override of a key wins; a withdrawal (both None) removes it.
    store.reviews.set_override("q02", "Pipeline2", F1_SCORE, value=0.2, passed=None, note="", reviewer="Bo")
    store.reviews.set_override("q01", "Pipeline1", RECALL, value=0.0, passed=None, reviewer="Ann")
    store.reviews.set_override("q01", "Pipeline1", RECALL, value=None, passed=None, reviewer="Ann")
    grid = load_grid(store, run_id(store))
    q05, q02, q01 = grid.index_of("q05"), grid.index_of("q02"), grid.index_of("q01")
    assert grid.values[FACTUAL_KNOWLEDGE][q05, 1] == 1.0
    assert grid.overridden[FACTUAL_KNOWLEDGE][q05, 1]
    note = grid.override_note(q05, 1, FACTUAL_KNOWLEDGE)
    assert note is not None
    assert note.describe() == "overridden by Ann: date variant; original 0"
    original_f1 = store.results.score_matrix(run_id(store), F1_SCORE)[("q02", "Pipeline2")]
    assert grid.values[F1_SCORE][q02, 1] == 0.2
    assert grid.override_notes[("q02", "Pipeline2", F1_SCORE)].original == original_f1
    assert (
        grid.values[RECALL][q01, 0] == store.results.score_matrix(run_id(store), RECALL)[("q01", "Pipeline1")]
    )
    assert int(sum(m.sum() for m in grid.overridden.values())) == 2
    # Filters see the overridden value: Pipeline2 now "found" the q05 fact.
    assert "q05" not in {str(grid.question_ids[r]) for r in visible_rows(grid, GridState(disagree_only=True))}


def test_metric_subset_then_add_metrics(store: ProjectStore) -> None:
    store.reviews.set_override("q01", "Pipeline3", RECALL, value=0.5, passed=None)
    grid = load_grid(store, run_id(store), [F1_SCORE])
    assert set(grid.values) == {F1_SCORE}
    assert len(grid.available_metrics) == 7
    more = add_metrics(grid, store, [F1_SCORE, RECALL])
    full = load_grid(store, run_id(store))
    assert set(more.values) == {F1_SCORE, RECALL}
    np.testing.assert_array_equal(more.values[RECALL], full.values[RECALL])
    assert more.overridden[RECALL][0, 2]
    np.testing.assert_array_equal(more.values[F1_SCORE], grid.values[F1_SCORE])
    assert add_metrics(more, store, [RECALL]) is more


def test_no_run_gives_questions_without_scores(store: ProjectStore) -> None:
    grid = load_grid(store, None, [FACTUAL_KNOWLEDGE])
    assert len(grid) == 10
    assert np.isnan(grid.values[FACTUAL_KNOWLEDGE]).all()
    assert not grid.flags.any()
    empty = GridData.empty(PIPELINES)
    assert (len(empty), empty.flags.shape) == (0, (0, 3))


def _assert_same(a: GridData, b: GridData) -> None:
    names = ("question_ids", "questions", "answers", "facts", "flags", "golden_flags", "review", "responses")
    for name in names:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    assert set(a.values) == set(b.values)
    for metric in a.values:
        np.testing.assert_array_equal(a.values[metric], b.values[metric], err_msg=metric)
        np.testing.assert_array_equal(a.overridden[metric], b.overridden[metric], err_msg=metric)
    assert dict(a.override_notes) == dict(b.override_notes)
    assert a.search_texts() == b.search_texts()


def test_update_rows_reloads_one_question(store: ProjectStore) -> None:
    rid = run_id(store)
    grid = load_grid(store, rid)
    grid.search_texts()  # cached: update_rows must patch it
    item = store.golden.item("q04")
    assert item is not None
    edited = replace(item, question="Operating income, first half of 2023?", fact="12.5 billion")
    store.golden.update(edited)
    store.results.delete(rid, [("q04", p) for p in PIPELINES] + [("q04", "")])
    store.reviews.set_override(
        "q04", "Pipeline2", F1_SCORE, value=0.99, passed=None, note="checked", reviewer="Ann"
    )
    store.reviews.set("q04", "accepted")
    updated = update_rows(grid, store, rid, ["q04"])
    _assert_same(updated, load_grid(store, rid))
    q04 = updated.index_of("q04")
    assert updated.questions[q04] == "Operating income, first half of 2023?"
    assert np.isnan(updated.values[RECALL][q04]).all()  # scores deleted, not yet re-scored
    assert updated.values[F1_SCORE][q04, 1] == 0.99
    assert grid.questions[q04] == item.question  # the old grid is untouched
    assert "first half" in updated.search_texts()[q04]


def test_update_rows_falls_back_to_a_full_reload(store: ProjectStore) -> None:
    rid = run_id(store)
    grid = load_grid(store, rid, [F1_SCORE], responses=False)
    store.golden.add(GoldenItem("q11", "A new question?", "An answer.", "answer"))
    updated = update_rows(grid, store, rid, ["q11"])
    assert len(updated) == 11
    assert updated.index_of("q11") == 10
    assert set(updated.values) == {F1_SCORE}
    assert updated.responses is None
    assert math.isnan(updated.values[F1_SCORE][10, 0])


def test_threshold_and_disagreements_on_the_sample(store: ProjectStore) -> None:
    grid = load_grid(store, run_id(store))

    def shown(**changes: object) -> list[str]:
        state = replace(GridState(), **changes)  # type: ignore[arg-type]
        return [str(grid.question_ids[r]) for r in visible_rows(grid, state)]

    assert shown(disagree_only=True) == ["q02", "q05", "q07", "q08"]
    assert shown(threshold="factual_knowledge == 0") == ["q02", "q03", "q05", "q06", "q07", "q08"]
    recall = grid.values[RECALL][:, 1]
    low = [str(q) for q, r in zip(grid.question_ids, recall, strict=True) if r < 0.5]
    assert low
    assert shown(threshold="Pipeline2.recall < 0.5") == low
    assert shown(flag=Flag.LIKELY_HALLUCINATION.value) == ["q02", "q06", "q07"]


# -- the first rows alone (load_grid_head) ----------------------------------------------------


def _marked(store: ProjectStore) -> int:
    """The sample with an override, a review and flags in its first rows; returns the run id."""
    store.reviews.set_override(
        "q02", "Pipeline2", F1_SCORE, value=0.25, passed=None, note="n", reviewer="Ann"
    )
    store.reviews.set_override("q08", "Pipeline1", FACTUAL_KNOWLEDGE, value=None, passed=True, reviewer="Bo")
    store.reviews.set("q03", "needs_curation")
    store.reviews.set("q09", "accepted")
    return run_id(store)


def _assert_first_rows(head: GridData, full: GridData, n: int) -> None:
    """``head`` holds exactly the first ``n`` rows of ``full``, value for value."""
    assert len(head) == n
    assert head.pipelines == full.pipelines
    assert head.available_metrics == full.available_metrics
    names = ("question_ids", "questions", "answers", "facts", "flags", "golden_flags", "review", "responses")
    for name in names:
        mine, theirs = getattr(head, name), getattr(full, name)
        assert (mine is None) == (theirs is None), name
        if mine is not None:
            np.testing.assert_array_equal(mine, theirs[:n], err_msg=name)
    assert set(head.values) == set(full.values)
    for metric in full.values:
        np.testing.assert_array_equal(head.values[metric], full.values[metric][:n], err_msg=metric)
        np.testing.assert_array_equal(head.overridden[metric], full.overridden[metric][:n], err_msg=metric)
    first = set(full.question_ids[:n])
    assert dict(head.override_notes) == {k: v for k, v in full.override_notes.items() if k[0] in first}
    assert head.search_texts() == full.search_texts()[:n]


@pytest.mark.parametrize("n", [0, 1, 4, 9])
def test_head_is_the_first_rows_of_the_full_grid(store: ProjectStore, n: int) -> None:
    rid = _marked(store)
    full = load_grid(store, rid)
    head = load_grid_head(store, rid, limit=n)
    _assert_first_rows(head, full, n)
    assert (head.complete, head.total) == (False, 10)
    assert (full.complete, full.total) == (True, 10)
    if n >= 4:
        q02, q03 = head.index_of("q02"), head.index_of("q03")
        assert head.values[F1_SCORE][q02, 1] == 0.25
        assert head.overridden[F1_SCORE][q02, 1]
        assert head.review[q03] == "needs_curation"
        assert head.golden_flags[q03]  # the sample flags q03 as ambiguous


@pytest.mark.parametrize("n", [10, 11, 500])
def test_head_of_a_small_project_is_the_full_grid(store: ProjectStore, n: int) -> None:
    rid = _marked(store)
    head = load_grid_head(store, rid, [F1_SCORE, FACTUAL_KNOWLEDGE], limit=n)
    assert (head.complete, head.total) == (True, 10)
    _assert_same(head, load_grid(store, rid, [F1_SCORE, FACTUAL_KNOWLEDGE]))


def test_head_reads_only_its_rows(store: ProjectStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every query of a partial head is limited to its ids: its cost does not grow with the set."""
    rid = _marked(store)
    asked: dict[str, list[object]] = {}
    for name in ("scores", "flags", "reviews", "overrides", "responses"):
        real = getattr(store.grid, name)

        def spy(*args: object, _real: object = real, _name: str = name) -> object:
            asked.setdefault(_name, []).append(args[-1])
            return _real(*args)  # type: ignore[operator]

        monkeypatch.setattr(store.grid, name, spy)
    head = load_grid_head(store, rid, limit=3)
    assert len(head) == 3
    assert set(asked) == {"scores", "flags", "reviews", "overrides", "responses"}
    for name, calls in asked.items():
        for ids in calls:
            assert list(ids) == ["q01", "q02", "q03"], name  # type: ignore[call-overload]
    assert len(asked["scores"]) == len(LEXICAL_SCORE_NAMES)


def test_head_of_no_run_and_of_an_empty_project(store: ProjectStore, tmp_path: Path) -> None:
    head = load_grid_head(store, None, [FACTUAL_KNOWLEDGE], limit=2)
    assert (len(head), head.total, head.complete) == (2, 10, False)
    assert np.isnan(head.values[FACTUAL_KNOWLEDGE]).all()
    with ProjectStore.open(tmp_path / "empty.goldenlens", create=True) as empty:
        nothing = load_grid_head(empty, None, limit=5)
        assert (len(nothing), nothing.total, nothing.complete) == (0, 0, True)
        assert empty.grid.question_count() == 0
    assert store.grid.question_count() == 10
    assert [row[0] for row in store.grid.golden(limit=3)] == ["q01", "q02", "q03"]


def test_head_keeps_partial_through_add_metrics_and_update_rows(store: ProjectStore) -> None:
    rid = _marked(store)
    full = load_grid(store, rid)
    head = load_grid_head(store, rid, [F1_SCORE], limit=5)
    more = add_metrics(head, store, [RECALL, FACTUAL_KNOWLEDGE])
    assert (more.complete, more.total, len(more)) == (False, 10, 5)
    for metric in (RECALL, FACTUAL_KNOWLEDGE):
        np.testing.assert_array_equal(more.values[metric], full.values[metric][:5])
    store.reviews.set("q04", "accepted")
    updated = update_rows(more, store, rid, ["q04"])
    assert (updated.complete, updated.total, updated.review[3]) == (False, 10, "accepted")
    store.golden.add(GoldenItem("q11", "A new question?", "An answer.", "answer"))
    reloaded = update_rows(updated, store, rid, ["q11"])  # a new question: reload as many first rows
    assert (reloaded.complete, reloaded.total, len(reloaded)) == (False, 11, 5)
    assert set(reloaded.values) == {F1_SCORE, RECALL, FACTUAL_KNOWLEDGE}


def test_the_whole_grid_places_each_metric_by_its_own_keys_when_they_differ(tmp_path: Path) -> None:
    """The full-grid load reads bare value columns once the keys are placed; a metric whose
    scores sit at other keys (a response scored for one metric only) is placed on its own."""
    with ProjectStore.open(tmp_path / "p.goldenlens", create=True) as store:
        store.golden.replace([GoldenItem(f"q{i}", f"Q{i}?", "a", "f") for i in range(3)], source="test")
        store.responses.replace(
            [PipelineResponse(f"q{i}", p, "r") for i in range(3) for p in ("A", "B")], ["A", "B"]
        )
        run = store.runs.start("lexical", {}, total=6)
        records = [
            ScoreRecord(f"q{i}", p, "f1_score", 0.1 * i + (0.5 if p == "B" else 0), "{}")
            for i in range(3)
            for p in ("A", "B")
        ]
        records += [
            ScoreRecord("q2", "A", "recall_over_words", 0.9, "{}"),
            ScoreRecord("q0", "B", "recall_over_words", 0.3, "{}"),
        ]
        store.results.save(run, records, [])
        store.runs.finish(run)
        grid = load_grid(store, run, ["f1_score", "recall_over_words"])
    f1 = grid.values["f1_score"]
    assert f1.tolist() == [[0.0, 0.5], [0.1, 0.6], [0.2, 0.7]]
    recall = grid.values["recall_over_words"]
    assert [[None if v != v else v for v in row] for row in recall.tolist()] == [
        [None, 0.3],
        [None, None],
        [0.9, None],
    ]
