"""Golden-set versions of an open project: the list, diffs, names, the change log.

The rules that cut the golden history into versions are pure and live in
:mod:`goldenlens.core.golden.versions`; this module reads what they need from the store —
the history, where each run started, the imports, the names given — and puts them together.
The CLI (``goldenlens versions``, ``goldenlens diff``), the golden workbook's change-log sheet
and the desktop app's Versions dialog all come here, so they agree on every number.

The front ends call them with the project they opened (:func:`goldenlens.jobs.open_project`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from goldenlens.core.golden.diff import GoldenDiff
from goldenlens.core.golden.versions import (
    ChangeLogRow,
    GoldenVersion,
    HistoryEntry,
    HistoryMark,
    VersionBreaks,
    build_versions,
    change_log,
    check_version_name,
    diff_states,
    point_at,
    resolve_version,
    state_at,
    version_containing,
    version_spans,
)
from goldenlens.core.project_records import RunInfo
from goldenlens.core.record_dicts import record_dict
from goldenlens.jobs.project_access import takes_project
from goldenlens.store.project import ProjectStore


@dataclass(frozen=True)
class RunVersion:
    """A run and the golden-set version it scored.

    ``version`` is the version it started from (0: the golden set was empty, or the run is
    older than the history); ``rescored_version`` the later version that in-place re-scores
    of edits brought it to (``None``: none did). ``recorded`` is False for a run made before
    runs recorded their version: then the version is the one current at its start time.
    """

    run_id: int
    kind: str
    status: str
    started_at: str
    version: int
    rescored_version: int | None = None
    recorded: bool = True

    @property
    def scored_version(self) -> int:
        """The version the run's numbers describe now."""
        return self.version if self.rescored_version is None else self.rescored_version

    def as_dict(self) -> dict[str, Any]:
        return record_dict(self, rename={"run_id": "run"})


@dataclass(frozen=True)
class VersionList:
    """All versions of a project's golden set, oldest first, and the runs that scored them."""

    versions: tuple[GoldenVersion, ...]
    runs: tuple[RunVersion, ...] = ()

    @property
    def current(self) -> GoldenVersion | None:
        """The version the golden set is at now (``None`` before the first import)."""
        return self.versions[-1] if self.versions else None

    def get(self, number: int) -> GoldenVersion | None:
        """Version ``number`` (``None`` for 0, the empty set, or an unknown number)."""
        return self.versions[number - 1] if 0 < number <= len(self.versions) else None

    def runs_of(self, number: int) -> list[RunVersion]:
        """The runs whose numbers describe version ``number``."""
        return [run for run in self.runs if run.scored_version == number]

    def as_dict(self) -> dict[str, Any]:
        return {
            "versions": [version_dict(v, self.runs_of(v.number)) for v in self.versions],
            "runs": [run.as_dict() for run in self.runs],
        }


def version_dict(version: GoldenVersion, runs: Sequence[RunVersion] = ()) -> dict[str, Any]:
    """One version as JSON: number, name, kind, when, who, rows, changes, history ids, runs."""
    return {
        "number": version.number,
        "name": version.name,
        "kind": version.kind,
        "started_at": version.started_at,
        "ended_at": version.ended_at,
        "who": version.who,
        "reviewers": list(version.reviewers),
        "source": version.source,
        "rows": version.rows,
        "changes": version.changes,
        "first_history_id": version.first_id,
        "last_history_id": version.last_id,
        "runs": [run.run_id for run in runs],
    }


@dataclass(frozen=True)
class VersionDiff:
    """What changed from version ``old`` to version ``new`` (either may be 0, the empty set)."""

    old: int
    new: int
    old_label: str
    new_label: str
    diff: GoldenDiff

    def as_dict(self) -> dict[str, Any]:
        return {
            "from": {"number": self.old, "label": self.old_label},
            "to": {"number": self.new, "label": self.new_label},
            "summary": self.diff.summary(),
            **self.diff.as_dict(),
        }


def _start_point(run: RunInfo, history: Sequence[HistoryMark | HistoryEntry]) -> int:
    """The history id a run started from; for a run made before runs recorded it, the newest
    entry written before it started."""
    if run.golden_history_id is not None:
        return run.golden_history_id
    return point_at(history, run.started_at)


def _breaks(
    store: ProjectStore, history: Sequence[HistoryMark | HistoryEntry], runs: Sequence[RunInfo]
) -> tuple[VersionBreaks, dict[int, int]]:
    """What ends versions besides the entries (run starts, names, imports), and each run's
    start point."""
    starts = {run.id: _start_point(run, history) for run in runs}
    names: dict[int, str] = {}
    for named in store.golden.versions():  # oldest first: a later name wins
        names[named.last_history_id] = named.name
    breaks = VersionBreaks(
        after_ids=frozenset(point for point in (*starts.values(), *names) if point > 0),
        times=tuple(i.imported_at for i in store.responses.imports()),
        names=names,
    )
    return breaks, starts


class ProjectVersions:
    """A project's golden history and the versions cut from it, read once: listing, diffs and
    the change log then work in memory (the read is what costs: about 3 s for 100,000 history
    entries on a busy machine; a diff of two versions then replays them in well under a
    second). Stale once the project's golden set changes: read it again."""

    def __init__(self, store: ProjectStore) -> None:
        self.history: list[HistoryEntry] = store.golden.history()
        runs = store.runs.all()
        breaks, starts = _breaks(store, self.history, runs)
        self.versions = tuple(build_versions(self.history, breaks))
        self.runs = tuple(self._run_version(run, starts[run.id]) for run in runs)

    def _number(self, history_id: int) -> int:
        version = version_containing(self.versions, history_id)
        return 0 if version is None else version.number

    def _run_version(self, run: RunInfo, start: int) -> RunVersion:
        rescored = None if run.golden_rescored_id is None else self._number(run.golden_rescored_id)
        return RunVersion(
            run.id,
            run.kind,
            run.status,
            run.started_at,
            self._number(start),
            rescored,
            recorded=run.golden_history_id is not None,
        )

    def last_id(self, number: int) -> int:
        return 0 if number == 0 else self.versions[number - 1].last_id

    def label(self, number: int) -> str:
        return "v0 (empty)" if number == 0 else self.versions[number - 1].label

    @property
    def listed(self) -> VersionList:
        """The versions and the runs that scored each."""
        return VersionList(self.versions, self.runs)

    def diff(self, old: str, new: str) -> VersionDiff:
        """What changed from version ``old`` to version ``new`` (references as
        :func:`~goldenlens.core.golden.versions.resolve_version` reads them)."""
        a, b = resolve_version(self.versions, old), resolve_version(self.versions, new)
        changes = diff_states(self.history, self.last_id(a), self.last_id(b))
        return VersionDiff(a, b, self.label(a), self.label(b), changes)

    def change_log(self) -> list[ChangeLogRow]:
        """Every version's changes, oldest first (:func:`~goldenlens.core.golden.versions.change_log`)."""
        return change_log(self.history, self.versions)


@takes_project
def read_versions(store: ProjectStore) -> ProjectVersions:
    """The project's golden history and versions, read once (:class:`ProjectVersions`)."""
    return ProjectVersions(store)


@takes_project
def list_versions(store: ProjectStore) -> VersionList:
    """Every version of the project's golden set and the runs that scored each."""
    return ProjectVersions(store).listed


@takes_project
def diff_versions(store: ProjectStore, old: str, new: str) -> VersionDiff:
    """What changed from version ``old`` to version ``new``: references as
    :func:`~goldenlens.core.golden.versions.resolve_version` reads them (a number, ``v3``, a
    name, ``latest``, ``0``). Raises :class:`~goldenlens.core.golden.versions.UnknownVersionError`."""
    return ProjectVersions(store).diff(old, new)


@takes_project
def name_version(store: ProjectStore, name: str, ref: str = "latest") -> GoldenVersion:
    """Give version ``ref`` (default: the current one) the name ``name`` and return it renamed.

    Naming the current version ends its editing session: later edits make a new version.
    Raises ``ValueError`` for a blank name, one that reads as a number, one another version
    has, or a project without versions.
    """
    text = check_version_name(name)
    loaded = ProjectVersions(store)
    if not loaded.versions:
        raise ValueError("the golden set has no versions yet: import one first")
    number = resolve_version(loaded.versions, ref)
    if number == 0:
        raise ValueError("version 0 is the empty set before the first import; it cannot be named")
    clash = [v for v in loaded.versions if v.name == text and v.number != number]
    if clash:
        raise ValueError(f"{clash[0].label} already has the name {text!r}")
    version = loaded.versions[number - 1]
    store.golden.name_version(version.last_id, text, state_at(loaded.history, version.last_id))
    return list_versions(store).versions[number - 1]


def run_version_label(store: ProjectStore, run_id: int) -> str:
    """The golden-set version run ``run_id``'s numbers describe, for a report: ``v3``,
    ``v3 "curated"``, with ``(re-scored in place from v2)`` when edits were re-scored into
    it since it started, a note for a run made before runs recorded their version, and the
    current version when the set has changed since. Reads only
    the history's marks (no row texts): cheap beside the report itself. Empty for an unknown
    run or a project without history."""
    run = store.runs.get(run_id)
    marks = store.golden.history_marks()
    if run is None or not marks:
        return ""
    breaks, starts = _breaks(store, marks, store.runs.all())
    spans = version_spans(marks, breaks)

    def number(history_id: int) -> int:
        return next((n for n, (first, last) in enumerate(spans, 1) if first <= history_id <= last), 0)

    def label(version: int) -> str:
        name = breaks.names.get(spans[version - 1][1], "") if version else ""
        return f'v{version} "{name}"' if name else f"v{version}"

    started = number(starts[run.id])
    scored = started if run.golden_rescored_id is None else number(run.golden_rescored_id)
    text = label(scored)
    if scored != started:
        text += f" (re-scored in place from v{started})"
    if run.golden_history_id is None:
        text += " (the version current when the run started)"
    if scored != len(spans):
        text += f"; the golden set is at {label(len(spans))} now"
    return text


def golden_change_log(store: ProjectStore) -> list[ChangeLogRow]:
    """The change log of the golden workbook: every version's changes, oldest first."""
    return ProjectVersions(store).change_log()
