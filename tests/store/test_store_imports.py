"""Responses and imports: round trips, ordering and all-or-nothing imports."""

from __future__ import annotations

from pathlib import Path

import pytest

from goldenlens.core.inputs import GoldenItem, PipelineResponse
from goldenlens.core.problems import Problem, Severity
from goldenlens.store import ProjectStore, StoreError


def test_responses_round_trip_with_contexts_in_table_order(
    store: ProjectStore, items: list[GoldenItem], answers: list[PipelineResponse], awkward: str
) -> None:
    store.golden.replace(items)
    store.responses.replace(list(reversed(answers)), ["rag-v2", "baseline"])
    assert store.responses.pipelines() == ["rag-v2", "baseline"]
    got = store.responses.all()
    assert [(r.question_id, r.pipeline) for r in got] == [
        ("q1", "rag-v2"), ("q1", "baseline"), ("q2", "rag-v2"), ("q2", "baseline"), ("q3", "rag-v2"),
        ("q3", "baseline"),
    ]  # fmt: skip
    assert sorted(got, key=lambda r: r.source_row) == answers
    weird = next(r for r in got if r.question_id == "q2" and r.pipeline == "baseline")
    assert weird.response == awkward
    assert weird.contexts == (awkward, "", "🦜")
    assert isinstance(weird.contexts, tuple)


def test_replace_responses_drops_pipelines_no_longer_listed(
    imported: ProjectStore, answers: list[PipelineResponse]
) -> None:
    only_baseline = [r for r in answers if r.pipeline == "baseline"]
    imported.responses.replace(only_baseline, ["baseline"])
    assert imported.responses.pipelines() == ["baseline"]
    assert imported.responses.all() == only_baseline


def test_responses_must_name_listed_pipelines(
    imported: ProjectStore, answers: list[PipelineResponse]
) -> None:
    with pytest.raises(ValueError, match="rag-v2"):
        imported.responses.replace(answers, ["baseline"])
    with pytest.raises(ValueError, match="duplicate"):
        imported.responses.replace(answers, ["baseline", "rag-v2", "baseline"])
    assert imported.responses.all() == answers


def test_problems_are_those_of_the_latest_import(
    imported: ProjectStore,
    items: list[GoldenItem],
    answers: list[PipelineResponse],
    found_problems: list[Problem],
) -> None:
    assert imported.responses.problems() == found_problems
    later = [Problem("golden2.xlsx", "verbose golden answer", Severity.WARNING, "Sheet1", 4, "answer")]
    second = imported.responses.import_inputs(
        items, answers, ["baseline", "rag-v2"], later, golden_source="golden2.xlsx", responses_source="r.csv"
    )
    assert imported.responses.problems() == later
    assert [i.id for i in imported.responses.imports()][-1] == second
    assert imported.responses.imports()[-1].golden_count == 3
    assert imported.responses.imports()[-1].response_count == 6


def test_golden_only_import_keeps_responses_of_remaining_ids(
    imported: ProjectStore, items: list[GoldenItem], answers: list[PipelineResponse]
) -> None:
    imported.responses.import_inputs(
        items[:2], None, [], [], golden_source="golden.xlsx", responses_source=""
    )
    assert imported.responses.all() == [r for r in answers if r.question_id != "q3"]


def test_failed_import_leaves_the_file_untouched(
    project_path: Path,
    imported: ProjectStore,
    items: list[GoldenItem],
    answers: list[PipelineResponse],
    found_problems: list[Problem],
) -> None:
    history_before = imported.golden.history()
    imports_before = imported.responses.imports()
    new_items = [GoldenItem("n1", "new?", "new", "new")]
    # The golden half is fine; the responses half points at a question id that is not
    # golden, which the foreign key refuses - after the golden items were already replaced.
    orphan = [PipelineResponse("n1", "baseline", "ok"), PipelineResponse("q404", "baseline", "orphan")]
    with pytest.raises(
        StoreError, match=r"demo\.goldenlens: could not save the responses: FOREIGN KEY.*'q404'"
    ):
        imported.responses.import_inputs(
            new_items, orphan, ["baseline"], [], golden_source="golden-new.xlsx", responses_source="r.csv"
        )

    def unchanged(store: ProjectStore) -> None:
        assert store.golden.items() == items
        assert store.responses.all() == answers
        assert store.responses.pipelines() == ["baseline", "rag-v2"]
        assert store.responses.problems() == found_problems
        assert store.responses.imports() == imports_before
        assert store.golden.history() == history_before

    unchanged(imported)
    imported.close()
    with ProjectStore.open(project_path) as reopened:
        unchanged(reopened)


def test_replace_responses_with_unknown_question_changes_nothing(
    imported: ProjectStore, answers: list[PipelineResponse]
) -> None:
    with pytest.raises(StoreError, match=r"'ghost'"):
        imported.responses.replace(
            [*answers[:2], PipelineResponse("ghost", "baseline", "boo")], ["baseline", "rag-v2"]
        )
    assert imported.responses.all() == answers
    assert imported.responses.pipelines() == ["baseline", "rag-v2"]


def test_import_with_duplicate_golden_ids_changes_nothing(
    imported: ProjectStore, items: list[GoldenItem], answers: list[PipelineResponse]
) -> None:
    imports_before = imported.responses.imports()
    with pytest.raises(ValueError, match="duplicate golden ids"):
        imported.responses.import_inputs(
            [*items, items[0]], answers, ["baseline", "rag-v2"], [], golden_source="g", responses_source="r"
        )
    assert imported.responses.imports() == imports_before
    assert imported.golden.items() == items
    # the store is still usable: the failed transaction was closed
    imported.reviews.set("q1", "accepted")
    assert list(imported.reviews.all()) == ["q1"]
