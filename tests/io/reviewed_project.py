"""The bundled sample as a project after a review, made by the real jobs: scored, a judge run
stored by hand (no model: scored rows, a not-scored row with its reason), a reviewer's override
of q06/Pipeline1's Factual Knowledge (0 → 1), review decisions on two questions, and every
response labelled (three with a reviewer's note, the rest as their exact Factual Knowledge
says), so the reports show what reviewers would judge. What a report shows of each is known
here, for the report tests to look for.

Import as ``from reviewed_project import reviewed_project`` (``tests/io`` is on the path of the
tests that sit there).
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from goldenlens.core.calibration.labels import Verdict
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE
from goldenlens.core.lexical.signature import Signature
from goldenlens.core.runs.run_kinds import JUDGE_RUN
from goldenlens.core.scores import ScoreRecord, ScoreStatus
from goldenlens.jobs.curation import edits as curation
from goldenlens.jobs.importing.sample_project import ensure_sample_project
from goldenlens.jobs.labelling.label_edits import label_response
from goldenlens.store.project import ProjectStore
from sample_expectations import FK_REPORT, PIPELINES

JUDGE_MODEL: Final = "SmolLM2-135M-Instruct-Q8_0.gguf"
FAITHFULNESS: Final = Signature("faithfulness", "1", {"judge_model": JUDGE_MODEL, "prompt_version": "2"})
#: The row the judge could not score, and why.
NOT_SCORED_KEY: Final = ("q01", "Pipeline2")
NOT_SCORED_REASON: Final = "the response has no statements to check against the context"
#: The override: (question, pipeline, metric, value, reviewer, note).
OVERRIDE: Final = ("q06", "Pipeline1", FACTUAL_KNOWLEDGE, 1.0, "Ana", "abbreviated figure is the same fact")
#: Review decisions: question -> (status, note, reviewer).
REVIEWS: Final = {
    "q02": ("accepted", "figure checked against the filing", "Ana"),
    "q05": ("needs_curation", "the fact misses the segment name", "Bo"),
}
#: Labels with a note: (question, pipeline) -> (verdict, reviewer, note); the other responses
#: are labelled by :data:`OTHER_REVIEWER` as their Factual Knowledge says.
OTHER_REVIEWER: Final = "Cy"
LABELS: Final = {
    ("q01", "Pipeline1"): (Verdict.CORRECT, "Ana", "names the CEO"),
    ("q03", "Pipeline2"): (Verdict.INCORRECT, "Bo", "wrong quarter"),
    ("q07", "Pipeline3"): (Verdict.UNSURE, "Ana", ""),
}


def judge_value(question_index: int, pipeline_index: int) -> float:
    """The faithfulness stored for the sample's ``question_index``-th question and pipeline."""
    return ((question_index * 3 + pipeline_index) % 11) / 10


def reviewed_project(folder: Path) -> Path:
    """Make the project in ``folder`` (see the module docstring); its path."""
    path = ensure_sample_project(folder / "reviewed.goldenlens")
    with ProjectStore.open(path) as store:
        items = store.golden.items()
        pipelines = store.responses.pipelines()
        records = []
        for qi, item in enumerate(items):
            for pi, pipeline in enumerate(pipelines):
                if (item.id, pipeline) == NOT_SCORED_KEY:
                    records.append(
                        ScoreRecord(
                            item.id, pipeline, "faithfulness", None, FAITHFULNESS.to_json(),
                            ScoreStatus.NOT_SCORED, NOT_SCORED_REASON,
                        )
                    )  # fmt: skip
                else:
                    value = judge_value(qi, pi)
                    records.append(
                        ScoreRecord(item.id, pipeline, "faithfulness", value, FAITHFULNESS.to_json())
                    )
        run_id = store.runs.start(JUDGE_RUN, {"metrics": ["faithfulness"]}, len(records))
        store.results.save(run_id, records)
        store.runs.finish(run_id)
        question_id, pipeline, metric, value, reviewer, note = OVERRIDE
        curation.set_override(
            store, question_id, pipeline, metric, value=value, passed=True, note=note, reviewer=reviewer
        )
        for question_id, (status, note, reviewer) in REVIEWS.items():
            curation.set_review(store, question_id, status, note, reviewer=reviewer)
        for question_id, facts in FK_REPORT.items():
            for pipeline, fact in zip(PIPELINES, facts, strict=True):
                verdict = Verdict.CORRECT if fact else Verdict.INCORRECT
                label_response(store, question_id, pipeline, verdict, reviewer=OTHER_REVIEWER)
        # Last, so they are the verdicts in force even where another response has the same answer.
        for (question_id, pipeline), (verdict, reviewer, note) in LABELS.items():
            label_response(store, question_id, pipeline, verdict, reviewer=reviewer, note=note)
    return path
