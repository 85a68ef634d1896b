"""What every repository of the project store shares: one connection, its transactions, reads.

:class:`Connection` owns the SQLite connection of an open project; :class:`Repository` is the
base of the repositories (golden set, responses, runs, results, reviews, judge cache, grid
reads), each of which reads and writes its own tables through the one shared connection.
Because the transaction depth lives on the connection, not on a repository, writers of
different repositories nest into one commit (an edit and its re-score, an import).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Generic, TypeVar

from sqlite_utils import Database

from goldenlens.core.errors import StoreError

Row = tuple[Any, ...]
R = TypeVar("R")


class RecordRows(Generic[R]):
    """How one table's rows become records of one type.

    ``columns`` are selected in order, each named as the keyword it fills in ``make``; a column
    in ``convert`` passes through its function first, except a NULL, which stays ``None``. The
    rows of a query built on :meth:`select` are then records through :meth:`record`, so a
    column added to a table is named once instead of being counted by position.
    """

    def __init__(
        self,
        make: Callable[..., R],
        columns: Sequence[str],
        convert: Mapping[str, Callable[[Any], Any]] | None = None,
    ) -> None:
        convert = convert or {}
        unknown = set(convert) - set(columns)
        if unknown:
            raise ValueError(f"conversions of columns not selected: {sorted(unknown)}")
        self._make = make
        self.columns = tuple(columns)
        self._convert = tuple(convert.get(name) for name in self.columns)

    def select(self, table: str) -> str:
        """The column list of a ``SELECT`` from ``table`` (its name or its alias in the query).

        Each column is named as ``table."column"``: quoted, so that keywords (``row``,
        ``column``) are columns, and qualified, because SQLite reads a quoted name that is no
        column of an unqualified query as a string: a misspelt column would fill every record
        with its own name instead of failing.
        """
        return ", ".join(f'{table}."{name}"' for name in self.columns)

    def record(self, row: Row) -> R:
        fields = {
            name: value if value is None or convert is None else convert(value)
            for name, convert, value in zip(self.columns, self._convert, row, strict=True)
        }
        return self._make(**fields)

    def records(self, rows: Iterable[Row]) -> list[R]:
        return [self.record(row) for row in rows]


class Connection:
    """Owns one SQLite connection to one project file, shared by all its repositories.

    Not thread-safe: one thread (the UI's store executor) must own a store at a time. The
    connection is opened with ``check_same_thread=False`` only so that the owning thread may
    differ from the thread that opened it.
    """

    def __init__(self, path: Path, db: Database) -> None:
        self.path = path
        self.sqlite = db.conn
        self._depth = 0  # how many write blocks are open: >0 means join, don't begin

    @contextmanager
    def write(self, what: str) -> Iterator[sqlite3.Connection]:
        """One write transaction: everything inside commits together or not at all.

        ``BEGIN IMMEDIATE`` takes the write lock up front; a deferred transaction that reads
        first could fail to upgrade (SQLITE_BUSY) while a reader holds an older snapshot.
        Nested use joins the outer transaction, so public writers, of one repository or of
        several, compose into one commit (``responses.import_inputs``,
        ``ProjectStore.atomic``). SQLite errors become :class:`StoreError` naming the file and
        ``what`` was being done; other exceptions roll back and propagate unchanged.
        """
        conn = self.sqlite
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

    def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """All rows of a query as tuples (cheaper than dicts for big tables)."""
        try:
            return self.sqlite.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: could not read the project: {exc}") from exc

    def fetch_one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        try:
            row: Row | None = self.sqlite.execute(sql, params).fetchone()
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: could not read the project: {exc}") from exc
        return row

    def insert_rows(
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
        self.sqlite.executemany(sql, rows)

    def inserted_id(self, cursor: sqlite3.Cursor) -> int:
        """The rowid an ``INSERT`` just gave its row."""
        if cursor.lastrowid is None:  # pragma: no cover - SQLite always sets it for rowid tables
            raise StoreError(f"{self.path}: SQLite reported no id for a new row")
        return cursor.lastrowid

    def close(self) -> None:
        """Close the file; safe to call twice."""
        conn = self.sqlite
        # PRAGMA optimize is only a planner hint; closing must not fail because of it.
        with suppress(sqlite3.Error):
            if not conn.in_transaction:
                conn.execute("PRAGMA optimize")
        conn.close()


class Repository:
    """Base of the store's repositories: one concern's tables behind a narrow interface.

    A repository holds no state of its own beyond the project's shared :class:`Connection`,
    so any number of them over one connection see the same data and join the same
    transaction. Subclasses' public methods are their whole interface; the helpers here are
    for the subclasses only.
    """

    def __init__(self, connection: Connection) -> None:
        self._connection = connection
        # The connection's own methods, under the names the subclasses use.
        self._write = connection.write
        self._fetch = connection.fetch
        self._fetch_one = connection.fetch_one
        self._insert_rows = connection.insert_rows
        self._inserted_id = connection.inserted_id

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self._path)!r})"

    @property
    def _path(self) -> Path:
        """The project file, for error messages."""
        return self._connection.path

    @property
    def _conn(self) -> sqlite3.Connection:
        return self._connection.sqlite
