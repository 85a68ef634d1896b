"""Project format version 2: score signatures by reference, empty details as NULL, ``scores``
clustered on its primary key.

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
"""

from __future__ import annotations

from typing import Final

from sqlite_utils import Database

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


def to_v2(db: Database) -> None:
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
