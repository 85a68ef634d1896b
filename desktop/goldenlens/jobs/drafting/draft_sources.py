"""Read source documents and draft their chunks into a project: what the desktop app's
"Import Sources and Draft…" runs (on a worker thread, through
:func:`~goldenlens.jobs.project_access.on_project_at`). The reading
(:func:`goldenlens.io.importing.source_documents.read_sources`) and the drafting
(:func:`goldenlens.jobs.drafting.draft_job.draft_chunks`) are the CLI's ``goldenlens draft``.
A file that cannot be read raises :class:`~goldenlens.core.problems.InputError` naming it,
before anything is drafted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from goldenlens.core.golden.source_chunks import DEFAULT_CHUNK_WORDS
from goldenlens.core.problems import InputError
from goldenlens.io.importing.source_documents import read_sources
from goldenlens.jobs.drafting.draft_job import DraftOptions, DraftRunResult, draft_chunks
from goldenlens.jobs.progress import CancelToken, ProgressFn, no_progress
from goldenlens.jobs.project_access import takes_project
from goldenlens.judge.engines.protocol import JudgeEngine
from goldenlens.store.project import ProjectStore

__all__ = ["DraftSourcesResult", "draft_sources"]


@dataclass(frozen=True)
class DraftSourcesResult:
    """What a call did: the chunks read, the drafting result, and the readers' warnings
    (one line each, naming the file)."""

    chunks: int
    result: DraftRunResult
    warnings: tuple[str, ...] = ()

    def message(self) -> str:
        """``Drafted 3 of 10 chunks; 7 left (run again to continue).``"""
        result = self.result
        text = f"Drafted {len(result.draft_ids)} of {self.chunks} chunks"
        if result.already_drafted:
            text += f"; {result.already_drafted} drafted before"
        if result.left:
            text += f"; {result.left} left (run again to continue)"
        return text + "."


@takes_project
def draft_sources(
    store: ProjectStore,
    sources: Sequence[Path],
    options: DraftOptions,
    *,
    chunk_words: int = DEFAULT_CHUNK_WORDS,
    progress: ProgressFn = no_progress,
    cancel: CancelToken | None = None,
    engine: JudgeEngine | None = None,
) -> DraftSourcesResult:
    """Read ``sources`` and draft their chunks not drafted yet into the project (``engine``: a
    judge already open, e.g. a scripted one in tests)."""
    documents = read_sources(sources, max_words=chunk_words)
    warnings = tuple(problem.format() for document in documents for problem in document.problems)
    chunks = [chunk for document in documents for chunk in document.chunks]
    if not chunks:
        raise InputError.fatal(", ".join(p.name for p in sources), "no text to draft from")
    result = draft_chunks(store, chunks, options, progress=progress, cancel=cancel, engine=engine)
    return DraftSourcesResult(len(chunks), result, warnings)
