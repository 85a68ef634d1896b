"""Judge runs on some questions only: ``only`` (ids) and ``where`` (the grid's threshold
expressions on the lexical scores), through a scripted judge on a real project file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.judge.scripted import ScriptedEngine

from badinputs import write_csv
from goldenlens.core.problems import InputError
from goldenlens.jobs.importing.import_and_score import import_and_score
from goldenlens.jobs.judging.judge_job import Engines, JudgeOptions, judge_project
from goldenlens.store.project import ProjectStore

# q1 and q3 answer word for word (exact match 1), q2 answers something else (exact match 0).
GOLDEN = [
    ["id", "question", "answer", "fact"],
    ["q1", "Capital of France?", "Paris", "Paris"],
    ["q2", "Capital of Spain?", "Madrid", "Madrid"],
    ["q3", "Capital of Italy?", "Rome", "Rome"],
]
RESPONSES = [
    ["question_id", "pipeline", "response", "contexts"],
    ["q1", "P1", "Paris", json.dumps(["Paris is the capital of France."])],
    ["q2", "P1", "Lisbon is lovely", json.dumps(["Madrid is the capital of Spain."])],
    ["q3", "P1", "Rome", json.dumps(["Rome is the capital of Italy."])],
]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "p.goldenlens"
    golden, responses = write_csv(tmp_path / "g.csv", GOLDEN), write_csv(tmp_path / "r.csv", RESPONSES)
    import_and_score(path, golden, responses)
    return path


def _judged(project: Path, **selection: object) -> list[str]:
    engine = ScriptedEngine(responder=lambda _m, _s: '{"verdict": "YES", "reason": "ok"}')
    options = JudgeOptions(metrics=("relevancy",), **selection)  # type: ignore[arg-type]
    with ProjectStore.open(project) as store:
        run_id = judge_project(store, options, engines=Engines(judge=engine))
        return sorted({r.question_id for r in store.results.scores(run_id)})


@pytest.mark.parametrize(
    ("selection", "expected"),
    [
        ({}, ["q1", "q2", "q3"]),
        ({"only": ("q3", "q1")}, ["q1", "q3"]),
        ({"where": "em == 0"}, ["q2"]),
        ({"where": "P1.em > 0.5"}, ["q1", "q3"]),
        ({"where": "em == 1", "only": ("q3",)}, ["q3"]),
    ],
)
def test_judge_only_the_selected_questions(
    project: Path, selection: dict[str, object], expected: list[str]
) -> None:
    assert _judged(project, **selection) == expected


@pytest.mark.parametrize(
    ("selection", "message"),
    [
        ({"only": ("q9",)}, "no such question: q9"),
        ({"where": "bogus < 1"}, "bogus"),
        ({"where": "em > 2"}, "no question is selected"),
    ],
)
def test_a_bad_selection_is_bad_input_before_any_judging(
    project: Path, selection: dict[str, object], message: str
) -> None:
    with pytest.raises(InputError, match=message):
        _judged(project, **selection)


def test_the_selection_is_part_of_the_run_parameters() -> None:
    options = JudgeOptions(metrics=("relevancy",), only=("q1",), where="f1 < 0.5")
    assert options.params()["only"] == ["q1"]
    assert JudgeOptions.from_params(options.params()) == options
