"""Long-running, Qt-free work grouped by workflow, and the one way into a project file.

:func:`open_project` (:mod:`.project_access`) is how the command line, the desktop app and
the Python API open, create or check a project; the jobs they call take the handle it returns.
"""

from goldenlens.jobs.project_access import open_project

__all__ = ["open_project"]
