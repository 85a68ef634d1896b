"""Project format version 6 (issue 22): the scoring an import was made for."""

from __future__ import annotations

from sqlite_utils import Database


def to_v6(db: Database) -> None:
    """Version 6: ``imports.score_options``, the options of the scoring that ``goldenlens score``,
    the import wizard or the Python API asked for with the import (JSON), written in the import's
    own transaction. A process killed after the import committed but before its run started
    leaves them behind, so ``goldenlens resume`` can run that scoring with the same options.
    ``NULL``: none recorded (an import of an older format, or one made without scoring); a
    column added in place, so no table is rebuilt."""
    db.execute("ALTER TABLE imports ADD COLUMN score_options TEXT")
