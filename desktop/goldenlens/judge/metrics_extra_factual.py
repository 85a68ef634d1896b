"""factual_correctness: claims of the response checked against the golden answer (and back).

The response is decomposed into claims, each verified against the reference: supported →
true positive, otherwise false positive. For recall and F1 the reference is decomposed too and
each of its claims verified against the response: unsupported → false negative.
precision = TP/(TP+FP), recall = TP/(TP+FN), F-beta of the two; rounded to 2 decimals.

Atomicity and coverage choose the few-shot example of the decomposition, so the judge copies
its granularity: high atomicity = one fact per claim, high coverage = every detail kept.
"""

from __future__ import annotations

from typing import Any

from goldenlens.judge.embeddings import EmbeddingEngine
from goldenlens.judge.metric_base import JudgeCall, MetricInputs, MetricResult, NotScored, array, obj, text
from goldenlens.judge.metrics_extra_common import (
    distinct,
    example,
    labelled,
    run_metric,
    token_budget,
    verdict_schema,
)

PROMPT_VERSION = "1"
VERSION = "1"
MAX_CLAIMS = 5
CLAIM_CHARS = 120
REASON_CHARS = 100
MODES = ("precision", "recall", "f1")
LEVELS = ("low", "high")

_DECOMPOSE = (
    "Break the text into factual claims. Each claim is one sentence that makes sense on its own: "
    "repeat names instead of using pronouns, and add nothing the text does not say. Split as "
    'finely as the example does. Reply in JSON with the list "claims".'
)

_SAMPLE_TEXT = (
    "Marie Curie, a Polish-born physicist and chemist, won the Nobel Prize in Physics in 1903 "
    "and the Nobel Prize in Chemistry in 1911."
)

#: (atomicity, coverage) → the claims the example shows for ``_SAMPLE_TEXT``.
_DECOMPOSITIONS: dict[tuple[str, str], list[str]] = {
    ("low", "low"): [
        "Marie Curie was a physicist and chemist.",
        "Marie Curie won Nobel Prizes in Physics and Chemistry.",
    ],
    ("low", "high"): [
        "Marie Curie was a Polish-born physicist and chemist.",
        "Marie Curie won the Nobel Prize in Physics in 1903 and the Nobel Prize in Chemistry in 1911.",
    ],
    ("high", "low"): [
        "Marie Curie was a physicist.",
        "Marie Curie was a chemist.",
        "Marie Curie won a Nobel Prize in Physics.",
        "Marie Curie won a Nobel Prize in Chemistry.",
    ],
    ("high", "high"): [
        "Marie Curie was born in Poland.",
        "Marie Curie was a physicist.",
        "Marie Curie was a chemist.",
        "Marie Curie won the Nobel Prize in Physics in 1903.",
        "Marie Curie won the Nobel Prize in Chemistry in 1911.",
    ],
}

_VERIFY = (
    'You check one claim against a text. Reply in JSON: "verdict" 1 if the text states the claim '
    "or directly implies it, 0 if the text contradicts the claim or does not mention it; then a "
    'short "reason".'
)

_SAMPLE_SOURCE = "The library opens at 9 am on weekdays and is closed on Sundays."
_VERIFY_EXAMPLES: tuple[tuple[str, str], ...] = (
    (
        labelled(("Text", _SAMPLE_SOURCE), ("Claim", "The library is closed on Sundays.")),
        example({"verdict": 1, "reason": "The text says it is closed on Sundays."}),
    ),
    (
        labelled(("Text", _SAMPLE_SOURCE), ("Claim", "The library opens at 8 am on weekdays.")),
        example({"verdict": 0, "reason": "The text says 9 am, not 8 am."}),
    ),
)

_CLAIMS_SCHEMA = obj(claims=array(text(CLAIM_CHARS), max_items=MAX_CLAIMS))


def decomposition_examples(atomicity: str, coverage: str) -> tuple[tuple[str, str], ...]:
    """The few-shot example shown for this atomicity and coverage."""
    claims = _DECOMPOSITIONS[(atomicity, coverage)]
    return ((labelled(("Text", _SAMPLE_TEXT)), example({"claims": claims})),)


def f_beta(precision: float, recall: float, beta: float) -> float:
    """F-beta of precision and recall; 0.0 when both are 0."""
    b2 = beta * beta
    denominator = b2 * precision + recall
    return 0.0 if denominator == 0 else (1 + b2) * precision * recall / denominator


class FactualCorrectness:
    """Claim-level precision, recall or F-beta of the response against the golden answer."""

    name = "factual_correctness"
    version = VERSION
    prompt_version = PROMPT_VERSION
    requires = frozenset({"response", "reference", "judge"})

    def __init__(
        self, mode: str = "f1", beta: float = 1.0, atomicity: str = "low", coverage: str = "low"
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        if atomicity not in LEVELS or coverage not in LEVELS:
            raise ValueError(
                f"atomicity and coverage must be 'low' or 'high', got {atomicity!r}, {coverage!r}"
            )
        if not beta > 0:
            raise ValueError(f"beta must be positive, got {beta!r}")
        self.mode = mode
        self.beta = float(beta)
        self.atomicity = atomicity
        self.coverage = coverage

    def params(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "beta": self.beta,
            "atomicity": self.atomicity,
            "coverage": self.coverage,
            "max_claims": MAX_CLAIMS,
        }

    def score(
        self, inputs: MetricInputs, judge: JudgeCall | None, embedder: EmbeddingEngine | None
    ) -> MetricResult:
        del embedder
        return run_metric(self, inputs, judge, lambda call, detail: self._compute(inputs, call, detail))

    def _compute(self, inputs: MetricInputs, judge: JudgeCall, detail: dict[str, Any]) -> float:
        detail["mode"] = self.mode
        response_claims = self._decompose(judge, inputs.response, "response")
        detail["response_claims"] = response_claims
        if not response_claims:
            raise NotScored("no claims in the response")
        response_verdicts = self._verify(judge, response_claims, inputs.reference, "response")
        detail["response_verdicts"] = response_verdicts
        tp = sum(int(v["verdict"]) for v in response_verdicts)
        fp = len(response_claims) - tp
        detail |= {"tp": tp, "fp": fp}
        precision = tp / (tp + fp)
        detail["precision"] = round(precision, 2)
        if self.mode == "precision":
            return round(precision, 2)

        reference_claims = self._decompose(judge, inputs.reference, "reference")
        detail["reference_claims"] = reference_claims
        if not reference_claims:
            raise NotScored("no claims in the reference answer")
        reference_verdicts = self._verify(judge, reference_claims, inputs.response, "reference")
        detail["reference_verdicts"] = reference_verdicts
        fn = len(reference_claims) - sum(int(v["verdict"]) for v in reference_verdicts)
        detail["fn"] = fn
        if tp + fn == 0:
            # No response claim is in the reference, yet every reference claim is in the
            # response: the judge contradicted itself and recall is undefined.
            raise NotScored("recall undefined: no true positives and no false negatives")
        recall = tp / (tp + fn)
        detail["recall"] = round(recall, 2)
        if self.mode == "recall":
            return round(recall, 2)
        return round(f_beta(precision, recall, self.beta), 2)

    def _decompose(self, judge: JudgeCall, source: str, which: str) -> list[str]:
        reply = judge.ask(
            _DECOMPOSE,
            decomposition_examples(self.atomicity, self.coverage),
            labelled(("Text", source)),
            _CLAIMS_SCHEMA,
            max_tokens=token_budget(MAX_CLAIMS * (CLAIM_CHARS + 4)),
            step=f"{which} claims",
        )
        return distinct(reply["claims"])

    def _verify(self, judge: JudgeCall, claims: list[str], against: str, which: str) -> list[dict[str, Any]]:
        verdicts: list[dict[str, Any]] = []
        for i, claim in enumerate(claims, 1):
            reply = judge.ask(
                _VERIFY,
                _VERIFY_EXAMPLES,
                labelled(("Text", against), ("Claim", claim)),
                verdict_schema(REASON_CHARS),
                max_tokens=token_budget(REASON_CHARS),
                step=f"{which} claim {i}/{len(claims)}",
            )
            verdicts.append(
                {"claim": claim, "verdict": int(reply["verdict"]), "reason": reply.get("reason", "")}
            )
        return verdicts
