"""Everything the detail pane shows for one golden question, read from the project file.

The scores are the numbers the run stored. The highlighting is derived data: the token
alignment and the fact spans are a pure function of the texts and the run's counting mode
(read from its ``f1_score`` signature), so :func:`goldenlens.core.lexical.scorer.derive_spans` works them
out for the one question shown, instead of every row storing them at scoring time.

Qt-free: the UI calls :func:`load_question_detail` on the GUI thread (a few small queries)
and renders the frozen :class:`QuestionDetail` it returns.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from goldenlens.core.inputs import GoldenItem, PipelineResponse
from goldenlens.core.lexical.factual_knowledge import FactResult
from goldenlens.core.lexical.flags import (
    FLAG_INPUTS,
    FLAG_LABELS,
    Flag,
    FlagThresholds,
    explain,
    golden_flags_in_force,
    response_flags_in_force,
)
from goldenlens.core.lexical.scorer import (
    F1_SCORE,
    FACTUAL_KNOWLEDGE,
    LEXICAL_SCORE_NAMES,
    Alignment,
    LexicalResult,
    WordKind,
    derive_spans,
)
from goldenlens.core.lexical.signature import Signature
from goldenlens.core.project_records import GOLDEN_ROW, Override, Review
from goldenlens.core.scores import ScoreRecord, ScoreStatus
from goldenlens.store.project import ProjectStore

__all__ = [
    "FlagNote",
    "JudgeNote",
    "PipelineDetail",
    "QuestionDetail",
    "load_question_detail",
    "thresholds_from_params",
]

_NO_FACT = FactResult(0.0, 0.0)


@dataclass(frozen=True)
class FlagNote:
    """One interpretation flag with its label and its explanation (thresholds filled in)."""

    flag: Flag
    label: str
    explanation: str


@dataclass(frozen=True)
class JudgeNote:
    """One judge score of a response: ``value`` is ``None`` when ``status`` is not scored."""

    metric: str
    value: float | None
    status: str
    reason: str = ""
    model: str = ""
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PipelineDetail:
    """One pipeline's response to the question, with its stored scores and highlighting.

    ``scores`` holds the seven lexical scores as stored (never overridden values; ``None`` for
    a score not scored, whose reason is in ``reasons``); ``overrides``
    the reviewer's latest override per metric. ``alignment`` and ``fact`` are derived from the
    texts and the counting mode. ``alignment.answer`` are spans into the golden answer and differ per
    pipeline, because which golden words are missed depends on the response. ``missed`` are
    the missed golden words as written in the answer, once each, in answer order.
    ``pipeline_missing`` is true when the pipeline has no response to this question.
    """

    pipeline: str
    response: str
    contexts: tuple[str, ...]
    scores: dict[str, float | None]
    overrides: dict[str, Override]
    flags: tuple[FlagNote, ...]
    alignment: Alignment | None
    fact: FactResult
    signature: str = ""
    missed: tuple[str, ...] = ()
    judge: tuple[JudgeNote, ...] = ()
    pipeline_missing: bool = False
    reasons: dict[str, str] = field(default_factory=dict)

    @property
    def scored(self) -> bool:
        """True when the run holds the lexical scores of this response."""
        return bool(self.scores)

    def effective_score(self, metric: str) -> float | None:
        """The value in force: the override's value when there is one, else the stored score."""
        override = self.overrides.get(metric)
        if override is not None and override.effective_value is not None:
            return override.effective_value
        return self.scores.get(metric)


@dataclass(frozen=True)
class QuestionDetail:
    """A golden question, its golden-row flags and review, and every pipeline's response."""

    item: GoldenItem
    golden_flags: tuple[FlagNote, ...]
    review: Review | None
    pipelines: tuple[PipelineDetail, ...]
    run_id: int | None = None

    def pipeline(self, name: str) -> PipelineDetail | None:
        """The detail of pipeline ``name``, or ``None``."""
        return next((p for p in self.pipelines if p.pipeline == name), None)


def thresholds_from_params(params: Mapping[str, Any]) -> FlagThresholds:
    """The flag thresholds a run used (:meth:`FlagThresholds.from_params`)."""
    return FlagThresholds.from_params(params)


def _notes(flags: Iterable[str], thresholds: FlagThresholds) -> tuple[FlagNote, ...]:
    known = {flag.value: flag for flag in Flag}
    # A flag this version does not know (a newer project file) is left out, not guessed at.
    return tuple(
        FlagNote(known[name], FLAG_LABELS[known[name]], explain(known[name], thresholds))
        for name in flags
        if name in known
    )


def _missed_words(answer: str, alignment: Alignment | None) -> tuple[str, ...]:
    if alignment is None:
        return ()
    seen: dict[str, None] = {}
    for span in alignment.answer:
        if span.kind is WordKind.MISSED:
            seen.setdefault(answer[span.start : span.end], None)
    return tuple(seen)


def _short_signature(record: ScoreRecord | None) -> str:
    if record is None or not record.signature:
        return ""
    try:
        return Signature.from_json(record.signature).short()
    except (ValueError, KeyError, TypeError):
        return ""


def _signature_params(record: ScoreRecord) -> dict[str, object]:
    """The parameters of a record's signature (the lexical counting mode); ``{}`` if unreadable."""
    try:
        return dict(Signature.from_json(record.signature).params)
    except (ValueError, KeyError, TypeError):
        return {}


def _judge_note(record: ScoreRecord) -> JudgeNote:
    model = ""
    try:
        params = Signature.from_json(record.signature).params if record.signature else {}
    except (ValueError, KeyError, TypeError):
        params = {}
    for key in ("model", "model_name", "model_file", "judge_model", "embedding_model"):
        if params.get(key):
            model = str(params[key])
            break
    return JudgeNote(
        record.metric,
        record.value,
        ScoreStatus(record.status).value,
        record.reason,
        model,
        dict(record.detail),
    )


#: The scores a response's flags are derived from (:func:`~goldenlens.core.lexical.flags.response_flags`).
def _flags_in_force(
    stored: Sequence[str],
    records: Sequence[ScoreRecord],
    overrides: Mapping[str, Override],
    thresholds: FlagThresholds,
) -> list[str]:
    """The response's flags under the scores in force
    (:func:`~goldenlens.core.lexical.flags.response_flags_in_force`): derived again when a reviewer
    overrode a score a flag reads, the stored ones otherwise."""
    changed = {
        metric: override.effective_value
        for metric, override in overrides.items()
        if metric in FLAG_INPUTS and override.effective_value is not None
    }
    if not changed or not records:
        return list(stored)
    scores: dict[str, float | None] = dict.fromkeys(FLAG_INPUTS)
    scores.update({r.metric: r.value for r in records if r.metric in FLAG_INPUTS})
    scores.update(changed)
    return response_flags_in_force(stored, scores, thresholds)


def _golden_flags_in_force(
    stored: Sequence[str],
    records: Mapping[str, Sequence[ScoreRecord]],
    overrides: Mapping[str, Mapping[str, Override]],
) -> list[str]:
    """The golden row's flags with the ambiguous-question flag under the exact Factual
    Knowledge in force (:func:`~goldenlens.core.lexical.flags.golden_flags_in_force`), when a reviewer
    overrode one; the stored ones otherwise."""
    if not any(FACTUAL_KNOWLEDGE in by_metric for by_metric in overrides.values()):
        return list(stored)
    found: list[float] = []
    for pipeline, of_pipeline in records.items():
        value = next((r.value for r in of_pipeline if r.metric == FACTUAL_KNOWLEDGE), None)
        override = overrides.get(pipeline, {}).get(FACTUAL_KNOWLEDGE)
        if override is not None and override.effective_value is not None:
            value = override.effective_value
        if value is not None:
            found.append(value)
    return golden_flags_in_force(stored, found)


def _pipeline_detail(
    item: GoldenItem,
    pipeline: str,
    response: PipelineResponse | None,
    *,
    records: Sequence[ScoreRecord],
    overrides: dict[str, Override],
    flags: tuple[FlagNote, ...],
    judge: tuple[JudgeNote, ...],
) -> PipelineDetail:
    if response is None:
        return PipelineDetail(
            pipeline, "", (), {}, overrides, flags, None, _NO_FACT, judge=judge, pipeline_missing=True
        )
    by_name = {r.metric: r for r in records if r.metric in LEXICAL_SCORE_NAMES}
    scores = {name: by_name[name].value for name in LEXICAL_SCORE_NAMES if name in by_name}
    reasons = {name: record.reason for name, record in by_name.items() if record.value is None}
    fact = _NO_FACT
    alignment = None
    f1 = by_name.get(F1_SCORE)
    if f1 is not None:
        stored = LexicalResult(dict(scores), _NO_FACT, None, _signature_params(f1), reasons)
        explained = derive_spans(stored, response.response, item.answer, item.fact)
        alignment = explained.alignment
        if FACTUAL_KNOWLEDGE in by_name:
            fact = explained.fact
    return PipelineDetail(
        pipeline=pipeline,
        response=response.response,
        contexts=response.contexts,
        scores=scores,
        overrides=overrides,
        flags=flags,
        alignment=alignment,
        fact=fact,
        signature=_short_signature(f1),
        missed=_missed_words(item.answer, alignment),
        judge=judge,
        reasons=reasons,
    )


def load_question_detail(
    store: ProjectStore,
    run_id: int | None,
    question_id: str,
    *,
    judge_run_id: int | None = None,
) -> QuestionDetail | None:
    """The detail of golden question ``question_id`` in lexical run ``run_id``.

    Returns ``None`` when the question does not exist. Without a run (``run_id=None``) the
    item and its responses come back with empty scores, no flags and no highlighting.
    Pipelines follow the project's pipeline order; a pipeline without a response to this
    question has ``pipeline_missing=True``. ``judge_run_id`` adds that run's scores as judge notes.
    """
    item = store.golden.item(question_id)
    if item is None:
        return None
    responses = {r.pipeline: r for r in store.responses.of_question(question_id)}
    pipelines = store.responses.pipelines()

    records: dict[str, list[ScoreRecord]] = defaultdict(list)
    flag_names: dict[str, list[str]] = defaultdict(list)
    thresholds = FlagThresholds()
    if run_id is not None:
        run = store.runs.get(run_id)
        if run is not None:
            thresholds = thresholds_from_params(run.params)
        for record in store.results.scores_of_question(run_id, question_id):
            records[record.pipeline].append(record)
        for _qid, pipeline, flag in store.results.flags_of_question(run_id, question_id):
            flag_names[pipeline].append(flag)
    judge: dict[str, list[JudgeNote]] = defaultdict(list)
    if judge_run_id is not None:
        for record in store.results.scores_of_question(judge_run_id, question_id):
            judge[record.pipeline].append(_judge_note(record))
    overrides: dict[str, dict[str, Override]] = defaultdict(dict)
    for override in store.reviews.overrides():
        if override.question_id == question_id:
            overrides[override.pipeline][override.metric] = override

    details = tuple(
        _pipeline_detail(
            item,
            pipeline,
            responses.get(pipeline),
            records=records.get(pipeline, ()),
            overrides=overrides.get(pipeline, {}),
            flags=_notes(
                _flags_in_force(
                    flag_names.get(pipeline, ()),
                    records.get(pipeline, ()),
                    overrides.get(pipeline, {}),
                    thresholds,
                ),
                thresholds,
            ),
            judge=tuple(judge.get(pipeline, ())),
        )
        for pipeline in pipelines
    )
    return QuestionDetail(
        item=item,
        golden_flags=_notes(
            _golden_flags_in_force(flag_names.get(GOLDEN_ROW, ()), records, overrides), thresholds
        ),
        review=store.reviews.of_question(question_id),
        pipelines=details,
        run_id=run_id,
    )
