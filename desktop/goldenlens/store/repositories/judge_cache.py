"""The judge-cache repository (``store.cache``): a judge call with the same model, prompt,
parameters and inputs is answered from the project file instead of being run again."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from goldenlens.core.errors import StoreError
from goldenlens.store.base import Repository
from goldenlens.store.values import to_json, utc_now


class JudgeCacheRepository(Repository):
    """Cached judge outputs of a project: ``store.cache`` of a
    :class:`~goldenlens.store.project.ProjectStore`.

    ``key`` is opaque here: the judge layer derives it (SHA-256 over the model's SHA-256,
    prompt version, metric parameters and inputs) so that anything changing the output
    changes the key.
    """

    def get(self, key: str) -> dict[str, Any] | None:
        """The cached judge output for ``key``, or ``None``."""
        row = self._fetch_one("SELECT output FROM judge_cache WHERE key = ?", [key])
        if row is None:
            return None
        try:
            output = json.loads(row[0])
        except ValueError as exc:
            raise StoreError(f"{self._path}: judge cache entry {key!r} is not valid JSON: {exc}") from exc
        if not isinstance(output, dict):
            raise StoreError(f"{self._path}: judge cache entry {key!r} is not a JSON object")
        return output

    def put(
        self,
        key: str,
        *,
        metric: str,
        model_sha256: str,
        prompt_version: str,
        output: Mapping[str, Any],
    ) -> None:
        """Store (or replace) the judge output for ``key``; committed at once."""
        with self._write(f"save judge cache entry {key!r}") as conn:
            conn.execute(
                "INSERT OR REPLACE INTO judge_cache"
                " (key, metric, model_sha256, prompt_version, output, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                (key, metric, model_sha256, prompt_version, to_json(dict(output)), utc_now()),
            )
