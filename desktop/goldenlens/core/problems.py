"""Problems found in the inputs, located as the analyst sees them in Excel (file, sheet, row,
column), and the error that stops an import."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from goldenlens.core.errors import GoldenLensError


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


class InputError(GoldenLensError):
    """A fatal input problem: the import stops and nothing already saved is touched."""

    def __init__(self, problem: Problem, others: tuple[Problem, ...] = ()) -> None:
        super().__init__(problem.format())
        self.problem = problem
        self.others = others

    @classmethod
    def fatal(
        cls,
        where: str,
        message: str,
        *,
        sheet: str | None = None,
        row: int | None = None,
        column: str | None = None,
    ) -> InputError:
        """The error of one fatal :class:`Problem` at ``where`` (a file, an option, a command)."""
        return cls(Problem(where, message, Severity.FATAL, sheet=sheet, row=row, column=column))
