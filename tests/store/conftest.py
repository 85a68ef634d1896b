"""Fixtures for the store tests: real project files in ``tmp_path``, no mocks."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from goldenlens.core.inputs import GoldenItem, PipelineResponse
from goldenlens.core.lexical.signature import lexical_signature
from goldenlens.core.problems import Problem, Severity
from goldenlens.core.scores import ScoreRecord, ScoreStatus
from goldenlens.store import ProjectStore

PIPELINES = ("baseline", "rag-v2")

# Text that must survive the round trip exactly: newlines, CRLF, tabs, a leading '=' (a
# spreadsheet formula), emoji, combining accents, right-to-left script, outer spaces.
AWKWARD = "=SUM(A1:A3)\nline two\r\nthird\tcol 🦜 naïve cafe\u0301 שלום  "


def golden_items() -> list[GoldenItem]:
    return [
        GoldenItem("q1", "How many shares?", "10,317,750,796 shares.", "10,317,750,796", "", 2),
        GoldenItem("q2", AWKWARD, "Seattle, Washington", "Seattle<OR>Washington", "note 📝", 3),
        GoldenItem("q3", "Net sales?", "$170.0 billion", "170.0<AND>billion", "", 4),
    ]


def responses() -> list[PipelineResponse]:
    return [
        PipelineResponse("q1", "baseline", "There were 10,317,750,796 shares.", ("ctx A", "ctx B"), 2),
        PipelineResponse("q1", "rag-v2", "About ten billion.", (), 3),
        PipelineResponse("q2", "baseline", AWKWARD, (AWKWARD, "", "🦜"), 4),
        PipelineResponse("q2", "rag-v2", "Seattle", ("Seattle is in Washington.",), 5),
        PipelineResponse("q3", "baseline", "", (), 6),
        PipelineResponse("q3", "rag-v2", "$170.0 billion", ("net sales were $170.0 billion",), 7),
    ]


def problems() -> list[Problem]:
    return [
        Problem("golden.xlsx", "empty fact part", Severity.WARNING, "Golden", 7, "fact"),
        Problem("responses.csv", "fuzzy join of 'Q 1' to 'q1'", Severity.INFO, None, 3, None),
        Problem("responses.csv", "no such golden id 'q9'", Severity.ERROR),
    ]


ScoreFactory = Callable[..., ScoreRecord]


def make_score(
    question_id: str, pipeline: str, metric: str = "f1_score", value: float | None = 0.5, **detail: object
) -> ScoreRecord:
    """A score record; ``value=None`` gives a not-scored record with a reason."""
    signature = lexical_signature(metric, {"counting": "set"}).to_json()
    if value is None:
        return ScoreRecord(
            question_id,
            pipeline,
            metric,
            None,
            signature,
            ScoreStatus.NOT_SCORED,
            "no statements",
            dict(detail),
        )
    return ScoreRecord(question_id, pipeline, metric, value, signature, detail=dict(detail))


@pytest.fixture
def project_path(tmp_path: Path) -> Path:
    return tmp_path / "demo.goldenlens"


@pytest.fixture
def store(project_path: Path) -> Iterator[ProjectStore]:
    """An empty, freshly created project."""
    with ProjectStore.open(project_path, create=True) as opened:
        yield opened


@pytest.fixture
def imported(store: ProjectStore) -> ProjectStore:
    """A project with the golden items, responses and problems above imported."""
    store.responses.import_inputs(
        golden_items(),
        responses(),
        PIPELINES,
        problems(),
        golden_source="golden.xlsx",
        responses_source="responses.csv",
    )
    return store


@pytest.fixture
def score() -> ScoreFactory:
    return make_score


@pytest.fixture
def items() -> list[GoldenItem]:
    return golden_items()


@pytest.fixture
def answers() -> list[PipelineResponse]:
    """The responses above (named ``answers`` so as not to clash with the store method)."""
    return responses()


@pytest.fixture
def found_problems() -> list[Problem]:
    return problems()


@pytest.fixture
def awkward() -> str:
    return AWKWARD
