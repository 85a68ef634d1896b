"""Long-running, Qt-free work grouped by workflow, and the one way into a project file.

:func:`open_project` (:mod:`.project_access`) is how the command line, the desktop app and
the Python API open, create or check a project; the jobs they call take the handle it returns.
:func:`on_project_at` runs one of them on a connection of its own (the app's worker threads).
"""

from goldenlens.jobs.project_access import on_project_at, open_project

__all__ = ["on_project_at", "open_project"]
