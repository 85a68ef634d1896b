"""Read-only data the GUI thread asks for: grid columns, question detail, runs, reviews.

:class:`~goldenlens.queries.project.ProjectQueries` is the open project as the desktop app
reads it; writes go through :mod:`goldenlens.jobs` (``project_edits`` on the GUI thread,
``project_runs`` in workers). ``goldenlens.ui`` reaches data only through this package and
``jobs`` — an import-linter contract forbids it ``goldenlens.store`` and ``sqlite3``.
"""
