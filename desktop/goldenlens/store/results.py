"""Scoring runs, their scores and interpretation flags.

A run commits as it goes: every ``save_scores`` call is one transaction, so a crash loses at
most the batch being written, and ``scored_keys`` tells a resumed run what is already done.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from goldenlens.core.model import ScoreRecord, ScoreStatus
from goldenlens.store.base import Row, StoreBase
from goldenlens.store.keys import item_keys, name_keys
from goldenlens.store.values import (
    RUN_END_STATUSES,
    RUN_FINISHED,
    RUN_RUNNING,
    RUN_SUPERSEDED,
    RunInfo,
    StoreError,
    check_finite,
    from_json_object,
    to_json,
    utc_now,
)

#: Key under which a run's input fingerprint rides in its stored ``params`` JSON. It is not
#: an option: :class:`RunInfo` hands it out as ``inputs_sha256`` and ``params`` without it.
#: (A key rather than a column keeps the project format unchanged.)
_INPUTS_KEY = "inputs_sha256"


def _run(row: Row) -> RunInfo:
    params = from_json_object(row[2])
    inputs = params.pop(_INPUTS_KEY, "")
    return RunInfo(
        id=row[0],
        kind=row[1],
        params=params,
        status=row[3],
        started_at=row[4],
        finished_at=row[5],
        total=row[6],
        import_id=row[7],
        inputs_sha256=inputs if isinstance(inputs, str) else "",
    )


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


class ResultsMixin(StoreBase):
    """Runs/scores/flags part of :class:`~goldenlens.store.project.ProjectStore`."""

    # -- runs ---------------------------------------------------------------------------

    def start_run(self, kind: str, params: Mapping[str, Any], total: int, *, inputs_sha256: str = "") -> int:
        """Record a new run as ``running``; returns its id. ``total`` is the number of
        (question, pipeline) keys it will score, for progress; ``inputs_sha256`` the
        fingerprint of the inputs it scores (:mod:`goldenlens.core.fingerprint`)."""
        if _INPUTS_KEY in params:
            raise ValueError(f"{_INPUTS_KEY!r} is reserved for the run's input fingerprint")
        if inputs_sha256:
            params = {**params, _INPUTS_KEY: inputs_sha256}
        with self._write(f"start a {kind} run") as conn:
            cursor = conn.execute(
                "INSERT INTO runs (kind, params, status, started_at, total, import_id)"
                " VALUES (?, ?, ?, ?, ?, (SELECT MAX(id) FROM imports))",
                (kind, to_json(dict(params)), RUN_RUNNING, utc_now(), total),
            )
            return self._inserted_id(cursor)

    def finish_run(self, run_id: int, status: str = RUN_FINISHED) -> None:
        """Mark a run ``finished``, ``cancelled`` or ``failed``."""
        if status not in RUN_END_STATUSES:
            raise ValueError(f"a run cannot finish as {status!r}; use one of {sorted(RUN_END_STATUSES)}")
        self._set_run_status(run_id, status, utc_now())

    def resume_run(self, run_id: int) -> None:
        """Mark a cancelled, failed or crashed run ``running`` again before continuing it."""
        self._set_run_status(run_id, RUN_RUNNING, None)

    def _set_run_status(self, run_id: int, status: str, finished_at: str | None) -> None:
        with self._write(f"mark run {run_id} {status}") as conn:
            cursor = conn.execute(
                "UPDATE runs SET status = ?, finished_at = ? WHERE id = ?", (status, finished_at, run_id)
            )
            if cursor.rowcount == 0:
                raise StoreError(f"{self.path}: there is no run {run_id}")

    def run(self, run_id: int) -> RunInfo | None:
        row = self._fetch_one(
            "SELECT id, kind, params, status, started_at, finished_at, total, import_id FROM runs"
            " WHERE id = ?",
            [run_id],
        )
        return None if row is None else _run(row)

    def latest_run(self, kind: str = "lexical", *, finished_only: bool = False) -> RunInfo | None:
        """The newest run of ``kind``; with ``finished_only``, the newest that completed."""
        row = self._fetch_one(
            "SELECT id, kind, params, status, started_at, finished_at, total, import_id FROM runs"
            " WHERE kind = ?1 AND (?2 IS NULL OR status = ?2) ORDER BY id DESC LIMIT 1",
            [kind, RUN_FINISHED if finished_only else None],
        )
        return None if row is None else _run(row)

    def unfinished_runs(self, kind: str | None = None) -> list[RunInfo]:
        """Runs that did not complete, oldest first: ``running`` (still going, or the process
        died), ``cancelled`` or ``failed``. Any of them can be resumed from ``scored_keys``
        (``superseded`` runs, whose inputs changed, are not listed)."""
        rows = self._fetch(
            "SELECT id, kind, params, status, started_at, finished_at, total, import_id FROM runs"
            " WHERE status NOT IN (?1, ?3) AND (?2 IS NULL OR kind = ?2) ORDER BY id",
            [RUN_FINISHED, kind, RUN_SUPERSEDED],
        )
        return [_run(row) for row in rows]

    # -- scores and flags ---------------------------------------------------------------

    def save_scores(
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
            where = str(self.path)
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

    def save_score_rows(
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
        metric, what :meth:`save_scores` would store for the same scores.
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
            items = item_keys(conn, [k[0] for k in keys] + [f[0] for f in flags], where=str(self.path))
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
        conn = self._db.conn
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

    def run_signatures(self, run_id: int) -> dict[str, str]:
        """``{metric: signature JSON}`` of a run, one per metric it scored."""
        rows = self._fetch(
            "SELECT m.name, g.json FROM run_metrics AS r JOIN metric_keys AS m ON m.key = r.metric"
            " JOIN signatures AS g ON g.id = r.signature_id WHERE r.run_id = ?",
            [run_id],
        )
        return {row[0]: row[1] for row in rows}

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

    def delete_scores(self, run_id: int, keys: Iterable[tuple[str, str]]) -> None:
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
