"""Versions of a golden set, worked out from its change history.

A project records every change of a golden row (``golden_history``: the row's content after
an import, an edit, an addition, or the content a deletion removed), each with an id that
only grows. A *version* is a run of consecutive history entries that belong together, and
the state of the golden set at the end of version *n* is the history replayed up to its last
entry. Versions are numbered 1, 2, 3… in history order; version 0 is the empty set before
the first import. Nothing but the history (and the few break points below) decides them, so
the numbering is the same every time it is worked out, and a version never changes once a
later one exists.

What makes a version:

* **An import** is one version: the entries one import wrote (same time, same source file).
  An import that changes no row writes nothing, so it makes no version of its own (the set is
  the previous version), but it still ends an editing session.
* **An editing session** is one version: consecutive edits, additions and deletions by one
  reviewer, each within :data:`SESSION_GAP` of the one before, with nothing in between that
  needed the golden set as it stood. A session ends when
    - the reviewer changes (an edit by someone else starts a new session),
    - :data:`SESSION_GAP` passes between two edits,
    - an import happens (even one that changed nothing),
    - a scoring or judge run starts: the run scored the set as it was, so that state must
      be a version the run can name,
    - the reviewer names the version (a named version is frozen; later edits start the next).

A run records the history id it started from (``RunInfo.golden_history_id``); the version
*containing* that id is the version it scored, and the run-start rule above makes it end
exactly there. When an edit re-scores a run in place (the curation loop), the run records the
edit's id too (``golden_rescored_id``): it then describes a later version.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Final, Protocol, TypeVar

from goldenlens.core.golden.diff import GoldenDiff, change_lines, diff_golden
from goldenlens.core.inputs import GoldenItem
from goldenlens.core.view.wording import plural

ACTION_IMPORT: Final = "import"
ACTION_EDIT: Final = "edit"
ACTION_ADD: Final = "add"
ACTION_DELETE: Final = "delete"

#: Two edits further apart than this belong to different sessions.
SESSION_GAP: Final = timedelta(minutes=30)

KIND_IMPORT: Final = "import"
KIND_EDIT: Final = "edit"


class _Change:
    """What a history entry and its mark share: the kind of change, from its action and source."""

    __slots__ = ()
    action: str
    source: str

    @property
    def kind(self) -> str:
        """``import`` for what an import wrote (its deletions carry the file as ``source``),
        ``edit`` for a reviewer's edit, addition or deletion."""
        if self.action == ACTION_IMPORT or (self.action == ACTION_DELETE and self.source):
            return KIND_IMPORT
        return KIND_EDIT


@dataclass(frozen=True)
class HistoryEntry(_Change):
    """One recorded change to a golden item; ``item`` is its content after the change.

    For ``delete`` entries ``item`` is the content that was deleted, so it can be restored.
    ``source`` is the file an ``import`` came from. ``version_id`` is the entry's history id
    (it only grows; the name predates golden-set versions, which group these entries).
    """

    version_id: int
    item: GoldenItem
    action: str
    changed_at: str
    reviewer: str = ""
    source: str = ""


@dataclass(frozen=True, slots=True)
class HistoryMark(_Change):
    """A history entry without the row's text: enough to cut the history into versions
    (:func:`version_spans`), cheap to read for a history of 100,000 entries."""

    version_id: int
    item_id: str
    action: str
    changed_at: str
    reviewer: str = ""
    source: str = ""


class _Mark(Protocol):
    """What cutting the history into versions reads of an entry."""

    @property
    def version_id(self) -> int: ...
    @property
    def changed_at(self) -> str: ...
    @property
    def reviewer(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def kind(self) -> str: ...


_M = TypeVar("_M", bound=_Mark)


@dataclass(frozen=True)
class GoldenVersion:
    """One version: history entries ``first_id``..``last_id`` and what they did.

    ``rows`` is the size of the golden set at the end of the version; ``changes`` the number
    of rows it added, removed or changed (an edit undone in the same session is none);
    ``reviewers`` who made it (empty for an import); ``source`` the imported file.
    """

    number: int
    kind: str
    first_id: int
    last_id: int
    started_at: str
    ended_at: str
    reviewers: tuple[str, ...] = ()
    source: str = ""
    name: str = ""
    rows: int = 0
    changes: int = 0

    @property
    def label(self) -> str:
        """``v3`` or ``v3 "as reviewed"``."""
        return f'v{self.number} "{self.name}"' if self.name else f"v{self.number}"

    @property
    def who(self) -> str:
        """Who made it: the reviewers, or ``import <file name>``."""
        if self.kind == KIND_IMPORT:
            name = self.source.replace("\\", "/").rsplit("/", 1)[-1]
            return f"import {name}" if name else "import"
        return ", ".join(r or "(no name)" for r in self.reviewers)


@dataclass(frozen=True)
class VersionBreaks:
    """What ends a version besides the entries themselves.

    ``after_ids``: history ids that must be the last of their version (where runs started,
    named versions). ``times``: moments that end an editing session (imports), ISO-8601 UTC.
    ``names``: last history id → the version's name.
    """

    after_ids: frozenset[int] = frozenset()
    times: tuple[str, ...] = ()
    names: Mapping[int, str] = field(default_factory=dict)


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _starts_new(previous: _Mark, entry: _Mark, breaks: VersionBreaks) -> bool:
    if previous.version_id in breaks.after_ids or previous.kind != entry.kind:
        return True
    if entry.kind == KIND_IMPORT:
        return (previous.changed_at, previous.source) != (entry.changed_at, entry.source)
    if previous.reviewer != entry.reviewer:
        return True
    if _time(entry.changed_at) - _time(previous.changed_at) > SESSION_GAP:
        return True
    return any(previous.changed_at < moment <= entry.changed_at for moment in breaks.times)


def group_history(history: Sequence[_M], breaks: VersionBreaks) -> list[list[_M]]:
    """``history`` (oldest first) cut into versions by the rules of the module docstring."""
    groups: list[list[_M]] = []
    for entry in sorted(history, key=lambda e: e.version_id):
        if groups and not _starts_new(groups[-1][-1], entry, breaks):
            groups[-1].append(entry)
        else:
            groups.append([entry])
    return groups


def _apply(state: dict[str, GoldenItem], entry: HistoryEntry) -> None:
    if entry.action == ACTION_DELETE:
        state.pop(entry.item.id, None)
    else:
        state[entry.item.id] = entry.item


def build_versions(history: Sequence[HistoryEntry], breaks: VersionBreaks) -> list[GoldenVersion]:
    """Every version of the history, numbered from 1, with row and change counts."""
    state: dict[str, GoldenItem] = {}
    versions: list[GoldenVersion] = []
    for number, group in enumerate(group_history(history, breaks), start=1):
        touched = dict.fromkeys(e.item.id for e in group)
        before = {item_id: state.get(item_id) for item_id in touched}
        for entry in group:
            _apply(state, entry)
        changes = diff_golden(
            [i for i in before.values() if i is not None],
            [state[i] for i in touched if i in state],
        )
        edit = group[0].kind == KIND_EDIT
        last = group[-1]
        versions.append(
            GoldenVersion(
                number=number,
                kind=group[0].kind,
                first_id=group[0].version_id,
                last_id=last.version_id,
                started_at=group[0].changed_at,
                ended_at=last.changed_at,
                reviewers=tuple(dict.fromkeys(e.reviewer for e in group)) if edit else (),
                source="" if edit else group[0].source,
                name=breaks.names.get(last.version_id, ""),
                rows=len(state),
                changes=len(changes.added) + len(changes.removed) + len(changes.changed),
            )
        )
    return versions


def version_spans(marks: Sequence[_M], breaks: VersionBreaks) -> list[tuple[int, int]]:
    """``(first id, last id)`` of each version, numbered from 1 as :func:`build_versions`
    numbers them, from the marks alone (no row texts, no counts)."""
    return [(group[0].version_id, group[-1].version_id) for group in group_history(marks, breaks)]


def state_at(history: Iterable[HistoryEntry], last_id: int) -> list[GoldenItem]:
    """The golden set after history entry ``last_id`` (0: the empty set), in the order the
    rows first appeared."""
    state: dict[str, GoldenItem] = {}
    for entry in sorted(history, key=lambda e: e.version_id):
        if entry.version_id > last_id:
            break
        _apply(state, entry)
    return list(state.values())


def diff_states(history: Sequence[HistoryEntry], old_id: int, new_id: int) -> GoldenDiff:
    """What changed from the set after entry ``old_id`` to the set after ``new_id``."""
    return diff_golden(state_at(history, old_id), state_at(history, new_id))


def point_at(history: Sequence[_Mark], moment: str) -> int:
    """The newest history id written at or before ``moment`` (0 if none): where a run made
    before runs recorded their golden version started."""
    ids = [e.version_id for e in history if e.changed_at <= moment]
    return max(ids, default=0)


def version_containing(versions: Sequence[GoldenVersion], history_id: int) -> GoldenVersion | None:
    """The version whose entries include ``history_id`` (``None`` for 0 or an unknown id)."""
    for version in versions:
        if version.first_id <= history_id <= version.last_id:
            return version
    return None


class UnknownVersionError(ValueError):
    """A version reference that names no version."""


def resolve_version(versions: Sequence[GoldenVersion], ref: str) -> int:
    """The version number ``ref`` means: a name (exactly), a number (``3`` or ``v3``), ``0``
    (the empty set before the first import), or ``latest``. Raises
    :class:`UnknownVersionError` naming the versions there are."""
    text = ref.strip()
    for version in reversed(versions):
        if version.name and version.name == text:
            return version.number
    if text.lower() == "latest" and versions:
        return versions[-1].number
    digits = text[1:] if text[:1].lower() == "v" else text
    if digits.isdigit() and 0 <= int(digits) <= len(versions):
        return int(digits)
    known = f"1 to {len(versions)}" if versions else "none yet"
    named = [f'"{v.name}"' for v in versions if v.name]
    extra = f"; names: {', '.join(named)}" if named else ""
    raise UnknownVersionError(f"there is no golden-set version {ref!r} (versions: {known}{extra})")


def check_version_name(name: str) -> str:
    """A version name, stripped; refuses a blank one and one that reads as a number (``3``,
    ``v3``, ``latest``), which a reference could not tell from the version of that number."""
    text = name.strip()
    if not text:
        raise ValueError("a golden-set version needs a name")
    digits = text[1:] if text[:1].lower() == "v" else text
    if digits.isdigit() or text.lower() == "latest":
        raise ValueError(f"{text!r} reads as a version number; choose a name with words")
    return text


#: ``field`` of the change-log line that stands for a whole first import.
SET_CREATED: Final = "set created"


@dataclass(frozen=True)
class ChangeLogRow:
    """One line of a change log: a row added or removed, or one field changed, by a version."""

    version: str
    when: str
    who: str
    question_id: str
    field: str
    before: str
    after: str


def short_time(moment: str) -> str:
    """``2026-12-01T09:34:59.463+00:00`` → ``2026-12-01 09:34 UTC`` (as stored: UTC)."""
    try:
        parsed = _time(moment)
    except ValueError:
        return moment
    return parsed.strftime("%Y-%m-%d %H:%M") + (" UTC" if parsed.utcoffset() == timedelta(0) else "")


def change_log(history: Sequence[HistoryEntry], versions: Sequence[GoldenVersion]) -> list[ChangeLogRow]:
    """Every version's net changes, oldest first: one line per row added or removed and per
    field changed (an edit undone within its version is no line), timed by the version's last
    entry for that row. A version that fills an empty set is one line (``set created``, N rows)
    rather than a line per row."""
    entries = sorted(history, key=lambda e: e.version_id)
    state: dict[str, GoldenItem] = {}
    rows: list[ChangeLogRow] = []
    position = 0
    for version in versions:
        group: list[HistoryEntry] = []
        while position < len(entries) and entries[position].version_id <= version.last_id:
            group.append(entries[position])
            position += 1
        was_empty = not state
        touched = dict.fromkeys(e.item.id for e in group)
        before = [state[i] for i in touched if i in state]
        for entry in group:
            _apply(state, entry)
        after = [state[i] for i in touched if i in state]
        when, who = short_time(version.ended_at), version.who
        if was_empty and state:
            count = len(state)
            rows.append(ChangeLogRow(version.label, when, who, "", SET_CREATED, "", plural(count, "row")))
            continue
        # When a row's change was made: the version's last entry that touched it.
        last_touch = {entry.item.id: short_time(entry.changed_at) for entry in group}
        rows += [
            ChangeLogRow(version.label, last_touch[question_id], who, question_id, name, old, new)
            for question_id, name, old, new in change_lines(diff_golden(before, after))
        ]
    return rows
