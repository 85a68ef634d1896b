"""Which unfinished run a new scoring call continues: the same options on the same inputs.

Shared by the lexical and the judge jobs. An unfinished run whose inputs have changed since
can never be continued (its scores belong to other texts), so it is marked ``superseded`` and
is not offered again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from goldenlens.store.project import ProjectStore
from goldenlens.store.values import RUN_SUPERSEDED


def resumable_run(
    store: ProjectStore, kind: str, inputs_sha256: str, same_options: Callable[[Mapping[str, Any]], bool]
) -> int | None:
    """The newest unfinished ``kind`` run with these options and inputs, else ``None``.

    Call it while holding the project lock: runs on other inputs are then certainly not
    running, and are superseded.
    """
    found = None
    for run in store.runs.unfinished(kind):
        if run.inputs_sha256 != inputs_sha256:
            store.runs.finish(run.id, RUN_SUPERSEDED)
        elif same_options(run.params):
            found = run.id
    return found
