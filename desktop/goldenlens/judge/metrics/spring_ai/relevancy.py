"""relevancy (Spring AI ``RelevancyEvaluator``): 1.0 when the judge says the response is in line
with the retrieved context for the query (YES, a pass), else 0.0.
"""

from __future__ import annotations

from typing import Any

from goldenlens.judge.engines.embedding import EmbeddingEngine
from goldenlens.judge.metrics.base import JudgeCall, MetricInputs
from goldenlens.judge.metrics.helpers import (
    MetricBase,
    example,
    join_contexts,
    labelled,
    verdict_schema,
)

RELEVANCY_PROMPT_VERSION = "1"
VERSION = "1"
REASON_CHARS = 150

_RELEVANCY = (
    "You check a response to a query against the context that was retrieved for it. Answer YES "
    "if the response is in line with the context for this query; NO if it contradicts the "
    "context, relies on facts the context lacks, or does not address the query. Reply in JSON: "
    '"verdict" YES or NO, then a short "reason".'
)
_MUSEUM = "The museum is open Tuesday to Sunday, 10:00 to 18:00, and closed on Mondays."
_RELEVANCY_EXAMPLES: tuple[tuple[str, str], ...] = (
    (
        labelled(
            ("Query", "Can I visit the museum on Monday?"),
            ("Context", _MUSEUM),
            ("Response", "No, the museum is closed on Mondays."),
        ),
        example({"verdict": "YES", "reason": "The context says it is closed on Mondays."}),
    ),
    (
        labelled(
            ("Query", "When does the museum open?"),
            ("Context", _MUSEUM),
            ("Response", "It opens at 9:00 every day."),
        ),
        example({"verdict": "NO", "reason": "The context says 10:00, Tuesday to Sunday."}),
    ),
)
_RELEVANCY_SCHEMA = verdict_schema(values=("YES", "NO"), reason_chars=REASON_CHARS)


class Relevancy(MetricBase):
    """Spring AI's relevancy: 1.0 when the judge says YES (pass), else 0.0."""

    name = "relevancy"
    version = VERSION
    prompt_version = RELEVANCY_PROMPT_VERSION
    requires = frozenset({"question", "response", "contexts", "judge"})

    def params(self) -> dict[str, Any]:
        return {}

    def compute(
        self, inputs: MetricInputs, judge: JudgeCall, embedder: EmbeddingEngine | None, detail: dict[str, Any]
    ) -> float:
        del embedder  # the run template passes it; this metric does not use it
        row = labelled(
            ("Query", inputs.question),
            ("Context", join_contexts(inputs.contexts)),
            ("Response", inputs.response),
        )
        reply = judge.ask(
            _RELEVANCY,
            _RELEVANCY_EXAMPLES,
            row,
            _RELEVANCY_SCHEMA,
            step="verdict",
        )
        passed = reply["verdict"] == "YES"
        detail |= {"verdict": reply["verdict"], "pass": passed, "reason": reply.get("reason", "")}
        return 1.0 if passed else 0.0
