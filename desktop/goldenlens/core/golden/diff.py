"""What changed between two states of a golden set: rows added, removed, and field-level edits.

Rows are matched by id, never by position: moving a row in the spreadsheet is no change, and a
row whose id changed is one row removed and one added (an id is what scores, reviews and
overrides hang off, so that is what happened to them too). The fields compared are the ones
an analyst writes — question, answer, fact, notes; ``source_row`` (where the row sat in the
file) is not compared.

:func:`word_diff` marks the words that differ inside one changed field, for a view that
highlights them. Everything here is pure.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from goldenlens.core.inputs import GoldenItem

#: The fields a diff compares, in the order a change lists them.
DIFF_FIELDS: Final = ("question", "answer", "fact", "notes")
#: ``field`` of a change-log line for a row that appeared or disappeared as a whole.
ROW_ADDED: Final = "row added"
ROW_REMOVED: Final = "row removed"

_TOKEN = re.compile(r"\s+|\w+|[^\w\s]")


@dataclass(frozen=True)
class FieldChange:
    """One field of one row, before and after."""

    field: str
    before: str
    after: str

    def as_dict(self) -> dict[str, str]:
        return {"field": self.field, "before": self.before, "after": self.after}


@dataclass(frozen=True)
class RowChange:
    """A row present on both sides whose fields differ (``changes`` in :data:`DIFF_FIELDS` order)."""

    question_id: str
    before: GoldenItem
    after: GoldenItem
    changes: tuple[FieldChange, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.question_id, "changes": [c.as_dict() for c in self.changes]}


@dataclass(frozen=True)
class GoldenDiff:
    """Rows only in the newer state, rows only in the older one, and rows edited between them.

    ``added`` follow the newer state's order, ``removed`` and ``changed`` the older one's.
    """

    added: tuple[GoldenItem, ...] = ()
    removed: tuple[GoldenItem, ...] = ()
    changed: tuple[RowChange, ...] = ()

    @property
    def is_empty(self) -> bool:
        return not (self.added or self.removed or self.changed)

    @property
    def field_change_count(self) -> int:
        return sum(len(row.changes) for row in self.changed)

    def summary(self) -> str:
        """``2 added, 1 removed, 3 changed (4 fields)``, ``1 added, 0 removed, 0 changed`` or
        ``no changes``."""
        if self.is_empty:
            return "no changes"
        fields = self.field_change_count
        counts = f"{len(self.added)} added, {len(self.removed)} removed, {len(self.changed)} changed"
        return f"{counts} ({fields} field{'' if fields == 1 else 's'})" if fields else counts

    def as_dict(self) -> dict[str, Any]:
        return {
            "added": [_item_dict(item) for item in self.added],
            "removed": [_item_dict(item) for item in self.removed],
            "changed": [row.as_dict() for row in self.changed],
        }


def _item_dict(item: GoldenItem) -> dict[str, str]:
    return {"id": item.id, **{name: getattr(item, name) for name in DIFF_FIELDS}}


def field_changes(before: GoldenItem, after: GoldenItem) -> tuple[FieldChange, ...]:
    """The fields of :data:`DIFF_FIELDS` whose text differs (exactly: whitespace counts)."""
    return tuple(
        FieldChange(name, getattr(before, name), getattr(after, name))
        for name in DIFF_FIELDS
        if getattr(before, name) != getattr(after, name)
    )


def diff_golden(before: Iterable[GoldenItem], after: Iterable[GoldenItem]) -> GoldenDiff:
    """The rows added, removed and changed from ``before`` to ``after``, matched by id."""
    old = {item.id: item for item in before}
    new = {item.id: item for item in after}
    added = tuple(item for item_id, item in new.items() if item_id not in old)
    removed = tuple(item for item_id, item in old.items() if item_id not in new)
    changed: list[RowChange] = []
    for item_id, item in old.items():
        other = new.get(item_id)
        if other is None:
            continue
        changes = field_changes(item, other)
        if changes:
            changed.append(RowChange(item_id, item, other, changes))
    return GoldenDiff(added, removed, tuple(changed))


def change_lines(diff: GoldenDiff) -> list[tuple[str, str, str, str]]:
    """``(question id, field, before, after)`` per change, for a change log: one line per
    added or removed row (its question as the text) and one per changed field."""
    lines = [(item.id, ROW_ADDED, "", item.question) for item in diff.added]
    lines += [(item.id, ROW_REMOVED, item.question, "") for item in diff.removed]
    lines += [(row.question_id, c.field, c.before, c.after) for row in diff.changed for c in row.changes]
    return lines


@dataclass(frozen=True)
class Segment:
    """A run of text and whether it differs from the other side."""

    text: str
    changed: bool


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _merge(segments: Sequence[Segment]) -> tuple[Segment, ...]:
    merged: list[Segment] = []
    for segment in segments:
        if merged and merged[-1].changed == segment.changed:
            merged[-1] = Segment(merged[-1].text + segment.text, segment.changed)
        elif segment.text:
            merged.append(segment)
    return tuple(merged)


def word_diff(before: str, after: str) -> tuple[tuple[Segment, ...], tuple[Segment, ...]]:
    """``before`` and ``after`` cut into segments, with the words (and punctuation) that the
    other side lacks marked ``changed``. Joined, each side gives back its text exactly.

    Whitespace between two changed words is marked changed too, so a replaced phrase is
    one highlight rather than a row of single words.
    """
    old, new = _tokens(before), _tokens(after)
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    left: list[Segment] = []
    right: list[Segment] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        same = tag == "equal"
        left.append(Segment("".join(old[i1:i2]), not same))
        right.append(Segment("".join(new[j1:j2]), not same))
    return _bridge(_merge(left)), _bridge(_merge(right))


def _bridge(segments: tuple[Segment, ...]) -> tuple[Segment, ...]:
    """Mark unchanged pure whitespace between two changed segments as changed."""
    out = list(segments)
    for index in range(1, len(out) - 1):
        segment = out[index]
        if (
            not segment.changed
            and not segment.text.strip()
            and out[index - 1].changed
            and out[index + 1].changed
        ):
            out[index] = Segment(segment.text, True)
    return _merge(out)
