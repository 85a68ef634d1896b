"""Scoring runs, their scores and interpretation flags.

A run commits as it goes: every ``save_scores`` call is one transaction, so a crash loses at
most the batch being written, and ``scored_keys`` tells a resumed run what is already done.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from goldenlens.core.model import ScoreRecord, ScoreStatus
from goldenlens.store.base import Row, StoreBase
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


def _score_row(run_id: int, record: ScoreRecord, signature_id: int, now: str) -> tuple[Any, ...]:
    where = f"score {record.metric!r} of ({record.question_id!r}, {record.pipeline!r})"
    status = ScoreStatus(record.status)
    value = check_finite(record.value, where)
    if (status is ScoreStatus.SCORED) != (value is not None):
        raise ValueError(
            f"{where}: a {status.value!r} score must {'' if value is None else 'not '}have a value"
        )
    try:
        # Most records have no detail: NULL costs one header byte where '{}' costs three.
        detail = to_json(record.detail) if record.detail else None
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{where}: detail is not JSON-serialisable: {exc}") from exc
    return (
        run_id, record.metric, record.question_id, record.pipeline, value, status.value, record.reason,
        signature_id, detail, now,
    )  # fmt: skip


def _score_record(row: Row, signatures: Mapping[int, str]) -> ScoreRecord:
    """A record from ``(question_id, pipeline, metric, value, signature_id, status, reason,
    detail)``; every record of one signature shares one ``str``."""
    return ScoreRecord(
        question_id=row[0],
        pipeline=row[1],
        metric=row[2],
        value=row[3],
        signature=signatures[row[4]],
        status=ScoreStatus(row[5]),
        reason=row[6],
        detail=from_json_object(row[7]),
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
        status, a NaN or infinite value, or a ``detail`` that is not JSON.
        """
        now = utc_now()
        # Signature ids are looked up afresh in every call (a handful of distinct signatures
        # each), never cached across calls: an id from a batch that was rolled back would
        # point at nothing.
        ids: dict[str, int] = {}

        def rows() -> Iterator[tuple[Any, ...]]:
            # Lazily, so that ``records`` may be a generator consumed inside the transaction.
            for record in records:
                signature_id = ids.get(record.signature)
                if signature_id is None:
                    signature_id = ids[record.signature] = self._signature_id(record.signature)
                yield _score_row(run_id, record, signature_id, now)

        with self._write(f"save scores of run {run_id}") as conn:
            # The hot path of a run: one prepared statement through executemany measured about a
            # third faster than sqlite-utils' multi-row INSERTs (7 metrics x 1,000 keys ~ 0.1 s).
            conn.executemany(
                "INSERT OR REPLACE INTO scores (run_id, metric, question_id, pipeline, value, status, reason,"
                " signature_id, detail, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rows(),
            )
            conn.executemany(
                "INSERT OR IGNORE INTO flags (run_id, question_id, pipeline, flag) VALUES (?, ?, ?, ?)",
                [(run_id, question_id, pipeline, flag) for question_id, pipeline, flag in flags],
            )

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
        rows = self._fetch("SELECT DISTINCT question_id, pipeline FROM scores WHERE run_id = ?", [run_id])
        return {(row[0], row[1]) for row in rows}

    def scores(self, run_id: int, *, metrics: Sequence[str] | None = None) -> list[ScoreRecord]:
        """Full score records of a run (optionally of some metrics), in table order."""
        # Table order: golden position, then pipeline position. LEFT JOIN pipelines: a run
        # keeps its scores for a pipeline that a later import dropped.
        # Signatures are mapped back in Python rather than joined: a joined text would be a new
        # str per row (hundreds of MB for a big run), the map hands out one per signature.
        rows = self._fetch(
            "SELECT s.question_id, s.pipeline, s.metric, s.value, s.signature_id, s.status, s.reason,"
            " s.detail FROM scores AS s JOIN golden_items AS g ON g.id = s.question_id"
            " LEFT JOIN pipelines AS p ON p.name = s.pipeline"
            " WHERE s.run_id = ?1 AND (?2 IS NULL OR s.metric IN (SELECT value FROM json_each(?2)))"
            " ORDER BY g.position, p.position, s.pipeline, s.metric",
            [run_id, None if metrics is None else to_json(list(metrics))],
        )
        signatures = self._signature_texts()  # after the rows: signatures are never deleted
        return [_score_record(row, signatures) for row in rows]

    def score_matrix(self, run_id: int, metric: str) -> dict[tuple[str, str], float | None]:
        """One metric of a run as ``{(question_id, pipeline): value}`` — one index range scan,
        for filling table columns. ``None`` is a not-scored key."""
        rows = self._fetch(
            "SELECT question_id, pipeline, value FROM scores WHERE run_id = ? AND metric = ?",
            [run_id, metric],
        )
        return {(row[0], row[1]): row[2] for row in rows}

    def flags(self, run_id: int) -> list[tuple[str, str, str]]:
        """``(question_id, pipeline, flag)`` of a run, in table order."""
        rows = self._fetch(
            "SELECT f.question_id, f.pipeline, f.flag FROM flags AS f"
            " JOIN golden_items AS g ON g.id = f.question_id LEFT JOIN pipelines AS p ON p.name = f.pipeline"
            " WHERE f.run_id = ? ORDER BY g.position, f.pipeline <> '', p.position, f.pipeline, f.flag",
            [run_id],
        )
        return [(row[0], row[1], row[2]) for row in rows]

    def delete_scores(self, run_id: int, keys: Iterable[tuple[str, str]]) -> None:
        """Forget the scores and flags of some ``(question_id, pipeline)`` keys of a run, so
        they are scored again (e.g. after an edit). Pass ``(question_id, "")`` to drop the
        golden-row flags of a question."""
        params = [(run_id, question_id, pipeline) for question_id, pipeline in keys]
        with self._write(f"delete scores of run {run_id}") as conn:
            conn.executemany(
                "DELETE FROM scores WHERE run_id = ? AND question_id = ? AND pipeline = ?", params
            )
            conn.executemany(
                "DELETE FROM flags WHERE run_id = ? AND question_id = ? AND pipeline = ?", params
            )
