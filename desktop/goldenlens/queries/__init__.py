"""Read-only data the front ends ask for: grid columns, question detail, runs, reviews, drafts.

:class:`~goldenlens.queries.project.ProjectQueries` reads a project opened with
:func:`goldenlens.jobs.open_project`; writes go through :mod:`goldenlens.jobs` with the same
project handle (single edits on the GUI thread, long jobs in workers on their own). Neither
front end imports ``goldenlens.store`` (import-linter contracts); the records they read are
the core's (:mod:`goldenlens.core.project_records`).
"""
