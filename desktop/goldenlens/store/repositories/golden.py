"""The golden-set repository: golden items, their per-item change history, and named
snapshots (versions) of the whole set (``store.golden``).

Which history entries make one golden-set version is worked out from the history by
:mod:`goldenlens.core.golden.versions`; a name given to a version is a ``golden_versions``
row whose ``last_history_id`` is the version's last entry, with a frozen copy of its rows.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from goldenlens.core.errors import StoreError
from goldenlens.core.golden.versions import HistoryEntry, HistoryMark
from goldenlens.core.inputs import GoldenItem
from goldenlens.core.project_records import VersionInfo
from goldenlens.store.base import Repository, Row
from goldenlens.store.values import (
    HISTORY_ADD,
    HISTORY_DELETE,
    HISTORY_EDIT,
    HISTORY_IMPORT,
    to_json,
    utc_now,
)

_ITEM_COLUMNS = ("id", "question", "answer", "fact", "notes", "source_row")
_HISTORY_COLUMNS = (
    "item_id",
    "question",
    "answer",
    "fact",
    "notes",
    "source_row",
    "action",
    "changed_at",
    "reviewer",
    "source",
)


def _item(row: Row) -> GoldenItem:
    return GoldenItem(
        id=row[0], question=row[1], answer=row[2], fact=row[3], notes=row[4], source_row=int(row[5])
    )


def _current_item(row: Row) -> GoldenItem:
    """An item of ``golden_items`` (``_ITEM_COLUMNS`` then ``extra``): history and named versions
    keep no other columns, the current row does."""
    item = _item(row)
    if not row[6]:
        return item
    extra = tuple((str(column), str(text)) for column, text in json.loads(row[6]))
    return replace(item, extra=extra)


def _extra_json(item: GoldenItem) -> str:
    """``golden_items.extra`` of ``item``: ``''`` when it has no other columns."""
    return to_json([list(pair) for pair in item.extra]) if item.extra else ""


def _content(item: GoldenItem) -> tuple[str, str, str, str, int]:
    """What a history entry records: everything but the id."""
    return (item.question, item.answer, item.fact, item.notes, item.source_row)


def _text(item: GoldenItem) -> tuple[str, str, str, str]:
    """What the analyst wrote; a changed ``source_row`` alone (rows moved) is no edit."""
    return (item.question, item.answer, item.fact, item.notes)


def _history_row(
    item: GoldenItem, action: str, now: str, reviewer: str, source: str, *, shared: bool
) -> tuple[Any, ...]:
    """A history row; ``shared``: its content is the item's current row (stored as NULLs)."""
    content = (None,) * 5 if shared else _content(item)
    return (item.id, *content, action, now, reviewer, source)


#: History rows with their content: a row whose content is NULL shares the item's current row
#: in ``golden_items`` (see :class:`GoldenRepository`).
_HISTORY_SELECT = (
    "SELECT h.version_id, h.item_id, COALESCE(h.question, g.question), COALESCE(h.answer, g.answer),"
    " COALESCE(h.fact, g.fact), COALESCE(h.notes, g.notes), COALESCE(h.source_row, g.source_row),"
    " h.action, h.changed_at, h.reviewer, h.source"
    " FROM golden_history AS h LEFT JOIN golden_items AS g ON h.question IS NULL AND g.id = h.item_id"
)


class GoldenRepository(Repository):
    """The golden set of a project: ``store.golden`` of a
    :class:`~goldenlens.store.project.ProjectStore`.

    A history row records an item's content as it was then. When that content is the item's
    current row (the newest entry of an item not changed since: an import, an edit, an add),
    the row stores NULLs and shares ``golden_items``' copy, so an import does not store every
    text twice; before an item is changed or deleted, :meth:`_unshare` copies its content into
    the rows that share it. Reads see no difference (``COALESCE`` over a join).
    """

    # -- reading ------------------------------------------------------------------------

    def items(self) -> list[GoldenItem]:
        """All golden items in their spreadsheet order."""
        rows = self._fetch(
            "SELECT id, question, answer, fact, notes, source_row, extra FROM golden_items"
            " ORDER BY position, id"
        )
        return [_current_item(row) for row in rows]

    def ids(self) -> list[str]:
        """Every golden item's id, in spreadsheet order, without the texts."""
        return [row[0] for row in self._fetch("SELECT id FROM golden_items ORDER BY position, id")]

    def item(self, item_id: str) -> GoldenItem | None:
        """One golden item by id, or ``None``."""
        row = self._fetch_one(
            "SELECT id, question, answer, fact, notes, source_row, extra FROM golden_items WHERE id = ?",
            [item_id],
        )
        return None if row is None else _current_item(row)

    def history(self, item_id: str | None = None) -> list[HistoryEntry]:
        """Recorded changes, oldest first; of one item or of all."""
        if item_id is None:
            rows = self._fetch(f"{_HISTORY_SELECT} ORDER BY h.version_id")
        else:
            rows = self._fetch(f"{_HISTORY_SELECT} WHERE h.item_id = ? ORDER BY h.version_id", [item_id])
        if any(row[2] is None for row in rows):  # a shared row whose item is gone: a broken invariant
            raise StoreError(f"{self._path}: the golden history refers to a missing item's content")
        return [
            HistoryEntry(
                version_id=row[0],
                item=_item(row[1:7]),
                action=row[7],
                changed_at=row[8],
                reviewer=row[9],
                source=row[10],
            )
            for row in rows
        ]

    def history_marks(self) -> list[HistoryMark]:
        """Every history entry without the row's text, oldest first: what cutting the history
        into versions needs (about a tenth of the cost of :meth:`history`)."""
        rows = self._fetch(
            "SELECT version_id, item_id, action, changed_at, reviewer, source FROM golden_history"
            " ORDER BY version_id"
        )
        return [HistoryMark(*row) for row in rows]

    def head(self) -> int:
        """The newest history id (0 before the first import): the version the set is at."""
        row = self._fetch_one("SELECT COALESCE(MAX(version_id), 0) FROM golden_history")
        return int(row[0]) if row else 0

    # -- writing ------------------------------------------------------------------------

    def replace(self, items: Sequence[GoldenItem], *, source: str = "") -> None:
        """Make ``items`` the golden set, in this order, in one transaction.

        Items whose id remains are updated in place, so their responses, scores, overrides
        and review survive; items no longer present are deleted together with everything
        that hangs off them. New and changed items get an ``import`` history entry, removed
        ones a ``delete`` entry. Raises ``ValueError`` on duplicate ids (nothing written).
        """
        duplicates = sorted(i for i, n in Counter(item.id for item in items).items() if n > 1)
        if duplicates:
            raise ValueError(f"duplicate golden ids: {', '.join(map(repr, duplicates[:10]))}")
        with self._write("replace the golden set"):
            self._replace_golden(items, source)

    def _replace_golden(self, items: Sequence[GoldenItem], source: str) -> None:
        existing = {
            row[0]: (_item(row), row[6])
            for row in self._fetch(
                "SELECT id, question, answer, fact, notes, source_row, updated_at FROM golden_items"
            )
        }
        now = utc_now()
        keep = {item.id for item in items}
        removed = [old for item_id, (old, _) in existing.items() if item_id not in keep]
        rewritten = [i.id for i in items if i.id in existing and _content(existing[i.id][0]) != _content(i)]
        self._unshare([*(old.id for old in removed), *rewritten])
        self._record(removed, HISTORY_DELETE, now, "", source)
        self._conn.executemany("DELETE FROM golden_items WHERE id = ?", [(i.id,) for i in removed])

        changed: list[GoldenItem] = []
        rows: list[tuple[Any, ...]] = []
        for position, item in enumerate(items):
            old = existing.get(item.id)
            updated_at = now
            if old is None or _text(old[0]) != _text(item):
                changed.append(item)
            else:
                updated_at = old[1]  # only a move in the file: not a change of the item
            rows.append((item.id, position, *_content(item), updated_at, _extra_json(item)))
        self._insert_rows(
            "golden_items",
            ("id", "position", *_ITEM_COLUMNS[1:], "updated_at", "extra"),
            rows,
            upsert_on="id",
        )
        self._record(changed, HISTORY_IMPORT, now, "", source, shared=True)

    def update(self, item: GoldenItem, *, reviewer: str = "") -> None:
        """Save an edited item (same id, same position); an unchanged item records nothing."""
        with self._write(f"save golden item {item.id!r}"):
            old = self._require(item.id, "edit")
            if old == item:
                return
            now = utc_now()
            self._unshare([item.id])
            self._conn.execute(
                "UPDATE golden_items SET question = ?, answer = ?, fact = ?, notes = ?, source_row = ?,"
                " updated_at = ?, extra = ? WHERE id = ?",
                (*_content(item), now, _extra_json(item), item.id),
            )
            self._record([item], HISTORY_EDIT, now, reviewer, "", shared=True)

    def add(self, item: GoldenItem, *, reviewer: str = "") -> None:
        """Append a new item after the last one."""
        with self._write(f"add golden item {item.id!r}"):
            if self._fetch_one("SELECT 1 FROM golden_items WHERE id = ?", [item.id]) is not None:
                raise StoreError(f"{self._path}: golden item {item.id!r} already exists")
            now = utc_now()
            self._conn.execute(
                "INSERT INTO golden_items (id, position, question, answer, fact, notes, source_row,"
                " updated_at, extra) VALUES (?, (SELECT COALESCE(MAX(position), -1) + 1 FROM golden_items),"
                " ?, ?, ?, ?, ?, ?, ?)",
                (item.id, *_content(item), now, _extra_json(item)),
            )
            self._record([item], HISTORY_ADD, now, reviewer, "", shared=True)

    def delete(self, item_id: str, *, reviewer: str = "") -> None:
        """Delete an item and everything that hangs off it; its history keeps the content."""
        with self._write(f"delete golden item {item_id!r}"):
            old = self._require(item_id, "delete")
            self._unshare([item_id])
            self._record([old], HISTORY_DELETE, utc_now(), reviewer, "")
            self._conn.execute("DELETE FROM golden_items WHERE id = ?", (item_id,))

    def _require(self, item_id: str, verb: str) -> GoldenItem:
        item = self.item(item_id)
        if item is None:
            raise StoreError(f"{self._path}: cannot {verb} golden item {item_id!r}: there is no such item")
        return item

    def _record(
        self,
        items: Iterable[GoldenItem],
        action: str,
        now: str,
        reviewer: str,
        source: str,
        *,
        shared: bool = False,
    ) -> None:
        """History rows for ``items``; ``shared`` when ``golden_items`` holds exactly their
        content now (an import, an edit, an add): the row then stores no copy of it."""
        rows = [_history_row(item, action, now, reviewer, source, shared=shared) for item in items]
        if rows:
            self._insert_rows("golden_history", _HISTORY_COLUMNS, rows)

    def _unshare(self, item_ids: Sequence[str]) -> None:
        """Copy the current content into the history rows that share it, for items about to be
        changed or deleted: every history row keeps the content it recorded."""
        if item_ids:
            self._conn.execute(
                "UPDATE golden_history SET question = g.question, answer = g.answer, fact = g.fact,"
                " notes = g.notes, source_row = g.source_row FROM golden_items AS g"
                " WHERE golden_history.question IS NULL AND g.id = golden_history.item_id"
                " AND g.id IN (SELECT value FROM json_each(?))",
                (to_json(list(item_ids)),),
            )

    # -- snapshots ----------------------------------------------------------------------

    def snapshot(self, name: str, note: str = "") -> int:
        """Freeze the current golden set under ``name``; returns the version id."""
        if not name.strip():
            raise ValueError("a golden-set version needs a name")
        with self._write(f"save golden-set version {name!r}") as conn:
            cursor = conn.execute(
                "INSERT INTO golden_versions (name, note, created_at, last_history_id)"
                " VALUES (?, ?, ?, (SELECT COALESCE(MAX(version_id), 0) FROM golden_history))",
                (name, note, utc_now()),
            )
            version_id = self._inserted_id(cursor)
            conn.execute(
                "INSERT INTO golden_version_items"
                " (version_id, position, item_id, question, answer, fact, notes, source_row)"
                " SELECT ?, position, id, question, answer, fact, notes, source_row FROM golden_items",
                (version_id,),
            )
        return version_id

    def name_version(
        self, last_history_id: int, name: str, items: Sequence[GoldenItem], note: str = ""
    ) -> int:
        """Name the golden-set version that ends at history entry ``last_history_id``, whose
        rows are ``items`` (worked out from the history by the caller); returns the id of its
        ``golden_versions`` row. A version that has a name already is renamed (its frozen
        rows stay as they are)."""
        if not name.strip():
            raise ValueError("a golden-set version needs a name")
        with self._write(f"name golden-set version {name!r}") as conn:
            if not 0 < last_history_id <= self.head():
                raise StoreError(f"{self._path}: there is no golden-history entry {last_history_id}")
            row = conn.execute(
                "SELECT MAX(id) FROM golden_versions WHERE last_history_id = ?", (last_history_id,)
            ).fetchone()
            if row is not None and row[0] is not None:
                conn.execute("UPDATE golden_versions SET name = ? WHERE id = ?", (name, row[0]))
                return int(row[0])
            cursor = conn.execute(
                "INSERT INTO golden_versions (name, note, created_at, last_history_id) VALUES (?, ?, ?, ?)",
                (name, note, utc_now(), last_history_id),
            )
            version_id = self._inserted_id(cursor)
            self._insert_rows(
                "golden_version_items",
                ("version_id", "position", "item_id", *_ITEM_COLUMNS[1:]),
                ((version_id, position, item.id, *_content(item)) for position, item in enumerate(items)),
            )
        return version_id

    def versions(self) -> list[VersionInfo]:
        """Named snapshots, oldest first."""
        rows = self._fetch(
            "SELECT v.id, v.name, v.note, v.created_at, COUNT(i.item_id), v.last_history_id"
            " FROM golden_versions AS v LEFT JOIN golden_version_items AS i ON i.version_id = v.id"
            " GROUP BY v.id ORDER BY v.id"
        )
        return [VersionInfo(*row) for row in rows]  # the columns in the record's field order

    def version_items(self, version_id: int) -> list[GoldenItem]:
        """The items of one snapshot, in the order they had then."""
        if self._fetch_one("SELECT 1 FROM golden_versions WHERE id = ?", [version_id]) is None:
            raise StoreError(f"{self._path}: there is no golden-set version {version_id}")
        rows = self._fetch(
            "SELECT item_id, question, answer, fact, notes, source_row FROM golden_version_items"
            " WHERE version_id = ? ORDER BY position, item_id",
            [version_id],
        )
        return [_item(row) for row in rows]
