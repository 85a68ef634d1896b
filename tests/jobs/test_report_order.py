"""Responses read from files are scored in golden order, then pipeline order, as a project
lists them; responses of one question and pipeline never change places; each response's place
names its question and pipeline."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from goldenlens.core.inputs import GoldenItem, PipelineResponse
from goldenlens.jobs.scoring.score_files import _in_report_order

ITEMS = tuple(GoldenItem(f"q{n}", f"Q{n}?", "a", "f") for n in range(4))
PIPELINES = ("B", "A", "C")


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2)), max_size=20))
def test_responses_are_in_golden_then_pipeline_order(keys: list[tuple[int, int]]) -> None:
    responses = tuple(
        PipelineResponse(f"q{question}", PIPELINES[pipeline], f"text {n}", (), n + 2)
        for n, (question, pipeline) in enumerate(keys)
    )
    # The order by (golden position, pipeline position), ties kept in file order, spelled out.
    expected = [
        response
        for question in range(4)
        for pipeline in PIPELINES
        for response in responses
        if response.question_id == f"q{question}" and response.pipeline == pipeline
    ]
    ordered, places = _in_report_order(ITEMS, PIPELINES, responses)
    assert ordered == expected
    assert places == [int(r.question_id[1:]) * 3 + PIPELINES.index(r.pipeline) for r in expected]
