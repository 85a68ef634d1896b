"""Project format version 1: the initial schema (a version-0 file is only the ``meta`` table)."""

from __future__ import annotations

from typing import Final

from sqlite_utils import Database

#: The content of a golden question, as the items, their history and named versions hold it
#: (the exact text of version 1's tables: SQLite keeps each ``CREATE`` statement as written).
_CONTENT: Final = """        question TEXT NOT NULL,
        answer TEXT NOT NULL,
        fact TEXT NOT NULL,
        notes TEXT NOT NULL DEFAULT '',
        source_row INTEGER NOT NULL DEFAULT 0,"""

_V1_DDL: Final[tuple[str, ...]] = (
    """CREATE TABLE imports (
        id INTEGER PRIMARY KEY,
        golden_source TEXT NOT NULL DEFAULT '',
        responses_source TEXT NOT NULL DEFAULT '',
        imported_at TEXT NOT NULL,
        golden_count INTEGER NOT NULL DEFAULT 0,
        response_count INTEGER NOT NULL DEFAULT 0
    )""",
    f"""CREATE TABLE golden_items (
        id TEXT PRIMARY KEY NOT NULL,
        position INTEGER NOT NULL,
{_CONTENT}
        updated_at TEXT NOT NULL
    )""",
    "CREATE INDEX golden_items_position ON golden_items (position)",
    # AUTOINCREMENT: a version id is never reused, even if old history is pruned one day.
    f"""CREATE TABLE golden_history (
        version_id INTEGER PRIMARY KEY AUTOINCREMENT,
        item_id TEXT NOT NULL,
{_CONTENT}
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
    f"""CREATE TABLE golden_version_items (
        version_id INTEGER NOT NULL REFERENCES golden_versions (id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        item_id TEXT NOT NULL,
{_CONTENT}
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


def to_v1(db: Database) -> None:
    """Version 1: the initial schema."""
    for statement in _V1_DDL:
        db.execute(statement)
