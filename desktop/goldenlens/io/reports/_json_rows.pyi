"""The rows of a JSON report, in C (see :func:`goldenlens.io.report_formats.fresh_rows_text`)."""

from collections.abc import Sequence

def json_rows(
    pieces: tuple[str, ...],
    question_ids: list[str],
    pipelines: list[str],
    values: list[Sequence[float | None]],
    flags: list[str],
    separator: str,
    /,
) -> str | None:
    """Each row's line: the 11 ``pieces`` filled with its question id, pipeline and flag list
    (JSON texts) and its seven values (``float.__repr__``), joined by ``separator``; ``None``
    when a value is not a finite float."""
