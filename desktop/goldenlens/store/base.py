"""What every part of the project store shares: the connection, transactions, reads."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from goldenlens.store.values import StoreError

Row = tuple[Any, ...]


class StoreBase:
    """Owns one SQLite connection to one project file.

    Not thread-safe: one thread (the UI's store executor) must own a store at a time. The
    connection is opened with ``check_same_thread=False`` only so that the owning thread may
    differ from the thread that opened it.
    """

    def __init__(self, path: Path, db: Database) -> None:
        self.path = path
        self._db = db
        self._depth = 0  # how many _write blocks are open: >0 means join, don't begin

    @contextmanager
    def _write(self, what: str) -> Iterator[sqlite3.Connection]:
        """One write transaction: everything inside commits together or not at all.

        ``BEGIN IMMEDIATE`` takes the write lock up front; a deferred transaction that reads
        first could fail to upgrade (SQLITE_BUSY) while a reader holds an older snapshot.
        Nested use joins the outer transaction, so public writers compose into one commit
        (``import_inputs``). SQLite errors become :class:`StoreError` naming the file and
        ``what`` was being done; other exceptions roll back and propagate unchanged.
        """
        conn = self._db.conn
        if self._depth:
            self._depth += 1
            try:
                yield conn
            finally:
                self._depth -= 1
            return
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: could not {what}: {exc}") from exc
        self._depth = 1
        try:
            yield conn
            conn.execute("COMMIT")
        except BaseException as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise StoreError(f"{self.path}: could not {what}: {exc}") from exc
            raise
        finally:
            self._depth = 0

    def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """All rows of a query as tuples (cheaper than dicts for big tables)."""
        try:
            return self._db.conn.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: could not read the project: {exc}") from exc

    def _fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        try:
            row: Row | None = self._db.conn.execute(sql, params).fetchone()
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: could not read the project: {exc}") from exc
        return row

    def _insert_rows(
        self,
        table: str,
        columns: Sequence[str],
        rows: Iterable[Sequence[Any]],
        *,
        replace: bool = False,
        upsert_on: str | None = None,
    ) -> None:
        """Bulk insert inside the caller's transaction: one prepared statement through
        ``executemany`` (60,000 responses: ~0.3 s, where sqlite-utils' multi-row INSERTs built
        in Python took ~2 s). ``rows`` may be a generator; it is consumed as it goes.

        ``replace`` means ``INSERT OR REPLACE``; ``upsert_on`` names the primary key of an
        ``INSERT ... ON CONFLICT DO UPDATE``, which, unlike REPLACE, updates the row in place
        and so does not fire the ``ON DELETE CASCADE`` of its children.
        """
        names = ", ".join(f'"{c}"' for c in columns)
        marks = ", ".join("?" for _ in columns)
        verb = "INSERT OR REPLACE" if replace else "INSERT"
        sql = f'{verb} INTO "{table}" ({names}) VALUES ({marks})'
        if upsert_on is not None:
            updates = ", ".join(f'"{c}" = excluded."{c}"' for c in columns if c != upsert_on)
            sql += f' ON CONFLICT ("{upsert_on}") DO UPDATE SET {updates}'
        self._db.conn.executemany(sql, rows)

    def _inserted_id(self, cursor: sqlite3.Cursor) -> int:
        """The rowid an ``INSERT`` just gave its row."""
        if cursor.lastrowid is None:  # pragma: no cover - SQLite always sets it for rowid tables
            raise StoreError(f"{self.path}: SQLite reported no id for a new row")
        return cursor.lastrowid

    def close(self) -> None:
        """Close the file; safe to call twice."""
        conn = self._db.conn
        # PRAGMA optimize is only a planner hint; closing must not fail because of it.
        with suppress(sqlite3.Error):
            if not conn.in_transaction:
                conn.execute("PRAGMA optimize")
        conn.close()
