"""The results repository: what scoring runs produced — scores, their notes (reasons,
details, own signatures), interpretation flags and the signature of each metric of a run
(``store.results``). The runs themselves are :mod:`goldenlens.store.repositories.runs`.

A run commits as it goes: every ``save`` / ``save_rows`` call is one transaction, so a crash
loses at most the batch being written, and ``scored_keys`` tells a resumed run what is
already done.

The per-question reads and writes (``scores_of_question``, ``flags_of_question``,
``delete_question``) serve the curation edits made on the GUI thread: editing a golden row
re-scores that row alone, so each is bounded by one question (an index look-up), never by
the size of the project.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from goldenlens.core.scores import ScoreRecord, ScoreStatus
from goldenlens.store.base import Repository, Row
from goldenlens.store.keys import item_keys, name_keys
from goldenlens.store.values import check_finite, from_json_object, to_json


def _checked(record: ScoreRecord) -> tuple[float | None, str | None]:
    """A record's value and detail JSON (``None`` when empty), refusing a value that does not
    match its status, NaN or infinity, and a detail that is not JSON."""
    where = f"score {record.metric!r} of ({record.question_id!r}, {record.pipeline!r})"
    status = ScoreStatus(record.status)
    value = check_finite(record.value, where)
    if (status is ScoreStatus.SCORED) != (value is not None):
        raise ValueError(
            f"{where}: a {status.value!r} score must {'' if value is None else 'not '}have a value"
        )
    try:
        detail = to_json(record.detail) if record.detail else None
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{where}: detail is not JSON-serialisable: {exc}") from exc
    return value, detail


#: ``(question_id, pipeline, metric, value, reason, detail, signature)`` of score rows: the
#: keys turned back into names; the signature is the row's own or its run's for the metric.
_SCORE_SELECT: Final = (
    "SELECT i.question_id, pk.name, m.name, s.value, COALESCE(n.reason, ''), n.detail,"
    " COALESCE(n.signature_id, rm.signature_id)"
    " FROM scores AS s JOIN item_keys AS i ON i.key = s.item"
    " JOIN pipeline_keys AS pk ON pk.key = s.pipeline JOIN metric_keys AS m ON m.key = s.metric"
    " JOIN run_metrics AS rm ON rm.run_id = s.run_id AND rm.metric = s.metric"
    " LEFT JOIN score_notes AS n ON n.run_id = s.run_id AND n.item = s.item AND n.pipeline = s.pipeline"
    " AND n.metric = s.metric"
)


def _score_record(row: Row, signatures: Mapping[int, str]) -> ScoreRecord:
    """A record from a :data:`_SCORE_SELECT` row; every record of one signature shares one ``str``."""
    return ScoreRecord(
        question_id=row[0],
        pipeline=row[1],
        metric=row[2],
        value=row[3],
        signature=signatures[row[6]],
        status=ScoreStatus.SCORED if row[3] is not None else ScoreStatus.NOT_SCORED,
        reason=row[4],
        detail=from_json_object(row[5]),
    )


class ResultRepository(Repository):
    """Scores, score notes and flags of a project's runs: ``store.results`` of a
    :class:`~goldenlens.store.project.ProjectStore`."""

    # -- scores and flags ---------------------------------------------------------------

    def save(
        self,
        run_id: int,
        records: Sequence[ScoreRecord],
        flags: Sequence[tuple[str, str, str]] = (),
    ) -> None:
        """Save a batch of scores and flags in one commit; saving the same keys again
        replaces them. Flags are ``(question_id, pipeline, flag)``, pipeline ``""`` for a
        golden-row flag.

        Raises ``ValueError`` (nothing saved) for a record whose value does not match its
        status, a NaN or infinite value, or a ``detail`` that is not JSON; :class:`StoreError`
        for a question id that is not in the golden set.
        """
        records = list(records)  # may be a generator
        checked = [_checked(record) for record in records]  # before the transaction: all or nothing
        with self._write(f"save scores of run {run_id}") as conn:
            where = str(self._path)
            items = item_keys(conn, [r.question_id for r in records] + [f[0] for f in flags], where=where)
            pipelines = name_keys(
                conn, "pipeline_keys", [r.pipeline for r in records] + [f[1] for f in flags], add=True
            )
            metrics = name_keys(conn, "metric_keys", [r.metric for r in records], add=True)
            codes = name_keys(conn, "flag_codes", [f[2] for f in flags], add=True)
            run_signatures = self._run_signatures(conn, run_id, records, metrics)
            rows = []
            notes = []
            for record, (value, detail) in zip(records, checked, strict=True):
                key = (run_id, metrics[record.metric], items[record.question_id], pipelines[record.pipeline])
                rows.append((*key, value))
                signature = run_signatures[record.metric]
                own = None if record.signature == signature[1] else self._signature_id(record.signature)
                if record.reason or detail is not None or own is not None or value is None:
                    notes.append((run_id, key[2], key[3], key[1], record.reason, detail, own))
            _write_scores(conn, run_id, rows)
            conn.executemany(
                "INSERT OR REPLACE INTO score_notes (run_id, item, pipeline, metric, reason, detail,"
                " signature_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
                notes,
            )
            conn.executemany(
                "INSERT OR IGNORE INTO flags (run_id, item, pipeline, code) VALUES (?, ?, ?, ?)",
                [(run_id, items[q], pipelines[p], codes[f]) for q, p, f in flags],
            )

    def save_rows(
        self,
        run_id: int,
        signatures: Mapping[str, str],
        keys: Sequence[tuple[str, str]],
        values: Sequence[Sequence[float | None]],
        *,
        reasons: Sequence[tuple[str, str, str, str]] = (),
        flags: Sequence[tuple[str, str, str]] = (),
    ) -> None:
        """Save a batch of a run's scores as plain numbers, in one commit: ``values[n]`` holds
        the scores of ``keys[n]`` (question id, pipeline) for the metrics of ``signatures``
        ({metric: signature JSON}, in that order); ``None`` is not scored, with its reason in
        ``reasons`` as ``(question_id, pipeline, metric, reason)``. Saving the same keys again
        replaces them. The bulk path of a scoring run: no record objects, one signature per
        metric, what :meth:`save` would store for the same scores.
        """
        metric_names = list(signatures)
        checked = []
        for (question_id, pipeline), row in zip(keys, values, strict=True):
            if len(row) != len(metric_names):
                raise ValueError(
                    f"({question_id!r}, {pipeline!r}): {len(row)} values for {len(metric_names)} metrics"
                )
            if all(value is None or math.isfinite(value) for value in row):
                checked.append(row)  # the usual case, checked without building a message
                continue
            checked.append(
                [
                    check_finite(value, f"score {metric!r} of ({question_id!r}, {pipeline!r})")
                    for metric, value in zip(metric_names, row, strict=True)
                ]
            )
        with self._write(f"save scores of run {run_id}") as conn:
            items = item_keys(conn, [k[0] for k in keys] + [f[0] for f in flags], where=str(self._path))
            pipelines = name_keys(
                conn, "pipeline_keys", [k[1] for k in keys] + [f[1] for f in flags], add=True
            )
            metrics = name_keys(conn, "metric_keys", metric_names, add=True)
            codes = name_keys(conn, "flag_codes", [f[2] for f in flags], add=True)
            for metric, text in signatures.items():
                stored = conn.execute(
                    "SELECT g.json FROM run_metrics AS r JOIN signatures AS g ON g.id = r.signature_id"
                    " WHERE r.run_id = ? AND r.metric = ?",
                    (run_id, metrics[metric]),
                ).fetchone()
                if stored is None:
                    conn.execute(
                        "INSERT INTO run_metrics (run_id, metric, signature_id) VALUES (?, ?, ?)",
                        (run_id, metrics[metric], self._signature_id(text)),
                    )
                elif stored[0] != text:
                    raise ValueError(f"run {run_id} already scored {metric!r} with another signature")
            metric_keys = [metrics[name] for name in metric_names]
            rows = [
                (run_id, metric, item, pipeline, value)
                for (question_id, pipeline_name), row in zip(keys, checked, strict=True)
                for item, pipeline in ((items[question_id], pipelines[pipeline_name]),)
                for metric, value in zip(metric_keys, row, strict=True)
            ]
            _write_scores(conn, run_id, rows)
            conn.executemany(
                "INSERT OR REPLACE INTO score_notes (run_id, item, pipeline, metric, reason)"
                " VALUES (?, ?, ?, ?, ?)",
                [(run_id, items[q], pipelines[p], metrics[m], reason) for q, p, m, reason in reasons],
            )
            conn.executemany(
                "INSERT OR IGNORE INTO flags (run_id, item, pipeline, code) VALUES (?, ?, ?, ?)",
                [(run_id, items[q], pipelines[p], codes[f]) for q, p, f in flags],
            )

    def _run_signatures(
        self,
        conn: sqlite3.Connection,
        run_id: int,
        records: Sequence[ScoreRecord],
        metrics: Mapping[str, int],
    ) -> dict[str, tuple[int, str]]:
        """``{metric: (signature id, json)}`` of the run; a metric new to the run takes the
        signature of its first record in the batch (inside a write)."""
        found: dict[str, tuple[int, str]] = {}
        for record in records:
            if record.metric in found:
                continue
            row = conn.execute(
                "SELECT g.id, g.json FROM run_metrics AS r JOIN signatures AS g ON g.id = r.signature_id"
                " WHERE r.run_id = ? AND r.metric = ?",
                (run_id, metrics[record.metric]),
            ).fetchone()
            if row is None:
                signature_id = self._signature_id(record.signature)
                conn.execute(
                    "INSERT INTO run_metrics (run_id, metric, signature_id) VALUES (?, ?, ?)",
                    (run_id, metrics[record.metric], signature_id),
                )
                row = (signature_id, record.signature)
            found[record.metric] = (row[0], row[1])
        return found

    def _signature_id(self, text: str) -> int:
        """The ``signatures`` id of a signature's JSON, adding it if new (inside a write)."""
        conn = self._conn
        conn.execute("INSERT OR IGNORE INTO signatures (json) VALUES (?)", (text,))
        signature_id: int = conn.execute("SELECT id FROM signatures WHERE json = ?", (text,)).fetchone()[0]
        return signature_id

    def _signature_texts(self) -> dict[int, str]:
        """Every stored signature by id (a few rows: one per metric configuration)."""
        return {row[0]: row[1] for row in self._fetch("SELECT id, json FROM signatures")}

    def scored_keys(self, run_id: int) -> set[tuple[str, str]]:
        """``(question_id, pipeline)`` keys with at least one saved score in the run."""
        rows = self._fetch(
            "SELECT i.question_id, p.name FROM (SELECT DISTINCT item, pipeline FROM scores WHERE run_id = ?)"
            " AS s JOIN item_keys AS i ON i.key = s.item JOIN pipeline_keys AS p ON p.key = s.pipeline",
            [run_id],
        )
        return {(row[0], row[1]) for row in rows}

    def scores(self, run_id: int, *, metrics: Sequence[str] | None = None) -> list[ScoreRecord]:
        """Full score records of a run (optionally of some metrics), in table order."""
        # Table order: golden position, then pipeline position. LEFT JOIN pipelines: a run
        # keeps its scores for a pipeline that a later import dropped.
        rows = self._fetch(
            _SCORE_SELECT + " JOIN golden_items AS g ON g.id = i.question_id"  # noqa: S608
            " LEFT JOIN pipelines AS p ON p.name = pk.name"
            " WHERE s.run_id = ?1 AND (?2 IS NULL OR m.name IN (SELECT value FROM json_each(?2)))"
            " ORDER BY g.position, p.position, pk.name, m.name",
            [run_id, None if metrics is None else to_json(list(metrics))],
        )
        signatures = self._signature_texts()  # after the rows: signatures are never deleted
        return [_score_record(row, signatures) for row in rows]

    def score_matrix(self, run_id: int, metric: str) -> dict[tuple[str, str], float | None]:
        """One metric of a run as ``{(question_id, pipeline): value}`` — one range scan of the
        ``scores`` key, for filling table columns and reports. ``None`` is a not-scored key."""
        rows = self._fetch(
            "SELECT i.question_id, p.name, s.value FROM scores AS s JOIN item_keys AS i ON i.key = s.item"
            " JOIN pipeline_keys AS p ON p.key = s.pipeline"
            " WHERE s.run_id = ? AND s.metric = (SELECT key FROM metric_keys WHERE name = ?)",
            [run_id, metric],
        )
        return {(row[0], row[1]): row[2] for row in rows}

    def score_columns(
        self, run_id: int, metrics: Sequence[str]
    ) -> tuple[list[tuple[str, str]], dict[str, list[float | None]]]:
        """The run's scores of ``metrics`` as columns: the ``(question_id, pipeline)`` keys and,
        per metric, the values in key order (``None``: not scored, or no score of that metric
        for the key). One range scan of the ``scores`` key per metric; the keys come once."""
        key_rows = self._fetch(
            "SELECT s.item, s.pipeline, i.question_id, p.name FROM (SELECT DISTINCT item, pipeline"
            " FROM scores WHERE run_id = ? ORDER BY item, pipeline) AS s"
            " JOIN item_keys AS i ON i.key = s.item JOIN pipeline_keys AS p ON p.key = s.pipeline"
            " ORDER BY s.item, s.pipeline",
            [run_id],
        )
        keys = [(row[2], row[3]) for row in key_rows]
        codes = [(row[0], row[1]) for row in key_rows]
        columns: dict[str, list[float | None]] = {}
        for metric in metrics:
            rows = self._fetch(
                "SELECT item, pipeline, value FROM scores WHERE run_id = ?"
                " AND metric = (SELECT key FROM metric_keys WHERE name = ?) ORDER BY item, pipeline",
                [run_id, metric],
            )
            same = len(rows) == len(codes)
            if same and all(r[0] == c[0] and r[1] == c[1] for r, c in zip(rows, codes, strict=True)):
                columns[metric] = [row[2] for row in rows]  # the usual case: every key has the metric
            else:
                found = {(row[0], row[1]): row[2] for row in rows}
                columns[metric] = [found.get(code) for code in codes]
        return keys, columns

    def score_reasons(self, run_id: int, metrics: Sequence[str]) -> dict[tuple[str, str, str], str]:
        """``{(question_id, pipeline, metric): reason}`` of the run's scores that carry a reason
        (the not-scored ones), of some metrics."""
        rows = self._fetch(
            "SELECT i.question_id, p.name, m.name, n.reason FROM score_notes AS n"
            " JOIN item_keys AS i ON i.key = n.item JOIN pipeline_keys AS p ON p.key = n.pipeline"
            " JOIN metric_keys AS m ON m.key = n.metric"
            " WHERE n.run_id = ? AND n.reason <> '' AND m.name IN (SELECT value FROM json_each(?))",
            [run_id, to_json(list(metrics))],
        )
        return {(row[0], row[1], row[2]): row[3] for row in rows}

    def signatures(self, run_id: int) -> dict[str, str]:
        """``{metric: signature JSON}`` of a run, one per metric it scored."""
        rows = self._fetch(
            "SELECT m.name, g.json FROM run_metrics AS r JOIN metric_keys AS m ON m.key = r.metric"
            " JOIN signatures AS g ON g.id = r.signature_id WHERE r.run_id = ?",
            [run_id],
        )
        return {row[0]: row[1] for row in rows}

    def metrics(self, run_id: int) -> list[str]:
        """Names of the metrics a run has scores for, sorted; one index seek per metric."""
        rows = self._fetch(
            "SELECT m.name FROM run_metrics AS r JOIN metric_keys AS m ON m.key = r.metric"
            " WHERE r.run_id = ?1 AND EXISTS (SELECT 1 FROM scores AS s WHERE s.run_id = ?1"
            " AND s.metric = r.metric) ORDER BY m.name",
            [run_id],
        )
        return [row[0] for row in rows]

    def flags(self, run_id: int) -> list[tuple[str, str, str]]:
        """``(question_id, pipeline, flag)`` of a run, in table order."""
        rows = self._fetch(
            "SELECT i.question_id, pk.name, c.name FROM flags AS f JOIN item_keys AS i ON i.key = f.item"
            " JOIN pipeline_keys AS pk ON pk.key = f.pipeline JOIN flag_codes AS c ON c.code = f.code"
            " JOIN golden_items AS g ON g.id = i.question_id LEFT JOIN pipelines AS p ON p.name = pk.name"
            " WHERE f.run_id = ? ORDER BY g.position, pk.name <> '', p.position, pk.name, c.name",
            [run_id],
        )
        return [(row[0], row[1], row[2]) for row in rows]

    def delete(self, run_id: int, keys: Iterable[tuple[str, str]]) -> None:
        """Forget the scores and flags of some ``(question_id, pipeline)`` keys of a run, so
        they are scored again (e.g. after an edit). Pass ``(question_id, "")`` to drop the
        golden-row flags of a question."""
        keys = list(keys)
        with self._write(f"delete scores of run {run_id}") as conn:
            rows = conn.execute(
                "SELECT i.key, p.key FROM json_each(?) AS k"
                " JOIN item_keys AS i ON i.question_id = json_extract(k.value, '$[0]')"
                " JOIN pipeline_keys AS p ON p.name = json_extract(k.value, '$[1]')",
                (to_json([list(key) for key in keys]),),
            ).fetchall()
            params = [(run_id, item, pipeline) for item, pipeline in rows]
            # scores along its primary key: every metric of the run for the item and pipeline
            conn.executemany(
                "DELETE FROM scores WHERE run_id = ?1 AND metric IN (SELECT key FROM metric_keys)"
                " AND item = ?2 AND pipeline = ?3",
                params,
            )
            for table in ("score_notes", "flags"):
                conn.executemany(
                    f"DELETE FROM {table} WHERE run_id = ? AND item = ? AND pipeline = ?",  # noqa: S608
                    params,
                )

    # -- one question (curation) --------------------------------------------------------

    def scores_of_question(self, run_id: int, question_id: str) -> list[ScoreRecord]:
        """Full score records of one question in a run, by pipeline order then metric."""
        rows = self._fetch(
            _SCORE_SELECT + " LEFT JOIN pipelines AS p ON p.name = pk.name"  # noqa: S608
            " WHERE s.run_id = ?1 AND s.metric IN (SELECT key FROM metric_keys)"
            " AND s.item = (SELECT key FROM item_keys WHERE question_id = ?2)"
            " ORDER BY p.position, pk.name, m.name",
            [run_id, question_id],
        )
        signatures = {row[0]: row[1] for row in self._fetch("SELECT id, json FROM signatures")}
        return [_score_record(row, signatures) for row in rows]

    def flags_of_question(self, run_id: int, question_id: str) -> list[tuple[str, str, str]]:
        """``(question_id, pipeline, flag)`` of one question in a run; golden-row flags
        (pipeline ``""``) first."""
        rows = self._fetch(
            "SELECT ?2, pk.name, c.name FROM flags AS f JOIN pipeline_keys AS pk ON pk.key = f.pipeline"
            " JOIN flag_codes AS c ON c.code = f.code LEFT JOIN pipelines AS p ON p.name = pk.name"
            " WHERE f.run_id = ?1 AND f.item = (SELECT key FROM item_keys WHERE question_id = ?2)"
            " ORDER BY pk.name <> '', p.position, pk.name, c.name",
            [run_id, question_id],
        )
        return [(row[0], row[1], row[2]) for row in rows]

    def delete_question(self, run_id: int, question_id: str) -> None:
        """Forget every score and flag of one question in a run (all pipelines and the golden
        row), so it can be scored again after an edit."""
        with self._write(f"delete the scores of {question_id!r} in run {run_id}") as conn:
            for table, metric in (
                ("scores", "metric IN (SELECT key FROM metric_keys) AND"),
                ("score_notes", ""),
                ("flags", ""),
            ):
                conn.execute(
                    f"DELETE FROM {table} WHERE run_id = ? AND {metric}"  # noqa: S608
                    " item = (SELECT key FROM item_keys WHERE question_id = ?)",
                    (run_id, question_id),
                )


def _write_scores(conn: sqlite3.Connection, run_id: int, rows: list[tuple[Any, ...]]) -> None:
    """Insert or replace ``(run_id, metric, item, pipeline, value)`` rows: the hot path of a
    run, one prepared statement through executemany. Replaced scores lose their old notes;
    a run without notes has none to lose."""
    conn.executemany(
        "INSERT OR REPLACE INTO scores (run_id, metric, item, pipeline, value) VALUES (?, ?, ?, ?, ?)",
        rows,
    )
    if conn.execute("SELECT 1 FROM score_notes WHERE run_id = ? LIMIT 1", (run_id,)).fetchone():
        conn.executemany(
            "DELETE FROM score_notes WHERE run_id = ? AND metric = ? AND item = ? AND pipeline = ?",
            [row[:4] for row in rows],
        )
