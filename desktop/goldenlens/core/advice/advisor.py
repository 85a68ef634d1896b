"""The curation advisor: for every golden row, what the scores of all pipelines say about it.

Pure: it reads a scored :class:`~goldenlens.core.scored_rows.Report` (the scores as the run
computed them — a reviewer's override says a response was right, but the metric still sees
what it saw, which is what the golden row must fix) and, optionally, each response's
semantic similarity to the golden answer. The rules live in
:mod:`goldenlens.core.advice.responses` (one response) and :mod:`goldenlens.core.advice.golden_rows`
(a golden row); the values in :mod:`goldenlens.core.advice.values`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from goldenlens.core.advice.corpus import Corpus, CorpusResponse
from goldenlens.core.advice.golden_rows import (
    ambiguous_question,
    empty_fact_part,
    fact_not_in_answer,
    fact_not_minimal,
    fact_prone_to_false_matches,
    llm_specific_wording,
    trimmed_answer,
    verbose_golden_answer,
)
from goldenlens.core.advice.responses import RowResponse, read_response
from goldenlens.core.advice.values import (
    CODE_ORDER,
    AdviceThresholds,
    Diagnosis,
    PipelineAnswer,
    ProjectAdvice,
    QuestionAdvice,
)
from goldenlens.core.inputs import GoldenItem
from goldenlens.core.lexical.flags import answer_word_count
from goldenlens.core.lexical.scorer import LexicalScorer, counting_is_multiset
from goldenlens.core.scored_rows import Report, ScoredRow
from goldenlens.core.scores import ScoreRecord

#: The judge metric whose values the advisor reads as semantic similarity (a cosine, or 0/1
#: when the run set a threshold).
SEMANTIC_SIMILARITY = "semantic_similarity"

Similarity = Mapping[tuple[str, str], float]


def similarity_from_records(records: Iterable[ScoreRecord]) -> dict[tuple[str, str], float]:
    """``(question_id, pipeline) → semantic similarity`` from a judge run's score records
    (not-scored ones left out)."""
    return {
        (r.question_id, r.pipeline): r.value
        for r in records
        if r.metric == SEMANTIC_SIMILARITY and r.value is not None
    }


def _order(diagnosis: Diagnosis, pipelines: Mapping[str, int]) -> tuple[int, int]:
    return CODE_ORDER.index(diagnosis.code), pipelines.get(diagnosis.pipeline, -1)


def advise_question(
    item: GoldenItem,
    responses: list[RowResponse],
    corpus: Corpus,
    scorer: LexicalScorer,
    thresholds: AdviceThresholds,
) -> QuestionAdvice:
    """Every diagnosis of one golden row, from its responses (in pipeline order)."""
    found: list[Diagnosis] = []
    answers: list[PipelineAnswer] = []
    verbose = answer_word_count(item.answer) > thresholds.flags.verbose_answer_words
    trimmed = trimmed_answer(item.answer, item.fact) if verbose else ""
    for r in responses:
        trimmed_recall = scorer.qa(r.text, trimmed).recall if trimmed else None
        diagnosis, reading = read_response(item, r, thresholds, trimmed_recall=trimmed_recall)
        if diagnosis is not None:
            found.append(diagnosis)
        answers.append(PipelineAnswer(r.pipeline, r.text, r.fact_found, r.recall, r.similarity, reading))
    row_level = [
        ambiguous_question(item, responses, answers),
        empty_fact_part(item),
        fact_not_in_answer(item),
        fact_prone_to_false_matches(item, corpus, thresholds),
        fact_not_minimal(item, thresholds),
        verbose_golden_answer(item, responses, scorer, thresholds),
    ]
    found += [d for d in row_level if d is not None]
    found += llm_specific_wording(item, responses, corpus, scorer, thresholds)
    rank = {r.pipeline: n for n, r in enumerate(responses)}
    return QuestionAdvice(item.id, item.question, tuple(sorted(found, key=lambda d: _order(d, rank))))


def _multiset(rows: Iterable[ScoredRow]) -> bool:
    return any(counting_is_multiset(row.result.params) for row in rows)


def advise(
    report: Report,
    *,
    similarity: Similarity | None = None,
    thresholds: AdviceThresholds | None = None,
    similarity_source: str = "",
    on_question: Callable[[int, int], None] | None = None,
) -> ProjectAdvice:
    """The advice of a scored report: one :class:`QuestionAdvice` per golden row, in golden
    order. ``thresholds`` default to the advisor's defaults with the report's flag thresholds
    (the run's own); ``similarity`` (by ``(question_id, pipeline)``) is absent unless the
    judge measured it, and ``similarity_source`` says where it came from.

    ``on_question(done, total)`` is called after each question: the jobs layer reports
    progress through it and stops a cancelled computation by raising from it."""
    t = thresholds or AdviceThresholds(flags=report.thresholds)
    sims = similarity or {}
    scorer = LexicalScorer(multiset=_multiset(report.rows))
    rank = {p: n for n, p in enumerate(report.pipelines)}
    by_question: dict[str, list[ScoredRow]] = {}
    for row in report.rows:
        by_question.setdefault(row.item.id, []).append(row)
    corpus = Corpus(
        report.golden,
        [CorpusResponse(r.item.id, r.response.pipeline, r.response.response) for r in report.rows],
    )
    questions = []
    for item in report.golden:
        rows = sorted(by_question.get(item.id, []), key=lambda r: rank.get(r.response.pipeline, len(rank)))
        responses = [
            RowResponse(
                r.response.pipeline,
                r.response.response,
                r.result.scores,
                sims.get(r.key),
                corpus.words(r.response.response),
            )
            for r in rows
        ]
        questions.append(advise_question(item, responses, corpus, scorer, t))
        if on_question is not None:
            on_question(len(questions), len(report.golden))
    return ProjectAdvice(tuple(questions), tuple(report.pipelines), t, similarity_source if sims else "")
