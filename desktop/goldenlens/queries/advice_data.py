"""The curation advice shaped for the review queue and the advisor pane.

:class:`AdviceIndex` wraps a :class:`~goldenlens.core.advice.values.ProjectAdvice` (built in a
worker by :func:`goldenlens.jobs.curation.advice_job.build_advice`) with what the GUI thread asks of it
many times a second: one question's diagnoses, the questions that have a diagnosis code, and
how many questions have each code. The review queue filters *questions*, so its counts are
questions per code (q03 with two "correct but rephrased" responses counts once);
:meth:`AdviceIndex.diagnosis_counts` keeps the advisor's own count of diagnoses.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from goldenlens.core.advice.values import CODE_ORDER, AdviceThresholds, ProjectAdvice, QuestionAdvice


@dataclass(frozen=True)
class AdviceIndex:
    """Look-ups over one project's advice; build with :meth:`of`."""

    advice: ProjectAdvice
    _questions: dict[str, QuestionAdvice] = field(default_factory=dict, repr=False)
    _by_code: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)

    @classmethod
    def of(cls, advice: ProjectAdvice) -> AdviceIndex:
        """Index ``advice`` (one pass over its diagnoses)."""
        questions = {q.question_id: q for q in advice.questions}
        members: dict[str, set[str]] = {}
        for question in advice.questions:
            for diagnosis in question.diagnoses:
                members.setdefault(diagnosis.code.value, set()).add(question.question_id)
        by_code: dict[str, frozenset[str]] = {
            code.value: frozenset(members[code.value]) for code in CODE_ORDER if code.value in members
        }
        return cls(advice, questions, by_code)

    @classmethod
    def empty(cls) -> AdviceIndex:
        """No advice (no project, or no scores yet)."""
        return cls.of(ProjectAdvice((), (), AdviceThresholds()))

    def question(self, question_id: str) -> QuestionAdvice | None:
        """The advice of one question; ``None`` for a question the advice does not know."""
        return self._questions.get(question_id)

    def codes(self) -> tuple[str, ...]:
        """The diagnosis codes that occur, in the advisor's display order."""
        return tuple(self._by_code)

    def questions_with(self, code: str | None) -> frozenset[str]:
        """Questions with a diagnosis of ``code``; ``None``: with any diagnosis."""
        if code is None:
            return frozenset(q.question_id for q in self.advice.questions if q.diagnoses)
        return self._by_code.get(code, frozenset())

    def question_counts(self) -> dict[str, int]:
        """Questions per diagnosis code, in display order, codes that occur only."""
        return {code: len(ids) for code, ids in self._by_code.items()}

    def diagnosis_counts(self) -> dict[str, int]:
        """Diagnoses per code (a question may count several times), as the CLI reports them."""
        return self.advice.counts()

    def __len__(self) -> int:
        return len(self.advice.questions)
