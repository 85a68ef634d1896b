"""The inputs every layer shares: golden items, pipeline responses and what reading them gave.

All values are frozen dataclasses so they can be passed between threads and cached safely.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from goldenlens.core.problems import Problem


@dataclass(frozen=True, slots=True)
class GoldenItem:
    """One golden question with its ideal answer and minimal fact.

    ``fact`` keeps the analyst's text verbatim, including ``<OR>``/``<AND>`` operators.
    ``source_row`` is the 1-based spreadsheet row it came from (0 when created in the app).
    ``extra`` holds the row's other columns, ``(column, text)`` in file order with empty cells
    left out (a category, an owner, a source page): never scored, kept from import to export.
    """

    id: str
    question: str
    answer: str
    fact: str
    notes: str = ""
    source_row: int = 0
    extra: tuple[tuple[str, str], ...] = ()


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
