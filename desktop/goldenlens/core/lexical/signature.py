"""Score signatures: what produced a number, so two runs can be compared (sacrebleu style)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

LEXICAL_VERSION = "1"
FMEVAL_REFERENCE = "fmeval-1.2.3"


@dataclass(frozen=True)
class Signature:
    """Metric name and version plus every parameter that changes its value.

    Judge metrics add the model file name and SHA-256, prompt version, temperature and seed
    to ``params``; lexical metrics record the counting mode and the FMEval reference.
    """

    metric: str
    version: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps(
            {"metric": self.metric, "version": self.version, "params": dict(self.params)},
            sort_keys=True,
            ensure_ascii=False,
        )

    def short(self) -> str:
        """``f1_score|v1|counting=set|reference=fmeval-1.2.3`` — for tables and exports."""
        params = "|".join(f"{k}={v}" for k, v in sorted(self.params.items()))
        return f"{self.metric}|v{self.version}" + (f"|{params}" if params else "")

    @classmethod
    def from_json(cls, text: str) -> Signature:
        data = json.loads(text)
        return cls(str(data["metric"]), str(data["version"]), dict(data.get("params", {})))


def lexical_signature(metric: str, params: Mapping[str, Any]) -> Signature:
    """Signature of an FMEval-compatible lexical metric."""
    return Signature(metric, LEXICAL_VERSION, {**params, "reference": FMEVAL_REFERENCE})
