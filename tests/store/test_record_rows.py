"""RecordRows: a table's rows become records by column name, on a real SQLite file."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest

from goldenlens.store.base import RecordRows


@dataclass(frozen=True)
class _Entry:
    id: int
    passed: bool | None
    row: int
    note: str = ""


def _table(tmp_path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(tmp_path / "t.db")
    # "row" is an SQL keyword: the select must quote it.
    conn.execute('CREATE TABLE entries (id INTEGER, passed INTEGER, "row" INTEGER, note TEXT)')
    conn.executemany(
        "INSERT INTO entries VALUES (?, ?, ?, ?)", [(1, 1, 7, "a"), (2, None, 8, "b"), (3, 0, 9, "")]
    )
    return conn


def test_rows_become_records_by_name_with_conversions_and_nulls_kept(tmp_path: Path) -> None:
    entries = RecordRows(_Entry, ("note", "row", "passed", "id"), convert={"passed": bool})
    conn = _table(tmp_path)
    rows = conn.execute(f"SELECT {entries.select('entries')} FROM entries ORDER BY id").fetchall()
    assert entries.records(rows) == [
        _Entry(id=1, passed=True, row=7, note="a"),
        _Entry(id=2, passed=None, row=8, note="b"),
        _Entry(id=3, passed=False, row=9, note=""),
    ]
    joined = conn.execute(f"SELECT {entries.select('e')} FROM entries AS e WHERE e.id = 3").fetchone()
    assert entries.record(joined) == _Entry(id=3, passed=False, row=9)


def test_a_misspelt_column_fails_instead_of_reading_as_its_own_name(tmp_path: Path) -> None:
    """Unqualified, SQLite reads ``"passd"`` as the string 'passd' when no column has that name."""
    conn = _table(tmp_path)
    assert conn.execute('SELECT "passd" FROM entries').fetchone() == ("passd",)
    entries = RecordRows(_Entry, ("id", "passd", "row"))
    with pytest.raises(sqlite3.OperationalError, match="no such column"):
        conn.execute(f"SELECT {entries.select('entries')} FROM entries")


def test_a_row_of_another_width_or_a_conversion_of_no_column_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="passd"):
        RecordRows(_Entry, ("id", "passed", "row"), convert={"passd": bool})
    entries = RecordRows(_Entry, ("id", "passed", "row"))
    with pytest.raises(ValueError, match="shorter"):
        entries.record((1, 1))
