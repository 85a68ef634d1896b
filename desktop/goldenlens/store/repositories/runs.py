"""The runs repository: scoring runs and their life cycle (``store.runs``).

A run is a row of ``runs``: its kind, options, input fingerprint and status. What it
produced — scores, notes, flags, the signature of each metric — is in
:mod:`goldenlens.store.repositories.results`. A run commits as it goes (see there), so a run left
``running``, ``cancelled`` or ``failed`` can be resumed from what it saved.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from goldenlens.core.errors import StoreError
from goldenlens.core.project_records import (
    RUN_END_STATUSES,
    RUN_FINISHED,
    RUN_RUNNING,
    RUN_SUPERSEDED,
    RunInfo,
)
from goldenlens.store.base import Repository, Row
from goldenlens.store.values import from_json_object, json_int, to_json, utc_now

#: Key under which a run's input fingerprint rides in its stored ``params`` JSON. It is not
#: an option: :class:`RunInfo` hands it out as ``inputs_sha256`` and ``params`` without it.
#: (A key rather than a column keeps the project format unchanged.)
_INPUTS_KEY = "inputs_sha256"
#: Keys under which the golden-set version a run scored rides in ``params`` (the same way):
#: the newest golden-history id when it started, and the newest edit re-scored into it since.
_GOLDEN_KEY = "golden_history_id"
_RESCORED_KEY = "golden_rescored_id"
_RESERVED = (_INPUTS_KEY, _GOLDEN_KEY, _RESCORED_KEY)


def _run(row: Row) -> RunInfo:
    params = from_json_object(row[2])
    inputs = params.pop(_INPUTS_KEY, "")
    golden = params.pop(_GOLDEN_KEY, None)
    rescored = params.pop(_RESCORED_KEY, None)
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
        golden_history_id=json_int(golden),
        golden_rescored_id=json_int(rescored),
    )


class RunRepository(Repository):
    """Scoring runs of a project: ``store.runs`` of a
    :class:`~goldenlens.store.project.ProjectStore`."""

    def start(
        self,
        kind: str,
        params: Mapping[str, Any],
        total: int,
        *,
        inputs_sha256: str = "",
        golden_history_id: int | None = None,
    ) -> int:
        """Record a new run as ``running``; returns its id. ``total`` is the number of
        (question, pipeline) keys it will score, for progress; ``inputs_sha256`` the
        fingerprint of the inputs it scores (:mod:`goldenlens.core.runs.fingerprint`);
        ``golden_history_id`` the newest golden-history entry of the golden set it scores
        (read with the items; ``None``: the newest entry now)."""
        for key in _RESERVED:
            if key in params:
                raise ValueError(f"{key!r} is reserved for what the store records about the run")
        if inputs_sha256:
            params = {**params, _INPUTS_KEY: inputs_sha256}
        with self._write(f"start a {kind} run") as conn:
            if golden_history_id is None:
                golden_history_id = int(
                    conn.execute("SELECT COALESCE(MAX(version_id), 0) FROM golden_history").fetchone()[0]
                )
            params = {**params, _GOLDEN_KEY: golden_history_id}
            cursor = conn.execute(
                "INSERT INTO runs (kind, params, status, started_at, total, import_id)"
                " VALUES (?, ?, ?, ?, ?, (SELECT MAX(id) FROM imports))",
                (kind, to_json(dict(params)), RUN_RUNNING, utc_now(), total),
            )
            return self._inserted_id(cursor)

    def record_rescore(self, run_id: int, golden_history_id: int) -> None:
        """Note that the golden edit ``golden_history_id`` was re-scored into run ``run_id`` in
        place: its numbers now describe the golden set as of that entry."""
        with self._write(f"record the re-score of run {run_id}") as conn:
            cursor = conn.execute(
                "UPDATE runs SET params = json_set(params, '$.' || ?, ?) WHERE id = ?",
                (_RESCORED_KEY, golden_history_id, run_id),
            )
            if cursor.rowcount == 0:
                raise StoreError(f"{self._path}: there is no run {run_id}")

    def all(self) -> list[RunInfo]:
        """Every run, oldest first."""
        rows = self._fetch(
            "SELECT id, kind, params, status, started_at, finished_at, total, import_id FROM runs ORDER BY id"
        )
        return [_run(row) for row in rows]

    def finish(self, run_id: int, status: str = RUN_FINISHED) -> None:
        """Mark a run ``finished``, ``cancelled`` or ``failed``."""
        if status not in RUN_END_STATUSES:
            raise ValueError(f"a run cannot finish as {status!r}; use one of {sorted(RUN_END_STATUSES)}")
        self._set_run_status(run_id, status, utc_now())

    def resume(self, run_id: int) -> None:
        """Mark a cancelled, failed or crashed run ``running`` again before continuing it."""
        self._set_run_status(run_id, RUN_RUNNING, None)

    def _set_run_status(self, run_id: int, status: str, finished_at: str | None) -> None:
        with self._write(f"mark run {run_id} {status}") as conn:
            cursor = conn.execute(
                "UPDATE runs SET status = ?, finished_at = ? WHERE id = ?", (status, finished_at, run_id)
            )
            if cursor.rowcount == 0:
                raise StoreError(f"{self._path}: there is no run {run_id}")

    def get(self, run_id: int) -> RunInfo | None:
        """One run by id, or ``None``."""
        row = self._fetch_one(
            "SELECT id, kind, params, status, started_at, finished_at, total, import_id FROM runs"
            " WHERE id = ?",
            [run_id],
        )
        return None if row is None else _run(row)

    def latest(self, kind: str = "lexical", *, finished_only: bool = False) -> RunInfo | None:
        """The newest run of ``kind``; with ``finished_only``, the newest that completed."""
        row = self._fetch_one(
            "SELECT id, kind, params, status, started_at, finished_at, total, import_id FROM runs"
            " WHERE kind = ?1 AND (?2 IS NULL OR status = ?2) ORDER BY id DESC LIMIT 1",
            [kind, RUN_FINISHED if finished_only else None],
        )
        return None if row is None else _run(row)

    def unfinished(self, kind: str | None = None) -> list[RunInfo]:
        """Runs that did not complete, oldest first: ``running`` (still going, or the process
        died), ``cancelled`` or ``failed``. Any of them can be resumed from ``results.scored_keys``
        (``superseded`` runs, whose inputs changed, are not listed)."""
        rows = self._fetch(
            "SELECT id, kind, params, status, started_at, finished_at, total, import_id FROM runs"
            " WHERE status NOT IN (?1, ?3) AND (?2 IS NULL OR kind = ?2) ORDER BY id",
            [RUN_FINISHED, kind, RUN_SUPERSEDED],
        )
        return [_run(row) for row in rows]
