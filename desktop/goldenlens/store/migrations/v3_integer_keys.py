"""Project format version 3: a score is a plain number keyed by small integers.

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

from typing import Final

from sqlite_utils import Database

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


def to_v3(db: Database) -> None:
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
