"""The project file's schema, its migrations, and opening a file safely.

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

Version 2 slims ``scores``, the table that is ~95 % of a big project. A signature is the same
JSON for every row of a metric in a run, so it is stored once in ``signatures`` and rows hold
its id (signatures of deleted runs stay behind: a few rows, harmless). ``detail`` is NULL
when it is ``{}``, as for five of the seven lexical records. And ``scores`` is ``WITHOUT
ROWID``, clustered on its primary key: a metric's column is one range scan that finds
``value`` in the row itself, where version 1 paid an index-to-table look-up per value.

The alternative — a rowid table plus a covering index ``(run_id, metric, question_id,
pipeline, value)`` — was measured against it on ``tests/bench/bench_grid.py``'s project
(100,000 questions x 3 pipelines = 2.1 M score rows; best of 3 to 9 runs on a shared 2-core
machine, so writes are +-10 %). "Realistic" swaps the bench's ``{}`` signatures and 0.3 kB
f1 details for real lexical signatures (~135 B) and sample-sized details (f1 alignment
~0.7 kB, fact match ~50 B). "7 cols": the grid's score query for all seven metrics;
``load_grid``: open the project and load the full grid of seven metrics::

                          bench records                  realistic records
                        file   write 7 cols load_grid   file    write 7 cols load_grid
    version 1          678 MB  48 s  2.40 s  3.44 s    1109 MB  53 s  3.46 s  4.39 s
    covering index     799 MB  56 s  1.16 s  2.20 s     939 MB  63 s  1.15 s  2.21 s
    WITHOUT ROWID      625 MB  45 s  1.28 s  2.30 s     750 MB  52 s  1.26 s  2.36 s

``WITHOUT ROWID`` is 20 % smaller than the covering index (which duplicates the primary-key
index: on the bench records it is larger than version 1) and no slower to write, but reads
5-10 % slower: a metric whose rows carry big details (f1: 0.24 s against 0.16 s per column)
scans them, while every other metric's range is as fast as the index, as details are
clustered with their metric. We took the size. ``WITHOUT ROWID`` suits rows under ~1/20 of a page, which
six rows in seven are; should judge details grow to many kB, moving ``detail`` to a side
table keyed like ``scores`` is the next step. ``scores_item`` entries now carry
``(run_id, metric)`` instead of a rowid (103 MB instead of 62 MB), counted above.

Upgrading a version-1 file rebuilds the table in one transaction, then compacts the file:
bench 678 MB -> 583 MB in 17 s, realistic 1109 MB -> 711 MB in 25-33 s.

Version 3 makes a score a plain number. ``scores`` is ``(run_id, metric, item, pipeline) ->
value`` with small integer keys (``item_keys``, ``pipeline_keys``, ``metric_keys``; flags hold
``flag_codes``), so a row is ~20 bytes where version 2's was ~60 plus its details. The
signature is stored once per run and metric (``run_metrics``); a reason, a judge's detail, or
a signature that differs from the run's lives in ``score_notes``, only for the rows that have
one. The lexical metrics' per-row details (token alignment, fact spans: ~70 % of a version-2
file) are dropped: they are derived data, worked out from the texts when a question is shown
or the Highlights sheet is written. The score tables have no foreign keys (checking them was
half the cost of a write); triggers cascade the deletes of golden items and runs instead.
100,000 responses with the seven lexical scores and flags: see ``tests/bench/bench_end_to_end.py
--project``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Final

from sqlite_utils import Database

from goldenlens.store.values import StoreError, utc_now

APP_NAME: Final = "GoldenLens"
FORMAT_MARKER: Final = "goldenlens-project"
#: ``PRAGMA application_id``: "GLNS". Informative for file-type sniffers; the ``meta`` table
#: is what we check, because hand-made and version-0 files may not carry it.
APPLICATION_ID: Final = 0x474C4E53
BUSY_TIMEOUT_SECONDS: Final = 10.0
_SQLITE_MAGIC: Final = b"SQLite format 3\x00"

META_DDL: Final = "CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)"

_V1_DDL: Final[tuple[str, ...]] = (
    """CREATE TABLE imports (
        id INTEGER PRIMARY KEY,
        golden_source TEXT NOT NULL DEFAULT '',
        responses_source TEXT NOT NULL DEFAULT '',
        imported_at TEXT NOT NULL,
        golden_count INTEGER NOT NULL DEFAULT 0,
        response_count INTEGER NOT NULL DEFAULT 0
    )""",
    """CREATE TABLE golden_items (
        id TEXT PRIMARY KEY NOT NULL,
        position INTEGER NOT NULL,
        question TEXT NOT NULL,
        answer TEXT NOT NULL,
        fact TEXT NOT NULL,
        notes TEXT NOT NULL DEFAULT '',
        source_row INTEGER NOT NULL DEFAULT 0,
        updated_at TEXT NOT NULL
    )""",
    "CREATE INDEX golden_items_position ON golden_items (position)",
    # AUTOINCREMENT: a version id is never reused, even if old history is pruned one day.
    """CREATE TABLE golden_history (
        version_id INTEGER PRIMARY KEY AUTOINCREMENT,
        item_id TEXT NOT NULL,
        question TEXT NOT NULL,
        answer TEXT NOT NULL,
        fact TEXT NOT NULL,
        notes TEXT NOT NULL DEFAULT '',
        source_row INTEGER NOT NULL DEFAULT 0,
        action TEXT NOT NULL,
        changed_at TEXT NOT NULL,
        reviewer TEXT NOT NULL DEFAULT '',
        source TEXT NOT NULL DEFAULT ''
    )""",
    "CREATE INDEX golden_history_item ON golden_history (item_id, version_id)",
    """CREATE TABLE golden_versions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        note TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL,
        last_history_id INTEGER NOT NULL DEFAULT 0
    )""",
    """CREATE TABLE golden_version_items (
        version_id INTEGER NOT NULL REFERENCES golden_versions (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        item_id TEXT NOT NULL,
        question TEXT NOT NULL,
        answer TEXT NOT NULL,
        fact TEXT NOT NULL,
        notes TEXT NOT NULL DEFAULT '',
        source_row INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (version_id, item_id)
    )""",
    """CREATE TABLE pipelines (
        name TEXT PRIMARY KEY NOT NULL,
        position INTEGER NOT NULL
    )""",
    """CREATE TABLE responses (
        question_id TEXT NOT NULL REFERENCES golden_items (id) ON DELETE CASCADE,
        pipeline TEXT NOT NULL REFERENCES pipelines (name) ON DELETE CASCADE ON UPDATE CASCADE,
        response TEXT NOT NULL,
        contexts TEXT NOT NULL DEFAULT '[]',
        source_row INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (question_id, pipeline)
    )""",
    "CREATE INDEX responses_pipeline ON responses (pipeline)",
    """CREATE TABLE runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        params TEXT NOT NULL DEFAULT '{}',
        status TEXT NOT NULL,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        total INTEGER NOT NULL DEFAULT 0,
        import_id INTEGER REFERENCES imports (id) ON DELETE SET NULL
    )""",
    "CREATE INDEX runs_kind ON runs (kind, id)",
    """CREATE TABLE scores (
        run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        question_id TEXT NOT NULL REFERENCES golden_items (id) ON DELETE CASCADE,
        pipeline TEXT NOT NULL,
        metric TEXT NOT NULL,
        value REAL,
        status TEXT NOT NULL DEFAULT 'scored' CHECK (status IN ('scored', 'not_scored')),
        reason TEXT NOT NULL DEFAULT '',
        signature TEXT NOT NULL DEFAULT '{}',
        detail TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL,
        PRIMARY KEY (run_id, metric, question_id, pipeline),
        CHECK ((status = 'scored') = (value IS NOT NULL))
    )""",
    "CREATE INDEX scores_item ON scores (question_id, pipeline)",
    """CREATE TABLE flags (
        run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        question_id TEXT NOT NULL REFERENCES golden_items (id) ON DELETE CASCADE,
        pipeline TEXT NOT NULL DEFAULT '',
        flag TEXT NOT NULL,
        PRIMARY KEY (run_id, question_id, pipeline, flag)
    ) WITHOUT ROWID""",
    "CREATE INDEX flags_item ON flags (question_id, pipeline)",
    """CREATE TABLE overrides (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        question_id TEXT NOT NULL REFERENCES golden_items (id) ON DELETE CASCADE,
        pipeline TEXT NOT NULL,
        metric TEXT NOT NULL,
        value REAL,
        passed INTEGER CHECK (passed IN (0, 1)),
        note TEXT NOT NULL DEFAULT '',
        reviewer TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL
    )""",
    "CREATE INDEX overrides_key ON overrides (question_id, pipeline, metric, id)",
    """CREATE TABLE reviews (
        question_id TEXT PRIMARY KEY NOT NULL REFERENCES golden_items (id) ON DELETE CASCADE,
        status TEXT NOT NULL,
        note TEXT NOT NULL DEFAULT '',
        reviewer TEXT NOT NULL DEFAULT '',
        updated_at TEXT NOT NULL
    )""",
    """CREATE TABLE problems (
        id INTEGER PRIMARY KEY,
        import_id INTEGER NOT NULL REFERENCES imports (id) ON DELETE CASCADE,
        file TEXT NOT NULL,
        sheet TEXT,
        "row" INTEGER,
        "column" TEXT,
        severity TEXT NOT NULL,
        message TEXT NOT NULL
    )""",
    "CREATE INDEX problems_import ON problems (import_id, id)",
    """CREATE TABLE judge_cache (
        key TEXT PRIMARY KEY NOT NULL,
        metric TEXT NOT NULL,
        model_sha256 TEXT NOT NULL,
        prompt_version TEXT NOT NULL,
        output TEXT NOT NULL,
        created_at TEXT NOT NULL
    )""",
    "CREATE INDEX judge_cache_model ON judge_cache (model_sha256, prompt_version)",
)


def _to_v1(db: Database) -> None:
    """Version 1: the initial schema."""
    for statement in _V1_DDL:
        db.execute(statement)


#: Version 2's ``scores`` (made as ``scores_v2``, renamed once the rows are in): the signature
#: by reference, ``detail`` NULL when empty, rows clustered on the primary key (see the module
#: docstring for the measurements).
_V2_SCORES_DDL: Final = """CREATE TABLE scores_v2 (
        run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        metric TEXT NOT NULL,
        question_id TEXT NOT NULL REFERENCES golden_items (id) ON DELETE CASCADE,
        pipeline TEXT NOT NULL,
        value REAL,
        status TEXT NOT NULL DEFAULT 'scored' CHECK (status IN ('scored', 'not_scored')),
        reason TEXT NOT NULL DEFAULT '',
        signature_id INTEGER NOT NULL REFERENCES signatures (id),
        detail TEXT,
        created_at TEXT NOT NULL,
        PRIMARY KEY (run_id, metric, question_id, pipeline),
        CHECK ((status = 'scored') = (value IS NOT NULL))
    ) WITHOUT ROWID"""


def _to_v2(db: Database) -> None:
    """Version 2: score signatures in their own table, empty details as NULL, ``scores``
    clustered on its primary key. Rebuilds ``scores`` in the caller's transaction.

    Foreign keys stay on: no table refers to ``scores``, so dropping it cascades nowhere, and
    the copied rows are checked against ``runs``, ``golden_items`` and ``signatures`` as they
    go in (a v1 file that broke them is refused rather than carried over).
    """
    db.execute("CREATE TABLE signatures (id INTEGER PRIMARY KEY, json TEXT NOT NULL UNIQUE)")
    db.execute("INSERT INTO signatures (json) SELECT DISTINCT signature FROM scores ORDER BY signature")
    db.execute(_V2_SCORES_DDL)
    db.execute(
        "INSERT INTO scores_v2 (run_id, metric, question_id, pipeline, value, status, reason,"
        " signature_id, detail, created_at)"
        " SELECT s.run_id, s.metric, s.question_id, s.pipeline, s.value, s.status, s.reason, g.id,"
        " NULLIF(s.detail, '{}'), s.created_at"
        " FROM scores AS s JOIN signatures AS g ON g.json = s.signature"
        " ORDER BY s.run_id, s.metric, s.question_id, s.pipeline"
    )
    db.execute("DROP TABLE scores")
    db.execute("ALTER TABLE scores_v2 RENAME TO scores")
    db.execute("CREATE INDEX scores_item ON scores (question_id, pipeline)")


#: The lexical metrics, whose stored per-row details (token alignment, fact spans) version 3
#: drops: they are derived data, worked out from the texts when shown.
_LEXICAL_METRICS: Final = (
    "factual_knowledge",
    "factual_knowledge_quasi_exact",
    "f1_score",
    "precision_over_words",
    "recall_over_words",
    "exact_match_score",
    "quasi_exact_match_score",
)

_V3_DDL: Final[tuple[str, ...]] = (
    # Small integer keys for the text keys every score and flag row repeated. A golden item's
    # key lives and dies with it (the trigger adds it, the cascade removes it and, through it,
    # the item's scores and flags); pipeline, metric and flag keys are never removed (a run
    # keeps its scores for a pipeline that a later import dropped). Pipeline key 0 is the
    # golden row of a flag.
    """CREATE TABLE item_keys (
        key INTEGER PRIMARY KEY,
        question_id TEXT NOT NULL UNIQUE REFERENCES golden_items (id) ON DELETE CASCADE
    )""",
    """CREATE TRIGGER golden_items_key AFTER INSERT ON golden_items
        BEGIN INSERT OR IGNORE INTO item_keys (question_id) VALUES (new.id); END""",
    "CREATE TABLE pipeline_keys (key INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)",
    "INSERT INTO pipeline_keys (key, name) VALUES (0, '')",
    "CREATE TABLE metric_keys (key INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)",
    "CREATE TABLE flag_codes (code INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)",
    # One signature per run and metric, not per score.
    """CREATE TABLE run_metrics (
        run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        metric INTEGER NOT NULL REFERENCES metric_keys (key),
        signature_id INTEGER NOT NULL REFERENCES signatures (id),
        PRIMARY KEY (run_id, metric)
    ) WITHOUT ROWID""",
    # A score is a number; NULL is "not scored" (its reason is in score_notes). The score,
    # note and flag tables carry no foreign keys: checking two per row was half the cost of
    # writing a run (measured: 420,000 rows 4.1 s with, 2.2 s without). The store looks every
    # key up before it writes (an unknown question id is refused), and the triggers below
    # cascade the deletes of golden items and runs, which the foreign keys did.
    """CREATE TABLE scores_v3 (
        run_id INTEGER NOT NULL,
        metric INTEGER NOT NULL,
        item INTEGER NOT NULL,
        pipeline INTEGER NOT NULL,
        value REAL,
        PRIMARY KEY (run_id, metric, item, pipeline)
    ) WITHOUT ROWID""",
    # Only where there is something to say: a not-scored reason, a judge's statements and
    # verdicts, or a signature that differs from the run's for this metric.
    """CREATE TABLE score_notes (
        run_id INTEGER NOT NULL,
        item INTEGER NOT NULL,
        pipeline INTEGER NOT NULL,
        metric INTEGER NOT NULL,
        reason TEXT NOT NULL DEFAULT '',
        detail TEXT,
        signature_id INTEGER REFERENCES signatures (id),
        PRIMARY KEY (run_id, item, pipeline, metric)
    ) WITHOUT ROWID""",
    """CREATE TABLE flags_v3 (
        run_id INTEGER NOT NULL,
        item INTEGER NOT NULL,
        pipeline INTEGER NOT NULL,
        code INTEGER NOT NULL,
        PRIMARY KEY (run_id, item, pipeline, code)
    ) WITHOUT ROWID""",
)


def _to_v3(db: Database) -> None:
    """Version 3: scores as plain numbers keyed by small integers, one signature per run and
    metric, reasons and judge details in ``score_notes`` only where they exist, flags as
    integer codes; the lexical per-row details (alignment spans) are dropped: derived data.
    Rebuilds ``scores`` and ``flags`` in the caller's transaction (nothing refers to them)."""
    for statement in _V3_DDL:
        db.execute(statement)
    lexical = "(" + ", ".join(f"'{name}'" for name in _LEXICAL_METRICS) + ")"
    db.execute("INSERT INTO item_keys (question_id) SELECT id FROM golden_items ORDER BY position, id")
    db.execute(
        "INSERT OR IGNORE INTO pipeline_keys (name) SELECT name FROM ("
        " SELECT name, position AS o, 0 AS s FROM pipelines UNION ALL"
        " SELECT DISTINCT pipeline, 0, 1 FROM scores UNION ALL SELECT DISTINCT pipeline, 0, 1 FROM flags)"
        " ORDER BY s, o, name"
    )
    db.execute("INSERT INTO metric_keys (name) SELECT DISTINCT metric FROM scores ORDER BY metric")
    db.execute("INSERT INTO flag_codes (name) SELECT DISTINCT flag FROM flags ORDER BY flag")
    db.execute(
        "INSERT INTO run_metrics (run_id, metric, signature_id)"
        " SELECT s.run_id, m.key, MIN(s.signature_id) FROM scores AS s"
        " JOIN metric_keys AS m ON m.name = s.metric GROUP BY s.run_id, m.key"
    )
    keyed = (
        " FROM scores AS s JOIN metric_keys AS m ON m.name = s.metric"
        " JOIN item_keys AS i ON i.question_id = s.question_id"
        " JOIN pipeline_keys AS p ON p.name = s.pipeline"
        " JOIN run_metrics AS r ON r.run_id = s.run_id AND r.metric = m.key"
    )
    db.execute(
        "INSERT INTO scores_v3 (run_id, metric, item, pipeline, value)"
        f" SELECT s.run_id, m.key, i.key, p.key, s.value{keyed} ORDER BY s.run_id, m.key, i.key, p.key"
    )
    db.execute(
        "INSERT INTO score_notes (run_id, item, pipeline, metric, reason, detail, signature_id)"
        f" SELECT s.run_id, i.key, p.key, m.key, s.reason,"
        f" CASE WHEN s.metric IN {lexical} THEN NULL ELSE s.detail END,"
        f" NULLIF(s.signature_id, r.signature_id){keyed}"
        f" WHERE s.reason <> '' OR s.value IS NULL OR s.signature_id <> r.signature_id"
        f" OR (s.detail IS NOT NULL AND s.metric NOT IN {lexical})"
        " ORDER BY s.run_id, i.key, p.key, m.key"
    )
    db.execute(
        "INSERT INTO flags_v3 (run_id, item, pipeline, code) SELECT f.run_id, i.key, p.key, c.code"
        " FROM flags AS f JOIN item_keys AS i ON i.question_id = f.question_id"
        " JOIN pipeline_keys AS p ON p.name = f.pipeline JOIN flag_codes AS c ON c.name = f.flag"
        " ORDER BY f.run_id, i.key, p.key, c.code"
    )
    for table in ("scores", "flags"):
        db.execute(f"DROP TABLE {table}")
        db.execute(f"ALTER TABLE {table}_v3 RENAME TO {table}")
    # Pipelines are removed only after their responses (``_replace_responses``), so the
    # foreign-key look-up of a removed pipeline needs no index of its own (2 MB per 100,000).
    db.execute("DROP INDEX responses_pipeline")
    # No index by item (it was as big as the table): an item's rows are found along each
    # primary key by seeking every (run, metric) pair, a few dozen seeks for one item.
    db.execute(
        "CREATE TRIGGER item_keys_cascade AFTER DELETE ON item_keys BEGIN"
        " DELETE FROM scores WHERE run_id IN (SELECT id FROM runs)"
        " AND metric IN (SELECT key FROM metric_keys) AND item = old.key;"
        " DELETE FROM score_notes WHERE run_id IN (SELECT id FROM runs) AND item = old.key;"
        " DELETE FROM flags WHERE run_id IN (SELECT id FROM runs) AND item = old.key; END"
    )
    db.execute(
        "CREATE TRIGGER runs_cascade AFTER DELETE ON runs BEGIN DELETE FROM scores WHERE run_id = old.id;"
        " DELETE FROM score_notes WHERE run_id = old.id; DELETE FROM flags WHERE run_id = old.id; END"
    )


#: Version 4 adds two tables. ``drafts``: golden items drafted by the judge from source
#: documents, waiting in a review queue (``store.drafts``). A draft carries its chunk's text and provenance
#: (document, page, chunk id) itself, so the queue, the fact check and the provenance of an
#: accepted item need no join, and a chunk is stored once per draft (a chunk is drafted once per
#: model and prompt: ``draft_key``, which is also the judge-cache key of the reply). No foreign
#: key to ``golden_items``: the provenance of an accepted draft outlives a later delete of the
#: item, as ``golden_history`` does; ``run_id`` is the draft run that wrote it.
#: ``golden_review_decisions``: the reviewer's decisions on the judge's golden-review
#: verdicts, append-only like ``overrides`` (the latest entry per question and criterion is in force; a
#: ``withdrawn`` entry undoes), and each entry keeps both verdicts it compares — the judge's
#: and the reviewer's — with the run and the SHA-256 of the triplet it was made on, so the
#: agreement figures never depend on a later run or edit.
_V4_DDL: Final[tuple[str, ...]] = (
    """CREATE TABLE drafts (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        draft_key TEXT NOT NULL UNIQUE,
        run_id INTEGER REFERENCES runs (id) ON DELETE SET NULL,
        document TEXT NOT NULL,
        page INTEGER,
        chunk_id TEXT NOT NULL,
        chunk_text TEXT NOT NULL,
        question TEXT NOT NULL DEFAULT '',
        answer TEXT NOT NULL DEFAULT '',
        fact TEXT NOT NULL DEFAULT '',
        variants TEXT NOT NULL DEFAULT '[]',
        problems TEXT NOT NULL DEFAULT '[]',
        detail TEXT NOT NULL DEFAULT '{}',
        status TEXT NOT NULL,
        golden_id TEXT,
        reviewer TEXT NOT NULL DEFAULT '',
        note TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL,
        reviewed_at TEXT
    )""",
    "CREATE INDEX drafts_status ON drafts (status, id)",
    "CREATE INDEX drafts_golden ON drafts (golden_id) WHERE golden_id IS NOT NULL",
    """CREATE TABLE golden_review_decisions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        question_id TEXT NOT NULL REFERENCES golden_items (id) ON DELETE CASCADE,
        criterion TEXT NOT NULL,
        decision TEXT NOT NULL,
        judge_verdict TEXT NOT NULL DEFAULT '',
        reviewer_verdict TEXT NOT NULL DEFAULT '',
        run_id INTEGER REFERENCES runs (id) ON DELETE SET NULL,
        triplet_sha256 TEXT NOT NULL DEFAULT '',
        note TEXT NOT NULL DEFAULT '',
        reviewer TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL
    )""",
    "CREATE INDEX golden_review_decisions_key ON golden_review_decisions (question_id, criterion, id)",
)


#: Version 4 also lets a golden-history row share its item's current content (NULL content
#: columns: :class:`goldenlens.store.repositories.golden.GoldenRepository`), so an import no longer stores
#: every golden text twice (8.6 of 66 MB for 20,000 items).
_V4_HISTORY: Final = """CREATE TABLE golden_history_v4 (
        version_id INTEGER PRIMARY KEY AUTOINCREMENT,
        item_id TEXT NOT NULL,
        question TEXT,
        answer TEXT,
        fact TEXT,
        notes TEXT,
        source_row INTEGER,
        action TEXT NOT NULL,
        changed_at TEXT NOT NULL,
        reviewer TEXT NOT NULL DEFAULT '',
        source TEXT NOT NULL DEFAULT '',
        CHECK ((question IS NULL) = (answer IS NULL) AND (question IS NULL) = (fact IS NULL)
            AND (question IS NULL) = (notes IS NULL) AND (question IS NULL) = (source_row IS NULL))
    )"""


def _to_v4(db: Database) -> None:
    """Version 4: the drafts table (review queue of judge-drafted golden items), the
    ``golden_review_decisions`` table, and a golden history whose rows may share their item's
    current content (rebuilt: the rows keep their ids and their content)."""
    for statement in _V4_DDL:
        db.execute(statement)
    db.execute(_V4_HISTORY)
    db.execute(
        "INSERT INTO golden_history_v4 (version_id, item_id, question, answer, fact, notes, source_row,"
        " action, changed_at, reviewer, source) SELECT version_id, item_id, question, answer, fact, notes,"
        " source_row, action, changed_at, reviewer, source FROM golden_history ORDER BY version_id"
    )
    db.execute("DROP TABLE golden_history")
    db.execute("ALTER TABLE golden_history_v4 RENAME TO golden_history")
    db.execute("CREATE INDEX golden_history_item ON golden_history (item_id, version_id)")


Migration = Callable[[Database], None]

#: ``MIGRATIONS[n]`` turns a version-``n`` file into version ``n + 1``. Append only; never
#: edit a released migration. One that rebuilds a table that other tables refer to must
#: switch foreign keys off itself (outside the transaction), or dropping the old table
#: cascades into them — see https://www.sqlite.org/lang_altertable.html.
MIGRATIONS: Final[Sequence[Migration]] = (_to_v1, _to_v2, _to_v3, _to_v4)
LATEST_VERSION: Final = len(MIGRATIONS)
#: Versions whose migration rebuilds a table that may be big: the old copy's pages are left
#: free, so a file upgraded across one of them is compacted once the upgrade has committed.
_REBUILDS: Final = frozenset({2, 3, 4})


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
        raise StoreError(f"{path} is not a GoldenLens project: {exc}") from exc
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
    if start >= 1 and any(start < version <= LATEST_VERSION for version in _REBUILDS):
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
