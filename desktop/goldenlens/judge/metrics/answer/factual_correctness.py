"""factual_correctness: claims of the response checked against the golden answer (and back).

The response is decomposed into claims, each verified against the reference: supported →
true positive, otherwise false positive. For recall and F1 the reference is decomposed too and
each of its claims verified against the response: unsupported → false negative.
precision = TP/(TP+FP), recall = TP/(TP+FN), F-beta of the two; rounded to 2 decimals. As in
ragas, a score with TP = 0 is 0 — recall and F1 included when FN = 0 too (every claim of the
response is unsupported while the reference's are all covered): such a response stays in the
mean as the 0 it is. At most ``max_claims`` claims are taken from each side; the detail
notes a side that reached the cap.

Atomicity and coverage choose the few-shot example of the decomposition, so the judge copies
its granularity: high atomicity = one fact per claim, high coverage = every detail kept.
"""

from __future__ import annotations

from typing import Any

from goldenlens.judge.engines.embedding import EmbeddingEngine
from goldenlens.judge.metrics.base import JudgeCall, MetricInputs, NotScored, array, obj, text
from goldenlens.judge.metrics.helpers import (
    ClaimCheck,
    MetricBase,
    distinct,
    example,
    f_beta,
    labelled,
    note_cap,
)

PROMPT_VERSION = "1"
VERSION = "2"
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

_VERIFY = ClaimCheck(reason_chars=REASON_CHARS)


def claims_schema(max_claims: int) -> dict[str, Any]:
    return obj(claims=array(text(CLAIM_CHARS), max_items=max_claims))


def decomposition_examples(atomicity: str, coverage: str) -> tuple[tuple[str, str], ...]:
    """The few-shot example shown for this atomicity and coverage."""
    claims = _DECOMPOSITIONS[(atomicity, coverage)]
    return ((labelled(("Text", _SAMPLE_TEXT)), example({"claims": claims})),)


class FactualCorrectness(MetricBase):
    """Claim-level precision, recall or F-beta of the response against the golden answer
    (mode ``precision``, ``recall`` or ``f1``)."""

    name = "factual_correctness"
    version = VERSION
    prompt_version = PROMPT_VERSION
    param_names = ("mode", "beta", "atomicity", "coverage", "max_claims")
    requires = frozenset({"response", "reference", "judge"})

    def __init__(
        self,
        mode: str = "f1",
        beta: float = 1.0,
        atomicity: str = "low",
        coverage: str = "low",
        max_claims: int = MAX_CLAIMS,
    ) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        if atomicity not in LEVELS or coverage not in LEVELS:
            raise ValueError(
                f"atomicity and coverage must be 'low' or 'high', got {atomicity!r}, {coverage!r}"
            )
        if not beta > 0:
            raise ValueError(f"beta must be positive, got {beta!r}")
        if max_claims < 1:
            raise ValueError(f"max_claims must be at least 1, got {max_claims!r}")
        self.max_claims = max_claims
        self.mode = mode
        self.beta = float(beta)
        self.atomicity = atomicity
        self.coverage = coverage

    def compute(
        self, inputs: MetricInputs, judge: JudgeCall, embedder: EmbeddingEngine | None, detail: dict[str, Any]
    ) -> float:
        del embedder  # the run template passes it; this metric does not use it
        detail["mode"] = self.mode
        response_verdicts = self._side(judge, inputs.response, inputs.reference, "response", detail)
        tp = sum(int(v["verdict"]) for v in response_verdicts)
        fp = len(response_verdicts) - tp
        detail |= {"tp": tp, "fp": fp}
        precision = tp / (tp + fp)
        detail["precision"] = round(precision, 2)
        if self.mode == "precision":
            return round(precision, 2)
        reference_verdicts = self._side(judge, inputs.reference, inputs.response, "reference", detail)
        fn = len(reference_verdicts) - sum(int(v["verdict"]) for v in reference_verdicts)
        detail["fn"] = fn
        # ragas: recall = TP / (TP + FN + 1e-8), so TP = FN = 0 is a recall (and F1) of 0.
        recall = tp / (tp + fn) if tp + fn else 0.0
        detail["recall"] = round(recall, 2)
        if self.mode == "recall":
            return round(recall, 2)
        return round(f_beta(tp, fp, fn, self.beta), 2)

    def _side(
        self, judge: JudgeCall, source: str, against: str, which: str, detail: dict[str, Any]
    ) -> list[dict[str, Any]]:
        """Decompose ``source`` into claims and verify each against ``against``."""
        claims = self._decompose(judge, source, which, detail)
        detail[f"{which}_claims"] = claims
        if not claims:
            raise NotScored(f"no claims in the {'response' if which == 'response' else 'reference answer'}")
        verdicts = self._verify(judge, claims, against, which)
        detail[f"{which}_verdicts"] = verdicts
        return verdicts

    def _decompose(self, judge: JudgeCall, source: str, which: str, detail: dict[str, Any]) -> list[str]:
        schema = claims_schema(self.max_claims)
        reply = judge.ask(
            _DECOMPOSE,
            decomposition_examples(self.atomicity, self.coverage),
            labelled(("Text", source)),
            schema,
            step=f"{which} claims",
        )
        note_cap(detail, f"{which} claims", len(reply["claims"]), self.max_claims)
        return distinct(reply["claims"])

    def _verify(self, judge: JudgeCall, claims: list[str], against: str, which: str) -> list[dict[str, Any]]:
        verdicts: list[dict[str, Any]] = []
        for i, claim in enumerate(claims, 1):
            verdict, reason = _VERIFY.ask(judge, against, claim, step=f"{which} claim {i}/{len(claims)}")
            verdicts.append({"claim": claim, "verdict": verdict, "reason": reason})
        return verdicts
