"""Which column holds what: detection by name (with synonyms) and explicit mappings.

Names are compared by :func:`column_key`: case-insensitive and ignoring spaces, underscores,
hyphens and dots, so ``Golden Answer``, ``golden_answer`` and ``GOLDEN-ANSWER`` are the same.

An explicit mapping is ``{FIELD: COLUMN}``. The same mapping is applied to the golden and the
responses file, so a field that does not apply to a file is ignored for that file; a mapped
column that is present wins over detection. ``id`` and ``question_id`` name the same field.
A mapped column that no input has is bad input (:func:`unmatched_mapping` finds it; the
question and its id may be in either file). The import wizard shows a :class:`ColumnMap` /
:class:`ResponseColumns` and sends the analyst's corrections back as such a mapping.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from goldenlens.core.record_dicts import record_dict

GOLDEN_SYNONYMS: dict[str, tuple[str, ...]] = {
    "id": ("id", "question_id", "qid"),
    "question": ("question", "query", "prompt", "user_input", "input"),
    "answer": (
        "answer",
        "golden answer",
        "reference",
        "ground truth",
        "target_output",
        "ideal answer",
        "expected answer",
        "reference answer",
        "expected output",
        "ideal response",
    ),
    "fact": ("fact", "golden fact", "key fact", "facts", "minimal fact", "key facts"),
    "notes": ("notes", "note", "comment", "comments", "curation notes"),
}

RESPONSE_SYNONYMS: dict[str, tuple[str, ...]] = {
    "question_id": ("question_id", "id", "qid"),
    "question": GOLDEN_SYNONYMS["question"],
    "pipeline": ("pipeline", "system", "model", "run", "pipeline name", "system name"),
    "response": ("response", "answer", "output", "model_output", "generated answer", "generated response"),
    "contexts": ("contexts", "context", "retrieved_contexts", "retrieved contexts", "passages"),
}

# Mapping keys accepted from the analyst (after column_key), to the field of each kind.
_GOLDEN_KEYS = {
    "id": "id",
    "questionid": "id",
    "question": "question",
    "answer": "answer",
    "fact": "fact",
    "notes": "notes",
}
_RESPONSE_KEYS = {
    "id": "question_id",
    "questionid": "question_id",
    "question": "question",
    "pipeline": "pipeline",
    "response": "response",
    "contexts": "contexts",
}
MAPPING_FIELDS: tuple[str, ...] = (
    "id",
    "question",
    "answer",
    "fact",
    "notes",
    "pipeline",
    "response",
    "contexts",
)
#: The fields as an error names them: ``id`` is also the responses' ``question_id``.
_FIELDS_TEXT = ", ".join("id (or question_id)" if f == "id" else f for f in MAPPING_FIELDS)

_SEPARATORS = re.compile(r"[\s_\-.]+")


class MappingError(ValueError):
    """An explicit mapping names a field that does not exist."""


def column_key(name: str) -> str:
    """``'Golden Answer '`` → ``'goldenanswer'``: the form names are compared in."""
    return _SEPARATORS.sub("", name.casefold())


def header_keys(mapping: Mapping[str, str] | None = None) -> frozenset[str]:
    """Column keys that mark a row as the header: every known column name and mapped column."""
    names = [
        name
        for synonyms in (GOLDEN_SYNONYMS, RESPONSE_SYNONYMS)
        for group in synonyms.values()
        for name in group
    ]
    names.extend((mapping or {}).values())
    return frozenset(column_key(name) for name in names)


# Names analysts give a column of row numbers ("#", "No.", "Row"): never a pipeline.
ROW_NUMBER_NAMES: frozenset[str] = frozenset(
    {
        "#",
        "no",
        "nr",
        "num",
        "number",
        "row",
        "rowno",
        "rownumber",
        "row#",
        "sno",
        "srno",
        "slno",
        "index",
        "idx",
        "#no",
        "no#",
    }
)


def row_number_id(header: Sequence[str], values: Callable[[str], Sequence[str]]) -> str | None:
    """The first column named as a row number (``#``, ``No.``, ``Nr`` …) whose cells
    (``values(column)``) are distinct whole numbers: the analyst's own numbering of the
    questions, which makes a better id than the row it happens to be on. ``None`` if none."""
    for name in header:
        if column_key(name) not in ROW_NUMBER_NAMES:
            continue
        cells = [cell.strip() for cell in values(name)]
        if cells and all(cell.isdigit() for cell in cells) and len(set(map(int, cells))) == len(cells):
            return name
    return None


# Columns that belong to a golden set (or hold contexts): never a pipeline in a wide file.
_NOT_PIPELINES = frozenset(
    column_key(name) for field in ("answer", "fact", "notes") for name in GOLDEN_SYNONYMS[field]
) | frozenset(column_key(name) for name in RESPONSE_SYNONYMS["contexts"])


@dataclass(frozen=True)
class ColumnMap:
    """Golden-set columns found in a header (column names as in the file; ``None`` if absent).

    ``mapped`` lists the fields that came from the explicit mapping rather than detection;
    ``numbered_id`` says the id is the analyst's own numbering of the rows (a ``#`` column
    of distinct whole numbers), taken because no column is named as an id.
    """

    id: str | None = None
    question: str | None = None
    answer: str | None = None
    fact: str | None = None
    notes: str | None = None
    mapped: frozenset[str] = frozenset()
    numbered_id: bool = False

    @property
    def is_golden(self) -> bool:
        """A question column and at least one of answer / fact: enough to score."""
        return self.question is not None and (self.answer is not None or self.fact is not None)

    def as_dict(self) -> dict[str, str | None]:
        """``{field: column}`` for every field, for display or to send back as a mapping."""
        return record_dict(self, leave_out=("mapped", "numbered_id"))


@dataclass(frozen=True)
class ResponseColumns:
    """How a responses table is laid out.

    ``long``: one row per (question, pipeline) with ``pipeline`` and ``response`` columns.
    ``wide``: one row per question, one column per pipeline (``pipelines``, file order).
    ``layout`` is ``None`` when neither fits; ``ignored`` lists wide-layout columns that look
    like golden-set or contexts columns (or number the rows) and so are not taken as pipelines;
    ``counting`` the pipelines that answer 1, 2, 3, … in row order, as a row numbering would.
    """

    layout: Literal["long", "wide"] | None
    question_id: str | None = None
    question: str | None = None
    pipeline: str | None = None
    response: str | None = None
    contexts: str | None = None
    pipelines: tuple[str, ...] = ()
    ignored: tuple[str, ...] = ()
    mapped: frozenset[str] = frozenset()
    counting: tuple[str, ...] = ()

    @property
    def has_key(self) -> bool:
        """A column to join on: question id or question text."""
        return self.question_id is not None or self.question is not None

    def as_dict(self) -> dict[str, str | None]:
        """``{field: column}`` of the single-column fields, for display or as a mapping."""
        return {
            "question_id": self.question_id,
            "question": self.question,
            "pipeline": self.pipeline,
            "response": self.response,
            "contexts": self.contexts,
        }


def detect_golden_columns(header: Sequence[str], mapping: Mapping[str, str] | None = None) -> ColumnMap:
    """Find the golden-set columns of ``header``; ``mapping`` (FIELD → COLUMN) overrides.

    Raises :class:`MappingError` if ``mapping`` names an unknown field.
    """
    found, mapped = _assign(header, mapping, GOLDEN_SYNONYMS, _GOLDEN_KEYS)
    return ColumnMap(
        id=found["id"],
        question=found["question"],
        answer=found["answer"],
        fact=found["fact"],
        notes=found["notes"],
        mapped=mapped,
    )


def detect_response_layout(
    header: Sequence[str], mapping: Mapping[str, str] | None = None
) -> ResponseColumns:
    """Find the responses layout of ``header``; ``mapping`` (FIELD → COLUMN) overrides.

    Long when both a pipeline and a response column exist. Otherwise wide: every column that
    is not the question id/text, a golden-set column or a contexts column is a pipeline; a
    file with only a response column (say ``id, answer``) is one pipeline named after it.
    Raises :class:`MappingError` if ``mapping`` names an unknown field.
    """
    found, mapped = _assign(header, mapping, RESPONSE_SYNONYMS, _RESPONSE_KEYS)
    base = ResponseColumns(
        None,
        question_id=found["question_id"],
        question=found["question"],
        pipeline=found["pipeline"],
        response=found["response"],
        contexts=found["contexts"],
        mapped=mapped,
    )
    if not base.has_key:
        return base
    if base.pipeline is not None:
        return replace(base, layout="long") if base.response is not None else base
    keys = {base.question_id, base.question}
    pipelines: list[str] = []
    ignored: list[str] = []
    seen: set[str] = set()
    for name in header:
        if name in keys or not name or name.casefold() in seen:
            continue
        seen.add(name.casefold())
        is_mapped_response = name == base.response and "response" in mapped
        if (
            column_key(name) in _NOT_PIPELINES or column_key(name) in ROW_NUMBER_NAMES
        ) and not is_mapped_response:
            ignored.append(name)
        else:
            pipelines.append(name)
    if not pipelines and base.response is not None:
        pipelines = [base.response]
        ignored = [name for name in ignored if name != base.response]
    if not pipelines:
        return replace(base, ignored=tuple(ignored))
    # Wide files have no per-pipeline contexts column, so none is used.
    return ResponseColumns(
        "wide",
        question_id=base.question_id,
        question=base.question,
        pipelines=tuple(pipelines),
        ignored=tuple(ignored),
        mapped=mapped,
    )


def _assign(
    header: Sequence[str],
    mapping: Mapping[str, str] | None,
    synonyms: Mapping[str, tuple[str, ...]],
    accepted: Mapping[str, str],
) -> tuple[dict[str, str | None], frozenset[str]]:
    """Mapped columns first, then each field's synonyms in order over unclaimed columns."""
    found: dict[str, str | None] = dict.fromkeys(synonyms)
    claimed: set[str] = set()
    for field, column in _mapped_columns(header, mapping, accepted).items():
        found[field] = column
        claimed.add(column)
    mapped = frozenset(field for field, column in found.items() if column is not None)
    by_key: dict[str, str] = {}
    for name in header:
        by_key.setdefault(column_key(name), name)  # a repeated name: its first column
    for field, names in synonyms.items():
        if found[field] is not None:
            continue
        for synonym in names:
            candidate = by_key.get(column_key(synonym))
            if candidate is not None and candidate not in claimed:
                found[field] = candidate
                claimed.add(candidate)
                break
    return found, mapped


def _mapped_columns(
    header: Sequence[str], mapping: Mapping[str, str] | None, accepted: Mapping[str, str]
) -> dict[str, str]:
    result: dict[str, str] = {}
    for raw_field, column in (mapping or {}).items():
        key = column_key(raw_field)
        if key not in _GOLDEN_KEYS and key not in _RESPONSE_KEYS:
            raise MappingError(
                f"unknown field '{raw_field}' in the column mapping; fields are: {_FIELDS_TEXT}"
            )
        field = accepted.get(key)
        present = find_column(header, column)
        if field is not None and present is not None:
            result[field] = present
    return result


def unmatched_mapping(
    header: Sequence[str], mapping: Mapping[str, str] | None, kind: Literal["golden", "responses"]
) -> list[tuple[str, str]]:
    """The ``(field, column)`` pairs of ``mapping`` whose field belongs to a ``kind`` input and
    whose column is not in ``header``, in the mapping's order."""
    accepted = _GOLDEN_KEYS if kind == "golden" else _RESPONSE_KEYS
    return [
        (field, column)
        for field, column in (mapping or {}).items()
        if column_key(field) in accepted and find_column(header, column) is None
    ]


def is_shared_field(field: str) -> bool:
    """``field`` (``id``, ``question_id``, ``question``) belongs to both inputs: a mapping of it
    applies to whichever file has the column."""
    key = column_key(field)
    return key in _GOLDEN_KEYS and key in _RESPONSE_KEYS


def find_column(header: Sequence[str], name: str) -> str | None:
    """The header name matching ``name`` exactly, else by :func:`column_key`; ``None`` if absent."""
    stripped = name.strip()
    if stripped in header:
        return stripped
    wanted = column_key(name)
    return next((column for column in header if column_key(column) == wanted), None)


def column_letter(index: int) -> str:
    """Excel's column letters for a 0-based column index: 0 → ``A``, 27 → ``AB``."""
    letters = ""
    index += 1
    while index:
        index, remainder = divmod(index - 1, 26)
        letters = chr(ord("A") + remainder) + letters
    return letters
