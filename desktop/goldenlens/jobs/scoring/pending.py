"""The scoring an import was made for, and what of it is still to do.

``goldenlens score``, the import wizard and the Python API import and then score in one go
(:mod:`goldenlens.jobs.importing.import_and_score`). The import commits first; a process
killed before the scoring's run starts would leave a project with inputs and no run, and
nothing saying how it was to be scored. So the import records the options of that scoring in
its own transaction (:func:`recorded_scoring`), and :func:`pending_scoring` compares the
newest import with the runs made on it: what has not started yet is run by ``goldenlens
resume`` and by the desktop app when it opens the project, with those options. Where that
cannot be done — an import of an older format, which recorded nothing — the message says
which command finishes the job (:func:`no_finished_run`).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from goldenlens.core.errors import GoldenLensError
from goldenlens.core.input_selection import InputSelection
from goldenlens.core.judge_engine_spec import JudgeEngineSpec
from goldenlens.core.project_records import ImportInfo, RunInfo
from goldenlens.core.runs.run_kinds import JUDGE_RUN, LEXICAL_RUN
from goldenlens.jobs.curation.edits import run_options
from goldenlens.jobs.progress import CancelToken, ProgressFn, no_progress
from goldenlens.jobs.project_access import takes_project
from goldenlens.jobs.scoring.score_job import score_project
from goldenlens.jobs.scoring.score_rows import ScoreOptions
from goldenlens.store.project import ProjectStore
from goldenlens.store.values import json_int

#: The keys of the recorded JSON: the lexical options, the judge run's parameters (only when
#: the judge was asked for) and how the input files were read (for a command that re-imports).
_LEXICAL: Final = "lexical"
_JUDGE: Final = "judge"
_SELECTION: Final = "selection"


def recorded_scoring(
    options: ScoreOptions, judge_params: Mapping[str, Any] | None, selection: InputSelection | None
) -> dict[str, Any]:
    """The JSON an import records of the scoring asked for with it: the lexical ``options``,
    the judge's ``judge_params`` (:meth:`~goldenlens.jobs.judging.judge_options.JudgeOptions.params`;
    ``None``: no judge) and the input ``selection``."""
    chosen = selection or InputSelection()
    recorded: dict[str, Any] = {
        _LEXICAL: options.params(),
        _SELECTION: {
            "golden_sheet": chosen.golden_sheet,
            "responses_sheet": chosen.responses_sheet,
            "mapping": dict(chosen.mapping),
            "header_row": chosen.header_row,
            "responses_header_row": chosen.responses_header_row,
        },
    }
    if judge_params is not None:
        recorded[_JUDGE] = dict(judge_params)
    return recorded


def _text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _selection(raw: Any) -> InputSelection:
    given = raw if isinstance(raw, Mapping) else {}
    mapping = given.get("mapping")
    return InputSelection(
        golden_sheet=_text_or_none(given.get("golden_sheet")),
        responses_sheet=_text_or_none(given.get("responses_sheet")),
        mapping={str(k): str(v) for k, v in mapping.items()} if isinstance(mapping, Mapping) else {},
        header_row=json_int(given.get("header_row")),
        responses_header_row=json_int(given.get("responses_header_row")),
    )


@dataclass(frozen=True)
class PendingScoring:
    """What the newest import of ``project`` still waits for.

    ``lexical``: no lexical run has started on it (one that started and stopped is an
    unfinished run, which ``resume`` continues with that run's own options). ``options``: the
    lexical options recorded with the import, ``None`` when it recorded none. ``judge``: the
    judge parameters recorded with it when no judge run has started on it yet.
    """

    project: Path
    imported: ImportInfo
    lexical: bool
    options: ScoreOptions | None
    judge: Mapping[str, Any] | None
    selection: InputSelection

    @property
    def resumable(self) -> bool:
        """Whether ``goldenlens resume`` can run what is left with the recorded options."""
        return self.options is not None

    def score_command(self) -> str:
        """The ``goldenlens score`` command that imports the same files again and scores them as
        the import recorded (its options, the judge's too); without recorded options, the plain
        command."""
        imported = self.imported
        words = ["goldenlens", "score", imported.golden_source, imported.responses_source]
        words += ["--project", str(self.project)]
        words += _selection_words(self.selection)
        if self.options is not None and self.options.multiset:
            words.append("--multiset")
        if self.judge is not None:
            words += _judge_words(self.judge)
        return shlex.join(words)


@takes_project
def pending_scoring(store: ProjectStore) -> PendingScoring | None:
    """What the newest import still waits for, ``None`` when nothing: no import, or every run
    asked for with it has started (an unfinished run is resumed as such). An import that recorded
    no options waits for a lexical run only when it brought responses and none was made on it:
    one of an older format that ``score`` left between import and run (a golden set imported
    alone, for a review, waits for nothing)."""
    imports = store.responses.imports()
    if not imports:
        return None
    newest = imports[-1]
    started = {run.kind for run in store.runs.all() if run.import_id == newest.id}
    recorded = newest.score_options
    if recorded is None:
        if LEXICAL_RUN in started or newest.response_count == 0:
            return None
        return PendingScoring(store.path, newest, True, None, None, InputSelection())
    raw_judge = recorded.get(_JUDGE)
    judge = raw_judge if isinstance(raw_judge, Mapping) and JUDGE_RUN not in started else None
    lexical = LEXICAL_RUN not in started
    if not lexical and judge is None:
        return None
    raw_lexical = recorded.get(_LEXICAL)
    options = run_options(raw_lexical if isinstance(raw_lexical, Mapping) else {})
    return PendingScoring(store.path, newest, lexical, options, judge, _selection(recorded.get(_SELECTION)))


@takes_project
def left_to_resume(store: ProjectStore) -> bool:
    """Whether ``goldenlens resume`` has anything to do: an interrupted run of any kind, or
    scoring the newest import asked for and never began."""
    pending = pending_scoring(store)
    return bool(store.runs.unfinished()) or (pending is not None and pending.resumable)


@takes_project
def scored_since(store: ProjectStore, started_at: str) -> bool:
    """Whether a lexical run finished at or after ``started_at`` (ISO-8601 UTC, as the store
    writes its times)."""
    run = store.runs.latest(LEXICAL_RUN, finished_only=True)
    return run is not None and run.finished_at is not None and run.finished_at >= started_at


@takes_project
def options_to_finish(store: ProjectStore) -> ScoreOptions | None:
    """The options a lexical scoring of the project goes on with: those the newest import
    recorded for the run it never began (it is newer than any run), else the newest interrupted
    run's own; ``None`` (the defaults) when there is neither. The desktop app scores with these
    when it opens a project without a finished run, as ``goldenlens resume`` does."""
    pending = pending_scoring(store)
    if pending is not None and pending.lexical and pending.options is not None:
        return pending.options
    interrupted = store.runs.unfinished(LEXICAL_RUN)
    return run_options(interrupted[-1].params) if interrupted else None


@takes_project
def finish_scoring(
    store: ProjectStore, *, progress: ProgressFn = no_progress, cancel: CancelToken | None = None
) -> int:
    """Score the project with :func:`options_to_finish` (resuming an unfinished run, or the
    scoring its newest import asked for and never began); returns the run id. What the desktop
    app runs when it opens a project without a finished run, and ``goldenlens resume``."""
    return score_project(store, options_to_finish(store), progress=progress, cancel=cancel)


class NoScoresError(GoldenLensError):
    """The project has no finished lexical run to report on, or its newest finished run is not
    its scores now (:func:`scored_run`)."""


@takes_project
def scored_run(store: ProjectStore) -> RunInfo:
    """The lexical run whose scores are the project's now: the newest finished one, unless a
    lexical run begun after it did not finish or a newer import's scoring never began — its
    numbers would then be of earlier inputs, shown beside the current ones (a report of a
    project whose new import was killed while scoring showed every mean as 0.000 over 0
    responses). Raises :class:`NoScoresError` saying what finishes the scoring."""
    run = store.runs.latest(LEXICAL_RUN, finished_only=True)
    if run is None:
        raise NoScoresError(no_finished_run(store))
    later = [other for other in store.runs.unfinished(LEXICAL_RUN) if other.id > run.id]
    pending = pending_scoring(store)
    newer = (
        pending is not None
        and pending.lexical
        and (run.import_id is None or pending.imported.id > run.import_id)
    )
    if not later and not newer:
        return run
    if later:
        what = f"its scoring run {later[-1].id} did not finish (it was interrupted, or runs now)"
    else:
        assert pending is not None
        what = f"its import {pending.imported.id} was never scored"
    command = (
        _resume_finishes(store)
        if later or (pending is not None and pending.resumable)
        else f"`{pending.score_command()}` scores it"
        if pending is not None
        else "score it again"
    )
    raise NoScoresError(
        f"{store.path.name}: {what}; the last finished run ({run.id}) scored earlier inputs, so its "
        f"numbers are not the project's now. {command[0].upper()}{command[1:]}."
    )


@takes_project
def scores_wait(store: ProjectStore) -> bool:
    """Whether the project's newest inputs wait for a lexical scoring that finishes them: there
    is no finished run, or the newest is of earlier inputs (:func:`scored_run`). The desktop app
    scores (:func:`finish_scoring`) when it opens such a project."""
    try:
        scored_run(store)
    except NoScoresError:
        return True
    return False


@takes_project
def no_finished_run(store: ProjectStore) -> str:
    """Why a report cannot be made (no finished lexical run), and what finishes the scoring:
    ``goldenlens resume`` when a run was interrupted or the import recorded its scoring, the
    ``score`` command otherwise."""
    lead = f"{store.path.name} has no finished scoring run"
    pending = pending_scoring(store)
    if store.runs.unfinished(LEXICAL_RUN) or (pending is not None and pending.lexical and pending.resumable):
        return f"{lead}; {_resume_finishes(store)}."
    if pending is not None and pending.lexical:
        return f"{lead}; {never_scored(pending)}"
    return f"{lead}; score it first."


def _resume_finishes(store: ProjectStore) -> str:
    r"""``\`goldenlens resume PROJECT\` finishes it``: the command, quoted for a shell."""
    return f"`{shlex.join(['goldenlens', 'resume', str(store.path)])}` finishes it"


def never_scored(pending: PendingScoring) -> str:
    """The sentence for an import that was never scored and recorded no options: the command
    that scores it."""
    return (
        f"its import {pending.imported.id} was never scored and did not record how (an older "
        f"GoldenLens made it): `{pending.score_command()}` scores it, with the options the first "
        "`score` was given."
    )


def _selection_words(selection: InputSelection) -> list[str]:
    words: list[str] = []
    for option, value in (
        ("--golden-sheet", selection.golden_sheet),
        ("--responses-sheet", selection.responses_sheet),
        ("--header-row", selection.header_row),
        ("--responses-header-row", selection.responses_header_row),
    ):
        if value is not None:
            words += [option, str(value)]
    for name, column in selection.mapping.items():
        words += ["--map", f"{name}={column}"]
    return words


def _judge_words(params: Mapping[str, Any]) -> list[str]:
    """The ``goldenlens score`` options that ask for the judge run of ``params`` (a judge run's
    recorded parameters); settings left at their defaults are left out."""
    defaults = JudgeEngineSpec().params()
    words = ["--metrics", ",".join(str(name) for name in params.get("metrics") or ())]
    for key, option in (
        ("judge_model", "--judge-model"),
        ("judge_url", "--judge-url"),
        ("embed_model", "--embed-model"),
        ("n_ctx", "--n-ctx"),
        ("n_threads", "--threads"),
        ("temperature", "--temperature"),
        ("seed", "--seed"),
        ("parallel", "--parallel"),
    ):
        value = params.get(key)
        if value is not None and value != defaults.get(key):
            words += [option, str(value)]
    metric_params = params.get("metric_params") or {}
    for metric, values in metric_params.items():
        for key, value in values.items():
            words += ["--param", f"{metric}.{key}={json.dumps(value)}"]
    for name, definition in (params.get("custom_aspects") or {}).items():
        words += ["--aspect", f"{name}={definition}"]
    if params.get("only"):
        words += ["--only", ",".join(str(question) for question in params["only"])]
    if params.get("where"):
        words += ["--where", str(params["where"])]
    return words
