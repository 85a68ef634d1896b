"""The score grid as the desktop app sees it: the column arrays (:class:`GridData`), the flag
masks its cells hold, and how many questions a first, partial load reads (:data:`HEAD_LIMIT`).

The arrays are defined in :mod:`goldenlens.queries.grid_data` and read from a project by
:mod:`goldenlens.queries.grid_loading`, through :class:`~goldenlens.queries.project.ProjectQueries`.
"""

from goldenlens.queries.grid_data import GridData, OverrideNote, flag_mask, flags_in
from goldenlens.queries.grid_loading import HEAD_LIMIT

__all__ = ["HEAD_LIMIT", "GridData", "OverrideNote", "flag_mask", "flags_in"]
