"""The responses repository: pipelines, their responses, and the imports that brought them
in together with the problems each import found (``store.responses``).

An import replaces the golden set too, in the same transaction as the responses, so this
repository holds the golden repository it imports into (:meth:`ResponseRepository.import_inputs`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from goldenlens.core.errors import StoreError
from goldenlens.core.inputs import GoldenItem, PipelineResponse
from goldenlens.core.problems import Problem, Severity
from goldenlens.core.project_records import ImportInfo
from goldenlens.store.base import Connection, RecordRows, Repository, Row
from goldenlens.store.repositories.golden import GoldenRepository
from goldenlens.store.values import from_json_object, to_json, utc_now

_IMPORTS = RecordRows(
    ImportInfo,
    (
        "id",
        "golden_source",
        "responses_source",
        "imported_at",
        "golden_count",
        "response_count",
        "score_options",
    ),
    convert={"score_options": from_json_object},
)
_RESPONSE_COLUMNS = ("question_id", "pipeline", "response", "contexts", "source_row")


def _response(row: Row) -> PipelineResponse:
    return PipelineResponse(
        question_id=row[0],
        pipeline=row[1],
        response=row[2],
        contexts=() if row[3] == "[]" else tuple(str(context) for context in json.loads(row[3])),
        source_row=int(row[4]),
    )


_PROBLEMS = RecordRows(
    Problem, ("file", "sheet", "row", "column", "severity", "message"), convert={"severity": Severity}
)


class ResponseRepository(Repository):
    """Pipelines, responses, imports and input problems of a project: ``store.responses`` of
    a :class:`~goldenlens.store.project.ProjectStore`."""

    def __init__(self, connection: Connection, golden: GoldenRepository) -> None:
        super().__init__(connection)
        self._golden = golden

    # -- responses ----------------------------------------------------------------------

    def replace(self, responses: Sequence[PipelineResponse], pipelines: Sequence[str]) -> None:
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
        conn = self._conn
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
        return StoreError(f"{self._path}: could not save the responses: {reason}")

    def pipelines(self) -> list[str]:
        """Pipeline names in column order."""
        return [row[0] for row in self._fetch("SELECT name FROM pipelines ORDER BY position, name")]

    def all(self) -> list[PipelineResponse]:
        """All responses, ordered by golden position, then pipeline position."""
        rows = self._fetch(
            "SELECT r.question_id, r.pipeline, r.response, r.contexts, r.source_row FROM responses AS r"
            " JOIN golden_items AS g ON g.id = r.question_id JOIN pipelines AS p ON p.name = r.pipeline"
            " ORDER BY g.position, p.position"
        )
        return [_response(row) for row in rows]

    def row_keys(self) -> list[tuple[str, str]]:
        """``(question_id, pipeline)`` of every response, in the order of :meth:`all`, without
        the texts (a report that needs no response text reads only these)."""
        rows = self._fetch(
            "SELECT r.question_id, r.pipeline FROM responses AS r"
            " JOIN golden_items AS g ON g.id = r.question_id JOIN pipelines AS p ON p.name = r.pipeline"
            " ORDER BY g.position, p.position"
        )
        return [(row[0], row[1]) for row in rows]

    def of_question(self, question_id: str) -> list[PipelineResponse]:
        """The responses to one question, in pipeline order (an index look-up: an edit on the
        GUI thread reads only its question, however large the project)."""
        rows = self._fetch(
            "SELECT r.question_id, r.pipeline, r.response, r.contexts, r.source_row FROM responses AS r"
            " LEFT JOIN pipelines AS p ON p.name = r.pipeline WHERE r.question_id = ?"
            " ORDER BY p.position, r.pipeline",
            [question_id],
        )
        return [
            PipelineResponse(
                question_id=row[0],
                pipeline=row[1],
                response=row[2],
                contexts=tuple(str(context) for context in json.loads(row[3])),
                source_row=int(row[4]),
            )
            for row in rows
        ]

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
        score_options: Mapping[str, Any] | None = None,
    ) -> int:
        """Replace golden set and responses, and record the import with its problems — all in
        ONE transaction, so a failure leaves the file exactly as it was. Returns the import id.

        ``responses=None`` imports a golden set alone: existing responses of ids that remain
        are kept (``pipelines`` is then ignored). ``score_options`` (JSON) is the scoring asked
        for with this import, recorded in the same transaction: a process killed before that
        scoring starts leaves it to be resumed.
        """
        options = None if score_options is None else to_json(dict(score_options))
        if responses is not None:
            self._check_pipelines(responses, pipelines)
        with self._write(f"import {golden_source or 'the inputs'}") as conn:
            cursor = conn.execute(
                "INSERT INTO imports (golden_source, responses_source, imported_at, golden_count,"
                " response_count, score_options) VALUES (?, ?, ?, ?, ?, ?)",
                (golden_source, responses_source, utc_now(), len(items), len(responses or ()), options),
            )
            import_id = self._inserted_id(cursor)
            self._golden.replace(items, source=golden_source)  # joins this transaction
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
            f"SELECT {_PROBLEMS.select('problems')} FROM problems"  # noqa: S608
            " WHERE import_id = (SELECT MAX(id) FROM imports) ORDER BY id"
        )
        return _PROBLEMS.records(rows)

    def imports(self) -> list[ImportInfo]:
        """Every import, oldest first."""
        return _IMPORTS.records(self._fetch(f"SELECT {_IMPORTS.select('imports')} FROM imports ORDER BY id"))  # noqa: S608


def _positions(names: Sequence[str]) -> list[tuple[str, int]]:
    """``[(name, position), ...]`` rows for an ordered list of names."""
    return [(name, position) for position, name in enumerate(names)]
