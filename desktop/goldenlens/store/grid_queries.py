"""The grid-reads repository (``store.grid``): bulk reads that fill the score grid's column
arrays (:mod:`goldenlens.queries.grid_data`), read-only.

Why a repository of its own rather than a method on each owner of the tables it reads: the
grid reads across golden items, responses, scores, flags, reviews and overrides with one
contract of its own — plain tuples for all questions at once, a few queries per grid, never
one per cell, each taking an optional ``question_ids`` to read just some rows (the first
screen of a large project, or a few rows after an edit) — and serves one consumer, the grid
loader. Kept together, that contract and its cost stay visible in one place, and the owning
repositories keep their narrow, object-returning interfaces. The per-question reads of the
curation edits are different: each reads one owner's tables and returns its objects, so they
live on that owner (``responses.of_question``, ``results.scores_of_question``,
``reviews.override_in_effect``, ...).

Scores are read one metric at a time along the ``scores`` primary key ``(run_id, metric,
item, pipeline)``: one range scan per metric column, the integer keys turned back into ids by
two primary-key look-ups per row.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Any

from goldenlens.store.base import Repository, Row
from goldenlens.store.review import override_from_row
from goldenlens.store.values import Override, to_json


def _only(column: str, question_ids: Sequence[str] | None) -> tuple[str, list[Any]]:
    """SQL condition and parameters limiting ``column`` to ``question_ids`` (none: no limit)."""
    if question_ids is None:
        return "1", []
    return f"{column} IN (SELECT value FROM json_each(?))", [to_json(list(question_ids))]  # noqa: S608


class GridQueries(Repository):
    """Read-only bulk reads of the score grid: ``store.grid`` of a
    :class:`~goldenlens.store.project.ProjectStore`."""

    def golden(self, question_ids: Sequence[str] | None = None, *, limit: int | None = None) -> list[Row]:
        """``(id, question, answer, fact)`` of golden items in golden-set order; with ``limit``
        only the first ``limit`` of them (an index range scan along ``position``)."""
        where, params = _only("id", question_ids)
        first = "" if limit is None else " LIMIT ?"
        return self._fetch(
            f"SELECT id, question, answer, fact FROM golden_items WHERE {where} ORDER BY position, id{first}",  # noqa: S608
            [*params, *([] if limit is None else [max(0, int(limit))])],
        )

    def question_count(self) -> int:
        """How many golden questions the project holds."""
        row = self._fetch_one("SELECT COUNT(*) FROM golden_items")
        return int(row[0]) if row is not None else 0

    def responses(self, question_ids: Sequence[str] | None = None) -> list[Row]:
        """``(question_id, pipeline, response)`` of every response (no particular order)."""
        where, params = _only("question_id", question_ids)
        return self._fetch(f"SELECT question_id, pipeline, response FROM responses WHERE {where}", params)  # noqa: S608

    def scores(self, run_id: int, metric: str, question_ids: Sequence[str] | None = None) -> list[Row]:
        """``(question_id, pipeline, value)`` of one metric of a run in key order; ``value`` is
        ``None`` for a key that was not scored."""
        where, params = _only("i.question_id", question_ids)
        return self._fetch(
            "SELECT i.question_id, p.name, s.value FROM scores AS s"  # noqa: S608
            " JOIN item_keys AS i ON i.key = s.item JOIN pipeline_keys AS p ON p.key = s.pipeline"
            " WHERE s.run_id = ? AND s.metric = (SELECT key FROM metric_keys WHERE name = ?)"
            f" AND {where} ORDER BY i.question_id, p.name",
            [run_id, metric, *params],
        )

    def score_keys(self, run_id: int, metric: str) -> list[Row]:
        """``(question_id, pipeline)`` of every score of one metric of a run, in storage order
        (the order :meth:`score_values` returns the values in)."""
        return self._fetch(
            "SELECT i.question_id, p.name FROM scores AS s"
            " JOIN item_keys AS i ON i.key = s.item JOIN pipeline_keys AS p ON p.key = s.pipeline"
            " WHERE s.run_id = ? AND s.metric = (SELECT key FROM metric_keys WHERE name = ?)"
            " ORDER BY s.item, s.pipeline",
            [run_id, metric],
        )

    def score_values(self, run_id: int, metric: str) -> list[float | None]:
        """The values of one metric of a run in storage order, nothing else: one range scan of
        the primary key, no join and no sort (a run scores every metric of the same keys, so
        :meth:`score_keys` of any metric places them)."""
        rows = self._fetch(
            "SELECT value FROM scores WHERE run_id = ?"
            " AND metric = (SELECT key FROM metric_keys WHERE name = ?) ORDER BY item, pipeline",
            [run_id, metric],
        )
        return list(chain.from_iterable(rows))

    def score_key_sum(self, run_id: int, metric: str) -> tuple[int, float, float]:
        """A checksum of the keys of one metric's scores (count and two sums): two metrics with
        the same checksum have their values at the same keys in :meth:`score_values`."""
        row = self._fetch_one(
            "SELECT count(*), total(item), total(item * 7919.0 + pipeline * pipeline) FROM scores"
            " WHERE run_id = ? AND metric = (SELECT key FROM metric_keys WHERE name = ?)",
            [run_id, metric],
        )
        return (0, 0.0, 0.0) if row is None else (int(row[0]), float(row[1]), float(row[2]))

    def flags(self, run_id: int, question_ids: Sequence[str] | None = None) -> list[Row]:
        """``(question_id, pipeline, flag)`` of a run; pipeline ``""`` for a golden-row flag."""
        where, params = _only("i.question_id", question_ids)
        return self._fetch(
            "SELECT i.question_id, p.name, c.name FROM flags AS f"  # noqa: S608
            " JOIN item_keys AS i ON i.key = f.item JOIN pipeline_keys AS p ON p.key = f.pipeline"
            f" JOIN flag_codes AS c ON c.code = f.code WHERE f.run_id = ? AND {where}",
            [run_id, *params],
        )

    def reviews(self, question_ids: Sequence[str] | None = None) -> list[Row]:
        """``(question_id, status)`` of questions with a review state."""
        where, params = _only("question_id", question_ids)
        return self._fetch(f"SELECT question_id, status FROM reviews WHERE {where}", params)  # noqa: S608

    def overrides(self, question_ids: Sequence[str] | None = None) -> list[Override]:
        """Overrides in effect (the latest per key, withdrawals left out), oldest first."""
        where, params = _only("o.question_id", question_ids)
        rows = self._fetch(
            "SELECT o.id, o.question_id, o.pipeline, o.metric, o.value, o.passed, o.note, o.reviewer,"  # noqa: S608
            " o.created_at FROM overrides AS o WHERE o.id IN (SELECT MAX(id) FROM overrides"
            f" GROUP BY question_id, pipeline, metric) AND NOT (o.value IS NULL AND o.passed IS NULL)"
            f" AND {where} ORDER BY o.id",
            params,
        )
        return [override_from_row(row) for row in rows]
