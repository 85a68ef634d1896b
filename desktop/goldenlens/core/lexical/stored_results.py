"""Lexical results as stored score records and back (JSON-ready, no I/O here).

Seven :class:`ScoreRecord` per (question, pipeline), plain numbers: the token alignment and
the fact spans are derived data (:func:`goldenlens.core.lexical.scorer.derive_spans`), worked out when they
are shown, never stored. ``alignment_from_detail``/``fact_from_detail`` read the details that
project formats 1 and 2 stored with every row.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from goldenlens.core.lexical.factual_knowledge import FactPartMatch, FactResult
from goldenlens.core.lexical.scorer import (
    F1_SCORE,
    FACTUAL_KNOWLEDGE,
    FACTUAL_KNOWLEDGE_QUASI_EXACT,
    LEXICAL_SCORE_NAMES,
    Alignment,
    LexicalResult,
    WordKind,
    WordSpan,
)
from goldenlens.core.lexical.signature import Signature
from goldenlens.core.scores import ScoreRecord, ScoreStatus

_KIND_CODES = {WordKind.MATCHED: "m", WordKind.EXTRA: "x", WordKind.MISSED: "o"}
_CODE_KINDS = {code: kind for kind, code in _KIND_CODES.items()}


def alignment_to_detail(alignment: Alignment) -> dict[str, Any]:
    """Compact form: spans as ``[start, end, code, word]``; ``m`` matched, ``x`` extra, ``o`` missed."""
    return {
        "response_spans": [[s.start, s.end, _KIND_CODES[s.kind], s.word] for s in alignment.response],
        "answer_spans": [[s.start, s.end, _KIND_CODES[s.kind], s.word] for s in alignment.answer],
        "target_index": alignment.target_index,
        "counting": "multiset" if alignment.multiset else "set",
        "counts": alignment.counts(),
    }


def alignment_from_detail(detail: Mapping[str, Any]) -> Alignment | None:
    if "response_spans" not in detail:
        return None

    def spans(key: str) -> tuple[WordSpan, ...]:
        return tuple(WordSpan(int(s), int(e), str(w), _CODE_KINDS[str(c)]) for s, e, c, w in detail[key])

    return Alignment(
        spans("response_spans"),
        spans("answer_spans"),
        int(detail.get("target_index", 0)),
        multiset=detail.get("counting") == "multiset",
    )


def fact_to_detail(fact: FactResult) -> dict[str, Any]:
    return {
        "matched_by": fact.matched_by,
        "matches": [[m.part, m.start, m.end] for m in fact.matches],
    }


def fact_from_detail(exact: float, quasi: float, detail: Mapping[str, Any]) -> FactResult:
    matches = tuple(FactPartMatch(str(p), int(s), int(e)) for p, s, e in detail.get("matches", []))
    return FactResult(exact, quasi, matches, str(detail.get("matched_by", "")))


def result_to_records(
    question_id: str, pipeline: str, result: LexicalResult, signatures: Mapping[str, str]
) -> list[ScoreRecord]:
    """The seven stored records of one scored response (numbers, no spans); ``signatures``
    holds each metric's signature JSON."""
    records: list[ScoreRecord] = []
    for name in LEXICAL_SCORE_NAMES:
        value = result.scores[name]
        records.append(
            ScoreRecord(
                question_id,
                pipeline,
                name,
                value,
                signatures[name],
                status=ScoreStatus.SCORED if value is not None else ScoreStatus.NOT_SCORED,
                reason=result.reasons.get(name, "") if value is None else "",
            )
        )
    return records


def result_from_records(records: Sequence[ScoreRecord]) -> LexicalResult:
    """Rebuild a :class:`LexicalResult` from the seven stored records of one response."""
    by_name = {r.metric: r for r in records}
    scores: dict[str, float | None] = {name: by_name[name].value for name in LEXICAL_SCORE_NAMES}
    reasons = {name: by_name[name].reason for name in LEXICAL_SCORE_NAMES if by_name[name].value is None}
    fact = fact_from_detail(
        scores[FACTUAL_KNOWLEDGE] or 0.0,
        scores[FACTUAL_KNOWLEDGE_QUASI_EXACT] or 0.0,
        by_name[FACTUAL_KNOWLEDGE].detail,
    )
    alignment = alignment_from_detail(by_name[F1_SCORE].detail)
    params = dict(Signature.from_json(by_name[F1_SCORE].signature).params)
    return LexicalResult(scores, fact, alignment, params, reasons)
