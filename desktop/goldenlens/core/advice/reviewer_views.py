"""What the reviewer already said of the responses a diagnosis is about.

The advisor diagnoses what the automatic scoring saw (a golden-set fix changes that), so a
reviewer's verdict does not remove a diagnosis. But a diagnosis that tells the analyst a
response is wrong when the reviewer counted it correct must not read as an open finding:
each diagnosis carries the reviewer's word on its responses (:attr:`Diagnosis.reviewer`),
and says whether that word agrees with what the diagnosis claims
(:data:`~goldenlens.core.calibration.diagnosis_check.CLAIMS`).

The reviewer's word on a response is its label in force, else an override of its Factual
Knowledge (1: correct, 0: incorrect).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Final

from goldenlens.core.advice.values import AdviceSeverity, Diagnosis, ProjectAdvice, QuestionAdvice
from goldenlens.core.calibration.diagnosis_check import CLAIMS
from goldenlens.core.view.wording import one_line

#: Pipelines a golden row's diagnosis names the reviewer's verdicts of (the rest are counted).
SHOWN_VERDICTS: Final = 6
#: Characters of a reviewer's note quoted (a cell of the Advice sheet holds 32,767 at most).
NOTE_CHARS: Final = 160


def quoted_note(note: str) -> str:
    """``": note"`` for a verdict's words, cut to :data:`NOTE_CHARS` (``""`` without a note)."""
    shown = one_line(note, NOTE_CHARS)
    return ": " + shown if shown else ""


@dataclass(frozen=True)
class ReviewerVerdict:
    """The reviewer's word on one response: ``correct``, and how it was given (``said``:
    "labelled by Ana: checked the filing", "Factual Knowledge overridden to 1 by root")."""

    correct: bool
    said: str
    #: From a label (the diagnosis checks count these), not from an override.
    labelled: bool = False

    @property
    def word(self) -> str:
        return "correct" if self.correct else "incorrect"


def with_reviewer_verdicts(
    advice: ProjectAdvice, verdicts: Mapping[tuple[str, str], ReviewerVerdict]
) -> ProjectAdvice:
    """``advice`` with each diagnosis told what the reviewer said of its responses: a response's
    diagnosis of that response, a golden row's of each of the question's responses."""
    if not verdicts:
        return advice
    pipelines = advice.pipelines
    questions = []
    for question in advice.questions:
        said = {
            p: verdicts[(question.question_id, p)] for p in pipelines if (question.question_id, p) in verdicts
        }
        if not said or not question.diagnoses:
            questions.append(question)
            continue
        diagnoses = tuple(_told(d, said) for d in question.diagnoses)
        questions.append(QuestionAdvice(question.question_id, question.question, diagnoses))
    return replace(advice, questions=tuple(questions))


def _told(diagnosis: Diagnosis, said: Mapping[str, ReviewerVerdict]) -> Diagnosis:
    if not diagnosis.pipeline:
        parts = [f"{pipeline} {v.word} ({v.said})" for pipeline, v in list(said.items())[:SHOWN_VERDICTS]]
        more = len(said) - SHOWN_VERDICTS
        text = "The reviewer counted " + "; ".join(parts)
        return replace(diagnosis, reviewer=text + (f"; and {more} more pipelines." if more > 0 else "."))
    verdict = said.get(diagnosis.pipeline)
    if verdict is None:
        return diagnosis
    text = f"The reviewer counted this response {verdict.word} ({verdict.said})"
    claim = CLAIMS.get(diagnosis.code.value)
    if claim is None:
        return replace(diagnosis, reviewer=text + ".")
    if claim == verdict.correct:
        return replace(diagnosis, reviewer=text + ", as this diagnosis says.")
    # Its fix would act on a claim the reviewer denied (a variant from an answer judged
    # incorrect makes a known-wrong answer score as right): it is not offered.
    return replace(
        diagnosis,
        reviewer=text + ": this diagnosis does not hold here.",
        refuted=True,
        fix=None,
        action=f"None: the reviewer counted this response {verdict.word}.",
    )


def with_demotions(advice: ProjectAdvice) -> ProjectAdvice:
    """``advice`` with every diagnosis of a rule this project's labels demote
    (:attr:`~goldenlens.core.calibration.diagnosis_check.DiagnosisCheck.demoted`: more often
    wrong than right) at low severity, whatever the rule gave it: "demoted" that left a
    diagnosis high would change nothing a reader sees first."""
    demoted = {code for code, check in advice.checks.items() if check.demoted}
    if not demoted:
        return advice
    questions = tuple(
        replace(
            question,
            diagnoses=tuple(
                replace(d, severity=AdviceSeverity.LOW) if d.code.value in demoted else d
                for d in question.diagnoses
            ),
        )
        for question in advice.questions
    )
    return replace(advice, questions=questions)
