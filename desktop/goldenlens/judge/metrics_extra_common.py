"""Helpers shared by the extra judge metrics (aspect critique, factual correctness,
summarization, Spring AI relevancy and fact checking).

The metrics live in ``metrics_extra_*.py``; ``goldenlens.judge.metrics_extra`` re-exports them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

from goldenlens.judge.metric_base import (
    JudgeCall,
    JudgeMetric,
    MetricInputs,
    MetricResult,
    NotScored,
    integer_enum,
    missing_inputs,
    obj,
    text,
)

#: What a metric's computation returns: the value and the detail to store with it.
Computation = Callable[[JudgeCall, dict[str, Any]], float]

_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9$€£])")


def verdict_schema(reason_chars: int = 150) -> dict[str, Any]:
    """``{"verdict": 0|1, "reason": "..."}`` with only the verdict required, so a reply cut
    off inside the reason still yields its (complete) verdict and never a guessed one."""
    return only_required(obj(verdict=integer_enum(0, 1), reason=text(reason_chars)), "verdict")


def only_required(schema: dict[str, Any], *names: str) -> dict[str, Any]:
    """``schema`` with just ``names`` required (the other fields stay allowed, in order)."""
    return {**schema, "required": list(names)}


def token_budget(chars: int, fixed: int = 24) -> int:
    """``max_tokens`` with room for ``chars`` characters of bounded strings.

    Sized for the worst case MODELS.md saw (a tiny model looping on ``1.1.1.``, about two
    characters a token), plus the JSON punctuation.
    """
    return fixed + chars // 2


def example(reply: Mapping[str, Any]) -> str:
    """A few-shot assistant turn: the JSON the judge should answer with."""
    return json.dumps(reply, ensure_ascii=False)


def labelled(*fields: tuple[str, str]) -> str:
    """The row's data as labelled blocks (``Question: ...``), blank fields left out."""
    return "\n".join(f"{label}: {value.strip()}" for label, value in fields if value.strip())


def joined_contexts(inputs: MetricInputs) -> str:
    """The non-blank retrieved contexts as one document, separated by blank lines."""
    return "\n\n".join(c.strip() for c in inputs.contexts if c.strip())


def split_sentences(value: str) -> list[str]:
    """Sentences of ``value``: split after ``.``, ``!`` or ``?`` followed by a space and a
    capital letter, digit or currency sign (so ``$134.4 billion`` and ``e.g. this`` stay whole)."""
    parts = (part.strip() for part in _SENTENCE_END.split(value.strip()))
    return [part for part in parts if part]


def distinct(items: list[str]) -> list[str]:
    """The non-blank items, stripped, each once, in order: a small judge that repeats itself
    must not count one claim (or question) twice."""
    return list(dict.fromkeys(item.strip() for item in items if item.strip()))


def run_metric(
    metric: JudgeMetric, inputs: MetricInputs, judge: JudgeCall | None, compute: Computation
) -> MetricResult:
    """Check the inputs, run ``compute`` and wrap its outcome.

    ``compute`` fills the detail dict as it goes and returns the value; a :class:`NotScored`
    it raises (a judge reply without usable data, nothing to score) becomes *not scored*
    with the detail gathered so far, so a reviewer sees where it stopped.
    """
    missing = missing_inputs(metric, inputs)
    if missing:
        return MetricResult.not_scored(metric.name, missing, judge=judge)
    if judge is None:
        return MetricResult.not_scored(metric.name, "no judge engine", judge=judge)
    detail: dict[str, Any] = {}
    try:
        value = compute(judge, detail)
    except NotScored as failure:
        if failure.detail:
            detail["failure"] = failure.detail
        return MetricResult.not_scored(metric.name, failure.reason, detail, judge=judge)
    return MetricResult.scored(metric.name, value, detail, judge=judge)


def ask_user_only(
    judge: JudgeCall, content: str, schema: Mapping[str, Any], *, max_tokens: int, step: str
) -> dict[str, Any]:
    """Send one user message and nothing else (no system turn), for models trained on an
    exact prompt such as Bespoke-MiniCheck."""
    return judge.ask("", (), content, schema, max_tokens=max_tokens, step=step)
