"""The small integer keys that score and flag rows hold instead of text (project format 3).

A golden item's key is made by a trigger when the item is inserted; pipeline, metric and flag
keys are made here the first time a score or flag names them. All of it runs inside the
caller's transaction, so a rolled-back batch leaves no key behind that nothing uses.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from typing import Final

from goldenlens.core.errors import StoreError
from goldenlens.store.values import to_json

#: ``table: key column`` of the name tables.
_NAME_TABLES: Final = {"pipeline_keys": "key", "metric_keys": "key", "flag_codes": "code"}


def name_keys(conn: sqlite3.Connection, table: str, names: Iterable[str], *, add: bool) -> dict[str, int]:
    """``{name: key}`` of ``names`` in a name table; with ``add``, unknown names get a key,
    otherwise they are left out."""
    column = _NAME_TABLES[table]
    wanted = sorted(set(names))
    if not wanted:
        return {}
    if add:
        conn.executemany(f"INSERT OR IGNORE INTO {table} (name) VALUES (?)", [(n,) for n in wanted])  # noqa: S608
    rows = conn.execute(
        f"SELECT name, {column} FROM {table} WHERE name IN (SELECT value FROM json_each(?))",  # noqa: S608
        (to_json(wanted),),
    ).fetchall()
    return {row[0]: row[1] for row in rows}


def item_keys(conn: sqlite3.Connection, question_ids: Iterable[str], *, where: str) -> dict[str, int]:
    """``{question_id: key}``; a question id that is not a golden item is a :class:`StoreError`
    naming it (the text-keyed formats refused it by a foreign key)."""
    wanted = sorted(set(question_ids))
    if not wanted:
        return {}
    rows = conn.execute(
        "SELECT question_id, key FROM item_keys WHERE question_id IN (SELECT value FROM json_each(?))",
        (to_json(wanted),),
    ).fetchall()
    found = {row[0]: row[1] for row in rows}
    if len(found) < len(wanted):
        missing = [q for q in wanted if q not in found]
        shown = ", ".join(map(repr, missing[:5])) + (", ..." if len(missing) > 5 else "")
        raise StoreError(f"{where}: FOREIGN KEY constraint failed: not golden question ids: {shown}")
    return found
