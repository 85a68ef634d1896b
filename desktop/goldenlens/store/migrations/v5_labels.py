"""Project format version 5 (issue 21): reviewers' labels on responses and the labelling rounds
GoldenLens planned."""

from __future__ import annotations

from typing import Final

from sqlite_utils import Database

#: Version 5 (issue 21): reviewers' labels and the labelling rounds GoldenLens planned.
#: ``labels`` is append-only like ``overrides`` (the latest record of a response is in force; a
#: ``cleared`` record undoes a verdict, ``detached``/``attached`` say whether a response takes the
#: verdict of the same answer given elsewhere); each record keeps the answer key and the golden
#: item's version key it was given on. A question's labels go with the question (cascade).
#: ``label_round_frame`` keys its rows by the small integer keys of format 3, and goes with its
#: round; an item deleted later leaves the round's frame pointing at a key that no longer
#: exists, which makes the round unusable (its population changed), as it should.
_V5_DDL: Final[tuple[str, ...]] = (
    """CREATE TABLE labels (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        question_id TEXT NOT NULL REFERENCES golden_items (id) ON DELETE CASCADE,
        pipeline TEXT NOT NULL,
        kind TEXT NOT NULL,
        verdict TEXT,
        answer_key TEXT NOT NULL,
        golden_key TEXT NOT NULL,
        reviewer TEXT NOT NULL DEFAULT '',
        note TEXT NOT NULL DEFAULT '',
        source TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL
    )""",
    "CREATE INDEX labels_response ON labels (question_id, pipeline, id)",
    """CREATE TABLE label_rounds (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id INTEGER REFERENCES runs (id) ON DELETE SET NULL,
        mode TEXT NOT NULL,
        seed INTEGER NOT NULL,
        budget INTEGER NOT NULL,
        population TEXT NOT NULL,
        units INTEGER NOT NULL,
        sampled INTEGER NOT NULL,
        strata INTEGER NOT NULL,
        created_at TEXT NOT NULL
    )""",
    """CREATE TABLE label_round_frame (
        round_id INTEGER NOT NULL REFERENCES label_rounds (id) ON DELETE CASCADE,
        item INTEGER NOT NULL,
        pipeline INTEGER NOT NULL,
        unit INTEGER NOT NULL,
        stratum INTEGER NOT NULL,
        position INTEGER,
        PRIMARY KEY (round_id, item, pipeline)
    ) WITHOUT ROWID""",
)


def to_v5(db: Database) -> None:
    """Version 5: the ``labels``, ``label_rounds`` and ``label_round_frame`` tables."""
    for statement in _V5_DDL:
        db.execute(statement)
