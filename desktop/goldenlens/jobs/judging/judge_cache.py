"""The judge-result cache of a run: keys and the stored form of a metric result.

A key is the SHA-256 of everything that can change a metric's output: the model SHA-256s it
uses, the metric's name, version and prompt version, its parameters, temperature and seed
(for judge metrics) and exactly the input fields it reads (:func:`registry.input_fields`).
So a rerun finds every key, and editing one golden answer changes only the keys of the rows
of that question whose metrics read the reference.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from goldenlens.core.scores import ScoreStatus
from goldenlens.judge.metrics.base import JudgeMetric, MetricInputs, MetricResult
from goldenlens.judge.registry import input_fields
from goldenlens.store.project import ProjectStore

CACHE_FORMAT = 1


@dataclass(frozen=True)
class ModelIds:
    """The SHA-256 of the judge and embedding models of a run ('' when absent)."""

    judge: str = ""
    embedder: str = ""


def cache_key(
    metric: JudgeMetric, inputs: MetricInputs, models: ModelIds, *, temperature: float, seed: int
) -> str:
    """The cache key of ``metric`` on ``inputs`` with these models and sampling settings."""
    payload: dict[str, Any] = {
        "format": CACHE_FORMAT,
        "metric": metric.name,
        "version": metric.version,
        "prompt_version": metric.prompt_version,
        "params": metric.params(),
        "inputs": input_fields(metric, inputs),
    }
    if "judge" in metric.requires:
        payload |= {"judge_sha256": models.judge, "temperature": temperature, "seed": seed}
    if "embeddings" in metric.requires:
        payload["embedding_sha256"] = models.embedder
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def model_sha_for(metric: JudgeMetric, models: ModelIds) -> str:
    """The model SHA-256 stored beside a cache entry (the judge's, else the embedder's)."""
    return models.judge if "judge" in metric.requires else models.embedder


def result_to_cache(result: MetricResult) -> dict[str, Any]:
    return {
        "metric": result.metric,
        "value": result.value,
        "status": ScoreStatus(result.status).value,
        "reason": result.reason,
        "detail": result.detail,
        "calls": result.calls,
        "prompt_tokens": result.prompt_tokens,
        "completion_tokens": result.completion_tokens,
        "seconds": result.seconds,
    }


def result_from_cache(metric: str, data: dict[str, Any]) -> MetricResult | None:
    """The cached result, or None for an entry this version cannot read (then recompute)."""
    try:
        value = data["value"]
        return MetricResult(
            metric=metric,
            value=None if value is None else float(value),
            status=ScoreStatus(data["status"]),
            reason=str(data.get("reason", "")),
            detail=dict(data.get("detail") or {}),
            calls=int(data.get("calls", 0)),
            prompt_tokens=int(data.get("prompt_tokens", 0)),
            completion_tokens=int(data.get("completion_tokens", 0)),
            seconds=float(data.get("seconds", 0.0)),
        )
    except (KeyError, TypeError, ValueError):
        return None


def cached_result(
    store: ProjectStore,
    metric: JudgeMetric,
    inputs: MetricInputs,
    models: ModelIds,
    *,
    temperature: float,
    seed: int,
) -> tuple[str, MetricResult | None]:
    """The cache key of ``metric`` on ``inputs`` and the result the project's cache holds for
    it (``None``: not there, or not readable by this version: compute it)."""
    key = cache_key(metric, inputs, models, temperature=temperature, seed=seed)
    cached = store.cache.get(key)
    return key, None if cached is None else result_from_cache(metric.name, cached)


def put_result(
    store: ProjectStore, key: str, metric: JudgeMetric, models: ModelIds, result: MetricResult
) -> None:
    """Keep a freshly computed result in the project's cache under ``key``."""
    store.cache.put(
        key,
        metric=metric.name,
        model_sha256=model_sha_for(metric, models),
        prompt_version=metric.prompt_version,
        output=result_to_cache(result),
    )
