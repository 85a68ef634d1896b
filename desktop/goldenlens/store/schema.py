"""The project file's schema: opening a file safely and bringing it up to the current format.

A project is one SQLite file. Version 0 is just the ``meta`` table that marks the file as
ours; every later version is one function in :data:`MIGRATIONS`, and ``PRAGMA user_version``
says how many have run. Opening an older file runs the missing migrations in one transaction;
opening a newer one is refused rather than guessed at.

Design notes (why the schema looks the way it does):

* Enumerations that may grow (run status, review status, history action, run kind) are
  checked in Python, not by ``CHECK`` constraints: SQLite cannot alter a constraint without
  rebuilding the table, and a new review status should not need a table rebuild. Facts that
  are binary by nature *are* constraints: a score is ``scored`` exactly when it has a value.
* Every child table that points at ``golden_items`` cascades on delete, so removing a golden
  question removes its responses, scores, flags, overrides and review in the same statement;
  ``golden_history`` and snapshots deliberately do not point at it (they must outlive it).
* Judge metrics need no new tables: a score row already points at the metric's signature
  (model SHA-256, prompt version, temperature, seed) and carries a free-form ``detail`` JSON
  for the judge's statements, verdicts and reasons; ``runs.kind``/``runs.params`` describe
  the run; ``judge_cache`` keeps judge outputs keyed by everything that determines them.
* ``scores`` is keyed ``(run_id, metric, question_id, pipeline)`` so that one metric's column
  for a table is a single range scan; ``scores_item`` serves per-row look-ups, deletes and
  the golden-item cascade.

The format's history, one module per step, is in :mod:`goldenlens.store.migrations`: version 2
slimmed ``scores`` (signatures by reference, measured there), version 3 made a score a plain
number keyed by small integers, version 4 added the drafts queue and golden-review decisions,
version 5 reviewers' labels, version 6 the scoring options recorded with an import, version 7
the golden rows' other columns (``golden_items.extra``).
"""

from __future__ import annotations

import sqlite3
from contextlib import suppress
from pathlib import Path
from typing import Final

from sqlite_utils import Database

from goldenlens.store.migrations import MIGRATIONS, REBUILDS
from goldenlens.store.values import StoreError, utc_now

APP_NAME: Final = "GoldenLens"
FORMAT_MARKER: Final = "goldenlens-project"
#: ``PRAGMA application_id``: "GLNS". Informative for file-type sniffers; the ``meta`` table
#: is what we check, because hand-made and version-0 files may not carry it.
APPLICATION_ID: Final = 0x474C4E53
BUSY_TIMEOUT_SECONDS: Final = 10.0
_SQLITE_MAGIC: Final = b"SQLite format 3\x00"

META_DDL: Final = "CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)"

LATEST_VERSION: Final = len(MIGRATIONS)


def open_database(path: Path, *, create: bool) -> Database:
    """Open (or, with ``create``, make) the project file at ``path`` and bring it up to date.

    Nothing is written to a file until it is known to be ours: a random SQLite database or
    a file from a newer GoldenLens is refused untouched. A file that this call created is
    removed again if setting it up fails.
    """
    if path.is_dir():
        raise StoreError(f"{path} is not a GoldenLens project: it is a folder")
    existed = path.exists()
    if not existed and not create:
        raise StoreError(f"{path} does not exist (no GoldenLens project there)")
    if existed:
        _check_sqlite_header(path)
    mode = "rwc" if create else "rw"
    try:
        # isolation_level=None: no implicit transactions; every write says where it begins.
        # check_same_thread=False lets the store live on one executor thread that is not
        # the thread that opened it; callers must still never use it from two threads at once.
        conn = sqlite3.connect(
            f"{path.resolve().as_uri()}?mode={mode}",
            uri=True,
            timeout=BUSY_TIMEOUT_SECONDS,
            isolation_level=None,
            check_same_thread=False,
        )
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open {path}: {exc}") from exc
    try:
        db = Database(conn, execute_plugins=False)
        _prepare(db, path, create=create)
    except BaseException:
        conn.close()
        if not existed:
            remove_project_files(path)
        raise
    return db


def _check_sqlite_header(path: Path) -> None:
    """Refuse a non-empty file that is not SQLite before SQLite sees it: SQLite treats a
    file shorter than its header as an empty database and would happily write into it."""
    try:
        with path.open("rb") as file:
            header = file.read(len(_SQLITE_MAGIC))
    except OSError as exc:
        raise StoreError(f"cannot open {path}: {exc.strerror or exc}") from exc
    if header and header != _SQLITE_MAGIC:
        raise StoreError(f"{path} is not a GoldenLens project: it is not an SQLite database")


def _prepare(db: Database, path: Path, *, create: bool) -> None:
    version, tables = _inspect(db, path)
    fresh = not tables and version == 0
    if fresh and not create:
        raise StoreError(f"{path} is not a GoldenLens project: the database is empty")
    if not fresh:
        _check_marker(db, path, tables)
        if version > LATEST_VERSION:
            raise StoreError(
                f"{path} was made by a newer GoldenLens (project format {version}; "
                f"this version reads formats up to {LATEST_VERSION}). Please update GoldenLens."
            )
    try:
        # journal_mode cannot change inside a transaction, foreign_keys is a no-op there:
        # both are set before anything else happens on this connection.
        db.execute("PRAGMA journal_mode = WAL").fetchall()
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA synchronous = NORMAL")
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open {path}: {exc}") from exc
    if fresh or version < LATEST_VERSION:
        _migrate(db, path, initialise=fresh)


def _inspect(db: Database, path: Path) -> tuple[int, set[str]]:
    """The file's ``user_version`` and table names; the first reads that can fail on junk."""
    try:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    except sqlite3.OperationalError as exc:
        raise StoreError(f"cannot open {path}: {exc}") from exc
    except sqlite3.DatabaseError as exc:
        # Its header is SQLite's (checked first), so the file is a damaged database (cut short
        # by a full disk or a copy stopped midway), not another kind of file.
        raise StoreError(
            f"{path} is damaged: SQLite cannot read it ({exc}). It is left as it is; open a copy "
            "saved earlier, or score the inputs into a new project."
        ) from exc
    return version, {str(row[0]) for row in rows}


def _check_marker(db: Database, path: Path, tables: set[str]) -> None:
    if "meta" not in tables:
        raise StoreError(f"{path} is not a GoldenLens project: it is an SQLite database of another kind")
    try:
        meta = dict(db.execute("SELECT key, value FROM meta WHERE key IN ('app', 'format')").fetchall())
    except sqlite3.Error as exc:
        raise StoreError(f"{path} is not a GoldenLens project: unreadable meta table ({exc})") from exc
    if meta.get("app") != APP_NAME or meta.get("format") != FORMAT_MARKER:
        raise StoreError(f"{path} is not a GoldenLens project: its meta table belongs to another program")


def _migrate(db: Database, path: Path, *, initialise: bool) -> None:
    conn = db.conn
    try:
        conn.execute("BEGIN IMMEDIATE")
        # Read again under the write lock: another process may have migrated meanwhile.
        start = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if initialise and start == 0 and not _has_table(db, "meta"):
            _create_meta(db)
        for version in range(start, LATEST_VERSION):
            MIGRATIONS[version](db)
        conn.execute(f"PRAGMA user_version = {LATEST_VERSION:d}")
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID:d}")
        conn.execute("COMMIT")
    except BaseException as exc:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            action = "create the project" if initialise else "upgrade the project to the current format"
            raise StoreError(f"{path}: could not {action}: {exc}") from exc
        raise
    # Version 0 has no data tables, so only an upgrade from version 1 on can leave pages free.
    if start >= 1 and any(start < version <= LATEST_VERSION for version in REBUILDS):
        _compact(db)


def _compact(db: Database) -> None:
    """Give the pages that a rebuilt table left free back to the file system, and empty the WAL
    that the rebuild filled (a 100k-question project: 1.6 GB after the upgrade, 0.7 GB after
    this, in about 5 s). Only disk space is at stake: when it fails — another process is using
    the file, the disk is full — the file stays valid, merely larger, and is opened anyway."""
    conn = db.conn
    with suppress(sqlite3.Error):
        conn.execute("PRAGMA busy_timeout = 0")  # never keep the user waiting for a nicety
        try:
            conn.execute("VACUUM")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        finally:
            conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000):d}")


def _has_table(db: Database, name: str) -> bool:
    row = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [name]).fetchone()
    return row is not None


def _create_meta(db: Database) -> None:
    db.execute(META_DDL)
    db.conn.executemany(
        "INSERT INTO meta (key, value) VALUES (?, ?)",
        [("app", APP_NAME), ("format", FORMAT_MARKER), ("created_at", utc_now())],
    )


def remove_project_files(path: Path) -> None:
    """Remove a project file and SQLite's files beside it (WAL, shared memory, journal): for a
    project that was created but never got its content. The caller must have closed it."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
