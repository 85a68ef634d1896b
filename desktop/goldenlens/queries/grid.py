"""The score grid's column arrays (:class:`GridData`) and the helpers its views use.

The loader lives in :mod:`goldenlens.queries.grid_data` for now; this module is the name the GUI
imports, and :class:`~goldenlens.queries.project.ProjectQueries` reads a grid through it.
"""

from goldenlens.queries.grid_data import HEAD_LIMIT, GridData, OverrideNote, flag_mask, flags_in

__all__ = ["HEAD_LIMIT", "GridData", "OverrideNote", "flag_mask", "flags_in"]
