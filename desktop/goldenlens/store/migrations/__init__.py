"""The project file's format steps: ``MIGRATIONS[n]`` turns a version-``n`` file into version
``n + 1``, one module per step (``v1_initial`` … ``v7_golden_extra``), each with the
reasons and measurements behind its tables.

Append only; never edit a released migration (SQLite keeps each ``CREATE`` statement's text, and
old files must upgrade exactly as they did). One that rebuilds a table that other tables refer to
must switch foreign keys off itself (outside the transaction), or dropping the old table cascades
into them — see https://www.sqlite.org/lang_altertable.html. :mod:`goldenlens.store.schema` runs
them when it opens an older file.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from sqlite_utils import Database

from goldenlens.store.migrations.v1_initial import to_v1
from goldenlens.store.migrations.v2_signatures import to_v2
from goldenlens.store.migrations.v3_integer_keys import to_v3
from goldenlens.store.migrations.v4_drafts_and_reviews import to_v4
from goldenlens.store.migrations.v5_labels import to_v5
from goldenlens.store.migrations.v6_import_options import to_v6
from goldenlens.store.migrations.v7_golden_extra import to_v7

Migration = Callable[[Database], None]

MIGRATIONS: Final[Sequence[Migration]] = (to_v1, to_v2, to_v3, to_v4, to_v5, to_v6, to_v7)
#: Versions whose migration rebuilds a table that may be big: the old copy's pages are left
#: free, so a file upgraded across one of them is compacted once the upgrade has committed.
REBUILDS: Final = frozenset({2, 3, 4})

__all__ = ["MIGRATIONS", "REBUILDS", "Migration"]
