"""Which part of the input files an import or a scoring reads, and how: one value that the
readers, the jobs, the CLI, the Python API and the import wizard pass along whole."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True)
class InputSelection:
    """The sheets to read (``None``: the first that maps; ignored for CSV), the column mapping
    (FIELD → COLUMN name, for whichever input has that column) and the header rows (1-based, as
    Excel numbers rows; ``None``: detected). ``responses_header_row`` defaults to
    ``header_row`` (:attr:`responses_header`)."""

    golden_sheet: str | None = None
    responses_sheet: str | None = None
    mapping: Mapping[str, str] = field(default_factory=dict, hash=False)
    header_row: int | None = None
    responses_header_row: int | None = None

    def __post_init__(self) -> None:
        # A copy no caller can change afterwards: the value is frozen, its mapping too.
        object.__setattr__(self, "mapping", MappingProxyType(dict(self.mapping)))

    @property
    def responses_header(self) -> int | None:
        """The header row of the responses: ``responses_header_row``, else ``header_row``."""
        return self.header_row if self.responses_header_row is None else self.responses_header_row
