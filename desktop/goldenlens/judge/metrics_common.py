"""Pieces the RAGAS-style judge metrics share: token budgets, statement splitting, verdicts,
and the formulas (average precision, F-beta) as pure functions.

Each prompt is static text plus few-shot examples; the row's data goes last (see
:meth:`~goldenlens.judge.metric_base.JudgeCall.ask`), so llama.cpp reuses the cached prefix.
A metric's ``prompt_version`` covers every prompt it sends, including the shared ones here:
changing :data:`SPLIT_INSTRUCTIONS` means bumping the version of every metric that uses it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from goldenlens.judge.embeddings import EmbeddingEngine
from goldenlens.judge.metric_base import (
    JudgeCall,
    JudgeMetric,
    MetricInputs,
    NotScored,
    array,
    integer_enum,
    missing_inputs,
    obj,
    text,
)

MAX_STATEMENTS = 12
STATEMENT_CHARS = 200
REASON_CHARS = 120

# English text averages about four characters per token; three leaves room for numbers and
# names. A model that loops one character per token still hits max_tokens, and the reply is
# then recorded as not scored with that cause — never completed or guessed.
_CHARS_PER_TOKEN = 3


def token_budget(schema: Mapping[str, Any]) -> int:
    """``max_tokens`` that lets a reply reach every bound of ``schema`` (strings at their
    ``maxLength``, arrays at their ``maxItems``), plus JSON punctuation."""
    return _budget(schema) + 8


def _budget(schema: Mapping[str, Any]) -> int:
    kind = schema.get("type")
    if "enum" in schema:
        return max(len(json.dumps(v)) for v in schema["enum"]) // 2 + 2
    if kind == "string":
        return int(schema.get("maxLength", 200)) // _CHARS_PER_TOKEN + 3
    if kind == "array":
        return 2 + int(schema.get("maxItems", MAX_STATEMENTS)) * (_budget(schema["items"]) + 1)
    if kind == "object":
        props: Mapping[str, Mapping[str, Any]] = schema.get("properties", {})
        return 2 + sum(len(key) // 3 + 4 + _budget(value) for key, value in props.items())
    return 4


def unavailable(
    metric: JudgeMetric, inputs: MetricInputs, judge: JudgeCall | None, embedder: EmbeddingEngine | None
) -> str:
    """Why ``metric`` cannot run on this row with these engines ('' when it can)."""
    if "judge" in metric.requires and judge is None:
        return "missing input: judge model"
    if "embeddings" in metric.requires and embedder is None:
        return "missing input: embedding model"
    return missing_inputs(metric, inputs)


def verdict_schema(field: str, values: Sequence[int]) -> dict[str, Any]:
    """``{field: one of values, "reason": short text}`` with only the verdict required, so a
    reply cut off inside a looping reason still yields its complete verdict."""
    schema = obj(**{field: integer_enum(*values), "reason": text(REASON_CHARS)})
    schema["required"] = [field]
    return schema


def numbered(lines: Sequence[str], prefix: str = "") -> str:
    return "\n".join(f"{prefix}{i}. {line}" for i, line in enumerate(lines, 1))


def join_contexts(contexts: Sequence[str]) -> str:
    return "\n\n".join(c.strip() for c in contexts if c.strip())


# -- statements ---------------------------------------------------------------------------

SPLIT_INSTRUCTIONS = (
    "You break an answer into short statements.\n"
    "Each statement holds one fact from the answer and is a full sentence that makes sense on "
    "its own: write names instead of pronouns. Use only what the answer says; add nothing. "
    f"Write at most {MAX_STATEMENTS} statements, and none when the answer states no fact "
    "(for example when it only says it does not know).\n"
    'Reply with JSON: {"statements": [...]}.'
)
# The answer without facts comes first: a tiny judge copies the last example it saw, and an
# empty list there made it return no statements for plain one-fact answers.
SPLIT_EXAMPLES: tuple[tuple[str, str], ...] = (
    (
        "Question: How tall is Mount Kenya?\nAnswer: Sorry, I cannot find that information.",
        '{"statements": []}',
    ),
    (
        "Question: Who painted the Mona Lisa?\n"
        "Answer: Leonardo da Vinci painted it in the early 1500s. He was Italian.",
        '{"statements": ["Leonardo da Vinci painted the Mona Lisa.", '
        '"The Mona Lisa was painted in the early 1500s.", "Leonardo da Vinci was Italian."]}',
    ),
)
STATEMENTS_SCHEMA = obj(statements=array(text(STATEMENT_CHARS), max_items=MAX_STATEMENTS))


def split_statements(judge: JudgeCall, question: str, answer: str, *, step: str) -> list[str]:
    """The judge's standalone statements of ``answer``, blank ones and repeats dropped (a small
    judge tends to repeat a statement, which must not count twice)."""
    data = judge.ask(
        SPLIT_INSTRUCTIONS,
        SPLIT_EXAMPLES,
        f"Question: {question.strip()}\nAnswer: {answer.strip()}",
        STATEMENTS_SCHEMA,
        max_tokens=token_budget(STATEMENTS_SCHEMA),
        step=step,
    )
    statements: dict[str, str] = {}
    for statement in data["statements"]:
        key = " ".join(statement.casefold().split())
        if key and key not in statements:
            statements[key] = statement.strip()
    return list(statements.values())


def batch_verdicts_schema(count: int) -> dict[str, Any]:
    """Exactly ``count`` verdict objects (verdict first), so the grammar forces one per item."""
    item = obj(verdict=integer_enum(0, 1), reason=text(REASON_CHARS))
    return obj(verdicts=array(item, min_items=count, max_items=count))


def judge_each(
    judge: JudgeCall,
    instructions: str,
    examples: Sequence[tuple[str, str]],
    row: str,
    items: Sequence[str],
    *,
    step: str,
) -> list[dict[str, Any]]:
    """One call judging every item of ``items`` (at most :data:`MAX_STATEMENTS`) with 0/1.

    Returns ``[{"statement", "verdict", "reason"}, ...]`` in order. Raises
    :class:`NotScored` when the judge gives a different number of verdicts (a server may
    ignore the schema's item count) or an unusable reply.
    """
    schema = batch_verdicts_schema(len(items))
    data = judge.ask(instructions, examples, row, schema, max_tokens=token_budget(schema), step=step)
    verdicts: list[dict[str, Any]] = data["verdicts"]
    if len(verdicts) != len(items):
        raise NotScored(
            f"judge gave {len(verdicts)} verdicts for {len(items)} statements at {step}",
            {"step": step, "verdicts": verdicts},
        )
    return [
        {"statement": item, "verdict": int(v["verdict"]), "reason": str(v["reason"])}
        for item, v in zip(items, verdicts, strict=True)
    ]


# -- formulas -------------------------------------------------------------------------------


def average_precision(verdicts: Sequence[int]) -> float:
    """Σ_k precision@k · v_k / Σ v_k over verdicts in rank order; 0.0 when none is useful."""
    useful = 0
    total = 0.0
    for k, verdict in enumerate(verdicts, 1):
        if verdict:
            useful += 1
            total += useful / k
    return total / useful if useful else 0.0


def fbeta(tp: int, fp: int, fn: int, beta: float = 1.0) -> float:
    """F-beta of statement counts, exactly (no epsilon); 0.0 when precision and recall are 0."""
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    b2 = beta * beta
    denominator = b2 * precision + recall
    return (1 + b2) * precision * recall / denominator if denominator else 0.0


def unit_interval(value: float) -> float:
    """A cosine as a score: opposite directions mean unrelated, so negatives become 0."""
    return min(1.0, max(0.0, value))
