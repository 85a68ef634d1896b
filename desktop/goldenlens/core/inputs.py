"""Domain values shared by every layer: golden items, responses and input problems.

All values are frozen dataclasses so they can be passed between threads and cached safely.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Severity(StrEnum):
    """How bad an input problem is.

    ``FATAL`` stops an import (nothing is written); ``ERROR`` drops the offending row, or
    keeps it with a score that cannot be computed (an empty fact: Factual Knowledge not scored);
    ``WARNING`` keeps the row but the analyst should look; ``INFO`` is a note (e.g. a fuzzy join).
    """

    FATAL = "fatal"
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with an input, located as the analyst sees it in Excel.

    ``row`` is 1-based as Excel shows it (the header is row 1 of a sheet or CSV file);
    ``sheet`` is ``None`` for CSV/TSV files.
    """

    file: str
    message: str
    severity: Severity = Severity.ERROR
    sheet: str | None = None
    row: int | None = None
    column: str | None = None

    def location(self) -> str:
        """``golden.xlsx, sheet 'Golden', row 7, column 'fact'`` — only the known parts."""
        parts = [self.file]
        if self.sheet is not None:
            parts.append(f"sheet '{self.sheet}'")
        if self.row is not None:
            parts.append(f"row {self.row}")
        if self.column is not None:
            parts.append(f"column '{self.column}'")
        return ", ".join(parts)

    def format(self) -> str:
        """One line: location, severity and message."""
        return f"{self.location()}: {self.severity.value}: {self.message}"

    def as_dict(self) -> dict[str, str | int | None]:
        return {
            "file": self.file,
            "sheet": self.sheet,
            "row": self.row,
            "column": self.column,
            "severity": self.severity.value,
            "message": self.message,
        }


class InputError(Exception):
    """A fatal input problem: the import stops and nothing already saved is touched."""

    def __init__(self, problem: Problem, others: tuple[Problem, ...] = ()) -> None:
        super().__init__(problem.format())
        self.problem = problem
        self.others = others


@dataclass(frozen=True, slots=True)
class GoldenItem:
    """One golden question with its ideal answer and minimal fact.

    ``fact`` keeps the analyst's text verbatim, including ``<OR>``/``<AND>`` operators.
    ``source_row`` is the 1-based spreadsheet row it came from (0 when created in the app).
    """

    id: str
    question: str
    answer: str
    fact: str
    notes: str = ""
    source_row: int = 0


@dataclass(frozen=True, slots=True)
class PipelineResponse:
    """One pipeline's response to one golden question, with its retrieved contexts."""

    question_id: str
    pipeline: str
    response: str
    contexts: tuple[str, ...] = ()
    source_row: int = 0


@dataclass(frozen=True)
class GoldenSet:
    """Golden items as read from one file, in file order."""

    items: tuple[GoldenItem, ...]
    source: str = ""
    sheet: str | None = None

    def by_id(self) -> dict[str, GoldenItem]:
        return {item.id: item for item in self.items}


@dataclass(frozen=True)
class ResponseSet:
    """Responses joined to a golden set (``question_id`` is always a golden id)."""

    responses: tuple[PipelineResponse, ...]
    pipelines: tuple[str, ...]
    source: str = ""
    sheet: str | None = None
    layout: str = "long"


@dataclass(frozen=True)
class Loaded:
    """The result of reading inputs: values plus every non-fatal problem found."""

    golden: GoldenSet
    responses: ResponseSet | None = None
    problems: tuple[Problem, ...] = field(default_factory=tuple)


class ScoreStatus(StrEnum):
    SCORED = "scored"
    NOT_SCORED = "not_scored"


@dataclass(frozen=True, slots=True)
class ScoreRecord:
    """One stored score of one metric for one (question, pipeline).

    ``value`` is ``None`` exactly when ``status`` is ``NOT_SCORED``; ``reason`` then says why
    (no statements, judge output truncated, context missing, ...). ``signature`` is the JSON of
    a :class:`goldenlens.core.lexical.signature.Signature`. ``detail`` holds what a reviewer needs to see
    why: the token alignment and fact span for lexical metrics, statements/verdicts/reasons for
    judge metrics. It must be JSON-serialisable.
    """

    question_id: str
    pipeline: str
    metric: str
    value: float | None
    signature: str
    status: ScoreStatus = ScoreStatus.SCORED
    reason: str = ""
    detail: dict[str, object] = field(default_factory=dict, compare=False, hash=False)
