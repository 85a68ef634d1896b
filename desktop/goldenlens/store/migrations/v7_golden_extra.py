"""Project format version 7 (issue 23): the analyst's other columns of each golden row."""

from __future__ import annotations

from sqlite_utils import Database


def to_v7(db: Database) -> None:
    """Version 7: ``golden_items.extra``, the row's other columns as a JSON array of
    ``[column, text]`` pairs in file order (``''`` when there are none, as in every older
    file). A column added with a constant default rewrites no row, so an upgrade is instant.
    History and named versions keep what the analyst scores by (question, answer, fact,
    notes); the other columns ride along with the current row only."""
    db.execute("ALTER TABLE golden_items ADD COLUMN extra TEXT NOT NULL DEFAULT ''")
