"""What the judge metrics share: the run template, token budgets, verdict schemas, statement
splitting and the formulas (average precision, F-beta) — one of each.

Each prompt is static text plus few-shot examples; the row's data goes last (see
:meth:`~goldenlens.judge.metrics.base.JudgeCall.ask`), so llama.cpp reuses the cached prefix.
A metric's ``prompt_version`` covers every prompt it sends, including the shared ones here:
changing :data:`SPLIT_INSTRUCTIONS` means bumping the version of every metric that uses it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from goldenlens.judge.engines.embedding import EmbeddingEngine
from goldenlens.judge.metrics.base import (
    JudgeCall,
    JudgeMetric,
    MetricInputs,
    MetricResult,
    NotScored,
    array,
    integer_enum,
    missing_inputs,
    obj,
    text,
)

#: How many statements one call splits an answer into, by default (a parameter of the
#: metrics that split: ``max_statements``).
MAX_STATEMENTS = 12
STATEMENT_CHARS = 200
REASON_CHARS = 120


#: What a metric's computation does: fill the detail dict and return the value.
Computation = Callable[[JudgeCall, dict[str, Any]], float]


# -- the run template -------------------------------------------------------------------------


def unavailable(
    metric: JudgeMetric, inputs: MetricInputs, judge: JudgeCall | None, embedder: EmbeddingEngine | None
) -> str:
    """Why ``metric`` cannot run on this row with these engines ('' when it can)."""
    if "judge" in metric.requires and judge is None:
        return "missing input: judge model"
    if "embeddings" in metric.requires and embedder is None:
        return "missing input: embedding model"
    return missing_inputs(metric, inputs)


def run_metric(
    metric: JudgeMetric,
    inputs: MetricInputs,
    judge: JudgeCall | None,
    embedder: EmbeddingEngine | None,
    compute: Computation,
) -> MetricResult:
    """Check the inputs and engines, run ``compute`` and wrap its outcome: every metric's
    ``score`` is this call.

    ``compute`` fills the detail dict as it goes and returns the value; a :class:`NotScored`
    it raises (a judge reply without usable data, nothing to score) becomes *not scored*
    with the detail gathered so far and the failure's own detail under ``"failure"``, so a
    reviewer sees where it stopped. An embedding-only metric gets a ``JudgeCall`` of None.
    """
    if reason := unavailable(metric, inputs, judge, embedder):
        return MetricResult.not_scored(metric.name, reason, judge=judge)
    detail: dict[str, Any] = {}
    try:
        value = compute(judge, detail) if judge is not None else _without_judge(compute, detail)
    except NotScored as failure:
        if failure.detail:
            detail["failure"] = failure.detail
        return MetricResult.not_scored(metric.name, failure.reason, detail, judge=judge)
    return MetricResult.scored(metric.name, value, detail, judge=judge)


class MetricBase:
    """The run template as a base class: ``score`` is :func:`run_metric` on :meth:`compute`,
    so a metric module holds only its prompts and its formula."""

    name: str
    version: str
    prompt_version: str
    requires: frozenset[str]
    #: The attributes that are the metric's parameters, recorded in its signature.
    param_names: tuple[str, ...] = ()

    def params(self) -> dict[str, Any]:
        """The parameters (:attr:`param_names`) by name; a metric whose parameters need
        converting for JSON overrides this."""
        return {name: getattr(self, name) for name in self.param_names}

    def score(
        self, inputs: MetricInputs, judge: JudgeCall | None, embedder: EmbeddingEngine | None
    ) -> MetricResult:
        """The row's result: a value, or *not scored* with the reason."""
        return run_metric(
            self, inputs, judge, embedder, lambda call, detail: self.compute(inputs, call, embedder, detail)
        )

    def compute(
        self, inputs: MetricInputs, judge: JudgeCall, embedder: EmbeddingEngine | None, detail: dict[str, Any]
    ) -> float:
        """Fill ``detail`` and return the value, or raise :class:`NotScored` (inputs checked)."""
        raise NotImplementedError


def _without_judge(compute: Computation, detail: dict[str, Any]) -> float:
    # Embedding-only metrics never touch the judge argument.
    return compute(None, detail)  # type: ignore[arg-type]


def note_cap(detail: dict[str, Any], name: str, count: int, cap: int) -> None:
    """Record in ``detail["caps_reached"]`` that a list the judge wrote hit its cap: the
    score then judged only the first ``cap`` items, and a reviewer must be able to see so."""
    if count >= cap:
        detail.setdefault("caps_reached", {})[name] = cap


# -- budgets and schemas ------------------------------------------------------------------------


def only_required(schema: dict[str, Any], *names: str) -> dict[str, Any]:
    """``schema`` with just ``names`` required (the other fields stay allowed, in order)."""
    return {**schema, "required": list(names)}


def verdict_schema(
    field: str = "verdict", values: Sequence[Any] = (0, 1), reason_chars: int = REASON_CHARS
) -> dict[str, Any]:
    """``{field: one of values, "reason": short text}`` with only the verdict required, so a
    reply cut off inside a looping reason still yields its complete verdict."""
    verdict = (
        integer_enum(*values)
        if all(isinstance(v, int) for v in values)
        else {
            "type": "string",
            "enum": list(values),
        }
    )
    return only_required(obj(**{field: verdict, "reason": text(reason_chars)}), field)


# -- prompt pieces ----------------------------------------------------------------------------


def example(reply: Mapping[str, Any]) -> str:
    """A few-shot assistant turn: the JSON the judge should answer with."""
    return json.dumps(reply, ensure_ascii=False)


def labelled(*fields: tuple[str, str]) -> str:
    """The row's data as labelled blocks (``Question: ...``), blank fields left out."""
    return "\n".join(f"{label}: {value.strip()}" for label, value in fields if value.strip())


def numbered(lines: Sequence[str], prefix: str = "") -> str:
    return "\n".join(f"{prefix}{i}. {line}" for i, line in enumerate(lines, 1))


def join_contexts(contexts: Sequence[str]) -> str:
    """The non-blank retrieved contexts as one document, separated by blank lines."""
    return "\n\n".join(c.strip() for c in contexts if c.strip())


def distinct(items: Sequence[str]) -> list[str]:
    """The non-blank items, stripped, each once (ignoring case and spacing), in order: a small
    judge that repeats itself must not count one statement, claim or question twice."""
    seen: dict[str, str] = {}
    for item in items:
        key = " ".join(item.casefold().split())
        if key and key not in seen:
            seen[key] = item.strip()
    return list(seen.values())


# -- one claim against one text ------------------------------------------------------------

_CLAIM_SOURCE = "The library opens at 9 am on weekdays and is closed on Sundays."


class ClaimCheck:
    """A 0/1 verdict with a reason on one claim against one ``noun`` labelled ``label``:
    factual_correctness's checks ("text"), fact_check's ("document")."""

    def __init__(self, noun: str = "text", label: str = "Text", reason_chars: int = REASON_CHARS) -> None:
        self.label = label
        self.instructions, self.examples = claim_check_prompt(noun, label)
        self.schema = verdict_schema(reason_chars=reason_chars)

    def ask(self, judge: JudgeCall, source: str, claim: str, *, step: str) -> tuple[int, str]:
        """The judge's verdict (1: ``source`` supports ``claim``) and its reason."""
        row = labelled((self.label, source), ("Claim", claim))
        reply = judge.ask(self.instructions, self.examples, row, self.schema, step=step)
        return int(reply["verdict"]), str(reply.get("reason", ""))


def claim_check_prompt(noun: str, label: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """:class:`ClaimCheck`'s instructions and few-shot examples."""
    instructions = (
        f'You check one claim against a {noun}. Reply in JSON: "verdict" 1 if the {noun} states the '
        f"claim or directly implies it, 0 if the {noun} contradicts the claim or does not mention it; "
        'then a short "reason".'
    )
    examples = (
        (
            labelled((label, _CLAIM_SOURCE), ("Claim", "The library is closed on Sundays.")),
            example({"verdict": 1, "reason": f"The {noun} says it is closed on Sundays."}),
        ),
        (
            labelled((label, _CLAIM_SOURCE), ("Claim", "The library opens at 8 am on weekdays.")),
            example({"verdict": 0, "reason": f"The {noun} says 9 am, not 8 am."}),
        ),
    )
    return instructions, examples


# -- statements ---------------------------------------------------------------------------


def split_instructions(max_statements: int) -> str:
    """The statement-splitting instructions for at most ``max_statements`` statements."""
    return (
        "You break an answer into short statements.\n"
        "Each statement holds one fact from the answer and is a full sentence that makes sense on "
        "its own: write names instead of pronouns. Use only what the answer says; add nothing. "
        f"Write at most {max_statements} statements, and none when the answer states no fact "
        "(for example when it only says it does not know).\n"
        'Reply with JSON: {"statements": [...]}.'
    )


SPLIT_INSTRUCTIONS = split_instructions(MAX_STATEMENTS)
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


def statements_schema(max_statements: int) -> dict[str, Any]:
    return obj(statements=array(text(STATEMENT_CHARS), max_items=max_statements))


def split_statements(
    judge: JudgeCall,
    question: str,
    answer: str,
    *,
    step: str,
    max_statements: int = MAX_STATEMENTS,
    detail: dict[str, Any] | None = None,
) -> list[str]:
    """The judge's standalone statements of ``answer`` (at most ``max_statements``), blank ones
    and repeats dropped. With ``detail``, a reply that reached the cap is noted there under
    ``step``: the answer may hold more facts than were judged."""
    schema = statements_schema(max_statements)
    data = judge.ask(
        split_instructions(max_statements),
        SPLIT_EXAMPLES,
        f"Question: {question.strip()}\nAnswer: {answer.strip()}",
        schema,
        step=step,
    )
    if detail is not None:
        note_cap(detail, step, len(data["statements"]), max_statements)
    return distinct(data["statements"])


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
    """One call judging every item of ``items`` with 0/1.

    Returns ``[{"statement", "verdict", "reason"}, ...]`` in order. Raises
    :class:`NotScored` when the judge gives a different number of verdicts (a server may
    ignore the schema's item count) or an unusable reply.
    """
    schema = batch_verdicts_schema(len(items))
    data = judge.ask(instructions, examples, row, schema, step=step)
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


def f_beta(tp: int, fp: int, fn: int, beta: float = 1.0) -> float:
    """F-beta of counts, exactly (no epsilon); 0.0 when precision and recall are 0 — as
    ragas's ``fbeta_score``, so TP = 0 scores 0 even when FP or FN is 0 too."""
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    b2 = beta * beta
    denominator = b2 * precision + recall
    return (1 + b2) * precision * recall / denominator if denominator else 0.0


def unit_interval(value: float) -> float:
    """A cosine as a score: opposite directions mean unrelated, so negatives become 0."""
    return min(1.0, max(0.0, value))
