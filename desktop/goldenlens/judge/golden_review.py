"""The judge's review of golden triplets: one judge call per triplet and curation criterion.

Each judged criterion (:data:`goldenlens.core.golden.criteria.JUDGED_CRITERIA`) is a
:class:`CriterionJudge`, shaped like a judge metric (name, versions, parameters, the fields it
reads, ``score``) so that the judge cache keys, stores and reads its results exactly as it
does the metrics' (:mod:`goldenlens.jobs.judging.judge_cache`). The verdict is stored as a number
(:data:`~goldenlens.core.golden.criteria.VERDICT_VALUES`) with the verdict, the reason and the
source in the detail.

Prompts are short and give one failing and then one passing example each: the default judge
is a 135M-parameter model, which follows a pattern better than a long instruction and leans
towards the label of the last example it saw. A curated golden set mostly passes, and a
judge that flags everything buries the few real problems, so the passing example comes last
and a "fail" has to come from the triplet. (On the sample with SmolLM2-135M, pass-last gave
the right verdict on "answer consistent with the fact" for 10 of 10 rows, fail-last for 1.) Every prompt
asks for the verdict first (so a reply cut off in the reason keeps its verdict) and allows
"unsure" rather than forcing a guess. The static part comes first and the triplet last, so
llama.cpp reuses the cached prefix across the triplets of one criterion.
"""

from __future__ import annotations

from typing import Any, Final

from goldenlens.core.golden.criteria import (
    CRITERION_INFO,
    JUDGED_CRITERIA,
    METRIC_PREFIX,
    REASON_CHARS,
    SOURCE_JUDGE,
    VERDICT_VALUES,
    Criterion,
    Verdict,
    VerdictError,
    fact_text,
    parse_verdict,
)
from goldenlens.judge.engines.embedding import EmbeddingEngine
from goldenlens.judge.metrics.base import JudgeCall, MetricInputs, MetricResult, NotScored
from goldenlens.judge.metrics.helpers import example, labelled, verdict_schema

VERSION: Final = "1"
PROMPT_VERSION: Final = "2"
DEFAULT_REASON_CHARS: Final = 160

_COMMON = (
    "You review one entry of a golden test set used to grade question-answering systems. "
    'Reply in JSON: "verdict" is "pass", "fail" or "unsure" (only when you cannot tell), '
    'then a one-sentence "reason". '
)

_PROMPTS: Final[dict[Criterion, str]] = {
    Criterion.UNAMBIGUOUS_QUESTION: _COMMON
    + "Criterion: a reader could give only one correct answer to the question, and the golden "
    "answer is that answer. Fail a question that is vague, asks for 'a' or 'one of' several "
    "things, or that several different answers would satisfy.",
    Criterion.ANSWER_MATCHES_FACT: _COMMON
    + "Criterion: the golden answer states the fact (or one of its alternatives) with the same "
    "value, and says nothing that contradicts it. Fail when the value differs or is missing.",
    Criterion.FACT_MINIMAL: _COMMON
    + "Criterion: the fact is only the short key value that answers the question (a name, a "
    "number with its unit, a date), not a sentence, a long phrase or most of the answer.",
    Criterion.LLM_AGNOSTIC_WORDING: _COMMON
    + "Criterion: the golden answer is a plain factual statement, without the filler of a chat "
    "assistant (greetings, 'Certainly', 'As an AI', 'It is important to note', 'I hope this "
    "helps', offers of more help) and without wording only one particular model would use.",
}

#: (row, reply) pairs per criterion, on made-up data: one fail, then one pass (see above).
_EXAMPLES: Final[dict[Criterion, tuple[tuple[dict[str, str], dict[str, str]], ...]]] = {
    Criterion.UNAMBIGUOUS_QUESTION: (
        (
            {"question": "What is one risk the company mentions?", "answer": "Rising interest rates."},
            {"verdict": "fail", "reason": "Any of several risks would be a correct answer."},
        ),
        (
            {"question": "In which year did the bridge open?", "answer": "The bridge opened in 1932."},
            {"verdict": "pass", "reason": "Only one year answers it."},
        ),
    ),
    Criterion.ANSWER_MATCHES_FACT: (
        (
            {"answer": "Revenue was $8.4 million in 2021.", "fact": '"8.2 million"'},
            {"verdict": "fail", "reason": "The answer says 8.4 million, the fact 8.2 million."},
        ),
        (
            {"answer": "Revenue was $8.2 million in 2021.", "fact": '"8.2 million"'},
            {"verdict": "pass", "reason": "The answer states 8.2 million."},
        ),
    ),
    Criterion.FACT_MINIMAL: (
        (
            {
                "question": "Who founded the museum?",
                "answer": "The museum was founded by Clara Hoff.",
                "fact": '"The museum was founded by Clara Hoff"',
            },
            {"verdict": "fail", "reason": "The fact repeats the whole answer, not just the name."},
        ),
        (
            {
                "question": "Who founded the museum?",
                "answer": "The museum was founded by Clara Hoff.",
                "fact": '"Clara Hoff"',
            },
            {"verdict": "pass", "reason": "The fact is just the founder's name."},
        ),
    ),
    Criterion.LLM_AGNOSTIC_WORDING: (
        (
            {"answer": "Certainly! The warranty lasts two years. I hope this helps!"},
            {"verdict": "fail", "reason": "It adds assistant filler around the fact."},
        ),
        (
            {"answer": "The warranty lasts two years."},
            {"verdict": "pass", "reason": "A plain statement."},
        ),
    ),
}

_LABELS: Final = {"question": "Question", "answer": "Golden answer", "fact": "Fact"}
#: Triplet field → the :class:`MetricInputs` field that carries it (the cache hashes those).
_INPUT_FIELDS: Final = {"question": "question", "answer": "reference", "fact": "fact"}


def _row(fields: dict[str, str]) -> str:
    return labelled(
        *((_LABELS[name], fields[name]) for name in ("question", "answer", "fact") if name in fields)
    )


def triplet_inputs(question: str, answer: str, fact: str) -> MetricInputs:
    """A golden triplet as the judge layer's row (the golden answer is the ``reference``)."""
    return MetricInputs(question=question, response="", reference=answer, fact=fact)


class CriterionJudge:
    """One judged curation criterion, shaped like a judge metric (see the module docstring)."""

    version = VERSION
    prompt_version = PROMPT_VERSION
    requires = frozenset({"judge"})

    def __init__(self, criterion: Criterion, reason_chars: int = DEFAULT_REASON_CHARS) -> None:
        self.criterion = criterion
        self.reason_chars = reason_chars
        self.name = METRIC_PREFIX + criterion.value
        #: The :class:`MetricInputs` fields this criterion reads: its cache key's inputs.
        self.reads = tuple(_INPUT_FIELDS[name] for name in CRITERION_INFO[criterion].reads)

    def __repr__(self) -> str:
        return f"CriterionJudge({self.criterion.value!r}, reason_chars={self.reason_chars})"

    def params(self) -> dict[str, Any]:
        return {"criterion": self.criterion.value, "reason_chars": self.reason_chars}

    def schema(self) -> dict[str, Any]:
        return verdict_schema(values=[v.value for v in Verdict], reason_chars=self.reason_chars)

    def examples(self) -> tuple[tuple[str, str], ...]:
        return tuple((_row(row), example(reply)) for row, reply in _EXAMPLES[self.criterion])

    def fields(self, inputs: MetricInputs) -> dict[str, str]:
        """The triplet's fields this criterion reads, as the judge sees them (the fact spelled
        out: a fact of blank parts only, ``<OR>``, reads as blank)."""
        values = {"question": inputs.question, "answer": inputs.reference, "fact": fact_text(inputs.fact)}
        return {name: values[name] for name in CRITERION_INFO[self.criterion].reads}

    def row(self, inputs: MetricInputs) -> str:
        """The triplet's fields this criterion reads, labelled."""
        return _row(self.fields(inputs))

    def score(
        self, inputs: MetricInputs, judge: JudgeCall | None, embedder: EmbeddingEngine | None
    ) -> MetricResult:
        """Ask the judge; a verdict, or *not scored* with the reason (never a guessed verdict)."""
        del embedder
        blank = [name for name, value in self.fields(inputs).items() if not value.strip()]
        if blank:
            return MetricResult.not_scored(self.name, f"missing input: {', '.join(blank)}", judge=judge)
        if judge is None:
            return MetricResult.not_scored(self.name, "no judge engine")
        try:
            data = judge.ask(
                _PROMPTS[self.criterion],
                self.examples(),
                self.row(inputs),
                self.schema(),
                step=self.criterion.value,
            )
            verdict, reason = parse_verdict(data)
        except NotScored as failure:
            return MetricResult.not_scored(
                self.name, failure.reason, {"failure": failure.detail}, judge=judge
            )
        except VerdictError as error:
            return MetricResult.not_scored(self.name, f"judge output unusable: {error}", judge=judge)
        if "reason" not in data:
            reason = "(the judge's reason was cut off at max_tokens)"
        detail = {"verdict": verdict.value, "reason": reason, "source": SOURCE_JUDGE}
        return MetricResult.scored(self.name, VERDICT_VALUES[verdict], detail, judge=judge)


def criterion_judges(
    criteria: tuple[Criterion, ...] = JUDGED_CRITERIA, *, reason_chars: int = DEFAULT_REASON_CHARS
) -> list[CriterionJudge]:
    """The judges of the judged criteria among ``criteria``, in the given order."""
    if not 20 <= reason_chars <= REASON_CHARS:
        raise ValueError(f"reason_chars must be between 20 and {REASON_CHARS}, got {reason_chars}")
    return [CriterionJudge(c, reason_chars) for c in criteria if CRITERION_INFO[c].judged]
