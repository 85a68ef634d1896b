"""The grid-reads repository (``store.grid``): bulk reads that fill the score grid's column
arrays (:mod:`goldenlens.queries.grid_data`), read-only.

Why a repository of its own rather than a method on each owner of the tables it reads: the
grid reads across golden items, responses, scores, flags, reviews and overrides with one
contract of its own — plain tuples or arrays for all questions at once, a few queries per
grid, never one per cell, each row read taking an optional ``question_ids`` to read just some
rows (the first screen of a large project, or a few rows after an edit) — and serves one
consumer, the grid loader. Kept together, that contract and its cost stay visible in one
place, and the owning repositories keep their narrow, object-returning interfaces.

Scores are read one metric at a time along the ``scores`` primary key ``(run_id, metric,
item, pipeline)``: one range scan per metric column. For some rows the integer keys are turned
back into ids by two primary-key look-ups per row; the whole grid reads each column as arrays
of integer keys and values (:meth:`GridQueries.score_column`) that the caller places through
the keys of :meth:`GridQueries.item_keys` and :meth:`GridQueries.pipeline_keys`.
"""

from __future__ import annotations

import sqlite3
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Final, NamedTuple

import numpy as np
import numpy.typing as npt

from goldenlens.core.errors import StoreError
from goldenlens.core.project_records import Override
from goldenlens.store.base import Repository, Row
from goldenlens.store.repositories.review import OVERRIDES
from goldenlens.store.values import to_json

#: A score value as an exact integer (see :meth:`GridQueries.score_column`); NULL
#: (not scored) and values outside the exact range get negative markers. The bounds are bound
#: as parameters, never written as decimals: SQLite's parsing of a decimal literal is not exact.
_NOT_SCORED: Final = -1
_OUT_OF_RANGE: Final = -2
_UNSCALE: Final = 2.0**-62
_SCALED_BOUNDS: Final = (2.0**-10, 2**62)
_VALUE_AS_INTEGER: Final = (
    "(CASE WHEN (value >= ?1 AND value < 2) OR value = 0 THEN CAST(value * ?2 AS INTEGER)"
    f" WHEN value IS NULL THEN {_NOT_SCORED} ELSE {_OUT_OF_RANGE} END)"
)


class ScoreColumn(NamedTuple):
    """One metric's scores in a run: ``items[i]``, ``pipelines[i]`` (integer keys) and
    ``values[i]`` (NaN: not scored) describe score ``i``; no particular order."""

    items: npt.NDArray[np.int64]
    pipelines: npt.NDArray[np.int64]
    values: npt.NDArray[np.float64]


def _parse_integers(text: str | None, count: int) -> npt.NDArray[np.int64]:
    """``count`` comma-separated integers (a ``group_concat``) as an array; anything else is
    an error, never a shorter or guessed array."""
    try:
        with warnings.catch_warnings():  # numpy warns (and stops early) on a stray character
            warnings.simplefilter("error")
            array = np.fromstring(text or "", dtype=np.int64, sep=",")
    except (ValueError, DeprecationWarning) as exc:
        raise StoreError(f"score column unreadable: {exc}") from exc
    if len(array) != count:
        raise StoreError(f"score column read {len(array)} of {count} values")
    return array


def _only(column: str, question_ids: Sequence[str] | None) -> tuple[str, list[Any]]:
    """SQL condition and parameters limiting ``column`` to ``question_ids`` (none: no limit)."""
    if question_ids is None:
        return "1", []
    return f"{column} IN (SELECT value FROM json_each(?))", [to_json(list(question_ids))]  # noqa: S608


class GridQueries(Repository):
    """Read-only bulk reads of the score grid: ``store.grid`` of a
    :class:`~goldenlens.store.project.ProjectStore`."""

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """One read transaction around several grid reads, so they all see the same committed
        project (the rows of :meth:`golden` and the keys of :meth:`item_keys` and
        :meth:`score_column` cannot come from either side of another connection's
        commit). Joins a transaction already open; no writes inside."""
        conn = self._conn
        if conn.in_transaction:
            yield
            return
        try:
            conn.execute("BEGIN DEFERRED")
        except sqlite3.Error as exc:
            raise StoreError(f"{self._path}: could not read the project: {exc}") from exc
        try:
            yield
        finally:
            if conn.in_transaction:
                conn.execute("COMMIT")  # read-only: nothing to keep or lose

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

    def item_keys(self) -> list[Row]:
        """``(question_id, item_key)`` of every golden item: the integer key its score and flag
        rows use (no particular order)."""
        return self._fetch("SELECT question_id, key FROM item_keys")

    def pipeline_keys(self) -> dict[str, int]:
        """The integer key of every pipeline name score rows have used (``""``: golden row)."""
        return {str(name): int(key) for key, name in self._fetch("SELECT key, name FROM pipeline_keys")}

    def _pipeline_key_width(self) -> int:
        row = self._fetch_one("SELECT max(key) + 1 FROM pipeline_keys")
        return max(1, int(row[0] or 1)) if row is not None else 1

    def score_column(self, run_id: int, metric: str) -> ScoreColumn:
        """Every score of one metric of a run as three arrays (item key, pipeline key, value;
        NaN: not scored), read in one scan with no Python object per score.

        Keys and values come back as two comma-separated strings that numpy parses
        (``group_concat`` feeds every aggregate of a query the same rows in the same order, so
        they line up). A value goes through text as an integer, which is exact, rather than as a decimal,
        which SQLite does not round-trip: for ``0 <= v < 2`` with ``v == 0`` or ``v >= 2**-10``
        (the range of a score) ``v * 2**62`` is an integer below ``2**63``, since a double has
        53 significant bits; so it and ``int * 2**-62`` are exact (powers of two only move the
        exponent). Other values (negative, 2 or more, tiny) are read as REALs afterwards.
        300,000 scores: ~0.15 s of CPU, most of it inside SQLite with the GIL released, where a
        row per score plus a key checksum took ~0.21 s holding it (and left 600,000 objects to
        the cycle collector).
        """
        # Item and pipeline keys travel as one integer, item * width + pipeline (width: one
        # more than the largest pipeline key); an overflow would turn it into a REAL, which
        # _parse_integers refuses.
        columns = self._fetch_one(
            "SELECT count(*), ?5, group_concat(item * ?5 + pipeline),"  # noqa: S608
            f" group_concat({_VALUE_AS_INTEGER}) FROM scores WHERE run_id = ?3"
            " AND metric = (SELECT key FROM metric_keys WHERE name = ?4)",
            [*_SCALED_BOUNDS, run_id, metric, self._pipeline_key_width()],
        )
        count = 0 if columns is None else int(columns[0])
        if not count:
            return ScoreColumn(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.float64))
        assert columns is not None
        width = int(columns[1])
        keys, scaled = (_parse_integers(text, count) for text in columns[2:])
        items, pipelines = np.divmod(keys, width)
        values = scaled.astype(np.float64) * _UNSCALE
        values[scaled == _NOT_SCORED] = np.nan
        odd = scaled == _OUT_OF_RANGE
        if odd.any():
            exact = self._fetch(
                "SELECT item, pipeline, value FROM scores WHERE run_id = ?3"  # noqa: S608
                " AND metric = (SELECT key FROM metric_keys WHERE name = ?4)"
                f" AND {_VALUE_AS_INTEGER} = {_OUT_OF_RANGE}",
                [*_SCALED_BOUNDS, run_id, metric],
            )
            where = {(int(item), int(pipeline)): float(value) for item, pipeline, value in exact}
            for at in np.flatnonzero(odd).tolist():
                values[at] = where[(int(items[at]), int(pipelines[at]))]
        return ScoreColumn(items, pipelines, values)

    def reasons(
        self, run_id: int, metrics: Sequence[str], question_ids: Sequence[str] | None = None
    ) -> list[Row]:
        """``(question_id, pipeline, metric, reason)`` of the scores of ``metrics`` in a run
        that carry a reason (those not scored): what a grid cell shown as missing says why.
        Only rows with a note are read (the ``score_notes`` side table), none per score."""
        where, params = _only("i.question_id", question_ids)
        return self._fetch(
            "SELECT i.question_id, p.name, m.name, n.reason FROM score_notes AS n"  # noqa: S608
            " JOIN item_keys AS i ON i.key = n.item JOIN pipeline_keys AS p ON p.key = n.pipeline"
            " JOIN metric_keys AS m ON m.key = n.metric"
            " WHERE n.run_id = ? AND n.reason <> '' AND m.name IN (SELECT value FROM json_each(?))"
            f" AND {where}",
            [run_id, to_json(list(metrics)), *params],
        )

    def flags(self, run_id: int, question_ids: Sequence[str] | None = None) -> list[Row]:
        """``(question_id, pipeline, flag)`` of a run; pipeline ``""`` for a golden-row flag."""
        where, params = _only("i.question_id", question_ids)
        return self._fetch(
            "SELECT i.question_id, p.name, c.name FROM flags AS f"  # noqa: S608
            " JOIN item_keys AS i ON i.key = f.item JOIN pipeline_keys AS p ON p.key = f.pipeline"
            f" JOIN flag_codes AS c ON c.code = f.code WHERE f.run_id = ? AND {where}",
            [run_id, *params],
        )

    def flag_keys(self, run_id: int) -> list[Row]:
        """``(item_key, pipeline_key, flag_code)`` of every flag of a run (integer keys of
        :meth:`item_keys`, :meth:`pipeline_keys`, :meth:`flag_names`)."""
        return self._fetch("SELECT item, pipeline, code FROM flags WHERE run_id = ?", [run_id])

    def flag_names(self) -> dict[int, str]:
        """The flag name of every flag code."""
        return {int(code): str(name) for code, name in self._fetch("SELECT code, name FROM flag_codes")}

    def reviews(self, question_ids: Sequence[str] | None = None) -> list[Row]:
        """``(question_id, status)`` of questions with a review state."""
        where, params = _only("question_id", question_ids)
        return self._fetch(f"SELECT question_id, status FROM reviews WHERE {where}", params)  # noqa: S608

    def overrides(self, question_ids: Sequence[str] | None = None) -> list[Override]:
        """Overrides in effect (the latest per key, withdrawals left out), oldest first."""
        where, params = _only("o.question_id", question_ids)
        rows = self._fetch(
            f"SELECT {OVERRIDES.select('o')} FROM overrides AS o WHERE"  # noqa: S608
            " o.id IN (SELECT MAX(id) FROM overrides"
            f" GROUP BY question_id, pipeline, metric) AND NOT (o.value IS NULL AND o.passed IS NULL)"
            f" AND {where} ORDER BY o.id",
            params,
        )
        return OVERRIDES.records(rows)
