"""Project format version 4: the drafts queue, the reviewer's golden-review decisions, and a
golden history whose rows may share their item's current content."""

from __future__ import annotations

from typing import Final

from sqlite_utils import Database

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


def to_v4(db: Database) -> None:
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
