"""Which pipelines of a responses file lack answers, or look like another: one warning per
pipeline with no response for some golden questions (:func:`missing_problems`), one per
pipeline whose every response is empty (:func:`silent_problems`), each naming its column in a
wide file, and one per group of names that differ only in case or spaces
(:func:`lookalike_problems`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from goldenlens.core.inputs import PipelineResponse
from goldenlens.core.problems import Problem, Severity
from goldenlens.core.view.wording import listing
from goldenlens.io.sheets.raw_table import RawTable
from goldenlens.io.sheets.visible_text import ZERO_WIDTH_PATTERN, visible


def missing_problems(
    table: RawTable,
    wide: bool,
    golden_ids: Sequence[str],
    pipelines: Sequence[str],
    first_row: Mapping[tuple[str, str], int],
) -> list[Problem]:
    """One warning per pipeline that lacks responses for some golden questions (``first_row``:
    the row of each (golden id, pipeline) read)."""
    problems: list[Problem] = []
    if len(first_row) == len(golden_ids) * len(pipelines):
        return problems  # its keys are golden (id, pipeline) pairs: every one is there
    for pipeline in pipelines:
        missing = [golden_id for golden_id in golden_ids if (golden_id, pipeline) not in first_row]
        if missing:
            problems.append(
                table.problem(
                    f"pipeline '{visible(pipeline)}' has no response for {len(missing)} of "
                    f"{len(golden_ids)} golden questions: {listing(missing)}.",
                    Severity.WARNING,
                    column=pipeline if wide else None,
                )
            )
    return problems


def silent_problems(
    table: RawTable,
    wide: bool,
    response_column: str | None,
    responses: Sequence[PipelineResponse],
    pipelines: Sequence[str],
) -> list[Problem]:
    """One warning per pipeline whose every response is empty: a column that is no pipeline's
    (or whose answers were lost on export) would be scored as a pipeline that answered nothing,
    every score 0, and compared with the others. The responses are looked at only until every
    pipeline has answered once (the first rows, in the usual file)."""
    silent = dict.fromkeys(pipelines, 0)
    for response in responses:
        if response.pipeline in silent:
            if response.response and not response.response.isspace():
                del silent[response.pipeline]
                if not silent:
                    return []
            else:
                silent[response.pipeline] += 1
    return [
        table.problem(
            f"pipeline '{visible(pipeline)}' has no response in any of its {count} row(s): every cell "
            "is empty. It is scored as a pipeline that answered nothing (every score 0) and compared "
            "with the others; if it is no pipeline's, leave it out of the file.",
            Severity.WARNING,
            column=pipeline if wide else response_column,
        )
        for pipeline, count in silent.items()
    ]


def lookalike_problems(
    table: RawTable, wide: bool, pipeline_column: str | None, pipelines: Sequence[str]
) -> list[Problem]:
    """A warning per group of pipeline names that differ only in case, spaces or invisible
    characters (``GPT4`` and ``gpt4 ``): they are scored as the pipelines they are named, each
    with part of the answers, and compared with each other."""
    groups: dict[str, list[str]] = {}
    for name in pipelines:
        key = " ".join(ZERO_WIDTH_PATTERN.sub("", name).casefold().split())
        groups.setdefault(key, []).append(name)
    return [
        table.problem(
            f"pipelines {', '.join(repr(visible(name)) for name in names)} differ only in case or spaces: "
            "they are scored as separate pipelines. If they are one, write its name the same way in "
            "every row.",
            Severity.WARNING,
            column=None if wide else pipeline_column,
        )
        for names in groups.values()
        if len(names) > 1
    ]
