"""What the labelling view shows: one question's distinct answers with the verdict in force on
each, and the questions of the latest labelling round still to label, in the plan's order."""

from __future__ import annotations

from dataclasses import dataclass

from goldenlens.core.calibration.labels import LabelRecord, LabelSource, LabelState
from goldenlens.core.inputs import GoldenItem
from goldenlens.core.lexical.scorer import FACTUAL_KNOWLEDGE
from goldenlens.store.project import ProjectStore


@dataclass(frozen=True)
class AnswerCard:
    """One distinct answer to the question, as every pipeline in :attr:`pipelines` gave it (the
    first is the one a label is given on), with the verdict in force on it."""

    pipelines: tuple[str, ...]
    response: str
    #: Factual Knowledge of the first pipeline's response (``None``: not scored).
    factual_knowledge: float | None
    state: LabelState
    source: LabelSource
    record: LabelRecord | None
    stale_reason: str = ""

    @property
    def labelled(self) -> bool:
        return self.state is not LabelState.NONE


@dataclass(frozen=True)
class LabellingQuestion:
    item: GoldenItem
    cards: tuple[AnswerCard, ...]


@dataclass(frozen=True)
class PlanQueue:
    """The latest labelling round: its questions in the plan's order, the answers it asked
    for and how many of them have a verdict now."""

    round_number: int
    questions: tuple[str, ...]
    #: Questions with an answer of the round still without a verdict, in plan order.
    open_questions: tuple[str, ...]
    asked: int
    answered: int


def labelling_question(store: ProjectStore, run_id: int | None, question_id: str) -> LabellingQuestion | None:
    """The question's answers (one card per distinct answer and verdict in force), ``None``
    when the project has no such question."""
    item = store.golden.item(question_id)
    if item is None:
        return None
    found = store.labels.in_force(question_id)
    fk: dict[str, float | None] = {}
    if run_id is not None:
        fk = {
            r.pipeline: r.value
            for r in store.results.scores_of_question(run_id, question_id)
            if r.metric == FACTUAL_KNOWLEDGE
        }
    groups: dict[tuple[str, LabelState, LabelSource, int | None], list[int]] = {}
    for n, (key, label) in enumerate(zip(found.response_keys, found.labels, strict=True)):
        record_id = label.record.id if label.record is not None else None
        groups.setdefault((key.answer_key, label.state, label.source, record_id), []).append(n)
    cards = []
    for members in groups.values():
        first = members[0]
        label = found.labels[first]
        cards.append(
            AnswerCard(
                tuple(found.keys[n][1] for n in members),
                found.texts[first],
                fk.get(found.keys[first][1]),
                label.state,
                label.source,
                label.record,
                label.stale_reason,
            )
        )
    return LabellingQuestion(item, tuple(cards))


def plan_queue(store: ProjectStore) -> PlanQueue | None:
    """The latest round's queue (``None`` before any plan)."""
    rounds = store.labels.rounds()
    if not rounds:
        return None
    sample = store.labels.sample(rounds[-1].id)
    questions = tuple(dict.fromkeys(q for q, _p, _pos in sample))
    asked = {(q, p) for q, p, _pos in sample}
    answered: set[tuple[str, str]] = set()
    open_questions: list[str] = []
    for question_id in questions:
        found = store.labels.in_force(question_id)
        done = {
            key
            for key, label in zip(found.keys, found.labels, strict=True)
            if label.state is not LabelState.NONE
        }
        answered |= done & asked
        if any((question_id, p) not in done for q, p in asked if q == question_id):
            open_questions.append(question_id)
    return PlanQueue(len(rounds), questions, tuple(open_questions), len(asked), len(answered))
