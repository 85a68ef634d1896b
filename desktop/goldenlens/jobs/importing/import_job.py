"""Import a golden set and pipeline responses into a project, all or nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from goldenlens.core.input_selection import InputSelection
from goldenlens.core.inputs import Loaded
from goldenlens.core.problems import Problem, Severity
from goldenlens.core.view.wording import listing, plural
from goldenlens.jobs.importing.read_inputs import read_inputs
from goldenlens.jobs.progress import CancelToken, Progress, ProgressFn, no_progress
from goldenlens.store.lock import project_lock
from goldenlens.store.project import ProjectStore, StoreError
from goldenlens.store.schema import remove_project_files


@dataclass(frozen=True)
class ImportResult:
    import_id: int
    golden_count: int
    response_count: int
    pipelines: tuple[str, ...]
    problems: tuple[Problem, ...]


def import_inputs(
    store: ProjectStore,
    golden_path: Path,
    responses_path: Path | None = None,
    *,
    selection: InputSelection | None = None,
    progress: ProgressFn = no_progress,
    cancel: CancelToken | None = None,
    score_options: Mapping[str, Any] | None = None,
    check_pipelines: Callable[[Sequence[str]], None] | None = None,
) -> ImportResult:
    """Read and validate both inputs completely (as ``selection`` says: sheets, column mapping,
    header rows), then write them to ``store`` in one transaction, with ``score_options``, the
    scoring asked for with them (:func:`goldenlens.jobs.scoring.pending.recorded_scoring`).

    A fatal problem raises :class:`goldenlens.core.problems.InputError` before the store is
    touched, so an existing project keeps everything it had; so does whatever
    ``check_pipelines`` raises, given the pipelines read (a gate naming one there is not).
    """
    loaded: Loaded = read_inputs(
        golden_path, responses_path, selection=selection, progress=progress, cancel=cancel
    )
    progress(Progress("write", 1, 2, f"Saving {len(loaded.golden.items)} golden items"))
    responses = loaded.responses.responses if loaded.responses else ()
    pipelines = loaded.responses.pipelines if loaded.responses else ()
    if check_pipelines is not None:
        check_pipelines(pipelines)
    # Never replace the inputs under a run that another process is scoring.
    with project_lock(store.path, while_waiting=None if cancel is None else cancel.raise_if_cancelled):
        left = _questions_left(store, loaded, golden_path)
        import_id = store.responses.import_inputs(
            loaded.golden.items,
            responses,
            pipelines,
            loaded.problems,
            golden_source=str(golden_path),
            responses_source=str(responses_path or ""),
            score_options=score_options,
        )
    progress(Progress("write", 2, 2, "Imported"))
    return ImportResult(
        import_id, len(loaded.golden.items), len(responses), tuple(pipelines), (*left, *loaded.problems)
    )


def _questions_left(store: ProjectStore, loaded: Loaded, golden_path: Path) -> list[Problem]:
    """A warning when the new golden set leaves out questions the project has: they leave its
    current set without a word otherwise (their history stays, and an earlier version has them)."""
    before = store.golden.ids()
    kept = {item.id.casefold() for item in loaded.golden.items}
    left = [question for question in before if question.casefold() not in kept]
    if not left:
        return []
    return [
        Problem(
            golden_path.name,
            f"{plural(len(left), 'question')} of the {len(before)} the project had "
            f"{'is' if len(left) == 1 else 'are'} not in this golden set ({listing(left, 10)}): "
            f"{'it leaves' if len(left) == 1 else 'they leave'} the project's questions; the history "
            f"keeps them (goldenlens versions {store.path.name}).",
            Severity.WARNING,
        )
    ]


@contextmanager
def project_for_import(path: Path, *, cancel: CancelToken | None = None) -> Iterator[ProjectStore]:
    """Open the project at ``path`` for an import (and the scoring after it), creating it if
    needed, and hold its writer lock throughout.

    When the block fails, the file did not exist before and no import was committed into it
    (the import itself failed), the file is removed again with its WAL, shared-memory and lock
    files: a failed import into a new project leaves nothing behind. A failure after the
    import committed (scoring) keeps the project, so the run can be resumed. Raises
    :class:`~goldenlens.store.lock.ProjectBusyError` when another process holds the lock.
    """
    with project_lock(path, while_waiting=None if cancel is None else cancel.raise_if_cancelled):
        existed = path.exists()  # under the lock: no other process is creating it now
        store = ProjectStore.open(path, create=True)
        try:
            yield store
        except BaseException:
            discard = not existed and not _has_imports(store)
            store.close()
            if discard:
                remove_project_files(path)
            raise
        store.close()


def _has_imports(store: ProjectStore) -> bool:
    """True when an import was committed (an unreadable file counts as having one: keep it)."""
    with suppress(StoreError):
        return bool(store.responses.imports())
    return True
