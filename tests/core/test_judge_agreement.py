"""Judge vs reviewer agreement per judge metric, over the scores reviewers ruled on."""

from __future__ import annotations

import pytest

from goldenlens.core.inputs import GoldenItem, PipelineResponse
from goldenlens.core.lexical.scorer import score_response
from goldenlens.core.reviewer_decisions import AppliedOverride
from goldenlens.core.scored_rows import ScoredRow
from goldenlens.core.stats.judge_agreement import judge_reviewer_agreement


def _row(qid: str, overrides: dict[str, tuple[float | None, float]] | None = None) -> ScoredRow:
    applied = {
        metric: AppliedOverride(metric, value, original, None, "ana", "", "2026-12-01T10:00:00")
        for metric, (original, value) in (overrides or {}).items()
    }
    item = GoldenItem(qid, "?", "a", "a")
    return ScoredRow(item, PipelineResponse(qid, "P", "a"), score_response("a", "a", "a"), overrides=applied)


def test_overridden_and_accepted_scores_are_the_pairs() -> None:
    # faithfulness: q1 judge 0.9 overridden to 0.2 (disagree), q2 judge 0.1 overridden to 0.0
    # (agree: both fail), q3 accepted with the judge's 0.8 standing (agree), q4 unreviewed
    # (not counted). Pass/fail pairs: (T,F), (F,F), (T,T) -> 2 of 3 agree.
    rows = [
        _row("q1", {"faithfulness": (0.9, 0.2)}),
        _row("q2", {"faithfulness": (0.1, 0.0)}),
        _row("q3"),
        _row("q4"),
    ]
    stored = {("q1", "P"): 0.9, ("q2", "P"): 0.1, ("q3", "P"): 0.8, ("q4", "P"): 0.3}
    status = {"q3": "accepted", "q4": "unreviewed", "q1": "needs_curation", "q2": "unreviewed"}
    found = judge_reviewer_agreement(
        rows, ["faithfulness", "relevancy"], lambda key, _m: stored[key], lambda qid: status[qid]
    )
    result = found["faithfulness"]
    assert (result.n, result.agreed) == (3, 2)
    # Cohen's kappa by hand: judge T,F,T; reviewer F,F,T. p_o = 2/3;
    # p_e = P(T)P(T) + P(F)P(F) = (2/3)(1/3) + (1/3)(2/3) = 4/9; kappa = (2/3 - 4/9) / (5/9) = 0.4.
    assert result.kappa == pytest.approx(0.4)
    # relevancy: only q3's accepted value counts (nothing overridden): one pair, kappa undefined.
    assert (found["relevancy"].n, found["relevancy"].agreed, found["relevancy"].kappa) == (1, 1, None)


def test_a_score_the_judge_never_gave_is_not_a_pair() -> None:
    rows = [_row("q1", {"faithfulness": (None, 1.0)}), _row("q2")]
    found = judge_reviewer_agreement(rows, ["faithfulness"], lambda _k, _m: None, lambda _q: "accepted")
    assert found["faithfulness"].n == 0
    assert found["faithfulness"].rate is None
