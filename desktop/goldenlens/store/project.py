"""``ProjectStore``: the one object through which the app reads and writes a project file.

A project is one SQLite file (``*.goldenlens``). The store is split by concern into mixins —
golden set (:mod:`.golden`), runs and scores (:mod:`.results`), review (:mod:`.review`),
judge cache (:mod:`.cache`) — and this module adds opening, responses and imports.

Threading: a store is owned by one thread at a time (the UI runs it on a single executor
thread). Never call one store from two threads concurrently; open a second store for a
second thread. Readers in other processes are fine (WAL).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from goldenlens.core.model import GoldenItem, PipelineResponse, Problem, Severity
from goldenlens.store.base import Row
from goldenlens.store.cache import CacheMixin
from goldenlens.store.curation_queries import CurationQueriesMixin
from goldenlens.store.golden import GoldenMixin
from goldenlens.store.grid_queries import GridQueriesMixin
from goldenlens.store.results import ResultsMixin
from goldenlens.store.review import ReviewMixin
from goldenlens.store.schema import open_database
from goldenlens.store.values import ImportInfo, StoreError, to_json, utc_now

__all__ = ["ProjectStore", "StoreError"]

#: File name suffix of a project.
PROJECT_SUFFIX = ".goldenlens"

_RESPONSE_COLUMNS = ("question_id", "pipeline", "response", "contexts", "source_row")


def _response(row: Row) -> PipelineResponse:
    return PipelineResponse(
        question_id=row[0],
        pipeline=row[1],
        response=row[2],
        contexts=() if row[3] == "[]" else tuple(str(context) for context in json.loads(row[3])),
        source_row=int(row[4]),
    )


def _problem(row: Row) -> Problem:
    return Problem(
        file=row[0], sheet=row[1], row=row[2], column=row[3], severity=Severity(row[4]), message=row[5]
    )


class ProjectStore(
    GoldenMixin, ResultsMixin, ReviewMixin, CacheMixin, CurationQueriesMixin, GridQueriesMixin
):
    """A GoldenLens project file. Open with :meth:`open`; use as a context manager."""

    @classmethod
    def open(cls, path: Path | str, *, create: bool = False) -> Self:
        """Open the project at ``path``, upgrading an older format in one transaction.

        Without ``create`` a missing file is an error and nothing is created. Raises
        :class:`StoreError` for a missing file, a non-SQLite file, another program's SQLite
        database, or a project made by a newer GoldenLens.
        """
        file = Path(path)
        return cls(file, open_database(file, create=create))

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ProjectStore({str(self.path)!r})"

    def diagnostics(self) -> dict[str, Any]:
        """The connection's settings as SQLite reports them, for an "about this project" view
        and for tests: ``journal_mode``, ``foreign_keys``, ``synchronous`` (1 = NORMAL),
        ``user_version`` (the project format) and ``application_id``."""
        row = self._fetch_one(
            "SELECT (SELECT journal_mode FROM pragma_journal_mode),"
            " (SELECT foreign_keys FROM pragma_foreign_keys), (SELECT synchronous FROM pragma_synchronous),"
            " (SELECT user_version FROM pragma_user_version),"
            " (SELECT application_id FROM pragma_application_id)"
        )
        names = ("journal_mode", "foreign_keys", "synchronous", "user_version", "application_id")
        return dict(zip(names, row or (), strict=True))

    # -- responses ----------------------------------------------------------------------

    def replace_responses(self, responses: Sequence[PipelineResponse], pipelines: Sequence[str]) -> None:
        """Make ``responses`` the project's responses and ``pipelines`` its pipelines (in
        this column order), in one transaction.

        Every response's ``question_id`` must be a golden id (else :class:`StoreError`,
        nothing written) and its pipeline must be listed (else ``ValueError``).
        """
        self._check_pipelines(responses, pipelines)
        with self._write("replace the responses"):
            self._replace_responses(responses, pipelines)

    @staticmethod
    def _check_pipelines(responses: Sequence[PipelineResponse], pipelines: Sequence[str]) -> None:
        if len(set(pipelines)) != len(pipelines):
            raise ValueError(f"duplicate pipeline names in {list(pipelines)!r}")
        listed = set(pipelines)
        unknown = sorted({r.pipeline for r in responses} - listed)
        if unknown:
            raise ValueError(f"responses name pipelines that are not listed: {unknown!r}")

    def _replace_responses(self, responses: Sequence[PipelineResponse], pipelines: Sequence[str]) -> None:
        conn = self._db.conn
        conn.execute("DELETE FROM responses")
        keep = set(pipelines)
        gone = [(name,) for (name,) in self._fetch("SELECT name FROM pipelines") if name not in keep]
        conn.executemany("DELETE FROM pipelines WHERE name = ?", gone)
        self._insert_rows("pipelines", ("name", "position"), _positions(pipelines), upsert_on="name")
        rows = (
            (r.question_id, r.pipeline, r.response, to_json(list(r.contexts)), r.source_row)
            for r in responses
        )
        try:
            self._insert_rows("responses", _RESPONSE_COLUMNS, rows)
        except sqlite3.IntegrityError as exc:
            raise self._explain_response_error(exc, responses) from exc

    def _explain_response_error(
        self, exc: sqlite3.IntegrityError, responses: Sequence[PipelineResponse]
    ) -> StoreError:
        """Name the offending question ids instead of a bare "FOREIGN KEY constraint failed"."""
        golden = {row[0] for row in self._fetch("SELECT id FROM golden_items")}
        unknown = sorted({r.question_id for r in responses} - golden)
        reason = f"{exc}"
        if unknown:
            shown = ", ".join(map(repr, unknown[:5])) + (", ..." if len(unknown) > 5 else "")
            reason += f": responses refer to question ids not in the golden set: {shown}"
        return StoreError(f"{self.path}: could not save the responses: {reason}")

    def pipelines(self) -> list[str]:
        """Pipeline names in column order."""
        return [row[0] for row in self._fetch("SELECT name FROM pipelines ORDER BY position, name")]

    def responses(self) -> list[PipelineResponse]:
        """All responses, ordered by golden position, then pipeline position."""
        rows = self._fetch(
            "SELECT r.question_id, r.pipeline, r.response, r.contexts, r.source_row FROM responses AS r"
            " JOIN golden_items AS g ON g.id = r.question_id JOIN pipelines AS p ON p.name = r.pipeline"
            " ORDER BY g.position, p.position"
        )
        return [_response(row) for row in rows]

    # -- imports ------------------------------------------------------------------------

    def import_inputs(
        self,
        items: Sequence[GoldenItem],
        responses: Sequence[PipelineResponse] | None,
        pipelines: Sequence[str],
        problems: Sequence[Problem],
        *,
        golden_source: str,
        responses_source: str,
    ) -> int:
        """Replace golden set and responses, and record the import with its problems — all in
        ONE transaction, so a failure leaves the file exactly as it was. Returns the import id.

        ``responses=None`` imports a golden set alone: existing responses of ids that remain
        are kept (``pipelines`` is then ignored).
        """
        if responses is not None:
            self._check_pipelines(responses, pipelines)
        with self._write(f"import {golden_source or 'the inputs'}") as conn:
            cursor = conn.execute(
                "INSERT INTO imports (golden_source, responses_source, imported_at, golden_count,"
                " response_count) VALUES (?, ?, ?, ?, ?)",
                (golden_source, responses_source, utc_now(), len(items), len(responses or ())),
            )
            import_id = self._inserted_id(cursor)
            self.replace_golden(items, source=golden_source)
            if responses is not None:
                self._replace_responses(responses, pipelines)
            self._insert_rows(
                "problems",
                ("import_id", "file", "sheet", "row", "column", "severity", "message"),
                (
                    (import_id, p.file, p.sheet, p.row, p.column, Severity(p.severity).value, p.message)
                    for p in problems
                ),
            )
        return import_id

    def problems(self) -> list[Problem]:
        """The problems found by the latest import, in the order they were reported."""
        rows = self._fetch(
            'SELECT file, sheet, "row", "column", severity, message FROM problems'
            " WHERE import_id = (SELECT MAX(id) FROM imports) ORDER BY id"
        )
        return [_problem(row) for row in rows]

    def imports(self) -> list[ImportInfo]:
        """Every import, oldest first."""
        return [
            ImportInfo(
                id=row[0],
                golden_source=row[1],
                responses_source=row[2],
                imported_at=row[3],
                golden_count=row[4],
                response_count=row[5],
            )
            for row in self._fetch(
                "SELECT id, golden_source, responses_source, imported_at, golden_count, response_count"
                " FROM imports ORDER BY id"
            )
        ]


def _positions(names: Sequence[str]) -> list[tuple[str, int]]:
    """``[(name, position), ...]`` rows for an ordered list of names."""
    return [(name, position) for position, name in enumerate(names)]
